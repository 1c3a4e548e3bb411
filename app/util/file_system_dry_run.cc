// DryRunFileSystem: an overlay of a temporary directory over the node, announcing every change.
#include "app/util/file_system_dry_run.h"

#include <fmt/format.h>

#include <algorithm>

namespace kkadm::util {

namespace {

// `text` with each line indented by a tab (kubeadm's PrintBytesWithLinePrefix).
std::string IndentedByTabs(std::string_view text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = std::min(text.find('\n', start), text.size());
    out.append("\t").append(text.substr(start, end - start)).append("\n");
    start = end + 1;
  }
  return out;
}

}  // namespace

DryRunFileSystem::DryRunFileSystem(const FileSystem& base, const std::string& dir, Printer& printer,
                                   std::vector<std::string> shown_dirs,
                                   std::vector<std::string> quiet_dirs)
    : base_(base),
      dir_(dir),
      overlay_(dir),
      printer_(printer),
      shown_dirs_(std::move(shown_dirs)),
      quiet_dirs_(std::move(quiet_dirs)) {}

bool DryRunFileSystem::Written(const std::string& path) const { return overlay_.Exists(path); }

bool DryRunFileSystem::Shown(const std::string& path) const {
  const std::string parent = path.substr(0, path.find_last_of('/'));
  return std::find(shown_dirs_.begin(), shown_dirs_.end(), parent) != shown_dirs_.end();
}

Result<std::string> DryRunFileSystem::ReadFile(const std::string& path) const {
  if (removed_.count(path))
    return NotFound(fmt::format("reading {}: removed in this dry run", path));
  if (Written(path)) return overlay_.ReadFile(path);
  return base_.ReadFile(path);
}

bool DryRunFileSystem::Quiet(const std::string& path) const {
  return std::any_of(quiet_dirs_.begin(), quiet_dirs_.end(),
                     [&](const std::string& dir) { return path.starts_with(dir + "/"); });
}

Status DryRunFileSystem::WriteFile(const std::string& path, std::string_view data, unsigned mode) {
  if (Quiet(path)) return overlay_.WriteFile(path, data, mode);
  printer_.Line("dryrun", fmt::format("Would write file \"{}\" (mode {:04o})", path, mode));
  removed_.erase(path);
  KKADM_RETURN_IF_ERROR(overlay_.WriteFile(path, data, mode));
  if (Shown(path)) {
    printer_.Line("dryrun", fmt::format("Would write file \"{}\" with content:", path));
    printer_.Raw(IndentedByTabs(data));
  }
  return Status();
}

// Onto the node's file as it is, copied into the overlay at the first append.
Status DryRunFileSystem::AppendFile(const std::string& path, std::string_view data, unsigned mode) {
  if (!Written(path) && !removed_.count(path)) {
    Result<std::string> existing = base_.ReadFile(path);
    if (existing) KKADM_RETURN_IF_ERROR(overlay_.WriteFile(path, *existing, mode));
  }
  if (!Quiet(path)) printer_.Line("dryrun", fmt::format("Would append to file \"{}\"", path));
  removed_.erase(path);
  return overlay_.AppendFile(path, data, mode);
}

Status DryRunFileSystem::Sync() { return overlay_.Sync(); }

Status DryRunFileSystem::MakeDirs(const std::string& path, unsigned mode) {
  if (!base_.Exists(path)) {
    printer_.Line("dryrun", fmt::format("Would create directory \"{}\" (mode {:04o})", path, mode));
  }
  return overlay_.MakeDirs(path, mode);
}

Status DryRunFileSystem::EnsureDirectory(const std::string& path, unsigned /*mode*/,
                                         std::string_view phase) {
  printer_.Line(phase, fmt::format("Would ensure that \"{}\" directory is present", path));
  return Status();
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
