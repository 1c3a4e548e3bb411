// `kkadm etcd snapshot` (see etcd_snapshot.h).
#include "cmd/etcd_snapshot.h"

#include <fmt/format.h>
#include <unistd.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "app/phases/etcd_snapshot/snapshot_restore.h"
#include "app/phases/etcd_snapshot/snapshot_save.h"
#include "app/util/duration.h"
#include "app/util/machine_real.h"
#include "app/util/process_real.h"
#include "app/util/rfc3339.h"
#include "app/util/tab_writer.h"
#include "cmd/context.h"
#include "cmd/event_output.h"
#include "cmd/host_factory.h"

namespace kkadm::cmd {
namespace {

namespace snap = phases::etcd_snapshot;

struct SnapshotOptions {
  std::string dir;  // save's positional
  std::string endpoint;
  std::string cert_dir;
  std::string backup_root = snap::kDefaultBackupRoot;
  int retention_count = snap::Retention().count;
  std::string retention_age = "720h0m0s";
  std::string timeout = "10m0s";
  bool dry_run = false;
  std::string output = "text";
  std::string path;  // verify's and restore's positional
  std::string data_dir;
  std::string etcd_tool;
  bool skip_revision_bump = false;
};

// Runs `run` over the host of --rootfs (a dry-run overlay with --dry-run).
Status WithSnapshotHost(CommandContext& context, bool dry_run,
                        const std::function<Status(util::Host&)>& run) {
  util::RealMachine machine;
  std::ostringstream unused;  // MakeHost's printer: these commands make no mount or service change
  util::Printer printer(unused);
  HostOptions options;
  options.rootfs = context.global.rootfs;
  options.dry_run = dry_run;
  options.dry_run_name = "etcd-snapshot";
  Result<std::unique_ptr<OwnedHost>> host = MakeHost(options, machine, printer);
  if (!host) return host.error();
  return SyncNodeFiles(host->get(), run((*host)->host()));
}

Result<std::chrono::milliseconds> DurationFlag(const std::string& flag, const std::string& text,
                                               bool allow_zero) {
  Result<std::chrono::milliseconds> value = util::ParseDuration(text);
  if (!value) {
    return InvalidArgument(fmt::format("invalid argument \"{}\" for \"{}\" flag: {}", text, flag,
                                       value.error().message()));
  }
  if (value->count() < 0 || (!allow_zero && value->count() == 0)) {
    return InvalidArgument(fmt::format("invalid argument \"{}\" for \"{}\" flag: must be {}", text,
                                       flag, allow_zero ? "0 or more" : "positive"));
  }
  return value;
}

Result<snap::SaveOptions> SaveOptionsOf(const SnapshotOptions& options) {
  snap::SaveOptions save;
  save.dir = options.dir;
  save.endpoint = options.endpoint;
  save.cert_dir = options.cert_dir;
  save.backup_root = options.backup_root;
  save.dry_run = options.dry_run;
  if (options.retention_count < 0) {
    return InvalidArgument(
        fmt::format("invalid argument \"{}\" for \"--retention-count\" flag: must be 0 or more",
                    options.retention_count));
  }
  save.retention.count = options.retention_count;
  Result<std::chrono::milliseconds> age =
      DurationFlag("--retention-age", options.retention_age, /*allow_zero=*/true);
  if (!age) return age.error();
  save.retention.age = *age;
  Result<std::chrono::milliseconds> timeout =
      DurationFlag("--timeout", options.timeout, /*allow_zero=*/false);
  if (!timeout) return timeout.error();
  save.timeout = *timeout;
  return save;
}

// The EtcdSnapshot event (docs/events.md): the backup a save made, as backup.json records it, and
// the backups retention removed.
void ReportSaved(const util::Events& events, const snap::SavedBackup& saved) {
  if (!events.enabled()) return;
  events.Emit("EtcdSnapshot", {{"path", saved.dir},
                               {"dbSize", saved.info.db_size},
                               {"revision", saved.info.revision},
                               {"sha256", saved.info.sha256},
                               {"etcdVersion", saved.info.etcd_version},
                               {"endpoint", saved.info.endpoint},
                               {"removed", saved.removed}});
}

Status Save(const SnapshotOptions& options, CommandContext& context, EventOutput& output) {
  Result<snap::SaveOptions> save = SaveOptionsOf(options);
  if (!save) return save.error();
  return WithSnapshotHost(context, options.dry_run, [&](util::Host& host) -> Status {
    util::Printer printer(output.human());
    Result<snap::SavedBackup> saved = snap::SaveBackup(host, printer, *save);
    if (!saved) return saved.error();
    if (!options.dry_run) ReportSaved(output.events(), *saved);
    return Status();
  });
}

nlohmann::ordered_json EntryJson(const snap::BackupEntry& entry) {
  nlohmann::ordered_json out = {{"name", entry.name},
                                {"path", entry.dir},
                                {"complete", entry.info.has_value()},
                                {"snapshotBytes", entry.snapshot_bytes}};
  if (!entry.info) return out;
  const snap::BackupInfo& info = *entry.info;
  out["created"] = util::FormatRfc3339Milli(info.created);
  out["dbSize"] = info.db_size;
  out["revision"] = info.revision;
  out["sha256"] = info.sha256;
  out["etcdVersion"] = info.etcd_version;
  out["endpoint"] = info.endpoint;
  out["files"] = info.files.size();
  return out;
}

std::vector<std::string> EntryRow(const snap::BackupEntry& entry) {
  if (!entry.info) {
    return {entry.name, "<incomplete>", std::to_string(entry.snapshot_bytes), "", ""};
  }
  return {entry.name, util::FormatRfc3339(entry.info->created), std::to_string(entry.info->db_size),
          std::to_string(entry.info->revision), entry.info->sha256.substr(0, 16)};
}

Status List(const SnapshotOptions& options, CommandContext& context) {
  return WithSnapshotHost(context, false, [&](util::Host& host) -> Status {
    Result<std::vector<snap::BackupEntry>> entries =
        snap::ListBackups(host.fs, options.backup_root);
    if (!entries) return entries.error();
    if (options.output == "json") {
      nlohmann::ordered_json out = nlohmann::ordered_json::array();
      for (const auto& entry : *entries) out.push_back(EntryJson(entry));
      context.out << out.dump(2) << '\n';
      return Status();
    }
    std::vector<std::vector<std::string>> rows = {
        {"NAME", "CREATED", "SIZE", "REVISION", "SHA256"}};
    for (const auto& entry : *entries) rows.push_back(EntryRow(entry));
    context.out << util::TabWrite(rows);
    return Status();
  });
}

// A backup directory's snapshot must match its file and its backup.json; a file, itself.
Status Verify(const SnapshotOptions& options, CommandContext& context, std::ostream& out) {
  return WithSnapshotHost(context, false, [&](util::Host& host) -> Status {
    Result<snap::VerifiedSnapshot> verified = snap::VerifySnapshotOrBackup(host.fs, options.path);
    if (!verified) return verified.error();
    out << fmt::format("{}: OK ({} bytes, sha256 {})\n", host.fs.HostPath(verified->file),
                       verified->digest.db_size, verified->digest.sha256);
    return Status();
  });
}

// The restore tool: --etcd-tool, else the first etcdutl, then etcdctl, on $PATH.
Result<std::string> RestoreTool(const std::string& flag) {
  if (!flag.empty()) return flag;
  const std::optional<std::string> path = util::RealMachine().Getenv("PATH");
  for (const char* tool : {"etcdutl", "etcdctl"}) {
    std::istringstream dirs(path.value_or("/usr/local/bin:/usr/bin:/bin"));
    for (std::string dir; std::getline(dirs, dir, ':');) {
      const std::string candidate = (dir.empty() ? "." : dir) + "/" + tool;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
  }
  return FailedPrecondition(
      "neither etcdutl nor etcdctl is on $PATH: copy the one of the cluster's etcd version out "
      "of its image and name it with --etcd-tool");
}

Status Restore(const SnapshotOptions& options, CommandContext& context, std::ostream& out) {
  Result<std::string> tool = RestoreTool(options.etcd_tool);
  if (!tool) return tool.error();
  snap::RestoreOptions restore{.snapshot = options.path,
                               .data_dir = options.data_dir,
                               .tool = *tool,
                               .bump_revision = !options.skip_revision_bump,
                               .dry_run = options.dry_run};
  return WithSnapshotHost(context, options.dry_run, [&](util::Host& host) {
    util::Printer printer(out);
    util::RealProcessRunner runner;
    return snap::RestoreSnapshot(host, runner, printer, restore).status();
  });
}

void AddRestoreCommand(CLI::App& snapshot, CommandContext& context,
                       std::shared_ptr<SnapshotOptions> options) {
  auto* restore = snapshot.add_subcommand(
      "restore", "Make this node's etcd a single-member cluster from a snapshot or backup");
  restore->add_option("path", options->path, "A snapshot file or a backup directory")->required();
  restore->add_option("--data-dir", options->data_dir,
                      "The new data directory (default: the old one's name with "
                      "-restored-<time>); it must not exist");
  restore->add_option("--etcd-tool", options->etcd_tool,
                      "etcd's restore tool: an etcdutl, or an etcdctl (default: the first etcdutl, "
                      "then etcdctl, on $PATH)");
  restore->add_flag("--skip-revision-bump", options->skip_revision_bump,
                    "Do not bump the revision and mark it compacted (needed with etcdctl)");
  restore->add_flag("--dry-run", options->dry_run, "Only say what would be done");
  auto output = std::make_shared<EventOutput>(context, "etcd snapshot restore");
  output->AddFlags(*restore);
  restore->callback([&context, options, output] {
    context.status = output->Run([&] { return Restore(*options, context, output->human()); });
  });
}

void AddBackupDirFlag(CLI::App& cmd, SnapshotOptions& options) {
  cmd.add_option("--backup-dir", options.backup_root, "Where backups are kept")
      ->capture_default_str();
}

void AddSaveCommand(CLI::App& snapshot, CommandContext& context,
                    std::shared_ptr<SnapshotOptions> options) {
  auto* save = snapshot.add_subcommand(
      "save", "Save a snapshot of this node's etcd, with its configuration and PKI, as a backup");
  save->add_option("dir", options->dir,
                   "The backup directory to make (default: a new one under --backup-dir)");
  AddBackupDirFlag(*save, *options);
  save->add_option("--endpoint", options->endpoint,
                   "The etcd member to snapshot (default: this node's, from its etcd manifest)");
  save->add_option("--cert-dir", options->cert_dir,
                   "Where etcd/ca.crt and apiserver-etcd-client.{crt,key} are (default: the etcd "
                   "manifest's PKI directory, else /etc/kubernetes/pki)");
  save->add_option("--retention-count", options->retention_count,
                   "How many complete backups under --backup-dir to keep; 0 keeps all")
      ->capture_default_str();
  save->add_option("--retention-age", options->retention_age,
                   "Remove backups under --backup-dir older than this; 0 keeps them")
      ->capture_default_str();
  save->add_option("--timeout", options->timeout, "How long the snapshot transfer may take")
      ->capture_default_str();
  save->add_flag("--dry-run", options->dry_run, "Only say what would be done");
  auto output = std::make_shared<EventOutput>(context, "etcd snapshot save");
  output->AddFlags(*save);
  save->callback([&context, options, output] {
    context.status = output->Run([&] { return Save(*options, context, *output); });
  });
}

}  // namespace

void AddEtcdCommand(CLI::App& root, CommandContext& context) {
  auto* etcd = root.add_subcommand("etcd", "Operations on this node's stacked etcd");
  etcd->require_subcommand(1);
  auto* snapshot = etcd->add_subcommand("snapshot", "Save, list, verify and restore etcd backups");
  snapshot->require_subcommand(1);
  auto options = std::make_shared<SnapshotOptions>();
  AddSaveCommand(*snapshot, context, options);
  auto* list = snapshot->add_subcommand("list", "List the backups, oldest first");
  AddBackupDirFlag(*list, *options);
  list->alias("ls");
  list->add_option("-o,--output", options->output, "Output format. One of: text|json")
      ->check(CLI::IsMember({"text", "json"}));
  list->callback([&context, options] { context.status = List(*options, context); });
  auto* verify = snapshot->add_subcommand(
      "verify", "Check a snapshot file's or backup's SHA-256 integrity hash");
  verify->add_option("path", options->path, "A snapshot file or a backup directory")->required();
  auto output = std::make_shared<EventOutput>(context, "etcd snapshot verify");
  output->AddFlags(*verify);
  verify->callback([&context, options, output] {
    context.status = output->Run([&] { return Verify(*options, context, output->human()); });
  });
  AddRestoreCommand(*snapshot, context, options);
}

}  // namespace kkadm::cmd
