// NodeLock: one kkadm command at a time changes a node. Two at once (an init and a reset from two
// terminals, cloud-init and a user) would interleave their writes and their journal records. The
// lock is flock(2) on the node root's directory itself: nothing is created for it, and the kernel
// drops it when the holder ends, however it ends (a killed command leaves no stale lock).
#pragma once

#include <string>

#include "app/util/status.h"

namespace kkadm::util {

class NodeLock {
 public:
  // Takes the lock of the node root `root_dir` (a host path), without waiting: FailedPrecondition
  // "another kkadm command is changing this node (...)" when another process holds it.
  static Result<NodeLock> Acquire(const std::string& root_dir);

  NodeLock(NodeLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  NodeLock& operator=(NodeLock&&) = delete;
  NodeLock(const NodeLock&) = delete;
  NodeLock& operator=(const NodeLock&) = delete;
  ~NodeLock();

 private:
  explicit NodeLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace kkadm::util
