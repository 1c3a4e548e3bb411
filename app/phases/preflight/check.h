// Check: one pre-flight check (kubeadm's preflight.Checker), run against the host seams.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/util/host.h"

namespace kkadm::phases::preflight {

// What a check found. Warnings are printed and never fail; errors fail the run unless the
// check's name is ignored (--ignore-preflight-errors), in which case they print as warnings.
struct CheckResult {
  std::vector<std::string> warnings;
  std::vector<std::string> errors;
};

class Check {
 public:
  virtual ~Check() = default;
  // kubeadm's name for the check ("NumCPU", "Port-6443", "DirAvailable--var-lib-etcd"): what
  // users pass to --ignore-preflight-errors and what the output shows.
  virtual std::string Name() const = 0;
  // Inspects the host (never changes it). A check does not fail in any other way than by
  // reporting errors.
  virtual CheckResult Run(const util::Host& host) const = 0;
};

using CheckList = std::vector<std::unique_ptr<Check>>;

// kubeadm's path-derived label: "FileAvailable" + "/etc/kubernetes/x.yaml" gives
// "FileAvailable--etc-kubernetes-x.yaml".
std::string PathCheckName(const std::string& kind, const std::string& path);

}  // namespace kkadm::phases::preflight
