// Reading input files of this machine, bounded (see input_file.h).
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "app/util/input_file.h"

namespace kkadm::util {
namespace {

// What an input that is not a regular file is, for the message.
const char* NotRegular(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

Status OverTheLimit(std::size_t max_bytes) {
  return InvalidArgument(fmt::format("over the limit of {} bytes", max_bytes));
}

// At most `max_bytes` and one byte more from `fd`.
Result<std::string> ReadAtMost(int fd, std::size_t max_bytes) {
  std::string content;
  char buf[65536];
  while (content.size() <= max_bytes) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return InvalidArgument(std::strerror(errno));
    if (n == 0) return content;
    content.append(buf, static_cast<std::size_t>(n));
  }
  return OverTheLimit(max_bytes);
}

}  // namespace

Result<std::string> ReadRegularFile(int fd, std::size_t max_bytes) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return InvalidArgument(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return InvalidArgument(NotRegular(st.st_mode));
  // Refused at once when its size says so; a file that grows meanwhile is cut off by ReadAtMost.
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) {
    return OverTheLimit(max_bytes);
  }
  return ReadAtMost(fd, max_bytes);
}

Result<std::string> ReadInputFile(const std::string& path, std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return InvalidArgument(std::strerror(errno));
  Result<std::string> content = ReadRegularFile(fd, max_bytes);
  ::close(fd);
  return content;
}

}  // namespace kkadm::util
