// mkdir -p with exact modes and no chmod of what exists (see make_dirs.h).
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "app/util/make_dirs.h"

namespace kkadm::util {
namespace {

Status MakeDirFailure(const NodeRoot& root, const std::string& dir, int err) {
  const char* reason = err == ENOTDIR || err == EEXIST ? "not a directory" : std::strerror(err);
  return FailedPrecondition(fmt::format("creating directory {}: {}", root.Lexical(dir), reason));
}

// Makes `name` in `parent` (the directory `dir` names the new one); sets its mode only when this
// call created it. The chmod goes through a descriptor opened without following a link, so a link
// put in its place is never chmod-ed. One made meanwhile by another, or a link to a directory,
// is taken as it is.
Result<UniqueFd> MakeOneDir(const NodeRoot& root, const UniqueFd& parent, const std::string& name,
                            const std::string& dir, unsigned mode) {
  if (::mkdirat(parent.get(), name.c_str(), mode) != 0) {
    const int err = errno;
    if (err != EEXIST) return MakeDirFailure(root, dir, err);
    UniqueFd existing = root.Open(dir, O_PATH | O_DIRECTORY);
    if (!existing.ok()) return MakeDirFailure(root, dir, EEXIST);
    return existing;
  }
  UniqueFd made(
      ::openat(parent.get(), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!made.ok()) return MakeDirFailure(root, dir, errno);
  if (::fchmod(made.get(), mode) != 0) return MakeDirFailure(root, dir, errno);  // the umask's
  return made;
}

}  // namespace

Result<UniqueFd> MakeNodeDirs(const NodeRoot& root, const std::string& dir, unsigned mode,
                              unsigned parent_mode) {
  const std::size_t end = dir.find_last_not_of('/');
  const std::string path = end == std::string::npos ? "/" : dir.substr(0, end + 1);
  UniqueFd at = root.Open(path, O_PATH | O_DIRECTORY);
  if (at.ok()) return at;  // the common case: it exists
  // Component by component from the top; `at` holds the directory above the next one.
  const std::string top = path[0] == '/' ? "/" : ".";  // "." : a relative host path
  at = root.Open(top, O_PATH | O_DIRECTORY);
  if (!at.ok()) return MakeDirFailure(root, top, errno);
  for (std::size_t start = path.find_first_not_of('/'); start != std::string::npos;) {
    const std::size_t slash = path.find('/', start);
    const std::string name = path.substr(start, slash - start);
    const std::string prefix = path.substr(0, slash);
    const bool last = path.find_first_not_of('/', slash) == std::string::npos;
    UniqueFd next = root.Open(prefix, O_PATH | O_DIRECTORY);
    if (!next.ok() && errno == ENOENT && name != "." && name != "..") {
      Result<UniqueFd> made = MakeOneDir(root, at, name, prefix, last ? mode : parent_mode);
      if (!made) return made.error();
      next = std::move(*made);
    } else if (!next.ok()) {
      return MakeDirFailure(root, prefix, errno);
    }
    at = std::move(next);
    start = slash == std::string::npos ? slash : path.find_first_not_of('/', slash);
  }
  return at;
}

Status MakeDirsWithModes(const std::string& host_dir, unsigned mode, unsigned parent_mode) {
  return MakeNodeDirs(NodeRoot("/"), host_dir, mode, parent_mode).status();
}

}  // namespace kkadm::util
