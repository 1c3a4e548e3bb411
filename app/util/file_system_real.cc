// RealFileSystem: POSIX calls, with atomic writes (temp, fsync, rename; directories synced by
// Sync).
#include "app/util/file_system_real.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>
#include <utility>

#include "app/util/make_dirs.h"

namespace kkadm::util {
namespace {

Status ErrnoStatus(std::string_view what, const std::string& path, int err) {
  std::string message = fmt::format("{} {}: {}", what, path, std::strerror(err));
  if (err == ENOENT) return NotFound(std::move(message));
  if (err == EEXIST) return AlreadyExists(std::move(message));
  return FailedPrecondition(std::move(message));
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

// fsync of a directory (its renames) or fdatasync of a file (what was appended to it).
Status SyncPath(const std::string& path, bool directory) {
  int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_WRONLY) | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(directory ? "opening directory" : "opening", path, errno);
  int rc = directory ? ::fsync(fd) : ::fdatasync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return ErrnoStatus(directory ? "syncing directory" : "syncing", path, err);
  return Status();
}

void AddOnce(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

// True when `path` is `dir` or inside it.
bool IsAtOrUnder(const std::string& path, const std::string& dir) {
  if (!path.starts_with(dir)) return false;
  return path.size() == dir.size() || dir.ends_with('/') || path[dir.size()] == '/';
}

// The last steps of an atomic write, for a temp file that holds the data: fsync, close, rename.
Status FinishWrite(int fd, const std::string& temp, const std::string& target) {
  if (::fsync(fd) != 0) {
    int err = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    return ErrnoStatus("writing", target, err);
  }
  if (::close(fd) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    return ErrnoStatus("closing", target, err);
  }
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(temp.c_str());
    return ErrnoStatus("renaming into place", target, err);
  }
  return Status();
}

}  // namespace

std::string ParentDirectory(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string_view::npos || slash == 0) return "/";
  return std::string(path.substr(0, slash));
}

std::string TempFilePrefix(std::string_view path) {
  // A dot-file: the kubelet takes every other file in its manifest directory for a static Pod.
  const std::size_t name = path.find_last_of('/') + 1;  // 0 without a slash
  return std::string(path.substr(0, name)) + "." + std::string(path.substr(name)) + ".kkadm-tmp-";
}

// The worker threads of RealFileSystem::Writes::kBehind and what they have left to do.
class WriteBehind {
 public:
  ~WriteBehind() {
    {
      std::unique_lock lock(mu_);
      finished_.wait(lock, [this] { return pending_.empty(); });
      stopping_ = true;
    }
    queued_.notify_all();
    for (auto& thread : threads_) thread.join();
  }

  // Takes over `fd`, the temp file `temp` holding the data, to finish writing `target`; a failure
  // of an earlier write of `target` is forgotten, this one replaces it. When no worker thread
  // can be started the write is finished here, and its outcome returned.
  Status Commit(int fd, std::string temp, std::string target) {
    std::unique_lock lock(mu_);
    std::erase_if(failures_, [&](const auto& failure) { return failure.first == target; });
    if (threads_.empty() && !StartThreads()) {
      lock.unlock();
      return FinishWrite(fd, temp, target);
    }
    pending_.insert(target);
    jobs_.push_back(Job{fd, std::move(temp), std::move(target)});
    lock.unlock();
    queued_.notify_one();
    return Status();
  }

  // Waits for the writes to `host_path` and below it; the failure of the write of `host_path`
  // itself, if it failed (those below it are Drain's to report).
  Status Settle(const std::string& host_path) {
    std::unique_lock lock(mu_);
    finished_.wait(lock, [&] { return !PendingAtOrUnder(host_path); });
    for (const auto& [target, status] : failures_) {
      if (target == host_path) return status;
    }
    return Status();
  }

  // Waits for every write; the first that failed, after which failures are forgotten.
  Status Drain() {
    std::unique_lock lock(mu_);
    finished_.wait(lock, [this] { return pending_.empty(); });
    Status first = failures_.empty() ? Status() : failures_.front().second;
    failures_.clear();
    return first;
  }

 private:
  struct Job {
    int fd;
    std::string temp;
    std::string target;
  };
  // I/O-bound: more writers than cores let the device merge their cache flushes.
  static constexpr int kThreads = 4;

  bool StartThreads() {  // mu_ held
    try {
      for (int i = 0; i < kThreads; ++i) threads_.emplace_back([this] { Work(); });
    } catch (const std::system_error&) {
      // Threads that did start still serve; with none, writes are finished in place.
    }
    return !threads_.empty();
  }

  void Work() {
    std::unique_lock lock(mu_);
    for (;;) {
      queued_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      Job job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      Status done = FinishWrite(job.fd, job.temp, job.target);
      lock.lock();
      if (!done.ok()) failures_.emplace_back(job.target, std::move(done));
      pending_.erase(pending_.find(job.target));
      finished_.notify_all();
    }
  }

  bool PendingAtOrUnder(const std::string& host_path) const {  // mu_ held
    for (auto it = pending_.lower_bound(host_path); it != pending_.end(); ++it) {
      if (!it->starts_with(host_path)) break;
      if (IsAtOrUnder(*it, host_path)) return true;
    }
    return false;
  }

  std::mutex mu_;
  std::condition_variable queued_;    // workers: a job or stopping_
  std::condition_variable finished_;  // waiters: a job ended
  std::deque<Job> jobs_;
  std::multiset<std::string> pending_;  // targets queued or being finished
  std::vector<std::pair<std::string, Status>> failures_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;  // started by the first Commit
};

RealFileSystem::RealFileSystem(std::string root, Writes writes) : root_(std::move(root)) {
  while (!root_.empty() && root_.back() == '/') root_.pop_back();
  if (writes == Writes::kBehind) behind_ = std::make_unique<WriteBehind>();
}

RealFileSystem::~RealFileSystem() { static_cast<void>(Sync()); }

Status RealFileSystem::Sync() {
  Status first = behind_ ? behind_->Drain() : Status();
  std::vector<std::string> dirs, files;
  dirs.swap(unsynced_dirs_);
  files.swap(unsynced_files_);
  for (const auto& path : files) {
    Status s = SyncPath(path, false);
    if (first.ok() && s.code() != StatusCode::kNotFound) first = s;
  }
  for (const auto& dir : dirs) {
    Status s = SyncPath(dir, true);
    // A directory removed since (reset, a test's cleanup) has no rename left to keep.
    if (first.ok() && s.code() != StatusCode::kNotFound) first = s;
  }
  return first;
}

std::string RealFileSystem::ToHost(const std::string& path) const {
  if (root_.empty()) return path;
  return path.empty() || path[0] != '/' ? root_ + "/" + path : root_ + path;
}

Status RealFileSystem::Settle(const std::string& host_path) const {
  return behind_ ? behind_->Settle(host_path) : Status();
}

std::string RealFileSystem::HostPath(const std::string& path) const {
  std::string host_path = ToHost(path);
  // The caller may hand it to another program; a failed write surfaces at Sync.
  static_cast<void>(Settle(host_path));
  return host_path;
}

Result<std::string> RealFileSystem::ReadFile(const std::string& path) const {
  const std::string host_path = ToHost(path);
  KKADM_RETURN_IF_ERROR(Settle(host_path));
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
  const std::string host_path = ToHost(path);
  spdlog::debug("writing {} ({} bytes, mode {:04o})", host_path, data.size(), mode);
  // An earlier write of it is finished first; if that failed, this one replaces it.
  static_cast<void>(Settle(host_path));
  const std::string dir = ParentDirectory(host_path);
  // Missing parents get 0755 whatever the umask.
  KKADM_RETURN_IF_ERROR(MakeDirsWithModes(dir, 0755));

  std::string temp = TempFilePrefix(host_path) + "XXXXXX";
  int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("creating temporary file for", host_path, errno);
  auto fail = [&](Status status) {
    ::close(fd);
    ::unlink(temp.c_str());
    return status.Wrap(fmt::format("writing {}", host_path));
  };
  if (::fchmod(fd, mode) != 0)
    return fail(Status(StatusCode::kFailedPrecondition, std::strerror(errno)));
  if (Status s = WriteAll(fd, data); !s.ok()) return fail(s);
  AddOnce(unsynced_dirs_, dir);
  if (behind_) return behind_->Commit(fd, std::move(temp), host_path);
  return FinishWrite(fd, temp, host_path);
}

Status RealFileSystem::AppendFile(const std::string& path, std::string_view data, unsigned mode) {
  const std::string host_path = ToHost(path);
  KKADM_RETURN_IF_ERROR(Settle(host_path));
  const std::string dir = ParentDirectory(host_path);
  // Missing parents get 0755 whatever the umask.
  KKADM_RETURN_IF_ERROR(MakeDirsWithModes(dir, 0755));
  int fd = ::open(host_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  const bool created = fd >= 0;
  if (!created && errno == EEXIST) fd = ::open(host_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("opening", host_path, errno);
  // The umask may have taken bits away from a new file's mode.
  Status status = created && ::fchmod(fd, mode) != 0
                      ? Status(StatusCode::kFailedPrecondition, std::strerror(errno))
                      : WriteAll(fd, data);
  ::close(fd);
  if (!status.ok()) return status.Wrap(fmt::format("appending to {}", host_path));
  AddOnce(unsynced_files_, host_path);
  if (created) AddOnce(unsynced_dirs_, dir);
  return Status();
}

Status RealFileSystem::MakeDirs(const std::string& path, unsigned mode) {
  const std::string host_path = ToHost(path);
  KKADM_RETURN_IF_ERROR(Settle(host_path));
  // As kubeadm's os.MkdirAll: an existing directory keeps its mode; new ones get theirs exactly.
  return MakeDirsWithModes(host_path, mode);
}

Result<FileInfo> RealFileSystem::Stat(const std::string& path) const {
  const std::string host_path = ToHost(path);
  KKADM_RETURN_IF_ERROR(Settle(host_path));
  struct stat st {};
  if (::lstat(host_path.c_str(), &st) != 0) return ErrnoStatus("stat", host_path, errno);
  FileInfo info;
  if (S_ISREG(st.st_mode))
    info.type = FileType::kRegular;
  else if (S_ISDIR(st.st_mode))
    info.type = FileType::kDirectory;
  else if (S_ISLNK(st.st_mode))
    info.type = FileType::kSymlink;
  else
    info.type = FileType::kOther;
  info.mode = st.st_mode & 07777;
  info.size = static_cast<std::uintmax_t>(st.st_size);
  return info;
}

Result<std::vector<std::string>> RealFileSystem::ListDir(const std::string& path) const {
  const std::string host_path = ToHost(path);
  KKADM_RETURN_IF_ERROR(Settle(host_path));
  std::error_code ec;
  std::vector<std::string> names;
  for (std::filesystem::directory_iterator it(host_path, ec), end; !ec && it != end;
       it.increment(ec)) {
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
  const std::string host_path = ToHost(path);
  spdlog::debug("removing {}", host_path);
  // Waits only: a failed write of what is to go is still Sync's to report.
  static_cast<void>(Settle(host_path));
  if (::unlink(host_path.c_str()) == 0 || errno == ENOENT) return Status();
  if (errno == EISDIR || errno == EPERM) {
    if (::rmdir(host_path.c_str()) == 0 || errno == ENOENT) return Status();
  }
  return ErrnoStatus("removing", host_path, errno);
}

}  // namespace kkadm::util
