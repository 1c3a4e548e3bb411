// Tests for kubeadm-flags.env: flag set, sorting, overrides, Go quoting, file modes.
#include "app/phases/kubelet/kubeadm_flags.h"

#include <gtest/gtest.h>

#include "app/util/file_system_real.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases {
namespace {

config::NodeRegistration Node(std::string name) {
  config::NodeRegistration n;
  n.name = std::move(name);
  n.cri_socket = "unix:///var/run/containerd/containerd.sock";
  return n;
}

std::string EnvLine(const config::NodeRegistration& n, const std::string& hostname) {
  auto base = KubeletBaseFlags(n, "registry.k8s.io", hostname, false);
  return RenderKubeadmFlagsEnv(ArgumentsToCommand(base, n.kubelet_extra_args));
}

TEST(KubeadmFlagsTest, DefaultLineMatchesKubeadm) {
  EXPECT_EQ(EnvLine(Node("node-1"), "node-1"),
            "KUBELET_KUBEADM_ARGS=\"--container-runtime-endpoint=unix:///var/run/containerd/"
            "containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.10\"\n");
}

TEST(KubeadmFlagsTest, HostnameOverrideOnlyWhenNodeNameDiffers) {
  std::string line = EnvLine(Node("cp-a"), "node-1");
  EXPECT_NE(line.find(" --hostname-override=cp-a "), std::string::npos) << line;
  EXPECT_EQ(EnvLine(Node("node-1"), "node-1").find("hostname-override"), std::string::npos);
  EXPECT_EQ(EnvLine(Node(""), "node-1").find("hostname-override"), std::string::npos);
}

TEST(KubeadmFlagsTest, ExtraArgsOverrideSameNameAndAllAreSorted) {
  auto n = Node("node-1");
  n.kubelet_extra_args = {{"pod-infra-container-image", "my.reg/pause:9"},
                          {"v", "4"},
                          {"cgroup-root", "/k"},
                          {"v", "2"}};
  EXPECT_EQ(EnvLine(n, "node-1"),
            "KUBELET_KUBEADM_ARGS=\"--cgroup-root=/k --container-runtime-endpoint=unix:///var/"
            "run/containerd/containerd.sock --pod-infra-container-image=my.reg/pause:9 --v=2 "
            "--v=4\"\n");
}

TEST(KubeadmFlagsTest, HostnameOverrideFromExtraArgsWins) {
  auto n = Node("node-1");
  n.kubelet_extra_args = {{"hostname-override", "other"}};
  std::string line = EnvLine(n, "node-1");
  EXPECT_NE(line.find("--hostname-override=other"), std::string::npos) << line;
  EXPECT_EQ(line.find("--hostname-override=node-1"), std::string::npos);
}

TEST(KubeadmFlagsTest, RegisterWithTaintsOnlyWhenAsked) {
  auto n = Node("node-1");
  n.taints = std::vector<config::Taint>{{"a", "b", "NoSchedule"}, {"c", "", "NoExecute"}};
  auto without = ArgumentsToCommand(KubeletBaseFlags(n, "r", "node-1", false), {});
  auto with = ArgumentsToCommand(KubeletBaseFlags(n, "r", "node-1", true), {});
  EXPECT_EQ(without.size(), 2u);
  ASSERT_EQ(with.size(), 3u);
  EXPECT_EQ(with[2], "--register-with-taints=a=b:NoSchedule,c:NoExecute");
}

TEST(KubeadmFlagsTest, GoQuoteEscapesLikeStrconvQuote) {
  EXPECT_EQ(GoQuote("plain"), "\"plain\"");
  EXPECT_EQ(GoQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(GoQuote("t\tn\nnul\x01"), "\"t\\tn\\nnul\\x01\"");
  EXPECT_EQ(GoQuote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(GoQuote("bad\xff"), "\"bad\\xff\"");
  EXPECT_EQ(GoQuote("nb\xc2\xa0sp"), "\"nb\\u00a0sp\"");
  EXPECT_EQ(GoQuote("\x7f"), "\"\\x7f\"");
}

TEST(KubeadmFlagsTest, WritesFile0644InNew0700Dir) {
  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  ASSERT_TRUE(WriteKubeletDirFile(fs, "/var/lib/kubelet", kKubeadmFlagsEnvName, "X=\"1\"\n").ok());
  auto dir = fs.Stat("/var/lib/kubelet");
  auto file = fs.Stat("/var/lib/kubelet/kubeadm-flags.env");
  ASSERT_TRUE(dir && file);
  EXPECT_EQ(dir->mode, 0700u);
  EXPECT_EQ(file->mode, 0644u);
  EXPECT_EQ(*fs.ReadFile("/var/lib/kubelet/kubeadm-flags.env"), "X=\"1\"\n");
}

TEST(KubeadmFlagsTest, ExistingDirKeepsItsMode) {
  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  ASSERT_TRUE(fs.MakeDirs("/var/lib/kubelet", 0750).ok());
  ASSERT_TRUE(WriteKubeletDirFile(fs, "/var/lib/kubelet", kKubeadmFlagsEnvName, "x").ok());
  EXPECT_EQ(fs.Stat("/var/lib/kubelet")->mode, 0750u);
}

}  // namespace
}  // namespace kkadm::phases
