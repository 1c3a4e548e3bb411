// Resolving node paths inside the node root with openat2(2) (see node_root.h).
#include <fcntl.h>
#include <linux/openat2.h>  // struct open_how, RESOLVE_* (glibc 2.36 has no openat2 wrapper)
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <climits>

#include "app/util/node_root.h"

namespace kkadm::util {
namespace {

// Links in the root resolve as in a chroot; /proc's magic links (which jump to wherever their
// file is, the machine's own root included) are refused.
constexpr unsigned long long kInRoot = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;

int OpenInRoot(int root_fd, const std::string& relative, int flags, unsigned mode) {
  open_how how{};
  how.flags = static_cast<unsigned long long>(flags);
  how.mode = (flags & (O_CREAT | O_TMPFILE)) != 0 ? mode : 0;  // else EINVAL
  how.resolve = kInRoot;
  for (int attempt = 0;; ++attempt) {
    const long fd = ::syscall(SYS_openat2, root_fd, relative.c_str(), &how, sizeof how);
    // EAGAIN: a rename elsewhere raced the check that `..` stays inside; the kernel asks again.
    if (fd >= 0 || (errno != EAGAIN && errno != EINTR) || attempt == 16)
      return static_cast<int>(fd);
  }
}

// The host path a descriptor stands for, from /proc; "" when /proc cannot say.
std::string PathOfFd(int fd) {
  const std::string link = "/proc/self/fd/" + std::to_string(fd);
  char buf[PATH_MAX];
  const ssize_t n = ::readlink(link.c_str(), buf, sizeof buf);
  if (n <= 0 || static_cast<std::size_t>(n) >= sizeof buf || buf[0] != '/') return "";
  return std::string(buf, static_cast<std::size_t>(n));
}

// The last component of `path` ("" for the root) and, in `parent`, the path above it.
std::string SplitLast(const std::string& path, std::string& parent) {
  std::size_t end = path.find_last_not_of('/');
  if (end == std::string::npos) {
    parent = path.empty() ? "" : "/";
    return "";
  }
  const std::size_t slash = path.find_last_of('/', end);
  parent = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  return path.substr(slash == std::string::npos ? 0 : slash + 1, end - slash);
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    Reset();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void UniqueFd::Reset() {
  if (fd_ < 0) return;
  const int saved = errno;
  ::close(fd_);
  fd_ = -1;
  errno = saved;
}

NodeRoot::NodeRoot(std::string root) : root_(std::move(root)) {
  while (!root_.empty() && root_.back() == '/') root_.pop_back();
  if (confined()) static_cast<void>(RootFd());
}

int NodeRoot::RootFd() const {
  if (!root_fd_.ok()) {
    root_fd_ = UniqueFd(::open(root_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    root_error_ = root_fd_.ok() ? 0 : errno;
  }
  if (!root_fd_.ok()) errno = root_error_;
  return root_fd_.get();
}

std::string NodeRoot::Lexical(const std::string& path) const {
  if (root_.empty()) return path;
  return path.empty() || path[0] != '/' ? root_ + "/" + path : root_ + path;
}

std::string NodeRoot::Relative(const std::string& path) const {
  if (!confined()) return path.empty() ? "/" : path;
  const std::size_t start = path.find_first_not_of('/');
  return start == std::string::npos ? "." : path.substr(start);
}

UniqueFd NodeRoot::Open(const std::string& path, int flags, unsigned mode) const {
  flags |= O_CLOEXEC;
  if (!confined()) return UniqueFd(::openat(AT_FDCWD, Relative(path).c_str(), flags, mode));
  const int root_fd = RootFd();
  if (root_fd < 0) return UniqueFd();
  return UniqueFd(OpenInRoot(root_fd, Relative(path), flags, mode));
}

UniqueFd NodeRoot::OpenParent(const std::string& path, std::string& name) const {
  std::string parent;
  name = SplitLast(path, parent);
  if (name.empty() || name == "." || name == "..") {
    errno = EINVAL;
    return UniqueFd();
  }
  // "a/b" has "a/" above it; a relative path with no slash, the root (as Lexical joins it).
  return Open(parent.empty() ? "/" : parent, O_PATH | O_DIRECTORY);
}

std::string NodeRoot::Resolve(const std::string& path) const {
  if (!confined()) return Lexical(path);
  const UniqueFd fd = Open(path, O_PATH);
  if (!fd.ok()) {
    std::string parent;
    const std::string name = SplitLast(path, parent);
    if (errno != ENOENT || name.empty() || parent.empty()) return Lexical(path);
    const std::string above = Resolve(parent);
    return above + (above.ends_with('/') ? "" : "/") + name;
  }
  const std::string host = PathOfFd(fd.get());
  const std::string root = PathOfFd(RootFd());
  const bool under = host.starts_with(root) &&
                     (root == "/" || host.size() == root.size() || host[root.size()] == '/');
  if (host.empty() || root.empty() || !under) return Lexical(path);
  // The root's own name as the caller gave it, then the part below it.
  return root_ + host.substr(root == "/" ? 0 : root.size());
}

}  // namespace kkadm::util
