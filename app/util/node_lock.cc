// NodeLock over flock(2) on the node root's directory.
#include "app/util/node_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kkadm::util {

Result<NodeLock> NodeLock::Acquire(const std::string& root_dir) {
  const int fd = ::open(root_dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return FailedPrecondition("opening " + root_dir + " to lock it: " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return NodeLock(fd);
  const int error = errno;
  ::close(fd);
  if (error == EWOULDBLOCK) {
    return FailedPrecondition("another kkadm command is changing this node (it holds the lock on " +
                              root_dir +
                              "); nothing was changed. Run this one again once it has ended");
  }
  return FailedPrecondition("locking " + root_dir + ": " + std::strerror(error));
}

NodeLock::~NodeLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace kkadm::util
