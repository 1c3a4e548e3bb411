#include "app/phases/cri/cri_socket.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/util/file_system_real.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_init_system.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases::cri {
namespace {

class CriSocketTest : public ::testing::Test {
 protected:
  void AddSocket(const std::string& node_path) {
    machine_.unix_sockets.insert(fs_.HostPath(node_path));
  }
  kkadm::testing::TempDir root_;
  util::RealFileSystem fs_{root_.path()};
  kkadm::testing::FakeInitSystem init_;
  kkadm::testing::FakeMachine machine_;
  kkadm::testing::FakeClock clock_;
  kkadm::testing::FakeHostSeams seams_;
  util::Host host_{seams_.Over(fs_, init_, clock_, machine_)};
};

TEST_F(CriSocketTest, NoneFoundIsContainerd) {
  EXPECT_EQ(*DetectCriSocket(host_), "unix:///var/run/containerd/containerd.sock");
}

TEST_F(CriSocketTest, TheOneFoundUnderTheRoot) {
  AddSocket("/var/run/crio/crio.sock");
  EXPECT_EQ(*DetectCriSocket(host_), "unix:///var/run/crio/crio.sock");
  // The machine's own /var/run does not count under another root.
  machine_.unix_sockets.insert("/var/run/cri-dockerd.sock");
  EXPECT_EQ(*DetectCriSocket(host_), "unix:///var/run/crio/crio.sock");
}

TEST_F(CriSocketTest, SeveralFoundIsKubeadmsError) {
  AddSocket("/var/run/containerd/containerd.sock");
  AddSocket("/var/run/cri-dockerd.sock");
  Result<std::string> found = DetectCriSocket(host_);
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error().message(),
            "found multiple CRI endpoints on the host. Please define which one do you wish to use "
            "by setting the 'criSocket' field in the kubeadm configuration file: "
            "unix:///var/run/containerd/containerd.sock, unix:///var/run/cri-dockerd.sock");
  EXPECT_EQ(*CriSocketOrDetected(host_, "unix:///x.sock"), "unix:///x.sock");
}

TEST_F(CriSocketTest, BeforeTheHostTheMachineLooksUnderTheRootfsAlike) {
  // The node's /var/run is a link to /run: resolved inside the root, never to the machine's /run.
  ASSERT_EQ(::mkdir((root_.path() + "/run").c_str(), 0755), 0);
  ASSERT_EQ(::mkdir((root_.path() + "/var").c_str(), 0755), 0);
  ASSERT_EQ(::symlink("/run", (root_.path() + "/var/run").c_str()), 0);
  machine_.unix_sockets.insert(root_.path() + "/run/crio/crio.sock");
  EXPECT_EQ(*DetectCriSocket(machine_, root_.path()), "unix:///var/run/crio/crio.sock");
  EXPECT_EQ(*NodeCriSocketDetector(machine_, root_.path())(), "unix:///var/run/crio/crio.sock");
  // This machine's own root: its containerd socket only.
  EXPECT_EQ(*DetectCriSocket(machine_, ""), "unix:///var/run/containerd/containerd.sock");
  machine_.unix_sockets.insert(root_.path() + "/run/cri-dockerd.sock");
  Result<std::string> several = DetectCriSocket(machine_, root_.path());
  ASSERT_FALSE(several);
  EXPECT_THAT(
      several.error().message(),
      ::testing::EndsWith(": unix:///var/run/crio/crio.sock, unix:///var/run/cri-dockerd.sock"));
}

TEST_F(CriSocketTest, ConnectAsksForTheSocketUnderTheRoot) {
  ASSERT_TRUE(ConnectCri(host_, "unix:///run/k.sock"));
  ASSERT_EQ(seams_.network.cri_asked.size(), 1u);
  EXPECT_EQ(seams_.network.cri_asked[0].endpoint, "unix:///run/k.sock");
  EXPECT_EQ(seams_.network.cri_asked[0].socket_path, fs_.HostPath("/run/k.sock"));
  EXPECT_FALSE(ConnectCri(host_, "tcp://127.0.0.1:1"));
}

}  // namespace
}  // namespace kkadm::phases::cri
