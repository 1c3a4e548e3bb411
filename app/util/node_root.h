// NodeRoot: node paths resolved inside the node root (--rootfs) as a chroot would resolve them.
// A symbolic link's absolute target names a path of the node root and `..` never climbs above
// it (Linux's openat2(2) with RESOLVE_IN_ROOT), so an image whose etc/kubernetes is a link to
// /srv/k8s has its files written to ROOT/srv/k8s, never to this machine's /srv/k8s. With the
// machine's own root ("/") paths resolve as they always do, through plain openat(2).
#pragma once

#include <string>
#include <utility>

namespace kkadm::util {

// A file descriptor owned: closed when it goes (errno is kept across the close).
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { Reset(); }

  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }
  int Release() { return std::exchange(fd_, -1); }
  void Reset();

 private:
  int fd_ = -1;
};

class NodeRoot {
 public:
  // `root` is a host directory; "" or "/" is this machine's root. It is opened here (and again at
  // the next call while it cannot be).
  explicit NodeRoot(std::string root);

  // True under a node root other than "/": paths are then resolved with openat2(2), which needs
  // Linux 5.6 (ENOSYS before; kkadm then refuses rather than resolve through the host).
  bool confined() const { return !root_.empty(); }

  // Where `path` (a node path) is on this host, joined without resolving anything: for messages.
  std::string Lexical(const std::string& path) const;

  // `path` opened with open(2)'s `flags` (O_CLOEXEC added) and `mode`: each component resolved
  // inside the root, the last one too unless `flags` hold O_NOFOLLOW. On failure the descriptor
  // is not ok() and errno says why (ELOOP for a link to /proc's magic links under a node root).
  UniqueFd Open(const std::string& path, int flags, unsigned mode = 0) const;

  // The directory that holds `path`, resolved as Open does and opened O_PATH (a descriptor for
  // the *at calls), and in `name` the last component, which nothing here follows. EINVAL for
  // the root itself, which has no parent.
  UniqueFd OpenParent(const std::string& path, std::string& name) const;

  // Where `path` resolves on this host, links inside the root followed: what a program kkadm
  // starts must be given (ROOT/srv/k8s/admin.conf for /etc/kubernetes/admin.conf when
  // etc/kubernetes -> /srv/k8s). Components that do not exist yet are joined as they are, and so
  // is a link whose target does not exist. Lexical() for the machine's own root.
  std::string Resolve(const std::string& path) const;

 private:
  // `path` relative to the root ("." for the root); with the machine's own root, the path as it
  // is ("/" for "" too).
  std::string Relative(const std::string& path) const;
  int RootFd() const;

  std::string root_;          // without a trailing slash; empty for "/"
  mutable UniqueFd root_fd_;  // O_PATH; confined() only
  mutable int root_error_ = 0;
};

}  // namespace kkadm::util
