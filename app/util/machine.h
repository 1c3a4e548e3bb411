// Machine: facts about the machine kkadm runs on (user, CPUs, memory, hostname, ports, PATH,
// kernel files, sockets, environment), injected so preflight and defaulting are testable without a
// real host.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "app/util/status.h"

namespace kkadm::util {

class Machine {
 public:
  virtual ~Machine() = default;
  virtual unsigned EffectiveUid() const = 0;
  virtual int NumCpus() const = 0;
  virtual std::uint64_t MemoryBytes() const = 0;
  virtual std::string Hostname() const = 0;
  // OK when a TCP listener on all addresses at `port` can be opened (and is closed again).
  virtual Status CheckPortFree(int port) const = 0;
  // The full path of `binary` found in $PATH, or nullopt.
  virtual std::optional<std::string> LookPath(const std::string& binary) const = 0;
  // A kernel file of the real machine (/proc, /sys), never under --rootfs.
  virtual Result<std::string> ReadSystemFile(const std::string& path) const = 0;
  // The IP address of the interface holding the default route (kubeadm's advertise address
  // default); FailedPrecondition when there is no default route.
  virtual Result<std::string> DefaultRouteAddress() const = 0;
  // OK when `path` (a path of the real machine, never under --rootfs) is a Unix domain socket;
  // NotFound when nothing is there, FailedPrecondition when it is something else. Used to find
  // the container runtime's CRI endpoint.
  virtual Status CheckUnixSocket(const std::string& path) const = 0;
  // The value of the environment variable `name` of this process, or nullopt when unset
  // (HTTPS_PROXY / NO_PROXY for the proxy checks).
  virtual std::optional<std::string> Getenv(const std::string& name) const = 0;
  // Whether anything exists at `path` of the real machine (never under --rootfs), following
  // symbolic links: a file the user names on the command line, such as a join discovery file.
  virtual bool PathExists(const std::string& path) const = 0;
};

}  // namespace kkadm::util
