// Tests for the kubelet-start phase: files, modes, printed lines and the systemd call order.
#include "app/phases/init/kubelet_start_phase.h"

#include <gtest/gtest.h>

#include <sstream>

#include "app/util/clock.h"
#include "app/util/file_system_real.h"
#include "app/util/init_system_dry_run.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/recording_init_system.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases {
namespace {

class KubeletStartPhaseTest : public ::testing::Test {
 protected:
  KubeletStartPhaseTest() : fs_(tmp_.path()), printer_(out_) {
    data_.host = &host_;
    data_.out = &printer_;
    data_.cfg.node_registration.name = "node-1";
    data_.cfg.node_registration.cri_socket = "unix:///var/run/containerd/containerd.sock";
  }

  Status Run() { return NewKubeletStartPhase(data_).run(); }
  std::string Read(const std::string& path) { return fs_.ReadFile(path).value_or("<missing>"); }

  testing::TempDir tmp_;
  util::RealFileSystem fs_;
  testing::RecordingInitSystem init_;
  testing::FakeMachine machine_;
  kkadm::testing::FakeHostSeams host_seams_;
  util::Host host_{host_seams_.Over(fs_, init_, util::RealClock(), machine_)};
  std::ostringstream out_;
  util::Printer printer_;
  InitData data_;
};

TEST_F(KubeletStartPhaseTest, Describes) {
  workflow::Phase p = NewKubeletStartPhase(data_);
  EXPECT_EQ(p.name, "kubelet-start");
  EXPECT_EQ(p.description, "Write kubelet settings and (re)start the kubelet");
  EXPECT_EQ(p.inherit_flags,
            (std::vector<std::string>{"config", "cri-socket", "node-name", "patches", "dry-run"}));
}

TEST_F(KubeletStartPhaseTest, StopsWritesThenEnablesReloadsIfStaleStarts) {
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(init_.calls,
            (std::vector<std::string>{"stop kubelet.service", "enable kubelet.service",
                                      "reload-if-stale kubelet.service", "start kubelet.service"}));
  EXPECT_EQ(out_.str(),
            "[kubelet-start] Writing kubelet environment file with flags to file "
            "\"/var/lib/kubelet/kubeadm-flags.env\"\n"
            "[kubelet-start] Writing kubelet configuration to file "
            "\"/var/lib/kubelet/config.yaml\"\n"
            "[kubelet-start] Starting the kubelet\n");
  EXPECT_EQ(Read("/var/lib/kubelet/kubeadm-flags.env"),
            "KUBELET_KUBEADM_ARGS=\"--container-runtime-endpoint=unix:///var/run/containerd/"
            "containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.10\"\n");
  // kubeadm's layout: sequences at their key's indentation (yaml-cpp's emitter indented them).
  EXPECT_NE(Read("/var/lib/kubelet/config.yaml").find("\nclusterDNS:\n- 10.96.0.10\n"),
            std::string::npos)
      << Read("/var/lib/kubelet/config.yaml");
  EXPECT_EQ(fs_.Stat("/var/lib/kubelet")->mode, 0700u);
  for (const char* f : {"/var/lib/kubelet/kubeadm-flags.env", "/var/lib/kubelet/config.yaml",
                        "/etc/systemd/system/kubelet.service.d/10-kkadm.conf",
                        "/etc/systemd/system/kubelet.service"}) {
    auto st = fs_.Stat(f);
    ASSERT_TRUE(st.has_value()) << f;
    EXPECT_EQ(st->mode, 0644u) << f;
  }
}

// kubeadm's WriteConfigToDisk: the KubeletConfiguration is patched (target
// "kubeletconfiguration", plain maps) between the env file and the config file lines.
TEST_F(KubeletStartPhaseTest, PatchesTheKubeletConfiguration) {
  auto set = util::patches::LoadPatchSet(
      {{"/p/kubeletconfiguration.yaml", "maxPods: 42\nevictionHard: {memory.available: 5%}\n"}});
  ASSERT_TRUE(set.has_value());
  data_.patches = util::patches::Patcher("/p", std::move(*set), printer_);
  ASSERT_TRUE(NewKubeletStartPhase(data_).check().ok());
  EXPECT_EQ(out_.str(), "");
  ASSERT_TRUE(Run().ok());
  const std::string config = Read("/var/lib/kubelet/config.yaml");
  EXPECT_NE(config.find("maxPods: 42\n"), std::string::npos) << config;
  EXPECT_NE(config.find("evictionHard:\n  memory.available: 5%\n"), std::string::npos) << config;
  EXPECT_NE(
      out_.str().find("kubeadm-flags.env\"\n"
                      "[patches] Reading patches from path \"/p\"\n"
                      "[patches] Found the following patch files: [kubeletconfiguration.yaml]\n"
                      "[patches] Applied patch of type \"application/strategic-merge-patch+json\" "
                      "to target \"kubeletconfiguration\"\n"
                      "[kubelet-start] Writing kubelet configuration"),
      std::string::npos)
      << out_.str();
}

// A patch that does not apply stops kubelet-start before it writes or stops anything.
TEST_F(KubeletStartPhaseTest, APatchThatDoesNotApplyWritesNothing) {
  auto set = util::patches::LoadPatchSet(
      {{"/p/kubeletconfiguration+json.yaml", "- {op: remove, path: /noSuchField}\n"}});
  ASSERT_TRUE(set.has_value());
  data_.patches = util::patches::Patcher("/p", std::move(*set), printer_);
  Status checked = NewKubeletStartPhase(data_).check();
  EXPECT_EQ(
      checked.message(),
      "could not apply patches to the KubeletConfiguration: /p/kubeletconfiguration+json.yaml: "
      "invalid JSON patch: operation 1 (\"remove\" /noSuchField): path not found");
  EXPECT_EQ(Run().message(), checked.message());
  EXPECT_EQ(out_.str(), "");
  EXPECT_TRUE(init_.calls.empty());
  EXPECT_FALSE(fs_.Exists("/var/lib/kubelet"));
}

// kubeadm's packaged drop-in would run the kubelet its way: kkadm hides it and says so.
TEST_F(KubeletStartPhaseTest, HidesThePackagedKubeadmDropIn) {
  const std::string packaged = "/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf";
  ASSERT_TRUE(
      fs_.WriteFile(packaged, "[Service]\nExecStart=\nExecStart=/usr/bin/kubelet\n", 0644).ok());
  ASSERT_TRUE(NewKubeletStartPhase(data_).check().ok());
  ASSERT_TRUE(Run().ok());
  EXPECT_NE(out_.str().find("[kubelet-start] Hiding drop-in \"" + packaged +
                            "\", which sets ExecStart after kkadm's, from systemd\n"
                            "[kubelet-start] Starting the kubelet\n"),
            std::string::npos)
      << out_.str();
  EXPECT_NE(Read("/etc/systemd/system/kubelet.service.d/10-kubeadm.conf").find(packaged),
            std::string::npos);
}

// A drop-in kkadm cannot hide stops kubelet-start before it writes or stops anything.
TEST_F(KubeletStartPhaseTest, ADropInItCannotHideWritesNothing) {
  const std::string mine = "/etc/systemd/system/kubelet.service.d/20-mine.conf";
  ASSERT_TRUE(fs_.WriteFile(mine, "[Service]\nExecStart=\nExecStart=/opt/kubelet\n", 0644).ok());
  Status checked = NewKubeletStartPhase(data_).check();
  EXPECT_EQ(checked.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(checked.message().find("kubelet drop-in \"" + mine + "\" sets ExecStart"),
            std::string::npos)
      << checked.message();
  EXPECT_EQ(Run().message(), checked.message());
  EXPECT_EQ(out_.str(), "");
  EXPECT_TRUE(init_.calls.empty());
  EXPECT_FALSE(fs_.Exists("/var/lib/kubelet"));
  EXPECT_FALSE(fs_.Exists("/etc/systemd/system/kubelet.service.d/10-kkadm.conf"));
}

TEST_F(KubeletStartPhaseTest, NotLoadedKubeletIsFineToStop) {
  init_.fail["stop"] = NotFound("StopUnit kubelet.service: org.freedesktop.systemd1.NoSuchUnit");
  EXPECT_TRUE(Run().ok());
  EXPECT_EQ(init_.calls.back(), "start kubelet.service");
}

TEST_F(KubeletStartPhaseTest, UnreachableSystemdIsAClearError) {
  init_.fail["stop"] = Unavailable("connecting to the system bus: No such file or directory");
  Status s = Run();
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_EQ(s.message(),
            "kubelet-start: cannot reach systemd over D-Bus (connecting to the system bus: No such "
            "file or directory); kkadm needs systemd to manage the kubelet");
  EXPECT_EQ(init_.calls, std::vector<std::string>{"stop kubelet.service"});
}

TEST_F(KubeletStartPhaseTest, StartFailureKeepsSystemdsMessage) {
  init_.fail["start"] = FailedPrecondition("StartUnit kubelet.service: job failed");
  Status s = Run();
  EXPECT_EQ(s.message(), "starting the kubelet: StartUnit kubelet.service: job failed");
}

TEST_F(KubeletStartPhaseTest, FilesAreByteStableOnRerun) {
  data_.cfg.component_configs.kubelet = {{"maxPods", 42}};
  ASSERT_TRUE(Run().ok());
  std::vector<std::string> paths = {
      "/var/lib/kubelet/kubeadm-flags.env", "/var/lib/kubelet/config.yaml",
      "/etc/systemd/system/kubelet.service.d/10-kkadm.conf", "/etc/systemd/system/kubelet.service"};
  std::vector<std::string> first;
  for (const auto& p : paths) first.push_back(Read(p));
  ASSERT_TRUE(Run().ok());
  for (size_t i = 0; i < paths.size(); ++i) EXPECT_EQ(Read(paths[i]), first[i]) << paths[i];
  EXPECT_NE(first[1].find("maxPods: 42\n"), std::string::npos);
}

TEST_F(KubeletStartPhaseTest, HonoursKubeletPathResolvConfAndNodeName) {
  machine_.binaries["kubelet"] = "/opt/bin/kubelet";
  machine_.hostname = "Node-1";  // kubeadm compares with the lower-cased hostname
  ASSERT_TRUE(
      fs_.WriteFile("/run/systemd/resolve/resolv.conf", "nameserver 192.0.2.1\n", 0644).ok());
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(Read("/var/lib/kubelet/kubeadm-flags.env").find("hostname-override"),
            std::string::npos);
  EXPECT_NE(
      Read("/var/lib/kubelet/config.yaml").find("resolvConf: /run/systemd/resolve/resolv.conf"),
      std::string::npos);
  EXPECT_NE(Read("/etc/systemd/system/kubelet.service.d/10-kkadm.conf")
                .find("ExecStart=/opt/bin/kubelet $KUBELET_KUBECONFIG_ARGS"),
            std::string::npos);
}

TEST_F(KubeletStartPhaseTest, DryRunInitSystemOnlySaysWhatItWouldDo) {
  util::DryRunInitSystem dry(printer_, nullptr);
  kkadm::testing::FakeHostSeams dry_host_seams_;
  util::Host dry_host{dry_host_seams_.Over(fs_, dry, util::RealClock(), machine_)};
  data_.host = &dry_host;
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(dry.actions(),
            (std::vector<std::string>{"stop kubelet.service", "enable kubelet.service",
                                      "reload-if-stale kubelet.service", "start kubelet.service"}));
  EXPECT_NE(out_.str().find("[dryrun] Would stop the kubelet service\n"), std::string::npos);
  EXPECT_NE(out_.str().find("[kubelet-start] Starting the kubelet\n"
                            "[dryrun] Would start the kubelet service\n"),
            std::string::npos)
      << out_.str();
}

}  // namespace
}  // namespace kkadm::phases
