// Saving a backup of this node's stacked etcd: the snapshot through etcd's v3 Maintenance API
// (its JSON gateway, streamed to disk and hash-checked on the way), the node's configuration and
// PKI beside it, backup.json last, then the retention (backups.h has the layout).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "app/phases/etcd_snapshot/backups.h"
#include "app/util/host.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases::etcd_snapshot {

struct SaveOptions {
  // The member to snapshot; empty: this node's, from /etc/kubernetes/manifests/etcd.yaml (its
  // 127.0.0.1 client URL, else its first), else https://127.0.0.1:2379.
  std::string endpoint;
  // Where etcd/ca.crt and apiserver-etcd-client.{crt,key} are; empty: the manifest's PKI
  // directory, else /etc/kubernetes/pki. Also the PKI copied into the backup.
  std::string cert_dir;
  std::string manifest_dir = "/etc/kubernetes/manifests";
  std::string backup_root = kDefaultBackupRoot;
  std::string dir;  // the backup directory to make; empty: <backup_root>/<BackupName(now)>
  std::chrono::milliseconds timeout = std::chrono::minutes(10);  // the whole snapshot transfer
  Retention retention;
  bool apply_retention = true;
  bool dry_run = false;
};

struct SavedBackup {
  std::string dir;  // node path
  BackupInfo info;
  std::vector<std::string> removed;  // backup names retention removed
};

// Saves a backup as SaveOptions say; the lines it prints go to `printer` under "[etcd-snapshot]".
// Errors: the etcd client credentials cannot be read, etcd does not answer (kUnavailable), the
// snapshot fails its integrity check (kFailedPrecondition); the half-made directory is removed.
// A dry run says what it would do and does nothing.
Result<SavedBackup> SaveBackup(util::Host& host, util::Printer& printer,
                               const SaveOptions& options);

}  // namespace kkadm::phases::etcd_snapshot
