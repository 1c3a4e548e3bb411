// RealFileSystem: POSIX calls, with atomic writes (temp, fsync, rename; directories synced by Sync).
#include "app/util/file_system_real.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

namespace kkadm::util {
namespace {

Status ErrnoStatus(std::string_view what, const std::string& path, int err) {
  std::string message = fmt::format("{} {}: {}", what, path, std::strerror(err));
  if (err == ENOENT) return NotFound(std::move(message));
  if (err == EEXIST) return AlreadyExists(std::move(message));
  return FailedPrecondition(std::move(message));
}

std::string ParentOf(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return path.substr(0, slash);
}

Status WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status(StatusCode::kFailedPrecondition, std::strerror(errno));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status();
}

Status SyncDirectory(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("opening directory", dir, errno);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return ErrnoStatus("syncing directory", dir, err);
  return Status();
}

}  // namespace

RealFileSystem::RealFileSystem(std::string root) : root_(std::move(root)) {
  while (!root_.empty() && root_.back() == '/') root_.pop_back();
}

RealFileSystem::~RealFileSystem() { static_cast<void>(Sync()); }

Status RealFileSystem::Sync() {
  std::vector<std::string> dirs;
  dirs.swap(unsynced_dirs_);
  Status first;
  for (const auto& dir : dirs) {
    Status s = SyncDirectory(dir);
    // A directory removed since (reset, a test's cleanup) has no rename left to keep.
    if (first.ok() && s.code() != StatusCode::kNotFound) first = s;
  }
  return first;
}

std::string RealFileSystem::HostPath(const std::string& path) const {
  if (root_.empty()) return path;
  return path.empty() || path[0] != '/' ? root_ + "/" + path : root_ + path;
}

Result<std::string> RealFileSystem::ReadFile(const std::string& path) const {
  const std::string host_path = HostPath(path);
  int fd = ::open(host_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("reading", host_path, errno);
  std::string content;
  char buf[16384];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return ErrnoStatus("reading", host_path, err);
    }
    if (n == 0) break;
    content.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return content;
}

Status RealFileSystem::WriteFile(const std::string& path, std::string_view data, unsigned mode) {
  const std::string host_path = HostPath(path);
  const std::string dir = ParentOf(host_path);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return FailedPrecondition(fmt::format("creating directory {}: {}", dir, ec.message()));

  std::string temp = host_path + ".kkadm-tmp-XXXXXX";
  int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("creating temporary file for", host_path, errno);
  auto fail = [&](Status status) {
    ::close(fd);
    ::unlink(temp.c_str());
    return status.Wrap(fmt::format("writing {}", host_path));
  };
  if (::fchmod(fd, mode) != 0) return fail(Status(StatusCode::kFailedPrecondition, std::strerror(errno)));
  if (Status s = WriteAll(fd, data); !s.ok()) return fail(s);
  if (::fsync(fd) != 0) return fail(Status(StatusCode::kFailedPrecondition, std::strerror(errno)));
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    return ErrnoStatus("closing", host_path, errno);
  }
  if (::rename(temp.c_str(), host_path.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    return ErrnoStatus("renaming into place", host_path, err);
  }
  if (std::find(unsynced_dirs_.begin(), unsynced_dirs_.end(), dir) == unsynced_dirs_.end()) {
    unsynced_dirs_.push_back(dir);
  }
  return Status();
}

Status RealFileSystem::MakeDirs(const std::string& path, unsigned mode) {
  const std::string host_path = HostPath(path);
  std::error_code ec;
  std::filesystem::create_directories(host_path, ec);
  if (ec) return FailedPrecondition(fmt::format("creating directory {}: {}", host_path, ec.message()));
  if (::chmod(host_path.c_str(), mode) != 0) return ErrnoStatus("chmod", host_path, errno);
  return Status();
}

Result<FileInfo> RealFileSystem::Stat(const std::string& path) const {
  const std::string host_path = HostPath(path);
  struct stat st {};
  if (::lstat(host_path.c_str(), &st) != 0) return ErrnoStatus("stat", host_path, errno);
  FileInfo info;
  if (S_ISREG(st.st_mode)) info.type = FileType::kRegular;
  else if (S_ISDIR(st.st_mode)) info.type = FileType::kDirectory;
  else if (S_ISLNK(st.st_mode)) info.type = FileType::kSymlink;
  else info.type = FileType::kOther;
  info.mode = st.st_mode & 07777;
  info.size = static_cast<std::uintmax_t>(st.st_size);
  return info;
}

Result<std::vector<std::string>> RealFileSystem::ListDir(const std::string& path) const {
  const std::string host_path = HostPath(path);
  std::error_code ec;
  std::vector<std::string> names;
  for (std::filesystem::directory_iterator it(host_path, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  if (ec) {
    std::string message = fmt::format("listing {}: {}", host_path, ec.message());
    if (ec == std::errc::no_such_file_or_directory) return NotFound(std::move(message));
    return FailedPrecondition(std::move(message));
  }
  std::sort(names.begin(), names.end());
  return names;
}

Status RealFileSystem::Remove(const std::string& path) {
  const std::string host_path = HostPath(path);
  if (::unlink(host_path.c_str()) == 0 || errno == ENOENT) return Status();
  if (errno == EISDIR || errno == EPERM) {
    if (::rmdir(host_path.c_str()) == 0 || errno == ENOENT) return Status();
  }
  return ErrnoStatus("removing", host_path, errno);
}

}  // namespace kkadm::util
