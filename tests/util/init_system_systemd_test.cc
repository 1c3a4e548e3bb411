// SystemdInitSystem and the kubelet-start work against a REAL systemd: the host's systemd booted
// as PID 1 in private namespaces by tests/e2e/lib/sd_boot.sh (docs/real-components.md §3a).
#include "app/util/init_system_systemd.h"

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
#include <thread>

#include "app/phases/kubelet/kubelet_start_phase.h"
#include "app/util/clock.h"
#include "app/util/file_system_real.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/source_dir.h"

extern char** environ;

namespace kkadm::util {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

std::string SourceDir() { return kkadm::testing::SourceDir().string(); }

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteText(const std::string& path, const std::string& text, fs::perms perms) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
  fs::permissions(path, perms);
}

// The output of a shell command (stdout and stderr).
std::string Shell(const std::string& command) {
  std::string out;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

// The systemd process whose parent is `parent` (sd_boot.sh's unshare), or 0. The name is checked:
// before it execs unshare, sd_boot.sh's bash has short-lived children of its own.
pid_t SystemdChildOf(pid_t parent) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    std::string stat = ReadText(entry.path().string() + "/stat");
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
    std::string script = SourceDir() + "/tests/e2e/lib/sd_boot.sh";
    std::string log = base_ + "/boot.log";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::string bash = "/bin/bash";
    std::vector<char*> argv = {bash.data(), script.data(), base_.data(), nullptr};
    int rc = ::posix_spawn(&boot_pid_, "/bin/bash", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return Fail(why, "spawning sd_boot.sh failed");
    for (int i = 0; i < 100; ++i) {
      std::this_thread::sleep_for(milliseconds(100));
      if (systemd_pid_ == 0) systemd_pid_ = SystemdChildOf(boot_pid_);
      if (systemd_pid_ != 0 && fs::exists(base_ + "/run/dbus/system_bus_socket")) {
        SystemdInitSystem probe(BusAddress());
        auto up = probe.IsActive("basic.target");
        if (up.has_value() && *up) return true;
      }
      if (::waitpid(boot_pid_, nullptr, WNOHANG) == boot_pid_) {
        boot_pid_ = 0;
        return Fail(why, "sd_boot.sh exited early: " + ReadText(base_ + "/boot.log"));
      }
    }
    return Fail(why, "systemd did not reach basic.target in 10 s: " + ReadText(log));
  }

  ~SystemdInstance() {
    Halt();
    RemoveCgroups();
    std::error_code ec;
    if (!base_.empty()) fs::remove_all(base_, ec);
  }

  const std::string& base() const { return base_; }
  std::string BusAddress() const { return "unix:path=" + base_ + "/run/dbus/system_bus_socket"; }

 private:
  static bool Fail(std::string* why, std::string text) {
    *why = std::move(text);
    return false;
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

  std::string Units() const { return instance_->base() + "/units"; }
  // busctl's "b true" / "b false" for the unit's NeedDaemonReload.
  std::string NeedDaemonReload(const std::string& name) const {
    return Busctl("get-property org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/" + name +
                  "_2eservice org.freedesktop.systemd1.Unit NeedDaemonReload");
  }
  std::string Busctl(const std::string& args) const {
    return Shell("DBUS_SYSTEM_BUS_ADDRESS=" + instance_->BusAddress() + " busctl --system " + args);
  }

  static SystemdInstance* instance_;
  static std::string boot_error_;
};

SystemdInstance* SystemdInitSystemTest::instance_ = nullptr;
std::string SystemdInitSystemTest::boot_error_;

TEST(SystemdInitSystemUnreachableTest, MissingBusIsUnavailable) {
  SystemdInitSystem init("unix:path=/nonexistent/kkadm/system_bus_socket");
  auto active = init.IsActive("kubelet.service");
  ASSERT_FALSE(active.has_value());
  EXPECT_EQ(active.error().code(), StatusCode::kUnavailable);
  EXPECT_NE(active.error().message().find("/nonexistent/kkadm/system_bus_socket"),
            std::string::npos)
      << active.error().message();
  EXPECT_EQ(init.Start("kubelet.service").code(), StatusCode::kUnavailable);
}

TEST(SystemdInitSystemUnreachableTest, FactoryReadsEnvironment) {
  ::setenv("KKADM_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/kkadm/env_socket", 1);
  auto init = NewSystemdInitSystem("");
  ::unsetenv("KKADM_SYSTEM_BUS_ADDRESS");
  Status s = init->DaemonReload();
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("env_socket"), std::string::npos) << s.message();
}

TEST_F(SystemdInitSystemTest, UnitLifecycle) {
  SystemdInitSystem init(instance_->BusAddress(), std::chrono::seconds(30));
  EXPECT_FALSE(*init.Exists("kkdemo.service"));
  EXPECT_FALSE(*init.IsActive("kkdemo.service"));
  EXPECT_FALSE(*init.IsEnabled("kkdemo.service"));
  WriteText(Units() + "/kkdemo.service",
            "[Service]\nExecStart=/usr/bin/sleep infinity\n[Install]\nWantedBy=multi-user.target\n",
            fs::perms(0644));
  ASSERT_TRUE(init.DaemonReload().ok());
  EXPECT_TRUE(*init.Exists("kkdemo.service"));

  ASSERT_TRUE(init.Enable("kkdemo.service").ok());
  EXPECT_TRUE(*init.IsEnabled("kkdemo.service"));
  EXPECT_TRUE(fs::is_symlink(Units() + "/multi-user.target.wants/kkdemo.service"));
  Status started = init.Start("kkdemo.service");
  ASSERT_TRUE(started.ok()) << started.message();
  EXPECT_TRUE(*init.IsActive("kkdemo.service"));
  ASSERT_TRUE(init.Restart("kkdemo.service").ok());
  EXPECT_TRUE(*init.IsActive("kkdemo.service"));
  ASSERT_TRUE(init.Stop("kkdemo.service").ok());
  EXPECT_FALSE(*init.IsActive("kkdemo.service"));
  ASSERT_TRUE(init.Disable("kkdemo.service").ok());
  EXPECT_FALSE(*init.IsEnabled("kkdemo.service"));
  EXPECT_FALSE(fs::exists(Units() + "/multi-user.target.wants/kkdemo.service"));
}

// A unit systemd has not loaded, or found missing before it was written, is read as it is: no
// reload. A loaded unit whose file changed, or that was loaded without a drop-in just written, is
// reloaded. A running witness unit whose file changed after it was loaded shows whether systemd
// reloaded: its NeedDaemonReload only clears on a reload (a unit that is not running would be
// unloaded and read afresh by the next query).
TEST_F(SystemdInitSystemTest, ReloadIfStaleReloadsOnlyForChangedUnits) {
  SystemdInitSystem init(instance_->BusAddress(), std::chrono::seconds(30));
  auto make_witness_stale = [&](const std::string& seconds) {
    WriteText(Units() + "/kkwitness.service",
              "[Service]\nExecStart=/usr/bin/sleep " + seconds + "\n", fs::perms(0644));
  };
  make_witness_stale("1001");
  ASSERT_TRUE(init.Start("kkwitness.service").ok());
  make_witness_stale("1002");
  ASSERT_EQ(NeedDaemonReload("kkwitness"), "b true\n");

  const std::string unit_file = "/etc/systemd/system/kkfresh.service";
  const std::string drop_in = "/etc/systemd/system/kkfresh.service.d/10-new.conf";
  EXPECT_EQ(init.Stop("kkfresh.service").code(), StatusCode::kNotFound);
  WriteText(Units() + "/kkfresh.service", "[Service]\nExecStart=/usr/bin/sleep 2001\n",
            fs::perms(0644));
  ASSERT_TRUE(init.ReloadIfStale("kkfresh.service", {unit_file}).ok());
  EXPECT_EQ(NeedDaemonReload("kkwitness"), "b true\n");  // not reloaded
  ASSERT_TRUE(init.Start("kkfresh.service").ok());
  const std::string exec_start =
      "get-property org.freedesktop.systemd1 "
      "/org/freedesktop/systemd1/unit/kkfresh_2eservice "
      "org.freedesktop.systemd1.Service ExecStart";
  EXPECT_NE(Busctl(exec_start).find("2001"), std::string::npos);
  ASSERT_TRUE(init.ReloadIfStale("kkfresh.service", {unit_file}).ok());
  EXPECT_EQ(NeedDaemonReload("kkwitness"), "b true\n");  // still current: not reloaded

  // systemd does not see a drop-in new to a loaded unit (NeedDaemonReload stays false).
  WriteText(Units() + "/kkfresh.service.d/10-new.conf",
            "[Service]\nExecStart=\nExecStart=/usr/bin/sleep 2002\n", fs::perms(0644));
  ASSERT_TRUE(init.ReloadIfStale("kkfresh.service", {unit_file, drop_in}).ok());
  EXPECT_EQ(NeedDaemonReload("kkwitness"), "b false\n");  // reloaded
  ASSERT_TRUE(init.Restart("kkfresh.service").ok());
  EXPECT_NE(Busctl(exec_start).find("2002"), std::string::npos);

  make_witness_stale("1003");
  WriteText(Units() + "/kkfresh.service", "[Service]\nExecStart=/usr/bin/sleep 2003\n",
            fs::perms(0644));
  ASSERT_EQ(NeedDaemonReload("kkfresh"), "b true\n");
  ASSERT_TRUE(init.ReloadIfStale("kkfresh.service", {unit_file, drop_in}).ok());
  EXPECT_EQ(NeedDaemonReload("kkfresh"), "b false\n");
  EXPECT_EQ(NeedDaemonReload("kkwitness"), "b false\n");  // reloaded
  ASSERT_TRUE(init.Stop("kkfresh.service").ok());
  ASSERT_TRUE(init.Stop("kkwitness.service").ok());
}

TEST_F(SystemdInitSystemTest, ErrorsCarrySystemdsNameAndMessage) {
  SystemdInitSystem init(instance_->BusAddress(), std::chrono::seconds(30));
  Status stop = init.Stop("kk-no-such-unit.service");
  EXPECT_EQ(stop.code(), StatusCode::kNotFound);
  EXPECT_NE(stop.message().find("org.freedesktop.systemd1.NoSuchUnit"), std::string::npos)
      << stop.message();
  EXPECT_FALSE(*init.IsEnabled("kk-no-such-unit.service"));

  WriteText(Units() + "/kkfail.service", "[Service]\nType=oneshot\nExecStart=/bin/false\n",
            fs::perms(0644));
  ASSERT_TRUE(init.DaemonReload().ok());
  Status start = init.Start("kkfail.service");
  EXPECT_EQ(start.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(start.message().find("\"failed\""), std::string::npos) << start.message();
}

// The whole kubelet-start phase on a real systemd. Inside the instance only /run and
// /etc/systemd/system are writable (BASE/run, BASE/units), so the node's kubelet and kubeconfig
// directories live under /run/kk and the node root's /etc/systemd/system and /run point there.
TEST_F(SystemdInitSystemTest, KubeletStartPhaseRunsTheKubeletWithKkadmsFlags) {
  const std::string base = instance_->base();
  const std::string root = base + "/node";
  fs::create_directories(root + "/etc/systemd");
  fs::create_directory_symlink(Units(), root + "/etc/systemd/system");
  fs::create_directory_symlink(base + "/run", root + "/run");
  // The stand-in kubelet records the arguments systemd gave it, then stays up.
  WriteText(base + "/run/kk/kubelet",
            "#!/bin/sh\necho \"$@\" > /run/kk/kubelet.args\nexec sleep infinity\n",
            fs::perms(0755));

  RealFileSystem node_fs(root);
  SystemdInitSystem init(instance_->BusAddress(), std::chrono::seconds(30));
  testing::FakeMachine machine;
  machine.hostname = "node-1";
  machine.binaries["kubelet"] = "/run/kk/kubelet";
  Host host{node_fs, init, RealClock(), machine};
  std::ostringstream out;
  Printer printer(out);
  phases::InitData data;
  data.host = &host;
  data.out = &printer;
  data.kubelet_dir = "/run/kk/var/lib/kubelet";
  data.kubeconfig_dir = "/run/kk/etc/kubernetes";
  data.cfg.node_registration.name = "cp-1";
  data.cfg.node_registration.cri_socket = "unix:///var/run/containerd/containerd.sock";
  data.cfg.node_registration.kubelet_extra_args = {{"v", "2"}};

  Status run = phases::NewKubeletStartPhase(data).run();
  ASSERT_TRUE(run.ok()) << run.message() << "\n" << out.str();
  EXPECT_TRUE(*init.IsActive("kubelet.service"));
  EXPECT_TRUE(*init.IsEnabled("kubelet.service"));
  EXPECT_TRUE(fs::is_symlink(Units() + "/multi-user.target.wants/kubelet.service"));

  std::string args_file = base + "/run/kk/kubelet.args";
  for (int i = 0; i < 50 && ReadText(args_file).empty(); ++i) {
    std::this_thread::sleep_for(milliseconds(100));
  }
  EXPECT_EQ(ReadText(args_file),
            "--bootstrap-kubeconfig=/run/kk/etc/kubernetes/bootstrap-kubelet.conf "
            "--kubeconfig=/run/kk/etc/kubernetes/kubelet.conf "
            "--config=/run/kk/var/lib/kubelet/config.yaml "
            "--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock "
            "--hostname-override=cp-1 --pod-infra-container-image=registry.k8s.io/pause:3.10 "
            "--v=2\n");

  const std::string unit_path =
      "org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/kubelet_2eservice";
  std::string exec_start =
      Busctl("get-property " + unit_path + " org.freedesktop.systemd1.Service ExecStart");
  EXPECT_NE(
      exec_start.find("\"/run/kk/kubelet\" 5 \"/run/kk/kubelet\" \"$KUBELET_KUBECONFIG_ARGS\" "
                      "\"$KUBELET_CONFIG_ARGS\" \"$KUBELET_KUBEADM_ARGS\" "
                      "\"$KUBELET_EXTRA_ARGS\""),
      std::string::npos)
      << exec_start;
  std::string drop_ins =
      Busctl("get-property " + unit_path + " org.freedesktop.systemd1.Unit DropInPaths");
  EXPECT_NE(drop_ins.find("/etc/systemd/system/kubelet.service.d/10-kkadm.conf"), std::string::npos)
      << drop_ins;

  // A second run stops and starts the kubelet again and rewrites identical files.
  std::string flags = ReadText(root + "/run/kk/var/lib/kubelet/kubeadm-flags.env");
  std::string config = ReadText(root + "/run/kk/var/lib/kubelet/config.yaml");
  fs::remove(args_file);
  Status rerun = phases::NewKubeletStartPhase(data).run();
  ASSERT_TRUE(rerun.ok()) << rerun.message();
  EXPECT_TRUE(*init.IsActive("kubelet.service"));
  EXPECT_EQ(ReadText(root + "/run/kk/var/lib/kubelet/kubeadm-flags.env"), flags);
  EXPECT_EQ(ReadText(root + "/run/kk/var/lib/kubelet/config.yaml"), config);

  ASSERT_TRUE(init.Stop("kubelet.service").ok());
  EXPECT_FALSE(*init.IsActive("kubelet.service"));
}

}  // namespace
}  // namespace kkadm::util
