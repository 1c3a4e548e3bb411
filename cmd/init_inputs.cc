// The table of init phases and the configuration fields each reads.
#include "cmd/init_inputs.h"

#include <string>

#include "app/config/config_fields.h"
#include "app/phases/phase_inputs.h"

namespace kkadm::cmd {
namespace {

using Fields = std::vector<std::string_view>;

Fields With(Fields base, std::initializer_list<std::string_view> more) {
  base.insert(base.end(), more);
  return base;
}

std::vector<phases::PhaseReads> InitPhaseReads() {
  // Every leaf certificate's and kubeconfig's signing parameters, and the images of static Pods.
  const Fields pki = {"certificatesDir", "encryptionAlgorithm", "certificateValidityPeriod"};
  const Fields ca = {"certificatesDir", "encryptionAlgorithm", "caCertificateValidityPeriod"};
  const Fields image = {"kubernetesVersion", "imageRepository", "featureGates",
                        "patches.directory"};
  return {
      // Checks make nothing that lasts: once they passed, a change to what they read matters
      // only to the phases that make things.
      {"preflight", {}},
      {"certs", {"certificatesDir"}},
      {"certs/ca", ca},
      {"certs/front-proxy-ca", ca},
      {"certs/etcd-ca", ca},
      {"certs/apiserver",
       With(pki, {"networking.serviceSubnet", "networking.dnsDomain", "apiServer.certSANs",
                  "controlPlaneEndpoint", "localAPIEndpoint.advertiseAddress",
                  "nodeRegistration.name"})},
      {"certs/etcd-server",
       With(pki, {"etcd.local.serverCertSANs", "localAPIEndpoint.advertiseAddress",
                  "nodeRegistration.name"})},
      {"certs/etcd-peer", With(pki, {"etcd.local.peerCertSANs", "localAPIEndpoint.advertiseAddress",
                                     "nodeRegistration.name"})},
      {"certs/sa", {"certificatesDir", "encryptionAlgorithm"}},
      {"certs/", pki},  // the other leaf certificates
      {"kubeconfig", With(pki, {"clusterName", "controlPlaneEndpoint", "localAPIEndpoint",
                                "nodeRegistration.name", "--kubeconfig-dir"})},
      {"etcd", With(image, {"etcd", "certificatesDir", "localAPIEndpoint.advertiseAddress",
                            "nodeRegistration.name", "patches[etcd]"})},
      {"control-plane/apiserver",
       With(image, {"apiServer", "networking", "localAPIEndpoint", "certificatesDir", "etcd",
                    "controlPlaneEndpoint", "encryptionAlgorithm", "patches[kube-apiserver]"})},
      {"control-plane/controller-manager",
       With(image, {"controllerManager", "networking", "certificatesDir", "clusterName",
                    "patches[kube-controller-manager]"})},
      {"control-plane/scheduler", With(image, {"scheduler", "patches[kube-scheduler]"})},
      {"control-plane", {}},
      {"kubelet-start",
       {"nodeRegistration", "KubeletConfiguration", "kubernetesVersion", "imageRepository",
        "patches.directory", "patches[kubeletconfiguration]", "networking.dnsDomain",
        "networking.serviceSubnet", "featureGates"}},
      {"wait-control-plane", {"timeouts", "localAPIEndpoint"}},
      {"upload-config/kubelet", {"KubeletConfiguration", "nodeRegistration.name"}},
      // The whole ClusterConfiguration is uploaded: every field counts.
      {"upload-config", {""}},
      {"upload-certs", {"certificateKey", "certificatesDir", "--upload-certs"}},
      {"mark-control-plane", {"nodeRegistration.name", "nodeRegistration.taints"}},
      {"bootstrap-token", {"bootstrapTokens"}},
      {"kubelet-finalize", {"certificatesDir", "nodeRegistration.name"}},
      {"addon/coredns", With(image, {"dns", "networking", "patches[corednsdeployment]"})},
      {"addon/kube-proxy", With(image, {"proxy", "KubeProxyConfiguration", "networking.podSubnet",
                                        "controlPlaneEndpoint", "localAPIEndpoint"})},
      {"addon", {}},
      {"show-join-command", {}},
  };
}

// Fields no phase's result depends on: how the command runs (pre-flight errors ignored decide
// only whether it goes on), and the tokens' secrets (a token kkadm generates differs on every run;
// the tokens' other fields count).
bool IsIgnored(const std::string& name) {
  return name == "dryRun" || util::FieldIsUnder(name, "skipPhases") ||
         util::FieldIsUnder(name, "nodeRegistration.ignorePreflightErrors") ||
         (name.starts_with("bootstrapTokens[") && name.ends_with("].token"));
}

// Every field and flag init's phases may read, as inputs.
std::vector<workflow::PhaseInput> AllInitInputs(const phases::InitData& data) {
  std::vector<workflow::PhaseInput> inputs;
  for (util::JsonField& field : config::InitConfigFields(data.cfg)) {
    if (IsIgnored(field.name)) continue;
    const bool secret = config::IsSecretField(field.name);
    inputs.push_back({std::move(field.name), std::move(field.value), secret});
  }
  inputs.push_back({"--upload-certs", data.upload_certs ? "true" : "false"});
  inputs.push_back({"--kubeconfig-dir", data.kubeconfig_dir});
  phases::AddPatchInputs(data.patches, inputs);
  return inputs;
}

}  // namespace

void DeclareInitInputs(std::vector<workflow::Phase>& phases, const phases::InitData& data) {
  phases::DeclareInputs(phases, InitPhaseReads(), [&data] { return AllInitInputs(data); });
}

}  // namespace kkadm::cmd
