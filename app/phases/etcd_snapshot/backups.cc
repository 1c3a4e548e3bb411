// Listing, retention and verification of etcd backups (backups.h).
#include "app/phases/etcd_snapshot/backups.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/util/rfc3339.h"

namespace kkadm::phases::etcd_snapshot {
namespace {

constexpr char kInfoKind[] = "EtcdBackup";
constexpr int kInfoVersion = 1;

// The milliseconds of an RFC 3339 time ("...:33.045Z" -> 45), which ParseRfc3339 drops: backups
// made within one second must still sort by time.
std::chrono::milliseconds MillisOf(std::string_view rfc3339) {
  const std::size_t dot = rfc3339.find('.');
  if (dot == std::string_view::npos) return std::chrono::milliseconds(0);
  int millis = 0;
  for (std::size_t i = dot + 1, scale = 100; i < rfc3339.size() && scale > 0; ++i, scale /= 10) {
    if (rfc3339[i] < '0' || rfc3339[i] > '9') break;
    millis += (rfc3339[i] - '0') * static_cast<int>(scale);
  }
  return std::chrono::milliseconds(millis);
}

// The time a complete backup was made, else the one its name says.
std::optional<TimePoint> TimeOf(const BackupEntry& entry) {
  if (entry.info) return entry.info->created;
  return TimeOfBackupName(entry.name);
}

Result<BackupEntry> ReadEntry(const util::FileSystem& fs, const std::string& root,
                              const std::string& name) {
  BackupEntry entry{name, root + "/" + name, std::nullopt, 0};
  Result<util::FileInfo> snapshot = fs.Stat(entry.dir + "/" + kSnapshotFile);
  if (snapshot && snapshot->type == util::FileType::kRegular) entry.snapshot_bytes = snapshot->size;
  Result<std::string> json = fs.ReadFile(entry.dir + "/" + kBackupInfoFile);
  if (!json && json.error().code() != StatusCode::kNotFound) return json.error();
  if (json) {
    Result<BackupInfo> info = ParseBackupInfo(*json);
    if (info) entry.info = std::move(*info);
  }
  return entry;
}

}  // namespace

std::string BackupInfoJson(const BackupInfo& info) {
  nlohmann::ordered_json out = {{"kind", kInfoKind},
                                {"version", kInfoVersion},
                                {"created", util::FormatRfc3339Milli(info.created)},
                                {"snapshot", kSnapshotFile},
                                {"dbSize", info.db_size},
                                {"sha256", info.sha256},
                                {"revision", info.revision},
                                {"etcdVersion", info.etcd_version},
                                {"endpoint", info.endpoint},
                                {"files", info.files}};
  return out.dump(2) + "\n";
}

Result<BackupInfo> ParseBackupInfo(const std::string& json) {
  auto in = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!in.is_object() || in.value("kind", "") != kInfoKind)
    return InvalidArgument("not a kkadm etcd backup description");
  BackupInfo info;
  const std::string created_text = in.value("created", "");
  auto created = util::ParseRfc3339(created_text, util::Rfc3339Case::kUpper);
  if (!created) return InvalidArgument("backup.json: created is not an RFC 3339 time");
  info.created = *created + MillisOf(created_text);
  try {
    info.db_size = in.value("dbSize", std::uint64_t{0});
    info.sha256 = in.value("sha256", "");
    info.revision = in.value("revision", std::uint64_t{0});
    info.etcd_version = in.value("etcdVersion", "");
    info.endpoint = in.value("endpoint", "");
    info.files = in.value("files", std::vector<std::string>{});
  } catch (const nlohmann::json::exception& e) {
    return InvalidArgument(std::string("backup.json: ") + e.what());
  }
  return info;
}

std::string BackupName(TimePoint time) {
  std::string name = util::FormatRfc3339Milli(time);  // 2026-11-26T18:22:33.123Z
  std::erase_if(name, [](char c) { return c == '-' || c == ':'; });
  return name;
}

std::optional<TimePoint> TimeOfBackupName(const std::string& name) {
  // 20261126T182233.123Z
  if (name.size() != 20 || name[8] != 'T' || name[15] != '.' || name[19] != 'Z')
    return std::nullopt;
  const std::string rfc3339 =
      fmt::format("{}-{}-{}T{}:{}:{}Z", name.substr(0, 4), name.substr(4, 2), name.substr(6, 2),
                  name.substr(9, 2), name.substr(11, 2), name.substr(13, 2));
  auto time = util::ParseRfc3339(rfc3339, util::Rfc3339Case::kUpper);
  if (!time) return std::nullopt;
  const std::string millis = name.substr(16, 3);
  if (!std::all_of(millis.begin(), millis.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return *time + std::chrono::milliseconds(std::stoi(millis));
}

Result<std::vector<BackupEntry>> ListBackups(const util::FileSystem& fs, const std::string& root) {
  Result<std::vector<std::string>> names = fs.ListDir(root);
  if (!names && names.error().code() == StatusCode::kNotFound) return std::vector<BackupEntry>{};
  if (!names) return names.error();
  std::vector<BackupEntry> entries;
  for (const std::string& name : *names) {
    Result<util::FileInfo> stat = fs.Stat(root + "/" + name);
    if (!stat || stat->type != util::FileType::kDirectory) continue;
    Result<BackupEntry> entry = ReadEntry(fs, root, name);
    if (!entry) return entry.error();
    entries.push_back(std::move(*entry));
  }
  return entries;
}

std::vector<std::string> BackupsToRemove(const std::vector<BackupEntry>& entries,
                                         const Retention& retention, TimePoint now,
                                         const std::string& keep) {
  std::vector<const BackupEntry*> complete;
  std::vector<std::string> out;
  for (const BackupEntry& entry : entries) {
    if (entry.info) {
      complete.push_back(&entry);
      continue;
    }
    std::optional<TimePoint> named = TimeOfBackupName(entry.name);
    if (named && *named + kIncompleteGrace < now && entry.name != keep) out.push_back(entry.name);
  }
  std::sort(complete.begin(), complete.end(), [](const BackupEntry* a, const BackupEntry* b) {
    if (a->info->created != b->info->created) return a->info->created > b->info->created;
    return a->name > b->name;  // newest first
  });
  for (std::size_t i = 1; i < complete.size(); ++i) {  // [0], the newest, stays
    const BackupEntry& entry = *complete[i];
    if (entry.name == keep) continue;
    const bool past_count = retention.count > 0 && i >= static_cast<std::size_t>(retention.count);
    const bool too_old = retention.age.count() > 0 && *TimeOf(entry) + retention.age < now;
    if (past_count || too_old) out.push_back(entry.name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<SnapshotDigest> VerifySnapshotFile(const util::FileSystem& fs, const std::string& path) {
  Result<util::FileInfo> stat = fs.Stat(path);
  if (!stat) return stat.error();
  if (stat->type != util::FileType::kRegular)
    return FailedPrecondition(fmt::format("{} is not a regular file", fs.HostPath(path)));
  // Read-only, in pieces: FileSystem::ReadFile holds a whole file and stops at 64 MiB, and a
  // Kubernetes cluster's database is often larger. HostPath is where the node path resolves.
  std::ifstream in(fs.HostPath(path), std::ios::binary);
  if (!in) return NotFound(fmt::format("cannot open {}", fs.HostPath(path)));
  SnapshotHashCheck check;
  std::string buffer(std::size_t{1} << 20, '\0');
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    check.Update(std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
  }
  if (in.bad()) return Internal(fmt::format("reading {} failed", fs.HostPath(path)));
  Result<SnapshotDigest> digest = check.Finish();
  if (!digest) return digest.error().Wrap(fs.HostPath(path));
  return digest;
}

}  // namespace kkadm::phases::etcd_snapshot
