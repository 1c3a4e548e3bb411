// RealTreeRemover: every step is relative to a directory descriptor opened with O_NOFOLLOW, so a
// symbolic link met anywhere below the root is removed as a link or reported, never resolved.
#include "app/util/tree_remover_real.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>

namespace kkadm::util {
namespace {

using Failures = std::vector<RemovalFailure>;

// A file descriptor closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() { Reset(); }
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      Reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;

  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }
  void Reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

// Which mount a file is on. A bind mount of the same file system shares st_dev, so the kernel's
// mount id is compared too where it reports one (statx STATX_MNT_ID, Linux 5.8+).
struct MountIdentity {
  dev_t dev = 0;
  std::uint64_t mount_id = 0;
  bool has_mount_id = false;
};

bool SameMount(const MountIdentity& a, const MountIdentity& b) {
  if (a.dev != b.dev) return false;
  return !(a.has_mount_id && b.has_mount_id) || a.mount_id == b.mount_id;
}

// `name` relative to `dir`, not following a final link; "" with AT_EMPTY_PATH means `dir` itself.
std::optional<MountIdentity> IdentityAt(int dir, const char* name, int flags) {
  struct statx stx {};
  if (::statx(dir, name, flags | AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
              STATX_BASIC_STATS | STATX_MNT_ID, &stx) != 0) {
    return std::nullopt;
  }
  MountIdentity id;
  id.dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
  id.has_mount_id = (stx.stx_mask & STATX_MNT_ID) != 0;
  id.mount_id = stx.stx_mnt_id;
  return id;
}

void Fail(Failures& out, const std::string& path, const char* what, int err) {
  out.push_back({path, fmt::format("{}: {}", what, std::strerror(err))});
}

std::string JoinNode(const std::string& parent, const std::string& name) {
  return (parent == "/" ? "" : parent) + "/" + name;
}

// The names of a node path; nullopt when one is "..", which could climb above the root.
std::optional<std::vector<std::string>> Components(const std::string& path) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    std::string name = path.substr(start, slash - start);
    if (name == "..") return std::nullopt;
    if (!name.empty() && name != ".") names.push_back(std::move(name));
    start = slash + 1;
  }
  return names;
}

// Why `name` in `dir` could not be opened as a directory, in words.
std::string WhyNotADirectory(int dir, const std::string& name, int err) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISLNK(st.st_mode)) {
      char target[4096];
      ssize_t n = ::readlinkat(dir, name.c_str(), target, sizeof target - 1);
      std::string to = n >= 0 ? std::string(target, static_cast<std::size_t>(n)) : "?";
      return fmt::format(
          "is a symbolic link (to {}); not followed, so nothing behind it was deleted", to);
    }
    if (!S_ISDIR(st.st_mode)) return "is not a directory; left as it is";
  }
  return fmt::format("could not open: {}", std::strerror(err));
}

// The directory at the first `count` names below the root, each opened without following links.
struct OpenResult {
  Fd fd;
  bool missing = false;  // some name does not exist: nothing to do
  std::optional<RemovalFailure> failure;
};

OpenResult OpenNoFollow(const std::string& root, const std::vector<std::string>& names,
                        std::size_t count) {
  OpenResult result;
  result.fd = Fd(::open(root.empty() ? "/" : root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!result.fd.ok()) {
    result.failure = RemovalFailure{
        "/", fmt::format("could not open the root {}: {}", root, std::strerror(errno))};
    return result;
  }
  std::string path = "/";
  for (std::size_t i = 0; i < count; ++i) {
    path = JoinNode(path, names[i]);
    Fd next(::openat(result.fd.get(), names[i].c_str(),
                     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.ok()) {
      int err = errno;
      if (err == ENOENT)
        result.missing = true;
      else
        result.failure = RemovalFailure{path, WhyNotADirectory(result.fd.get(), names[i], err)};
      result.fd.Reset();
      return result;
    }
    result.fd = std::move(next);
  }
  return result;
}

// The entry names of an open directory ("." and ".." left out); false with errno on failure.
bool ListNames(int dir, std::vector<std::string>& names) {
  int copy = ::fcntl(dir, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return false;
  DIR* stream = ::fdopendir(copy);
  if (stream == nullptr) {
    int err = errno;
    ::close(copy);
    errno = err;
    return false;
  }
  ::rewinddir(stream);
  errno = 0;
  while (struct dirent* entry = ::readdir(stream)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  int err = errno;
  ::closedir(stream);
  errno = err;
  return err == 0;
}

bool RemoveEntry(int parent, const std::string& name, const MountIdentity& mount,
                 const std::string& path, Failures& out);

// Removes every entry of the open directory `dir`; true when all are gone.
bool RemoveChildren(int dir, const MountIdentity& mount, const std::string& path, Failures& out) {
  std::vector<std::string> names;
  if (!ListNames(dir, names)) {
    Fail(out, path, "could not list", errno);
    return false;
  }
  bool all = true;
  for (const std::string& name : names)
    all = RemoveEntry(dir, name, mount, JoinNode(path, name), out) && all;
  return all;
}

// Removes a directory `name` of `parent` that fstatat described as `st`.
bool RemoveDirectory(int parent, const std::string& name, const struct stat& st,
                     const MountIdentity& mount, const std::string& path, Failures& out) {
  Fd dir(::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!dir.ok()) {
    if (errno == ENOENT) return true;
    out.push_back({path, WhyNotADirectory(parent, name, errno)});
    return false;
  }
  // Between fstatat and openat the name may have been replaced: only the directory that was
  // inspected is emptied.
  struct stat opened {};
  if (::fstat(dir.get(), &opened) != 0 || opened.st_dev != st.st_dev ||
      opened.st_ino != st.st_ino) {
    out.push_back({path, "changed while it was being removed; left as it is"});
    return false;
  }
  bool empty = RemoveChildren(dir.get(), mount, path, out);
  dir.Reset();
  if (!empty) return false;  // the entries below already say why
  if (::unlinkat(parent, name.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT) return true;
  Fail(out, path, "could not remove", errno);
  return false;
}

bool RemoveEntry(int parent, const std::string& name, const MountIdentity& mount,
                 const std::string& path, Failures& out) {
  struct stat st {};
  if (::fstatat(parent, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return true;
    Fail(out, path, "could not inspect", errno);
    return false;
  }
  std::optional<MountIdentity> own = IdentityAt(parent, name.c_str(), 0);
  if (own && !SameMount(*own, mount)) {
    out.push_back({path, "is a mount point (another file system is mounted there); not entered"});
    return false;
  }
  if (S_ISDIR(st.st_mode)) return RemoveDirectory(parent, name, st, mount, path, out);
  if (::unlinkat(parent, name.c_str(), 0) == 0 || errno == ENOENT) return true;
  Fail(out, path, "could not remove", errno);
  return false;
}

std::string NodePath(const std::vector<std::string>& names) {
  std::string path;
  for (const std::string& name : names) path += "/" + name;
  return path.empty() ? "/" : path;
}

}  // namespace

RealTreeRemover::RealTreeRemover(std::string root, Printer& out)
    : root_(std::move(root)), out_(out) {
  while (!root_.empty() && root_.back() == '/') root_.pop_back();
}

std::vector<RemovalFailure> RealTreeRemover::CleanDirectory(const std::string& dir) {
  std::optional<std::vector<std::string>> names = Components(dir);
  // "/", "/etc", "/var": a typo in --cert-dir or etcd.local.dataDir must not empty a system.
  if (!names || names->size() < 2)
    return {{dir, "refusing to delete the contents of a top-level directory"}};
  OpenResult opened = OpenNoFollow(root_, *names, names->size());
  if (opened.missing) return {};
  if (opened.failure) return {*opened.failure};
  std::optional<MountIdentity> mount = IdentityAt(opened.fd.get(), "", AT_EMPTY_PATH);
  Failures out;
  if (!mount) {
    Fail(out, NodePath(*names), "could not inspect", errno);
    return out;
  }
  RemoveChildren(opened.fd.get(), *mount, NodePath(*names), out);
  return out;
}

std::vector<RemovalFailure> RealTreeRemover::RemovePath(const std::string& path) {
  std::optional<std::vector<std::string>> names = Components(path);
  if (!names || names->empty()) return {{path, "refusing to remove this path"}};
  OpenResult parent = OpenNoFollow(root_, *names, names->size() - 1);
  if (parent.missing) return {};
  if (parent.failure) return {*parent.failure};
  std::optional<MountIdentity> mount = IdentityAt(parent.fd.get(), "", AT_EMPTY_PATH);
  Failures out;
  if (!mount) {
    Fail(out, NodePath(*names), "could not inspect", errno);
    return out;
  }
  RemoveEntry(parent.fd.get(), names->back(), *mount, NodePath(*names), out);
  return out;
}

std::vector<RemovalFailure> RealTreeRemover::CleanDirectories(
    const std::vector<std::string>& dirs) {
  out_.Line("reset", "Deleting contents of directories: " + GoList(dirs));
  std::vector<RemovalFailure> failures;
  for (const std::string& dir : dirs) {
    for (RemovalFailure& failure : CleanDirectory(dir)) failures.push_back(std::move(failure));
  }
  return failures;
}

std::vector<RemovalFailure> RealTreeRemover::RemoveFiles(const std::vector<std::string>& paths) {
  out_.Line("reset", "Deleting files: " + GoList(paths));
  std::vector<RemovalFailure> failures;
  for (const std::string& path : paths) {
    for (RemovalFailure& failure : RemovePath(path)) failures.push_back(std::move(failure));
  }
  return failures;
}

std::vector<RemovalFailure> RealTreeRemover::CleanDirectoryOf(const std::string& what,
                                                              const std::string& dir) {
  std::vector<RemovalFailure> failures = CleanDirectory(dir);
  struct stat st {};
  if (failures.empty() && ::lstat((root_ + dir).c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    out_.Line("reset", "Deleted contents of " + what + ": " + dir);
  }
  return failures;
}

}  // namespace kkadm::util
