// The whole kubelet-start phase on a REAL systemd (tests/util/systemd_instance.h): systemd runs the
// kubelet with kkadm's flags through kkadm's unit and drop-in, and a second run is idempotent.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>

#include "app/phases/init/kubelet_start_phase.h"
#include "app/util/clock.h"
#include "app/util/file_system_real.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_machine.h"
#include "tests/util/systemd_instance.h"

namespace kkadm::phases {
namespace {

namespace fs = std::filesystem;
using kkadm::testing::ReadFileOrEmpty;
using kkadm::testing::SystemdInitSystemTest;

// A node whose root is BASE/node. Inside the instance only /run and /etc/systemd/system are
// writable (BASE/run, BASE/units), so the node's kubelet and kubeconfig directories live under
// /run/kk and the node root's /etc/systemd/system and /run are those directories, bind-mounted
// (not symbolic links: a node root is a root, and a link never leads out of it). The stand-in
// kubelet records the arguments systemd gave it in /run/kk/kubelet.args, then stays up.
struct SystemdNode {
  SystemdNode(const std::string& base, const std::string& units, const std::string& bus)
      : root(MakeRoot(base, units)), init(bus, std::chrono::seconds(30)) {
    machine.hostname = "node-1";
    machine.binaries["kubelet"] = "/run/kk/kubelet";
    data.host = &host;
    data.out = &printer;
    data.kubelet_dir = "/run/kk/var/lib/kubelet";
    data.kubeconfig_dir = "/run/kk/etc/kubernetes";
    data.cfg.node_registration.name = "cp-1";
    data.cfg.node_registration.cri_socket = "unix:///var/run/containerd/containerd.sock";
    data.cfg.node_registration.kubelet_extra_args = {{"v", "2"}};
  }

  static std::string MakeRoot(const std::string& base, const std::string& units) {
    const std::string root = base + "/node";
    fs::create_directories(root + "/etc/systemd/system");
    fs::create_directories(root + "/run");
    BindMount(units, root + "/etc/systemd/system");
    BindMount(base + "/run", root + "/run");
    kkadm::testing::WriteTextFile(
        base + "/run/kk/kubelet",
        "#!/bin/sh\necho \"$@\" > /run/kk/kubelet.args\nexec sleep infinity\n", fs::perms(0755));
    return root;
  }

  ~SystemdNode() {
    for (const char* dir : {"/run", "/etc/systemd/system"})
      ::umount2((root + dir).c_str(), MNT_DETACH);
  }
  SystemdNode(const SystemdNode&) = delete;
  SystemdNode& operator=(const SystemdNode&) = delete;

  static void BindMount(const std::string& from, const std::string& to) {
    if (::mount(from.c_str(), to.c_str(), nullptr, MS_BIND, nullptr) != 0) {
      ADD_FAILURE() << "bind-mounting " << from << " on " << to << ": " << std::strerror(errno);
    }
  }

  // What the kubelet was started with, once it has written it (at most 5 s).
  std::string KubeletArgs() const {
    const std::string args_file = root + "/run/kk/kubelet.args";
    for (int i = 0; i < 50 && ReadFileOrEmpty(args_file).empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return ReadFileOrEmpty(args_file);
  }

  std::string root;
  util::RealFileSystem fs{root};
  util::SystemdInitSystem init;
  testing::FakeMachine machine;
  kkadm::testing::FakeHostSeams host_seams_;
  util::Host host{host_seams_.Over(fs, init, util::RealClock(), machine)};
  std::ostringstream out;
  util::Printer printer{out};
  InitData data;
};

// systemd read kkadm's unit (ExecStart with kubeadm's environment variables) and drop-in.
void ExpectKkadmsUnitAndDropIn(const std::string& bus_address) {
  const std::string unit_path =
      "org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/kubelet_2eservice";
  std::string exec_start = kkadm::testing::Busctl(
      bus_address, "get-property " + unit_path + " org.freedesktop.systemd1.Service ExecStart");
  EXPECT_NE(
      exec_start.find("\"/run/kk/kubelet\" 5 \"/run/kk/kubelet\" \"$KUBELET_KUBECONFIG_ARGS\" "
                      "\"$KUBELET_CONFIG_ARGS\" \"$KUBELET_KUBEADM_ARGS\" "
                      "\"$KUBELET_EXTRA_ARGS\""),
      std::string::npos)
      << exec_start;
  std::string drop_ins = kkadm::testing::Busctl(
      bus_address, "get-property " + unit_path + " org.freedesktop.systemd1.Unit DropInPaths");
  EXPECT_NE(drop_ins.find("/etc/systemd/system/kubelet.service.d/10-kkadm.conf"), std::string::npos)
      << drop_ins;
}

// A second run stops and starts the kubelet again and rewrites identical files.
void ExpectSecondRunRewritesIdenticalFiles(SystemdNode& node) {
  const std::string kubelet_dir = node.root + "/run/kk/var/lib/kubelet";
  std::string flags = ReadFileOrEmpty(kubelet_dir + "/kubeadm-flags.env");
  std::string config = ReadFileOrEmpty(kubelet_dir + "/config.yaml");
  fs::remove(node.root + "/run/kk/kubelet.args");
  Status rerun = NewKubeletStartPhase(node.data).run();
  ASSERT_TRUE(rerun.ok()) << rerun.message();
  EXPECT_TRUE(*node.init.IsActive("kubelet.service"));
  EXPECT_EQ(ReadFileOrEmpty(kubelet_dir + "/kubeadm-flags.env"), flags);
  EXPECT_EQ(ReadFileOrEmpty(kubelet_dir + "/config.yaml"), config);
}

TEST_F(SystemdInitSystemTest, KubeletStartPhaseRunsTheKubeletWithKkadmsFlags) {
  SystemdNode node(instance_->base(), Units(), instance_->BusAddress());
  Status run = NewKubeletStartPhase(node.data).run();
  ASSERT_TRUE(run.ok()) << run.message() << "\n" << node.out.str();
  EXPECT_TRUE(*node.init.IsActive("kubelet.service"));
  EXPECT_TRUE(*node.init.IsEnabled("kubelet.service"));
  EXPECT_TRUE(fs::is_symlink(Units() + "/multi-user.target.wants/kubelet.service"));
  EXPECT_EQ(node.KubeletArgs(),
            "--bootstrap-kubeconfig=/run/kk/etc/kubernetes/bootstrap-kubelet.conf "
            "--kubeconfig=/run/kk/etc/kubernetes/kubelet.conf "
            "--config=/run/kk/var/lib/kubelet/config.yaml "
            "--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock "
            "--hostname-override=cp-1 --pod-infra-container-image=registry.k8s.io/pause:3.10 "
            "--v=2\n");
  ExpectKkadmsUnitAndDropIn(instance_->BusAddress());
  ExpectSecondRunRewritesIdenticalFiles(node);
  ASSERT_TRUE(node.init.Stop("kubelet.service").ok());
  EXPECT_FALSE(*node.init.IsActive("kubelet.service"));
}

}  // namespace
}  // namespace kkadm::phases
