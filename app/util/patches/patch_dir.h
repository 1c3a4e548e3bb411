// Reading a `--patches` directory from the host into a PatchSet.
#pragma once

#include <string>

#include "app/util/patches/patch_set.h"

namespace kkadm::util::patches {

// Walks `host_dir` recursively (as kubeadm's filepath.Walk does) and loads every regular file
// ending in .json or .yaml with LoadPatchSet. Other files are skipped with a debug log and noted as
// kubeadm does (`[patches] Ignoring file "x.yml": the file extension must be one of [json yaml]`).
// Errors: NotFound/InvalidArgument "could not list patch files for path "<dir>": <reason>" when
// the directory is missing or not a directory, or a file cannot be read; LoadPatchSet's errors.
// Reads the real filesystem: the patches dir is user input on the host, like --config.
Result<PatchSet> ReadPatchDirectory(const std::string& host_dir);

}  // namespace kkadm::util::patches
