// Pre-flight checks on node files, read through util::FileSystem (so under --rootfs).
#pragma once

#include <memory>
#include <string>

#include "app/phases/preflight/check.h"

namespace kkadm::phases::preflight {

// "FileAvailable-<path>": error when the node file `path` already exists.
std::unique_ptr<Check> NewFileAvailableCheck(std::string path);
// "DirAvailable-<path>": error when the node directory `path` exists and is not empty.
std::unique_ptr<Check> NewDirAvailableCheck(std::string path);
// "FileExisting-<path>" or `label` when given: error when the node file `path` is missing.
std::unique_ptr<Check> NewFileExistingCheck(std::string path, std::string label = "");

}  // namespace kkadm::phases::preflight
