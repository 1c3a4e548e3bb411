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

Status MakeDirFailure(const std::string& dir, const char* reason) {
  return FailedPrecondition(fmt::format("creating directory {}: {}", dir, reason));
}

// Makes one directory; sets its mode only when this call created it. The chmod goes through a
// descriptor opened without following a link, so a link put in its place is never chmod-ed.
Status MakeOneDir(const std::string& dir, unsigned mode) {
  if (::mkdir(dir.c_str(), mode) != 0) {
    const int err = errno;
    struct stat st {};
    if (err == EEXIST && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return Status();
    return MakeDirFailure(dir, err == EEXIST ? "not a directory" : std::strerror(err));
  }
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return MakeDirFailure(dir, std::strerror(errno));
  const int rc = ::fchmod(fd, mode);  // the umask took bits away from mkdir's mode
  const int err = errno;
  ::close(fd);
  if (rc != 0) return MakeDirFailure(dir, std::strerror(err));
  return Status();
}

}  // namespace

Status MakeDirsWithModes(const std::string& host_dir, unsigned mode, unsigned parent_mode) {
  std::size_t end = host_dir.find_last_not_of('/');
  if (end == std::string::npos) return Status();  // "/" or ""
  const std::string dir = host_dir.substr(0, end + 1);
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return Status();  // the common case
  for (std::size_t slash = dir.find('/', 1); slash != std::string::npos;
       slash = dir.find('/', slash + 1)) {
    if (dir[slash - 1] == '/') continue;  // "//" names no new directory
    KKADM_RETURN_IF_ERROR(MakeOneDir(dir.substr(0, slash), parent_mode));
  }
  return MakeOneDir(dir, mode);
}

}  // namespace kkadm::util
