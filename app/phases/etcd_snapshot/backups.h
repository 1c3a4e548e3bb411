// The etcd backups of a node: one directory each under the backup root, holding the snapshot
// (snapshot.db, as etcdctl writes it), the node's configuration and PKI (node/<node path>), and
// backup.json, written last: a directory without it is a save that did not finish. Listing,
// retention and verification of those directories; saving is snapshot_save.h.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/phases/etcd_snapshot/snapshot_stream.h"
#include "app/util/file_system.h"
#include "app/util/status.h"

namespace kkadm::phases::etcd_snapshot {

inline constexpr char kDefaultBackupRoot[] = "/var/backups/kkadm/etcd";
inline constexpr char kSnapshotFile[] = "snapshot.db";
inline constexpr char kBackupInfoFile[] = "backup.json";
inline constexpr char kNodeFilesDir[] = "node";  // node files under it keep their node paths

using TimePoint = std::chrono::system_clock::time_point;

// backup.json.
struct BackupInfo {
  TimePoint created;
  std::uint64_t db_size = 0;   // snapshot.db holds these bytes and their 32-byte SHA-256
  std::string sha256;          // of the database, hex
  std::uint64_t revision = 0;  // etcd's revision just before the snapshot began (0: unknown)
  std::string etcd_version;
  std::string endpoint;            // the member the snapshot came from
  std::vector<std::string> files;  // node paths copied under node/
};

std::string BackupInfoJson(const BackupInfo& info);
Result<BackupInfo> ParseBackupInfo(const std::string& json);

// The name of a backup made at `time`: "20261126T182233.123Z" (UTC; names sort by time).
std::string BackupName(TimePoint time);
// The time a BackupName names; nullopt for any other name.
std::optional<TimePoint> TimeOfBackupName(const std::string& name);

struct BackupEntry {
  std::string name;                  // the directory's name under the root
  std::string dir;                   // its node path
  std::optional<BackupInfo> info;    // nullopt: incomplete (no readable backup.json)
  std::uint64_t snapshot_bytes = 0;  // snapshot.db's size on disk (0 when absent)
};

// The backups under `root`, oldest first by name; none when `root` does not exist.
Result<std::vector<BackupEntry>> ListBackups(const util::FileSystem& fs, const std::string& root);

// How many backups are kept and for how long (docs/etcd-snapshot.md). Zero turns a limit off.
struct Retention {
  int count = 5;
  std::chrono::milliseconds age = std::chrono::hours(24 * 30);
};

// A save interrupted in another terminal is younger than this; an older incomplete backup is a
// save that was killed, and goes.
inline constexpr std::chrono::hours kIncompleteGrace{1};

// The names of the backups retention removes, given `entries` (ListBackups) at `now`: complete
// backups past the newest `count` or older than `age`, and incomplete ones older than
// kIncompleteGrace. The newest complete backup, and `keep`, always stay.
std::vector<std::string> BackupsToRemove(const std::vector<BackupEntry>& entries,
                                         const Retention& retention, TimePoint now,
                                         const std::string& keep);

// Checks the snapshot file `path` (a node path): its last 32 bytes must be the SHA-256 of the
// rest. Read in pieces, whatever its size.
Result<SnapshotDigest> VerifySnapshotFile(const util::FileSystem& fs, const std::string& path);

}  // namespace kkadm::phases::etcd_snapshot
