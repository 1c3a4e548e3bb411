// OpenEventFile: the one place the event file of `--events FILE` is created.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "app/util/event_writer.h"

namespace kkadm::util {

Result<std::unique_ptr<std::ostream>> OpenEventFile(const std::string& path) {
  // Created 0600 before the stream opens it: with --show-secrets it holds the join token.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Unavailable("opening the event file " + path + ": " + std::strerror(errno));
  }
  ::close(fd);
  auto out = std::make_unique<std::ofstream>(path, std::ios::out | std::ios::trunc);
  if (!*out) return Unavailable("opening the event file " + path);
  return std::unique_ptr<std::ostream>(std::move(out));
}

}  // namespace kkadm::util
