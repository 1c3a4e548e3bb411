// The `control-plane-prepare` phase of `kkadm join` (kubeadm's phases/join/controlplaneprepare.go).
#include "app/phases/join/control_plane_prepare_phase.h"

#include "app/phases/join/control_plane_prepare.h"

namespace kkadm::phases {
namespace {

const std::vector<std::string> kDiscoveryFlags = {"api-server-endpoint",
                                                  "config",
                                                  "control-plane",
                                                  "discovery-file",
                                                  "discovery-token",
                                                  "discovery-token-ca-cert-hash",
                                                  "discovery-token-unsafe-skip-ca-verification",
                                                  "tls-bootstrap-token",
                                                  "token",
                                                  "dry-run"};

std::vector<std::string> With(std::vector<std::string> flags,
                              const std::vector<std::string>& more) {
  flags.insert(flags.end(), more.begin(), more.end());
  return flags;
}

workflow::Phase Subphase(const char* name, const char* description, std::function<Status()> run,
                         std::vector<std::string> flags, bool takes_endpoint = true) {
  workflow::Phase phase;
  phase.name = name;
  if (takes_endpoint) phase.args_usage = "[api-server-endpoint]";
  phase.description = description;
  phase.run = std::move(run);
  phase.inherit_flags = std::move(flags);
  return phase;
}

}  // namespace

workflow::Phase NewControlPlanePreparePhase(JoinData& data) {
  workflow::Phase phase;
  phase.name = "control-plane-prepare";
  phase.description = "Prepare the machine for serving a control plane";
  phase.example =
      "  # Prepares the machine for serving a control plane\n"
      "  kkadm join phase control-plane-prepare all";
  // Before the first file of the join is written (certificates), every patch must apply.
  phase.run = [&data] { return CheckControlPlaneJoinPatches(data); };
  phase.children = {
      Subphase(
          "download-certs",
          "Download certificates shared among control-plane nodes from the kubeadm-certs Secret",
          [&data] { return RunDownloadCerts(data); }, With(kDiscoveryFlags, {"certificate-key"})),
      Subphase(
          "certs", "Generate the certificates for the new control plane components",
          [&data] { return RunPrepareCerts(data); },
          With(kDiscoveryFlags, {"apiserver-advertise-address", "node-name"})),
      Subphase(
          "kubeconfig", "Generate the kubeconfig for the new control plane components",
          [&data] { return RunPrepareKubeconfigs(data); },
          With(kDiscoveryFlags, {"certificate-key"})),
      Subphase(
          "control-plane", "Generate the manifests for the new control plane components",
          [&data] { return RunPrepareControlPlane(data); },
          {"apiserver-advertise-address", "apiserver-bind-port", "config", "control-plane",
           "patches", "dry-run"},
          false),
  };
  return phase;
}

}  // namespace kkadm::phases
