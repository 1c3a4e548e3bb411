#include "app/util/machine_real.h"

#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <fstream>

#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

// A TCP listener on 127.0.0.1 at a kernel-chosen port, closed at the end of the test.
class LoopbackListener {
 public:
  LoopbackListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    auto* sa = reinterpret_cast<sockaddr*>(&addr);
    ok_ = fd_ >= 0 && ::bind(fd_, sa, len) == 0 && ::listen(fd_, 1) == 0 &&
          ::getsockname(fd_, sa, &len) == 0;
    port_ = ntohs(addr.sin_port);
  }
  ~LoopbackListener() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool ok() const { return ok_; }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  bool ok_ = false;
  int port_ = 0;
};

TEST(RealMachineTest, UserCpusMemoryHostname) {
  RealMachine machine;
  EXPECT_EQ(machine.EffectiveUid(), ::geteuid());
  EXPECT_GE(machine.NumCpus(), 1);
  EXPECT_GT(machine.MemoryBytes(), 0u);
  EXPECT_FALSE(machine.Hostname().empty());
}

TEST(RealMachineTest, PortBoundByTheTestIsBusy) {
  LoopbackListener listener;
  ASSERT_TRUE(listener.ok());
  RealMachine machine;
  Status status = machine.CheckPortFree(listener.port());
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(status.message(), ::testing::HasSubstr(std::to_string(listener.port())));
}

TEST(RealMachineTest, FreePortIsFreeAndLeftFree) {
  int port = 0;
  {
    LoopbackListener listener;  // find a port nobody uses, then release it
    ASSERT_TRUE(listener.ok());
    port = listener.port();
  }
  RealMachine machine;
  EXPECT_TRUE(machine.CheckPortFree(port).ok());
  EXPECT_TRUE(machine.CheckPortFree(port).ok());  // closed again after the first check
}

TEST(RealMachineTest, LookPath) {
  RealMachine machine;
  auto sh = machine.LookPath("sh");
  ASSERT_TRUE(sh.has_value());
  EXPECT_EQ(sh->front(), '/');
  EXPECT_EQ(::access(sh->c_str(), X_OK), 0);
  EXPECT_FALSE(machine.LookPath("kkadm-no-such-binary-x9").has_value());
  EXPECT_EQ(machine.LookPath(*sh), sh);
}

TEST(RealMachineTest, ReadSystemFile) {
  RealMachine machine;
  auto ostype = machine.ReadSystemFile("/proc/sys/kernel/ostype");
  ASSERT_TRUE(ostype.has_value()) << ostype.error().message();
  EXPECT_EQ(*ostype, "Linux\n");
  EXPECT_EQ(machine.ReadSystemFile("/proc/kkadm-nope").error().code(), StatusCode::kNotFound);
}

TEST(RealMachineTest, DefaultRouteAddressIsAnIpOrFailedPrecondition) {
  RealMachine machine;
  auto address = machine.DefaultRouteAddress();
  // With an IPv4 default route in the table, an address must come back.
  auto table = machine.ReadSystemFile("/proc/net/route");
  if (table && DefaultRouteInterfaceV4(*table)) {
    EXPECT_TRUE(address.has_value()) << address.error().message();
  }
  if (!address.has_value()) {
    EXPECT_EQ(address.error().code(), StatusCode::kFailedPrecondition);
    return;
  }
  unsigned char buf[16];
  EXPECT_TRUE(::inet_pton(AF_INET, address->c_str(), buf) == 1 ||
              ::inet_pton(AF_INET6, address->c_str(), buf) == 1)
      << *address;
}

TEST(RealMachineTest, CheckUnixSocket) {
  kkadm::testing::TempDir dir;
  std::string path = dir.path() + "/cri.sock";
  RealMachine machine;
  EXPECT_EQ(machine.CheckUnixSocket(path).code(), StatusCode::kNotFound);
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof(addr.sun_path));
  path.copy(addr.sun_path, path.size());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  EXPECT_TRUE(machine.CheckUnixSocket(path).ok());
  ::close(fd);
  std::ofstream(dir.path() + "/plain") << "x";
  EXPECT_EQ(machine.CheckUnixSocket(dir.path() + "/plain").code(), StatusCode::kFailedPrecondition);
}

TEST(RealMachineTest, Getenv) {
  ::setenv("KKADM_MACHINE_TEST_VAR", "value", 1);
  RealMachine machine;
  EXPECT_EQ(machine.Getenv("KKADM_MACHINE_TEST_VAR"), "value");
  ::unsetenv("KKADM_MACHINE_TEST_VAR");
  EXPECT_FALSE(machine.Getenv("KKADM_MACHINE_TEST_VAR").has_value());
}

TEST(DefaultRouteParseTest, V4PicksTheLowestMetricUpDefault) {
  const char* table =
      "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
      "eth1\t00000000\t0102A8C0\t0002\t0\t0\t50\t00000000\t0\t0\t0\n"  // not up
      "eth0\t00000000\t0100000A\t0003\t0\t0\t100\t00000000\t0\t0\t0\n"
      "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
      "eth0\t0000000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n";
  EXPECT_EQ(DefaultRouteInterfaceV4(table), "eth0");
  EXPECT_FALSE(DefaultRouteInterfaceV4(
      "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
      "eth0\t0000000A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"));
}

TEST(DefaultRouteParseTest, V6SkipsRejectAndLoopback) {
  std::string zero(32, '0');
  std::string table =
      zero + " 00 " + zero + " 00 " + zero + " ffffffff 00000001 00000000 00200200       lo\n" +
      "fd000000000000000000000000000000 40 " + zero + " 00 " + zero +
      " 00000100 00000001 00000000 00000001     eth0\n" + zero + " 00 " + zero + " 00 " +
      "fe800000000000000000000000000001 00000400 00000001 00000000 00000003     eth0\n";
  EXPECT_EQ(DefaultRouteInterfaceV6(table), "eth0");
  EXPECT_FALSE(DefaultRouteInterfaceV6(zero + " 00 " + zero + " 00 " + zero +
                                       " ffffffff 00000001 00000000 00200200       lo\n"));
}

}  // namespace
}  // namespace kkadm::util
