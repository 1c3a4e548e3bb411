// RealMachine: the Machine of the host kkadm runs on (syscalls, /proc, getifaddrs, $PATH).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/util/machine.h"

namespace kkadm::util {

class RealMachine final : public Machine {
 public:
  unsigned EffectiveUid() const override;
  // CPUs this process may run on (sched_getaffinity, like Go's runtime.NumCPU); at least 1.
  int NumCpus() const override;
  // Total usable RAM from sysinfo(2); 0 when sysinfo fails.
  std::uint64_t MemoryBytes() const override;
  std::string Hostname() const override;
  // Binds and listens on [::]:port (dual-stack; 0.0.0.0 when IPv6 is missing) with SO_REUSEADDR,
  // then closes: kubeadm's net.Listen("tcp", ":port").
  Status CheckPortFree(int port) const override;
  // Like Go's exec.LookPath: a name with a '/' is checked as is; otherwise the first absolute
  // $PATH entry holding an executable regular file of that name.
  std::optional<std::string> LookPath(const std::string& binary) const override;
  Result<std::string> ReadSystemFile(const std::string& path) const override;
  // The default route's interface from /proc/net/route (lowest metric), else from
  // /proc/net/ipv6_route; then that interface's first global unicast address of the same family.
  Result<std::string> DefaultRouteAddress() const override;
  Status CheckUnixSocket(const std::string& path) const override;
  std::optional<std::string> Getenv(const std::string& name) const override;
  bool PathExists(const std::string& path) const override;
};

// Parsers for the route tables, exposed for tests. Each returns the interface name holding the
// usable (up, not reject) default route with the lowest metric, or nullopt when there is none.
std::optional<std::string> DefaultRouteInterfaceV4(std::string_view proc_net_route);
std::optional<std::string> DefaultRouteInterfaceV6(std::string_view proc_net_ipv6_route);

}  // namespace kkadm::util
