// Saving an etcd backup (snapshot_save.h).
#include "app/phases/etcd_snapshot/snapshot_save.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "app/phases/etcd/etcd_member_removal.h"
#include "app/util/etcd_client.h"
#include "app/util/network.h"

namespace kkadm::phases::etcd_snapshot {
namespace {

constexpr char kPrefix[] = "etcd-snapshot";
constexpr char kDefaultEndpoint[] = "https://127.0.0.1:2379";
constexpr char kDefaultCertDir[] = "/etc/kubernetes/pki";

// The member and credentials to use: the flags', else what the etcd manifest says.
struct Target {
  std::string endpoint;
  std::string cert_dir;
};

Target FindTarget(const util::FileSystem& fs, const SaveOptions& options) {
  Target target{options.endpoint, options.cert_dir};
  Result<std::string> manifest = fs.ReadFile(options.manifest_dir + "/etcd.yaml");
  Result<EtcdManifestFacts> facts =
      manifest ? ParseEtcdManifest(*manifest) : Result<EtcdManifestFacts>(manifest.error());
  if (facts && target.endpoint.empty()) {
    // kubeadm's etcd listens on 127.0.0.1 too: the local member, whatever the node's address.
    for (const std::string& url : facts->client_urls) {
      if (url.find("://127.0.0.1:") != std::string::npos) target.endpoint = url;
    }
    if (target.endpoint.empty() && !facts->client_urls.empty())
      target.endpoint = facts->client_urls.front();
  }
  if (facts && target.cert_dir.empty()) target.cert_dir = facts->pki_dir;
  if (target.endpoint.empty()) target.endpoint = kDefaultEndpoint;
  if (target.cert_dir.empty()) target.cert_dir = kDefaultCertDir;
  return target;
}

Result<std::unique_ptr<util::HttpClient>> ClientFor(util::Host& host, const Target& target) {
  Result<util::EtcdClientConfig> config =
      util::EtcdClientConfigFor(host.fs, target.cert_dir, {target.endpoint});
  if (!config) return config.error();
  util::HttpClientOptions options;
  options.ca_pem = config->ca_pem;
  options.client_cert_pem = config->client_cert_pem;
  options.client_key_pem = config->client_key_pem;
  return host.net.Http(options);
}

// The member's version and revision (/v3/maintenance/status; the revision is in its header).
Status ReadMemberStatus(util::HttpClient& http, const std::string& endpoint, BackupInfo& info) {
  util::HttpRequest request{.method = "POST",
                            .url = endpoint + "/v3/maintenance/status",
                            .body = "{}",
                            .content_type = "application/json"};
  Result<util::HttpResponse> response = http.Do(request);
  if (!response) return response.error().Wrap("etcd status");
  auto answer = nlohmann::json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (response->status != 200 || !answer.is_object() || answer.contains("error")) {
    return Unavailable(fmt::format("etcd status at {}: HTTP {}: {}", endpoint, response->status,
                                   response->body.substr(0, 200)));
  }
  info.etcd_version = answer.value("version", "");
  const nlohmann::json revision =
      answer.value("header", nlohmann::json::object()).value("revision", nlohmann::json("0"));
  if (revision.is_string())
    info.revision = std::strtoull(revision.get_ref<const std::string&>().c_str(), nullptr, 10);
  return Status();
}

// Streams the snapshot into `file`, checking its hash on the way.
Result<SnapshotDigest> StreamSnapshot(util::HttpClient& http, util::FileSystem& fs,
                                      const std::string& endpoint, const std::string& file,
                                      std::chrono::milliseconds timeout) {
  SnapshotStreamDecoder decoder([&](std::string_view bytes) {
    return bytes.empty() ? Status() : fs.AppendFile(file, bytes, 0600);
  });
  util::HttpRequest request{.method = "POST",
                            .url = endpoint + "/v3/maintenance/snapshot",
                            .body = "{}",
                            .content_type = "application/json",
                            .timeout = timeout};
  Result<util::HttpResponse> response =
      http.DoStreaming(request, [&](std::string_view piece) { return decoder.Feed(piece); });
  if (!response) return response.error().Wrap("etcd snapshot");
  Result<SnapshotDigest> digest = decoder.Finish();
  if (response->status != 200) {
    const std::string why = digest ? "no snapshot" : digest.error().message();
    return Unavailable(
        fmt::format("etcd snapshot at {}: HTTP {}: {}", endpoint, response->status, why));
  }
  return digest;
}

// Copies the node file or tree `path` under `to` (keeping its node path), files 0600 and
// directories 0700: certificates, keys and kubeconfigs alike are secret material here. Links and
// special files are skipped; an absent path is not an error.
Status CopyNodeTree(util::FileSystem& fs, const std::string& path, const std::string& to,
                    std::vector<std::string>& copied) {
  Result<util::FileInfo> stat = fs.Stat(path);
  if (!stat && stat.error().code() == StatusCode::kNotFound) return Status();
  if (!stat) return stat.error();
  if (stat->type == util::FileType::kDirectory) {
    Result<std::vector<std::string>> names = fs.ListDir(path);
    if (!names) return names.error();
    KKADM_RETURN_IF_ERROR(fs.MakeDirs(to + path, 0700));
    for (const std::string& name : *names)
      KKADM_RETURN_IF_ERROR(CopyNodeTree(fs, path + "/" + name, to, copied));
    return Status();
  }
  if (stat->type != util::FileType::kRegular) return Status();
  Result<std::string> data = fs.ReadFile(path);
  if (!data) return data.error();
  KKADM_RETURN_IF_ERROR(fs.MakeDirs(util::ParentDirectory(to + path), 0700));
  KKADM_RETURN_IF_ERROR(fs.WriteFile(to + path, *data, 0600));
  copied.push_back(path);
  return Status();
}

// The node's PKI, static Pod manifests, kubeconfigs and kubelet configuration, under dir/node/.
Result<std::vector<std::string>> CopyNodeFiles(util::FileSystem& fs, const SaveOptions& options,
                                               const Target& target, const std::string& dir) {
  const std::string to = dir + "/" + kNodeFilesDir;
  const std::string kubernetes_dir = util::ParentDirectory(options.manifest_dir);
  std::vector<std::string> paths = {target.cert_dir, options.manifest_dir,
                                    "/var/lib/kubelet/config.yaml",
                                    "/var/lib/kubelet/kubeadm-flags.env"};
  Result<std::vector<std::string>> names = fs.ListDir(kubernetes_dir);
  if (names) {
    for (const std::string& name : *names)
      if (name.ends_with(".conf")) paths.push_back(kubernetes_dir + "/" + name);
  }
  std::vector<std::string> copied;
  for (const std::string& path : paths) KKADM_RETURN_IF_ERROR(CopyNodeTree(fs, path, to, copied));
  return copied;
}

// Removes the backups the retention says go; a failure to remove one is a warning.
std::vector<std::string> ApplyRetention(util::Host& host, util::Printer& printer,
                                        const SaveOptions& options, const std::string& keep) {
  Result<std::vector<BackupEntry>> entries = ListBackups(host.fs, options.backup_root);
  if (!entries) {
    spdlog::warn("[{}] retention skipped: {}", kPrefix, entries.error().message());
    return {};
  }
  std::vector<std::string> removed;
  for (const std::string& name :
       BackupsToRemove(*entries, options.retention, host.clock.Now(), keep)) {
    auto failures = host.remover.RemovePath(options.backup_root + "/" + name);
    if (!failures.empty()) {
      spdlog::warn("[{}] could not remove old backup {}: {}", kPrefix, failures.front().path,
                   failures.front().reason);
      continue;
    }
    printer.Line(kPrefix, "Removed old backup " + name + " (retention)");
    removed.push_back(name);
  }
  return removed;
}

}  // namespace

namespace {

// The member's client and what it says of itself: asked before anything is written, so that an
// etcd that does not answer leaves nothing behind.
struct Member {
  std::unique_ptr<util::HttpClient> http;
  BackupInfo info;  // its endpoint, version and revision, and the time
};

Result<Member> Contact(util::Host& host, const Target& target) {
  Result<std::unique_ptr<util::HttpClient>> http = ClientFor(host, target);
  if (!http) return http.error();
  Member member{std::move(*http), {}};
  member.info.created = host.clock.Now();
  member.info.endpoint = target.endpoint;
  KKADM_RETURN_IF_ERROR(ReadMemberStatus(*member.http, target.endpoint, member.info));
  return member;
}

// The snapshot, the node's files and backup.json (last, once the rest is on disk) in `dir`.
Result<BackupInfo> FillBackup(util::Host& host, const SaveOptions& options, const Target& target,
                              Member& member, const std::string& dir) {
  BackupInfo info = member.info;
  Result<SnapshotDigest> digest = StreamSnapshot(*member.http, host.fs, target.endpoint,
                                                 dir + "/" + kSnapshotFile, options.timeout);
  if (!digest) return digest.error();
  info.db_size = digest->db_size;
  info.sha256 = digest->sha256;
  Result<std::vector<std::string>> files = CopyNodeFiles(host.fs, options, target, dir);
  if (!files) return files.error().Wrap("copying the node's files into the backup");
  info.files = std::move(*files);
  // backup.json says the backup is whole: it must not reach the disk before what it describes.
  KKADM_RETURN_IF_ERROR(host.fs.Sync());
  KKADM_RETURN_IF_ERROR(host.fs.WriteFile(dir + "/" + kBackupInfoFile, BackupInfoJson(info), 0600));
  return info;
}

}  // namespace

Result<SavedBackup> SaveBackup(util::Host& host, util::Printer& printer,
                               const SaveOptions& options) {
  const Target target = FindTarget(host.fs, options);
  SavedBackup saved;
  saved.dir =
      options.dir.empty() ? options.backup_root + "/" + BackupName(host.clock.Now()) : options.dir;
  if (options.dry_run) {
    printer.Line(kPrefix, fmt::format("Would save a snapshot of etcd at {} (client certificate "
                                      "{}/apiserver-etcd-client.crt) and the node's files to {}",
                                      target.endpoint, target.cert_dir, saved.dir));
    return saved;
  }
  if (host.fs.Exists(saved.dir))
    return AlreadyExists(fmt::format("{} exists: a backup is never written over", saved.dir));
  Result<Member> member = Contact(host, target);
  if (!member) return member.error();
  printer.Line(kPrefix,
               fmt::format("Saving a snapshot of etcd at {} to {}", target.endpoint, saved.dir));
  KKADM_RETURN_IF_ERROR(host.fs.MakeDirs(options.backup_root, 0700));
  KKADM_RETURN_IF_ERROR(host.fs.MakeDirs(saved.dir, 0700));
  Result<BackupInfo> info = FillBackup(host, options, target, *member, saved.dir);
  if (!info) {
    // What was written is no backup; leaving it would only hold disk and secrets.
    for (const auto& failure : host.remover.RemovePath(saved.dir))
      spdlog::warn("[{}] could not remove {}: {}", kPrefix, failure.path, failure.reason);
    return info.error();
  }
  saved.info = std::move(*info);
  printer.Line(kPrefix, fmt::format("Saved the snapshot ({} bytes, revision {}, sha256 {}) and {} "
                                    "node files",
                                    saved.info.db_size, saved.info.revision, saved.info.sha256,
                                    saved.info.files.size()));
  if (options.apply_retention) {
    const std::string name = saved.dir.substr(saved.dir.rfind('/') + 1);
    saved.removed = ApplyRetention(host, printer, options, name);
  }
  return saved;
}

}  // namespace kkadm::phases::etcd_snapshot
