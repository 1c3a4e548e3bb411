// Restoring an etcd backup on this node: a single-member cluster made from a snapshot into a fresh
// data directory by etcd's own restore tool (etcdutl, or etcdctl for etcd 3.4), and the node's
// etcd manifest rewritten to run it. kkadm checks the snapshot's hash first and never touches the
// old data directory.
#pragma once

#include <string>
#include <vector>

#include "app/phases/etcd_snapshot/snapshot_stream.h"
#include "app/util/host.h"
#include "app/util/printer.h"
#include "app/util/process.h"
#include "app/util/status.h"

namespace kkadm::phases::etcd_snapshot {

// etcd's advice for Kubernetes (etcd-io/etcd#16028): revisions jump far past any a client saw,
// and the old ones are marked compacted, so watches relist instead of missing events.
inline constexpr char kRevisionBump[] = "1000000000";

// The snapshot file of `path`, a snapshot file or a backup directory, once its hash checked out
// (and, for a backup, matched the SHA-256 its backup.json recorded).
struct VerifiedSnapshot {
  std::string file;  // node path
  SnapshotDigest digest;
};
Result<VerifiedSnapshot> VerifySnapshotOrBackup(const util::FileSystem& fs,
                                                const std::string& path);

struct RestoreOptions {
  std::string snapshot;  // node path: a snapshot file or a backup directory
  // The new data directory (node path; must not exist); empty: "<old>-restored-<time>".
  std::string data_dir;
  std::string manifest_dir = "/etc/kubernetes/manifests";
  std::string tool;  // host path of etcdutl, or of etcdctl (3.4/3.5, no revision bump)
  bool bump_revision = true;
  bool dry_run = false;
};

struct RestoreResult {
  std::string data_dir;
  std::vector<std::string> tool_args;
};

// Restores as RestoreOptions say, printing under "[etcd-snapshot]". Errors: the snapshot fails
// its check, no readable etcd manifest, the data directory exists, etcdctl asked to bump the
// revision, the tool fails (its last output lines in the message).
Result<RestoreResult> RestoreSnapshot(util::Host& host, util::ProcessRunner& runner,
                                      util::Printer& printer, const RestoreOptions& options);

// The etcd manifest `yaml` rewritten to run the member restored into `data_dir`: the etcd-data
// volume's hostPath is `data_dir`, --initial-cluster names the member alone, and
// --initial-cluster-state is new. InvalidArgument when a line to rewrite is not there.
Result<std::string> RestoredManifest(const std::string& yaml, const std::string& old_data_dir,
                                     const std::string& data_dir, const std::string& member);

}  // namespace kkadm::phases::etcd_snapshot
