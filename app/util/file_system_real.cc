// RealFileSystem: POSIX calls relative to descriptors of the node root, with atomic writes (temp,
// fsync, rename; directories synced by Sync).
#include "app/util/file_system_real.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>
#include <utility>

#include "app/util/input_file.h"
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
Status SyncPath(const NodeRoot& root, const std::string& path, bool directory) {
  const UniqueFd fd = root.Open(path, directory ? O_RDONLY | O_DIRECTORY : O_WRONLY | O_NOFOLLOW);
  const std::string host_path = root.Lexical(path);
  if (!fd.ok()) return ErrnoStatus(directory ? "opening directory" : "opening", host_path, errno);
  if ((directory ? ::fsync(fd.get()) : ::fdatasync(fd.get())) != 0) {
    return ErrnoStatus(directory ? "syncing directory" : "syncing", host_path, errno);
  }
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

// A file being written atomically: `temp`, open as `file`, is to replace `name` in `dir`.
// `target` is the node path's host path (messages, and what later calls wait for).
struct AtomicWrite {
  UniqueFd file;
  UniqueFd dir;
  std::string temp;
  std::string name;
  std::string target;
};

// A new temporary file beside `name` in `dir`, as mkostemp(3) makes one (it has no *at form):
// TempFilePrefix's name and six random letters or digits; `temp` is its name.
UniqueFd CreateTempAt(const UniqueFd& dir, const std::string& name, std::string& temp) {
  static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    unsigned char random[6];
    if (::getrandom(random, sizeof random, 0) != sizeof random) return UniqueFd();
    temp = TempFilePrefix(name);
    for (unsigned char r : random) temp += kChars[r % (sizeof kChars - 1)];
    UniqueFd fd(::openat(dir.get(), temp.c_str(),
                         O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (fd.ok() || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return UniqueFd();
}

// The last steps of an atomic write, once the temp file holds the data: fsync, close, rename.
Status FinishWrite(AtomicWrite& write) {
  auto fail = [&](std::string_view what, int err) {
    ::unlinkat(write.dir.get(), write.temp.c_str(), 0);
    return ErrnoStatus(what, write.target, err);
  };
  if (::fsync(write.file.get()) != 0) return fail("writing", errno);
  if (::close(write.file.Release()) != 0) return fail("closing", errno);
  // renameat replaces whatever `name` is, a link too, and never follows it.
  if (::renameat(write.dir.get(), write.temp.c_str(), write.dir.get(), write.name.c_str()) != 0)
    return fail("renaming into place", errno);
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

  // Takes over `write` to finish it; a failure of an earlier write of its target is forgotten,
  // this one replaces it. When no worker thread can be started the write is finished here, and
  // its outcome returned.
  Status Commit(AtomicWrite write) {
    std::unique_lock lock(mu_);
    std::erase_if(failures_, [&](const auto& failure) { return failure.first == write.target; });
    if (threads_.empty() && !StartThreads()) {
      lock.unlock();
      return FinishWrite(write);
    }
    pending_.insert(write.target);
    jobs_.push_back(std::move(write));
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
      AtomicWrite job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      Status done = FinishWrite(job);
      job.dir.Reset();
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
  std::deque<AtomicWrite> jobs_;
  std::multiset<std::string> pending_;  // targets queued or being finished
  std::vector<std::pair<std::string, Status>> failures_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;  // started by the first Commit
};

RealFileSystem::RealFileSystem(std::string root, Writes writes) : root_(std::move(root)) {
  if (writes == Writes::kBehind) behind_ = std::make_unique<WriteBehind>();
}

RealFileSystem::~RealFileSystem() { static_cast<void>(Sync()); }

Status RealFileSystem::Sync() {
  Status first = behind_ ? behind_->Drain() : Status();
  std::vector<std::string> dirs, files;
  dirs.swap(unsynced_dirs_);
  files.swap(unsynced_files_);
  for (const auto& path : files) {
    Status s = SyncPath(root_, path, false);
    if (first.ok() && s.code() != StatusCode::kNotFound) first = s;
  }
  for (const auto& dir : dirs) {
    Status s = SyncPath(root_, dir, true);
    // A directory removed since (reset, a test's cleanup) has no rename left to keep.
    if (first.ok() && s.code() != StatusCode::kNotFound) first = s;
  }
  return first;
}

Status RealFileSystem::Settle(const std::string& host_path) const {
  return behind_ ? behind_->Settle(host_path) : Status();
}

std::string RealFileSystem::HostPath(const std::string& path) const {
  // The caller may hand it to another program; a failed write surfaces at Sync.
  static_cast<void>(Settle(ToHost(path)));
  return root_.Resolve(path);
}

Result<std::string> RealFileSystem::ReadFile(const std::string& path) const {
  const std::string host_path = ToHost(path);
  KKADM_RETURN_IF_ERROR(Settle(host_path));
  // O_NONBLOCK: opening a FIFO does not wait for a writer; it is refused as not a regular file.
  const UniqueFd fd = root_.Open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (!fd.ok()) return ErrnoStatus("reading", host_path, errno);
  Result<std::string> content = ReadRegularFile(fd.get(), kMaxFileBytes);
  if (!content)
    return FailedPrecondition(fmt::format("reading {}: {}", host_path, content.error().message()));
  return content;
}

void RealFileSystem::StopAppending(const std::string& path) {
  std::erase_if(appending_, [&](const auto& open) {
    return open.first == path || open.first.starts_with(path + "/");
  });
}

Status RealFileSystem::WriteFile(const std::string& path, std::string_view data, unsigned mode) {
  StopAppending(path);
  const std::string host_path = ToHost(path);
  spdlog::debug("writing {} ({} bytes, mode {:04o})", host_path, data.size(), mode);
  // An earlier write of it is finished first; if that failed, this one replaces it.
  static_cast<void>(Settle(host_path));
  const std::string dir = ParentDirectory(path);
  AtomicWrite write;
  write.target = host_path;
  write.name = path.substr(path.find_last_of('/') + 1);
  if (write.name.empty()) return ErrnoStatus("writing", host_path, EISDIR);
  // Missing parents get 0755 whatever the umask.
  Result<UniqueFd> parent = MakeNodeDirs(root_, dir, 0755);
  if (!parent) return parent.error();
  write.dir = std::move(*parent);
  write.file = CreateTempAt(write.dir, write.name, write.temp);
  if (!write.file.ok()) return ErrnoStatus("creating temporary file for", host_path, errno);
  Status status = ::fchmod(write.file.get(), mode) != 0
                      ? Status(StatusCode::kFailedPrecondition, std::strerror(errno))
                      : WriteAll(write.file.get(), data);
  if (!status.ok()) {
    ::unlinkat(write.dir.get(), write.temp.c_str(), 0);
    return status.Wrap(fmt::format("writing {}", host_path));
  }
  AddOnce(unsynced_dirs_, dir);
  if (behind_) return behind_->Commit(std::move(write));
  return FinishWrite(write);
}

Status RealFileSystem::AppendFile(const std::string& path, std::string_view data, unsigned mode) {
  const std::string host_path = ToHost(path);
  KKADM_RETURN_IF_ERROR(Settle(host_path));
  auto open = appending_.find(path);
  if (open == appending_.end()) {
    // O_NOFOLLOW: a link planted at the file's place is refused (ELOOP), never appended through.
    UniqueFd fd = root_.Open(path, O_WRONLY | O_APPEND | O_NOFOLLOW);
    // A new file is written whole and renamed into place: a kill or a full disk leaves it absent
    // or holding its first data, never empty (an empty journal would be a node where kkadm
    // recorded nothing, and reset would leave kkadm's work behind). It is in place on return,
    // even when writes finish behind: what is appended announces what the caller does next.
    if (!fd.ok() && errno == ENOENT) {
      KKADM_RETURN_IF_ERROR(WriteFile(path, data, mode));
      return Settle(host_path);
    }
    if (!fd.ok()) return ErrnoStatus("opening", host_path, errno);
    open = appending_.emplace(path, std::move(fd)).first;
  }
  Status status = WriteAll(open->second.get(), data);
  if (!status.ok()) return status.Wrap(fmt::format("appending to {}", host_path));
  AddOnce(unsynced_files_, path);
  return Status();
}

Status RealFileSystem::MakeDirs(const std::string& path, unsigned mode) {
  KKADM_RETURN_IF_ERROR(Settle(ToHost(path)));
  // As kubeadm's os.MkdirAll: an existing directory keeps its mode; new ones get theirs exactly.
  return MakeNodeDirs(root_, path, mode).status();
}

Result<FileInfo> RealFileSystem::Stat(const std::string& path) const {
  const std::string host_path = ToHost(path);
  KKADM_RETURN_IF_ERROR(Settle(host_path));
  // lstat: O_PATH | O_NOFOLLOW opens a link itself.
  const UniqueFd fd = root_.Open(path, O_PATH | O_NOFOLLOW);
  struct stat st {};
  if (!fd.ok() || ::fstat(fd.get(), &st) != 0) return ErrnoStatus("stat", host_path, errno);
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
  UniqueFd fd = root_.Open(path, O_RDONLY | O_DIRECTORY);
  DIR* dir = fd.ok() ? ::fdopendir(fd.get()) : nullptr;
  if (dir == nullptr) return ErrnoStatus("listing", host_path, errno);
  fd.Release();  // closedir closes it
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  const int err = errno;
  ::closedir(dir);
  if (err != 0) return ErrnoStatus("listing", host_path, err);
  std::sort(names.begin(), names.end());
  return names;
}

Status RealFileSystem::Remove(const std::string& path) {
  StopAppending(path);
  const std::string host_path = ToHost(path);
  spdlog::debug("removing {}", host_path);
  // Waits only: a failed write of what is to go is still Sync's to report.
  static_cast<void>(Settle(host_path));
  std::string name;
  const UniqueFd dir = root_.OpenParent(path, name);
  if (!dir.ok()) {
    if (errno == ENOENT) return Status();  // nor is what it would hold
    return ErrnoStatus("removing", host_path, errno);
  }
  // unlinkat never follows `name`: a link goes, its target stays.
  if (::unlinkat(dir.get(), name.c_str(), 0) == 0 || errno == ENOENT) return Status();
  if (errno == EISDIR || errno == EPERM) {
    if (::unlinkat(dir.get(), name.c_str(), AT_REMOVEDIR) == 0 || errno == ENOENT) return Status();
  }
  return ErrnoStatus("removing", host_path, errno);
}

}  // namespace kkadm::util
