// FakeMachine: a Machine whose facts are plain fields a test sets.
#pragma once

#include <map>
#include <set>
#include <string>

#include "app/util/machine.h"

namespace kkadm::testing {

class FakeMachine final : public util::Machine {
 public:
  unsigned euid = 0;
  int cpus = 4;
  std::uint64_t memory_bytes = 8ULL << 30;
  std::string hostname = "node-1";
  std::set<int> busy_ports;
  std::map<std::string, std::string> binaries = {{"ip", "/usr/sbin/ip"},
                                                 {"iptables", "/usr/sbin/iptables"},
                                                 {"mount", "/usr/bin/mount"},
                                                 {"nsenter", "/usr/bin/nsenter"},
                                                 {"ebtables", "/usr/sbin/ebtables"},
                                                 {"ethtool", "/usr/sbin/ethtool"},
                                                 {"socat", "/usr/bin/socat"},
                                                 {"tc", "/usr/sbin/tc"},
                                                 {"touch", "/usr/bin/touch"},
                                                 {"conntrack", "/usr/sbin/conntrack"}};
  std::map<std::string, std::string> system_files = {
      {"/proc/sys/net/ipv4/ip_forward", "1\n"},
      {"/proc/sys/net/ipv6/conf/default/forwarding", "1\n"},
      {"/proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n"}};
  std::string default_route_address = "192.0.2.10";
  std::set<std::string> unix_sockets = {"/var/run/containerd/containerd.sock"};
  std::map<std::string, std::string> env;
  std::set<std::string> paths;  // what PathExists finds

  unsigned EffectiveUid() const override { return euid; }
  int NumCpus() const override { return cpus; }
  std::uint64_t MemoryBytes() const override { return memory_bytes; }
  std::string Hostname() const override { return hostname; }
  Status CheckPortFree(int port) const override {
    if (busy_ports.count(port))
      return FailedPrecondition("Port " + std::to_string(port) + " is in use");
    return Status();
  }
  std::optional<std::string> LookPath(const std::string& binary) const override {
    auto it = binaries.find(binary);
    if (it == binaries.end()) return std::nullopt;
    return it->second;
  }
  Result<std::string> ReadSystemFile(const std::string& path) const override {
    auto it = system_files.find(path);
    if (it == system_files.end()) return NotFound(path + ": no such file");
    return it->second;
  }
  Result<std::string> DefaultRouteAddress() const override {
    if (default_route_address.empty()) return FailedPrecondition("no default route");
    return default_route_address;
  }
  Status CheckUnixSocket(const std::string& path) const override {
    if (unix_sockets.count(path)) return Status();
    return NotFound(path + ": no such socket");
  }
  std::optional<std::string> Getenv(const std::string& name) const override {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  }
  bool PathExists(const std::string& path) const override { return paths.count(path) > 0; }
};

}  // namespace kkadm::testing
