// What changed on the node since a phase recorded its files: each file missing, or no longer the
// content or mode the phase left.
#pragma once

#include <string>
#include <vector>

#include "app/phases/journal/journal.h"
#include "app/util/file_system.h"

namespace kkadm::phases::journal {

struct FileDrift {
  enum class Kind { kMissing, kChanged };
  std::string path;
  Kind kind = Kind::kChanged;
};

// The recorded files of `record` that are missing or changed (content or mode), in its order.
std::vector<FileDrift> FindDrift(const util::FileSystem& fs, const PhaseRecord& record);

}  // namespace kkadm::phases::journal
