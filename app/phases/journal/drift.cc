// FindDrift: each recorded file read back and hashed.
#include "app/phases/journal/drift.h"

#include "app/util/crypto.h"

namespace kkadm::phases::journal {

std::vector<FileDrift> FindDrift(const util::FileSystem& fs, const PhaseRecord& record) {
  std::vector<FileDrift> drift;
  for (const FileOutput& file : record.files) {
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

}  // namespace kkadm::phases::journal
