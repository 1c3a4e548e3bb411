// A REAL systemd for tests: the host's systemd booted as PID 1 in private namespaces by
// tests/e2e/lib/sd_boot.sh (docs/real-components.md §3a), and the fixture that boots one per test
// suite (SystemdInitSystem's own tests, and the kubelet-start work on real systemd).
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/util/init_system_systemd.h"
#include "tests/util/servers/test_process.h"

extern char** environ;

namespace kkadm::testing {

// Writes `text` to `path` with `perms`, creating the parent directories.
inline void WriteTextFile(const std::string& path, const std::string& text,
                          std::filesystem::perms perms) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
  std::filesystem::permissions(path, perms);
}

// The output of a shell command (stdout and stderr).
inline std::string ShellOutput(const std::string& command) {
  std::string out;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

// `busctl --system ARGS` against the systemd at `bus_address`: its output and errors.
inline std::string Busctl(const std::string& bus_address, const std::string& args) {
  return ShellOutput("DBUS_SYSTEM_BUS_ADDRESS=" + bus_address + " busctl --system " + args);
}

// The systemd process whose parent is `parent` (sd_boot.sh's unshare), or 0. The name is checked:
// before it execs unshare, sd_boot.sh's bash has short-lived children of its own.
inline pid_t SystemdChildOf(pid_t parent) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    std::string stat = ReadFileOrEmpty(entry.path().string() + "/stat");
    auto open = stat.find('(');
    auto close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid != parent || stat.substr(open + 1, close - open - 1) != "systemd") continue;
    return static_cast<pid_t>(std::stol(entry.path().filename().string()));
  }
  return 0;
}

// One systemd instance, booted for the whole suite and always torn down: halted with
// SIGRTMIN+3 (SIGKILL if it does not exit), its cgroups and its base directory removed.
class SystemdInstance {
 public:
  bool Boot(std::string* why) {
    char pattern[] = "/tmp/kksd-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) return Fail(why, "mkdtemp failed");
    base_ = pattern;
    if (!Spawn()) return Fail(why, "spawning sd_boot.sh failed");
    for (int i = 0; i < 100; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (systemd_pid_ == 0) systemd_pid_ = SystemdChildOf(boot_pid_);
      if (systemd_pid_ != 0 && std::filesystem::exists(base_ + "/run/dbus/system_bus_socket")) {
        util::SystemdInitSystem probe(BusAddress());
        auto up = probe.IsActive("basic.target");
        if (up.has_value() && *up) return true;
      }
      if (::waitpid(boot_pid_, nullptr, WNOHANG) == boot_pid_) {
        boot_pid_ = 0;
        return Fail(why, "sd_boot.sh exited early: " + ReadFileOrEmpty(Log()));
      }
    }
    return Fail(why, "systemd did not reach basic.target in 10 s: " + ReadFileOrEmpty(Log()));
  }

  ~SystemdInstance() {
    Halt();
    RemoveCgroups();
    std::error_code ec;
    if (!base_.empty()) std::filesystem::remove_all(base_, ec);
  }

  const std::string& base() const { return base_; }
  std::string BusAddress() const { return "unix:path=" + base_ + "/run/dbus/system_bus_socket"; }

 private:
  using milliseconds = std::chrono::milliseconds;

  static bool Fail(std::string* why, std::string text) {
    *why = std::move(text);
    return false;
  }

  std::string Log() const { return base_ + "/boot.log"; }

  // bash tests/e2e/lib/sd_boot.sh BASE, its output to BASE/boot.log.
  bool Spawn() {
    std::string script = SourceDir().string() + "/tests/e2e/lib/sd_boot.sh";
    std::string log = Log();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::string bash = "/bin/bash";
    std::vector<char*> argv = {bash.data(), script.data(), base_.data(), nullptr};
    int rc = ::posix_spawn(&boot_pid_, "/bin/bash", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0;
  }

  // SIGRTMIN+3 asks systemd to halt; when PID 1 exits, unshare (boot_pid_) exits too.
  void Halt() {
    if (boot_pid_ == 0) return;
    if (systemd_pid_ == 0) systemd_pid_ = SystemdChildOf(boot_pid_);
    if (systemd_pid_ != 0) ::kill(systemd_pid_, SIGRTMIN + 3);
    if (WaitForBoot(milliseconds(15000))) return;
    // Killing PID 1 of the namespace takes every process in it along; unshare goes last, since
    // killing it first would orphan systemd.
    if (systemd_pid_ != 0) ::kill(systemd_pid_, SIGKILL);
    if (WaitForBoot(milliseconds(5000))) return;
    ::kill(boot_pid_, SIGKILL);
    ::waitpid(boot_pid_, nullptr, 0);
  }

  bool WaitForBoot(milliseconds timeout) {
    for (auto waited = milliseconds(0); waited < timeout; waited += milliseconds(100)) {
      if (::waitpid(boot_pid_, nullptr, WNOHANG) == boot_pid_) return true;
      std::this_thread::sleep_for(milliseconds(100));
    }
    return false;
  }

  // Deepest first: a cgroup directory can only go once its children are gone.
  void RemoveCgroups() {
    namespace fs = std::filesystem;
    if (base_.empty()) return;
    std::string name = "kk-sd-" + fs::path(base_).filename().string();
    for (const char* h : {"systemd", "unified"}) {
      fs::path top = fs::path("/sys/fs/cgroup") / h / name;
      std::error_code ec;
      if (!fs::exists(top, ec)) continue;
      std::vector<fs::path> dirs;
      for (const auto& e : fs::recursive_directory_iterator(top, ec)) {
        if (e.is_directory(ec) && !e.is_symlink(ec)) dirs.push_back(e.path());
      }
      std::sort(dirs.begin(), dirs.end(), [](const fs::path& a, const fs::path& b) {
        return a.string().size() > b.string().size();
      });
      dirs.push_back(top);
      for (const auto& d : dirs) ::rmdir(d.c_str());
    }
  }

  std::string base_;
  pid_t boot_pid_ = 0;
  pid_t systemd_pid_ = 0;
};

// One systemd per test suite; the tests skip without root and fail when systemd did not boot.
class SystemdInitSystemTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (::geteuid() != 0) return;
    instance_ = new SystemdInstance();
    if (!instance_->Boot(&boot_error_)) {
      delete instance_;
      instance_ = nullptr;
    }
  }
  static void TearDownTestSuite() {
    delete instance_;
    instance_ = nullptr;
  }
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "booting systemd as PID 1 in namespaces needs root";
    ASSERT_NE(instance_, nullptr) << "could not boot systemd: " << boot_error_;
  }

  // The instance's /etc/systemd/system.
  std::string Units() const { return instance_->base() + "/units"; }
  // busctl's "b true" / "b false" for the unit's NeedDaemonReload.
  std::string NeedDaemonReload(const std::string& name) const {
    return Busctl("get-property org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/" + name +
                  "_2eservice org.freedesktop.systemd1.Unit NeedDaemonReload");
  }
  std::string Busctl(const std::string& args) const {
    return kkadm::testing::Busctl(instance_->BusAddress(), args);
  }

  inline static SystemdInstance* instance_ = nullptr;
  inline static std::string boot_error_;
};

}  // namespace kkadm::testing
