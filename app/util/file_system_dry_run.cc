// DryRunFileSystem: an overlay of a temporary directory over the node, announcing every change.
#include "app/util/file_system_dry_run.h"

#include <algorithm>
#include <fmt/format.h>

namespace kkadm::util {

DryRunFileSystem::DryRunFileSystem(const FileSystem& base, const std::string& dir, Printer& printer)
    : base_(base), dir_(dir), overlay_(dir), printer_(printer) {}

bool DryRunFileSystem::Written(const std::string& path) const { return overlay_.Exists(path); }

Result<std::string> DryRunFileSystem::ReadFile(const std::string& path) const {
  if (removed_.count(path)) return NotFound(fmt::format("reading {}: removed in this dry run", path));
  if (Written(path)) return overlay_.ReadFile(path);
  return base_.ReadFile(path);
}

Status DryRunFileSystem::WriteFile(const std::string& path, std::string_view data, unsigned mode) {
  printer_.Line("dryrun", fmt::format("Would write file \"{}\" (mode {:04o})", path, mode));
  removed_.erase(path);
  return overlay_.WriteFile(path, data, mode);
}

Status DryRunFileSystem::Sync() { return overlay_.Sync(); }

Status DryRunFileSystem::MakeDirs(const std::string& path, unsigned mode) {
  if (!base_.Exists(path)) {
    printer_.Line("dryrun", fmt::format("Would create directory \"{}\" (mode {:04o})", path, mode));
  }
  return overlay_.MakeDirs(path, mode);
}

Result<FileInfo> DryRunFileSystem::Stat(const std::string& path) const {
  if (removed_.count(path)) return NotFound(fmt::format("stat {}: removed in this dry run", path));
  if (Written(path)) return overlay_.Stat(path);
  return base_.Stat(path);
}

Result<std::vector<std::string>> DryRunFileSystem::ListDir(const std::string& path) const {
  auto from_base = base_.ListDir(path);
  auto from_overlay = overlay_.ListDir(path);
  if (!from_base && !from_overlay) return from_base.error();
  std::vector<std::string> names;
  for (const auto* list : {&from_base, &from_overlay}) {
    if (!*list) continue;
    for (const auto& name : **list) {
      std::string full = (path == "/" ? "" : path) + "/" + name;
      if (!removed_.count(full)) names.push_back(name);
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

Status DryRunFileSystem::Remove(const std::string& path) {
  if (!Exists(path)) return Status();
  printer_.Line("dryrun", fmt::format("Would remove \"{}\"", path));
  removed_.insert(path);
  return overlay_.Remove(path);
}

std::string DryRunFileSystem::HostPath(const std::string& path) const {
  return Written(path) ? overlay_.HostPath(path) : base_.HostPath(path);
}

}  // namespace kkadm::util
