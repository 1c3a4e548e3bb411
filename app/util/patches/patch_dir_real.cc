// ReadPatchDirectory: the one place patches touch the host filesystem.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <system_error>

#include "app/util/input_file.h"
#include "app/util/patches/patch_dir.h"
#include "app/util/printable.h"
#include "app/util/yaml/limits.h"

namespace kkadm::util::patches {
namespace {

namespace fs = std::filesystem;

bool HasPatchExtension(const std::string& name) {
  for (std::string_view ext : {".json", ".yaml"}) {
    if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
      return true;
  }
  return false;
}

// A patch is YAML: read up to the YAML reader's limit, and only when it is a regular file (a
// FIFO or /dev/zero named x.yaml would block or never end).
Result<std::string> ReadWholeFile(const fs::path& path) {
  Result<std::string> content = ReadInputFile(path.string(), yaml::kMaxTextBytes);
  if (!content) {
    return Unavailable(fmt::format("could not read the file {}: {}", Quote(path.string()),
                                   content.error().message()));
  }
  return content;
}

Status Listing(const std::string& dir, const std::string& reason) {
  return InvalidArgument(
      fmt::format("could not list patch files for path \"{}\": {}", dir, reason));
}

}  // namespace

Result<PatchSet> ReadPatchDirectory(const std::string& host_dir) {
  std::error_code ec;
  fs::file_status st = fs::symlink_status(host_dir, ec);
  if (ec) return Listing(host_dir, ec.message());
  if (!fs::is_directory(st)) return Listing(host_dir, "not a directory");
  std::vector<PatchFile> files;
  for (fs::recursive_directory_iterator it(host_dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_directory(type_ec)) continue;
    std::string name = it->path().filename().string();
    if (!HasPatchExtension(name)) {
      // Not read: LoadPatchSet notes it as ignored, in kubeadm's walk order.
      spdlog::debug("patches: ignoring {}: not a .json or .yaml file", it->path().string());
      files.push_back(PatchFile{.name = it->path().string(), .content = ""});
      continue;
    }
    Result<std::string> content = ReadWholeFile(it->path());
    if (!content) return Listing(host_dir, content.error().message());
    files.push_back(PatchFile{.name = it->path().string(), .content = std::move(*content)});
  }
  if (ec) return Listing(host_dir, ec.message());
  return LoadPatchSet(files, LoadOptions{.skip_unsupported_extensions = true});
}

}  // namespace kkadm::util::patches
