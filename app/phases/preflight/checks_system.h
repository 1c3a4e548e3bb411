// Pre-flight checks on machine facts: user, CPUs, memory, ports, binaries, kernel files, versions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "app/phases/preflight/check.h"

namespace kkadm::phases::preflight {

// "IsPrivilegedUser": error unless the effective uid is 0.
std::unique_ptr<Check> NewIsPrivilegedUserCheck();
// "NumCPU": error when the machine has fewer than `min_cpus` CPUs.
std::unique_ptr<Check> NewNumCpuCheck(int min_cpus);
// "Mem": error when total RAM in MiB is below `min_mb`.
std::unique_ptr<Check> NewMemCheck(std::uint64_t min_mb);
// "KubernetesVersion": warning when `kubernetes_version` is newer than the minor release the
// tool deploys (`tool_version`, e.g. "v1.32.0"); an unparsable version is an error.
std::unique_ptr<Check> NewKubernetesVersionCheck(std::string kubernetes_version,
                                                 std::string tool_version);
// "Port-<port>": error when a TCP listener on all addresses at `port` cannot be opened.
std::unique_ptr<Check> NewPortOpenCheck(int port);
// "Swap": warning when /proc/swaps lists a swap device.
std::unique_ptr<Check> NewSwapCheck();
// "FileExisting-<executable>": `executable` must be in $PATH; error if `mandatory`, else warning.
std::unique_ptr<Check> NewInPathCheck(std::string executable, bool mandatory);
// "FileContent-<path>": the kernel file `path` must start with `content` (error otherwise).
std::unique_ptr<Check> NewFileContentCheck(std::string path, std::string content);
// "Hostname": warnings when `node_name` is not a qualified name or is not this machine's
// hostname (kkadm does no DNS lookup, unlike kubeadm's net.LookupHost).
std::unique_ptr<Check> NewHostnameCheck(std::string node_name);

// A "vMAJOR.MINOR.PATCH[-pre][+build]" version; nullopt when it does not parse.
struct SemVer {
  int major = 0;
  int minor = 0;
  int patch = 0;
  std::string rest;              // "-pre+build" as given
  std::string ToString() const;  // without the leading "v", as Go's version.String()
};
std::optional<SemVer> ParseSemVer(const std::string& text);

}  // namespace kkadm::phases::preflight
