// Restoring an etcd backup (snapshot_restore.h).
#include "app/phases/etcd_snapshot/snapshot_restore.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>

#include "app/phases/etcd/etcd_member_removal.h"
#include "app/phases/etcd_snapshot/backups.h"

namespace kkadm::phases::etcd_snapshot {
namespace {

constexpr char kRestorePrefix[] = "etcd-snapshot";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The value of the manifest's "    - --<flag>=value" line; empty when there is none.
std::string ManifestFlag(const std::string& yaml, const std::string& flag) {
  const std::string prefix = "    - --" + flag + "=";
  for (const std::string& line : Lines(yaml))
    if (line.starts_with(prefix)) return line.substr(prefix.size());
  return "";
}

// The restore tool's arguments; etcdctl has no revision bump.
Result<std::vector<std::string>> ToolArgs(const RestoreOptions& options, const std::string& file,
                                          const std::string& data_dir, const std::string& name,
                                          const std::string& peer_url) {
  const bool etcdctl = options.tool.ends_with("etcdctl");
  if (etcdctl && options.bump_revision) {
    return FailedPrecondition(
        "etcdctl cannot bump the revision of a restored member (etcd's advice for Kubernetes); "
        "give --etcd-tool an etcdutl (etcd 3.5+), or pass --skip-revision-bump and restart every "
        "kube-apiserver after the restore");
  }
  std::vector<std::string> args = {"snapshot",
                                   "restore",
                                   file,
                                   "--name",
                                   name,
                                   "--initial-cluster",
                                   name + "=" + peer_url,
                                   "--initial-advertise-peer-urls",
                                   peer_url,
                                   "--data-dir",
                                   data_dir};
  if (options.bump_revision) {
    for (const char* arg : {"--bump-revision", kRevisionBump, "--mark-compacted"})
      args.push_back(arg);
  }
  return args;
}

Status RunTool(util::ProcessRunner& runner, const std::string& tool,
               const std::vector<std::string>& args) {
  util::ProcessRequest request;
  request.path = tool;
  request.args = args;
  request.env = {"ETCDCTL_API=3"};
  request.timeout = std::chrono::minutes(30);
  Result<util::ProcessOutcome> outcome = runner.Run(request);
  if (!outcome) return outcome.error().Wrap("running " + tool);
  if (outcome->succeeded()) return Status();
  std::string output = outcome->err.empty() ? outcome->out : outcome->err;
  while (!output.empty() && output.back() == '\n') output.pop_back();
  const std::size_t last = output.rfind('\n');
  return FailedPrecondition(
      fmt::format("{} snapshot restore failed ({}): {}", tool,
                  outcome->exited ? "exit code " + std::to_string(outcome->exit_code) : "killed",
                  last == std::string::npos ? output : output.substr(last + 1)));
}

}  // namespace

Result<VerifiedSnapshot> VerifySnapshotOrBackup(const util::FileSystem& fs,
                                                const std::string& path) {
  Result<util::FileInfo> stat = fs.Stat(path);
  if (!stat) return stat.error();
  const bool is_dir = stat->type == util::FileType::kDirectory;
  VerifiedSnapshot verified{is_dir ? path + "/" + kSnapshotFile : path, {}};
  Result<SnapshotDigest> digest = VerifySnapshotFile(fs, verified.file);
  if (!digest) return digest.error();
  verified.digest = std::move(*digest);
  if (!is_dir) return verified;
  Result<std::string> json = fs.ReadFile(path + "/" + kBackupInfoFile);
  if (!json) return FailedPrecondition(path + " is an incomplete backup (no backup.json)");
  Result<BackupInfo> info = ParseBackupInfo(*json);
  if (!info) return info.error().Wrap(path);
  if (info->sha256 != verified.digest.sha256) {
    return FailedPrecondition(fmt::format("{}: the snapshot's SHA-256 is {}, backup.json says {}",
                                          path, verified.digest.sha256, info->sha256));
  }
  return verified;
}

Result<std::string> RestoredManifest(const std::string& yaml, const std::string& old_data_dir,
                                     const std::string& data_dir, const std::string& member) {
  std::string out;
  bool in_volumes = false, volume_done = false, cluster_done = false;
  for (std::string line : Lines(yaml)) {
    if (line == "  volumes:") in_volumes = true;
    if (in_volumes && !volume_done && line == "      path: " + old_data_dir) {
      line = "      path: " + data_dir;
      volume_done = true;
    } else if (line.starts_with("    - --initial-cluster=")) {
      line = "    - --initial-cluster=" + member;
      cluster_done = true;
    } else if (line == "    - --initial-cluster-state=existing") {
      line = "    - --initial-cluster-state=new";
    }
    out += line + "\n";
  }
  if (!volume_done || !cluster_done) {
    return InvalidArgument(
        "the etcd manifest has no etcd-data hostPath or no --initial-cluster line to rewrite");
  }
  return out;
}

Result<RestoreResult> RestoreSnapshot(util::Host& host, util::ProcessRunner& runner,
                                      util::Printer& printer, const RestoreOptions& options) {
  Result<VerifiedSnapshot> snapshot = VerifySnapshotOrBackup(host.fs, options.snapshot);
  if (!snapshot) return snapshot.error();
  const std::string manifest_path = options.manifest_dir + "/etcd.yaml";
  Result<std::string> manifest = host.fs.ReadFile(manifest_path);
  if (!manifest) return manifest.error().Wrap("reading this node's etcd manifest");
  Result<EtcdManifestFacts> facts = ParseEtcdManifest(*manifest);
  if (!facts) return facts.error().Wrap(manifest_path);
  const std::string name = ManifestFlag(*manifest, "name");
  if (name.empty()) return InvalidArgument(manifest_path + ": etcd has no --name");
  RestoreResult result;
  result.data_dir = options.data_dir.empty()
                        ? facts->data_dir + "-restored-" + BackupName(host.clock.Now())
                        : options.data_dir;
  if (host.fs.Exists(result.data_dir))
    return AlreadyExists(result.data_dir + " exists: etcd restores into a new data directory");
  Result<std::vector<std::string>> args =
      ToolArgs(options, host.fs.HostPath(snapshot->file), host.fs.HostPath(result.data_dir), name,
               facts->peer_url);
  if (!args) return args.error();
  result.tool_args = *args;
  Result<std::string> restored =
      RestoredManifest(*manifest, facts->data_dir, result.data_dir, name + "=" + facts->peer_url);
  if (!restored) return restored.error().Wrap(manifest_path);
  if (options.dry_run) {
    printer.Line(kRestorePrefix,
                 fmt::format("Would run: {} {}", options.tool, fmt::join(result.tool_args, " ")));
    printer.Line(kRestorePrefix, "Would point " + manifest_path + " at " + result.data_dir);
    return result;
  }
  printer.Line(kRestorePrefix, fmt::format("Restoring {} (sha256 {}) into {}", snapshot->file,
                                           snapshot->digest.sha256, result.data_dir));
  KKADM_RETURN_IF_ERROR(RunTool(runner, options.tool, result.tool_args));
  KKADM_RETURN_IF_ERROR(host.fs.WriteFile(manifest_path, *restored, 0600));
  printer.Line(kRestorePrefix,
               fmt::format("Wrote {}: etcd runs member {} alone from {}; {} is left as it was",
                           manifest_path, name, result.data_dir, facts->data_dir));
  return result;
}

}  // namespace kkadm::phases::etcd_snapshot
