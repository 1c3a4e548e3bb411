// RealProcessRunner: see process_real.h. The one place kkadm starts programs of the user's.
#include "app/util/process_real.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace kkadm::util {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kMaxInput = 64 * 1024;
constexpr std::size_t kMaxLine = 4096;
// How long output is still read after the program ended: what it wrote just before is in the
// pipe; a process it left behind may hold the pipe open, so no longer.
constexpr auto kDrain = std::chrono::milliseconds(200);

std::string ProcessErrnoText(int err) { return std::strerror(err); }

// A descriptor closed when it goes out of scope.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  Fd& operator=(Fd&& other) noexcept {
    Reset(other.fd_);
    other.fd_ = -1;
    return *this;
  }
  ~Fd() { Reset(-1); }
  int get() const { return fd_; }
  void Reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

Status MakePipe(Fd& read_end, Fd& write_end) {
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) return Internal("pipe: " + ProcessErrnoText(errno));
  read_end.Reset(fds[0]);
  write_end.Reset(fds[1]);
  return Status();
}

// The input file of ProcessRequest::input_file_env, removed with this object.
class InputFile {
 public:
  ~InputFile() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }
  Status Write(const std::string& data) {
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/kkadm-input-XXXXXX";
    Fd fd(::mkostemp(pattern.data(), O_CLOEXEC));  // mode 0600
    if (fd.get() < 0) return Internal("creating " + pattern + ": " + ProcessErrnoText(errno));
    path_ = pattern;
    for (std::size_t done = 0; done < data.size();) {
      ssize_t n = ::write(fd.get(), data.data() + done, data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Internal("writing " + path_ + ": " + ProcessErrnoText(errno));
      done += static_cast<std::size_t>(n);
    }
    return Status();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// One of the program's output streams: the lines handed on as they come, the tail kept.
struct Stream {
  ProcessStream which;
  Fd fd;
  std::string partial;  // the start of a line not yet ended
  std::string* kept;
  bool* cut;

  void Take(const ProcessRequest& request, std::string_view data) {
    kept->append(data);
    if (kept->size() > request.keep_bytes) {
      kept->erase(0, kept->size() - request.keep_bytes);
      *cut = true;
    }
    partial.append(data);
    // A line longer than kMaxLine comes in pieces, however much one read brought: a newline
    // found beyond the bound ends a later piece.
    for (std::size_t nl;
         (nl = partial.find('\n')) != std::string::npos || partial.size() > kMaxLine;) {
      const bool whole = nl != std::string::npos && nl <= kMaxLine;
      const std::size_t len = whole ? nl : kMaxLine;
      if (request.on_line) request.on_line(which, std::string_view(partial).substr(0, len));
      partial.erase(0, whole ? len + 1 : len);
    }
  }
  void Finish(const ProcessRequest& request) {
    if (!partial.empty() && request.on_line) request.on_line(which, partial);
    partial.clear();
    fd.Reset(-1);
  }
};

// What the child does between fork and exec: only async-signal-safe calls.
[[noreturn]] void Child(const char* path, char* const* argv, char* const* envp, int in, int out,
                        int err, int report) {
  ::setpgid(0, 0);
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD}) {
    ::sigaction(sig, &dfl, nullptr);
  }
  if (::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) {
    int e = errno;
    (void)!::write(report, &e, sizeof e);
    ::_exit(127);
  }
  ::execve(path, argv, envp);
  int e = errno;
  (void)!::write(report, &e, sizeof e);
  ::_exit(127);
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Reads what is there on the open streams, waiting at most `wait`; false when none is open.
bool Pump(const ProcessRequest& request, std::array<Stream, 2>& streams, Fd& input,
          std::size_t& input_done, std::chrono::milliseconds wait) {
  std::array<pollfd, 3> fds{};
  nfds_t n = 0;
  for (Stream& s : streams) {
    if (s.fd.get() >= 0) fds[n++] = {s.fd.get(), POLLIN, 0};
  }
  const nfds_t outputs = n;
  if (input.get() >= 0) fds[n++] = {input.get(), POLLOUT, 0};
  if (n == 0) return false;
  if (::poll(fds.data(), n, static_cast<int>(wait.count())) <= 0) return true;
  for (nfds_t i = 0; i < outputs; ++i) {
    if (fds[i].revents == 0) continue;
    Stream& s = streams[0].fd.get() == fds[i].fd ? streams[0] : streams[1];
    std::array<char, 8192> buf;
    ssize_t got = ::read(s.fd.get(), buf.data(), buf.size());
    if (got > 0) s.Take(request, std::string_view(buf.data(), static_cast<std::size_t>(got)));
    if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) s.Finish(request);
  }
  if (input.get() >= 0 && fds[outputs].revents != 0) {
    ssize_t sent = ::send(input.get(), request.input.data() + input_done,
                          request.input.size() - input_done, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) input_done += static_cast<std::size_t>(sent);
    // All written, or the program closed its stdin: either way it has all it will read.
    if (input_done == request.input.size() || (sent < 0 && errno != EAGAIN && errno != EINTR)) {
      input.Reset(-1);
    }
  }
  return true;
}

void Decode(int wstatus, ProcessOutcome& outcome) {
  if (WIFEXITED(wstatus)) {
    outcome.exited = true;
    outcome.exit_code = WEXITSTATUS(wstatus);
  } else if (WIFSIGNALED(wstatus)) {
    outcome.signal = WTERMSIG(wstatus);
  }
}

// Waits for `pid` while pumping its output; at the deadline kills its group, TERM then KILL.
void Supervise(const ProcessRequest& request, pid_t pid, std::array<Stream, 2>& streams, Fd& input,
               ProcessOutcome& outcome) {
  std::size_t input_done = 0;
  if (request.input.empty()) input.Reset(-1);
  const Clock::time_point deadline = Clock::now() + request.timeout;
  std::optional<Clock::time_point> kill_at;
  int wstatus = 0;
  for (;;) {
    Pump(request, streams, input, input_done, std::chrono::milliseconds(20));
    if (::waitpid(pid, &wstatus, WNOHANG) == pid) break;
    const Clock::time_point now = Clock::now();
    if (!kill_at && now >= deadline) {
      outcome.timed_out = true;
      ::kill(-pid, SIGTERM);
      kill_at = now + request.kill_grace;
    } else if (kill_at && now >= *kill_at) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &wstatus, 0);
      break;
    }
  }
  // What the group's others (which ignored SIGTERM) still do ends with them.
  if (outcome.timed_out) ::kill(-pid, SIGKILL);
  Decode(wstatus, outcome);
  input.Reset(-1);
  const Clock::time_point drain_end = Clock::now() + kDrain;
  while (Clock::now() < drain_end &&
         Pump(request, streams, input, input_done, std::chrono::milliseconds(20))) {
  }
  for (Stream& s : streams) s.Finish(request);
}

}  // namespace

Result<ProcessOutcome> RealProcessRunner::Run(const ProcessRequest& request) {
  if (request.input.size() > kMaxInput) {
    return InvalidArgument("the input of " + request.path + " is over 64 KiB");
  }
  std::vector<std::string> env = request.env;
  InputFile input_file;
  if (!request.input_file_env.empty()) {
    KKADM_RETURN_IF_ERROR(input_file.Write(request.input));
    env.push_back(request.input_file_env + "=" + input_file.path());
  }
  std::vector<std::string> args = {request.path};
  args.insert(args.end(), request.args.begin(), request.args.end());
  std::vector<char*> argv = CStrings(args);
  std::vector<char*> envp = CStrings(env);

  std::array<int, 2> sock{};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sock.data()) != 0) {
    return Internal("socketpair: " + ProcessErrnoText(errno));
  }
  Fd input(sock[0]), child_in(sock[1]);
  Fd out_r, out_w, err_r, err_w, report_r, report_w;
  KKADM_RETURN_IF_ERROR(MakePipe(out_r, out_w));
  KKADM_RETURN_IF_ERROR(MakePipe(err_r, err_w));
  KKADM_RETURN_IF_ERROR(MakePipe(report_r, report_w));

  const pid_t pid = ::fork();
  if (pid < 0) return Internal("fork: " + ProcessErrnoText(errno));
  if (pid == 0) {
    Child(request.path.c_str(), argv.data(), envp.data(), child_in.get(), out_w.get(), err_w.get(),
          report_w.get());
  }
  ::setpgid(pid, pid);  // also here: the group exists before any kill of it
  child_in.Reset(-1);
  out_w.Reset(-1);
  err_w.Reset(-1);
  report_w.Reset(-1);
  int exec_errno = 0;
  ssize_t got;
  do {
    got = ::read(report_r.get(), &exec_errno, sizeof exec_errno);
  } while (got < 0 && errno == EINTR);
  if (got == sizeof exec_errno) {
    ::waitpid(pid, nullptr, 0);
    return FailedPrecondition("starting " + request.path + ": " + ProcessErrnoText(exec_errno));
  }
  ProcessOutcome outcome;
  std::array<Stream, 2> streams = {
      Stream{ProcessStream::kStdout, std::move(out_r), {}, &outcome.out, &outcome.out_cut},
      Stream{ProcessStream::kStderr, std::move(err_r), {}, &outcome.err, &outcome.err_cut}};
  Supervise(request, pid, streams, input, outcome);
  return outcome;
}

}  // namespace kkadm::util
