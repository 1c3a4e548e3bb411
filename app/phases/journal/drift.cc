// FindDrift: each recorded file read back and hashed.
#include "app/phases/journal/drift.h"

#include "app/util/crypto.h"

namespace kkadm::phases::journal {

std::vector<FileDrift> FindDrift(const util::FileSystem& fs, const PhaseRecord& record,
                                 const std::set<std::string>& rewriting) {
  std::vector<FileDrift> drift;
  for (const FileOutput& file : record.files) {
    if (rewriting.contains(file.path)) continue;
    Result<util::FileInfo> info = fs.Stat(file.path);
    if (!info) {
      drift.push_back({file.path, FileDrift::Kind::kMissing});
      continue;
    }
    Result<std::string> content = info->type == util::FileType::kRegular
                                      ? fs.ReadFile(file.path)
                                      : Result<std::string>(NotFound("not a regular file"));
    if (!content || info->mode != file.mode || util::Sha256Hex(*content) != file.sha256) {
      drift.push_back({file.path, FileDrift::Kind::kChanged});
    }
  }
  return drift;
}

std::set<std::string> RewritingFiles(const JournalState& state) {
  std::set<std::string> files;
  for (const PhaseRecord& record : state.phases) {
    if (record.state == PhaseState::kDone || record.state == PhaseState::kSkipped) continue;
    files.insert(record.attempt_files.begin(), record.attempt_files.end());
    files.insert(record.attempt_replaced.begin(), record.attempt_replaced.end());
  }
  return files;
}

OwnWork RecordedWork(const util::FileSystem& fs, const JournalState& state,
                     const std::string& command, const DriftOf& drift_of) {
  OwnWork work;
  work.recorded_in = kJournalPath;
  for (const PhaseRecord& record : state.phases) {
    if (record.command != command) continue;
    for (const FileOutput& file : record.files) work.files.insert(file.path);
    for (const FileDrift& drift : drift_of(record)) work.files.erase(drift.path);
    for (const std::string& dir : record.created_dirs) {
      Result<util::FileInfo> info = fs.Stat(dir);
      if (info && info->type == util::FileType::kDirectory) work.dirs.insert(dir);
    }
    work.units.insert(record.units_enabled.begin(), record.units_enabled.end());
    work.units.insert(record.units_started.begin(), record.units_started.end());
  }
  return work;
}

}  // namespace kkadm::phases::journal
