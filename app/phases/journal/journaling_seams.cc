// JournalingFileSystem and JournalingInitSystem: pass each call on, and tell the journal.
#include "app/phases/journal/journaling_seams.h"

namespace kkadm::phases::journal {
Status JournalingFileSystem::RecordCreation(const std::string& path, bool directory) {
  if (journal_.current_phase().empty()) return Status();
  std::vector<std::string> missing;
  for (std::string dir = directory ? path : util::ParentDirectory(path);
       dir != "/" && !existing_dirs_.count(dir); dir = util::ParentDirectory(dir)) {
    if (node_.Exists(dir)) {
      existing_dirs_.insert(dir);
      break;
    }
    missing.push_back(dir);
  }
  // The directories to make, outermost first, and the file: recorded with one write.
  std::vector<Journal::Making> making;
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    making.push_back({*it, Journal::Change::kNewDirectory});
  }
  if (!directory) {
    // In a directory about to be made, the file cannot be there yet.
    const bool exists = missing.empty() && node_.Exists(path);
    making.push_back({path, exists ? Journal::Change::kReplacedFile : Journal::Change::kNewFile});
  }
  KKADM_RETURN_IF_ERROR(journal_.WillMake(making));
  existing_dirs_.insert(missing.begin(), missing.end());
  return Status();
}

Status JournalingFileSystem::WriteFile(const std::string& path, std::string_view data,
                                       unsigned mode) {
  KKADM_RETURN_IF_ERROR(RecordCreation(path, false));
  KKADM_RETURN_IF_ERROR(node_.WriteFile(path, data, mode));
  journal_.Wrote(path, data, mode);
  return Status();
}

Status JournalingFileSystem::AppendFile(const std::string& path, std::string_view data,
                                        unsigned mode) {
  KKADM_RETURN_IF_ERROR(RecordCreation(path, false));
  return node_.AppendFile(path, data, mode);
}

Status JournalingFileSystem::MakeDirs(const std::string& path, unsigned mode) {
  KKADM_RETURN_IF_ERROR(RecordCreation(path, true));
  return node_.MakeDirs(path, mode);
}

Status JournalingFileSystem::EnsureDirectory(const std::string& path, unsigned mode,
                                             std::string_view phase) {
  KKADM_RETURN_IF_ERROR(RecordCreation(path, true));
  return node_.EnsureDirectory(path, mode, phase);
}

Status JournalingFileSystem::Remove(const std::string& path) {
  journal_.Removed(path);
  existing_dirs_.erase(path);
  return node_.Remove(path);
}

Status JournalingInitSystem::Start(const std::string& unit) {
  KKADM_RETURN_IF_ERROR(manager_.Start(unit));
  return journal_.UnitChanged(unit, false);
}

Status JournalingInitSystem::Restart(const std::string& unit) {
  KKADM_RETURN_IF_ERROR(manager_.Restart(unit));
  return journal_.UnitChanged(unit, false);
}

Status JournalingInitSystem::Enable(const std::string& unit) {
  Result<bool> was_enabled = manager_.IsEnabled(unit);
  KKADM_RETURN_IF_ERROR(manager_.Enable(unit));
  if (was_enabled && *was_enabled) return Status();
  return journal_.UnitChanged(unit, true);
}

}  // namespace kkadm::phases::journal
