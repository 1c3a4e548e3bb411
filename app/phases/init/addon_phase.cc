// addon phase adapter.
#include "app/phases/init/addon_phase.h"

#include <spdlog/spdlog.h>

#include "app/phases/addons/addon_objects.h"

namespace kkadm::phases {
namespace {

Status Install(InitData& data, const Result<std::vector<nlohmann::json>>& objects,
               const std::string& addon) {
  if (!objects) return objects.error();
  if (data.print_addon_manifests) {
    PrintObjects(data.printer(), *objects);
    return Status::Ok();
  }
  auto client = data.access->AdminClient();
  if (!client) return client.error();
  KKADM_RETURN_IF_ERROR(ApplyAddonObjects(**client, *objects));
  data.printer().Line("addons", "Applied essential addon: " + addon);
  return Status::Ok();
}

workflow::Phase AddonChild(InitData& data, std::string name, std::string description,
                           std::string long_description, std::function<Status()> run) {
  workflow::Phase phase;
  phase.name = std::move(name);
  phase.description = std::move(description);
  phase.long_description = std::move(long_description);
  phase.run = std::move(run);
  phase.local_flags.push_back({"print-manifest",
                               "Print the addon manifests to STDOUT instead of installing them",
                               &data.print_addon_manifests});
  return phase;
}

}  // namespace

workflow::Phase NewAddonPhase(InitData& data) {
  workflow::Phase coredns = AddonChild(
      data, "coredns", "Install the CoreDNS addon to a Kubernetes cluster",
      "Install the CoreDNS addon components via the API server.\nPlease note that although the "
      "DNS server is deployed, it will not be scheduled until CNI is installed.",
      [&data]() -> Status {
        if (data.cfg.cluster.dns.disabled) {
          spdlog::debug("[addons] the CoreDNS addon is disabled; skipping it");
          return Status::Ok();
        }
        auto objects = CoreDnsObjects(data.cfg.cluster);
        if (objects) KKADM_RETURN_IF_ERROR(PatchCoreDnsDeployment(data.patches, *objects));
        return Install(data, objects, "CoreDNS");
      });
  coredns.check = [&data] {
    if (data.cfg.cluster.dns.disabled) return Status::Ok();
    return CheckCoreDnsPatches(data.cfg.cluster, data.patches);
  };
  coredns.inherit_flags = {"config",           "kubeconfig",   "kubernetes-version",
                           "image-repository", "service-cidr", "service-dns-domain",
                           "feature-gates",    "dry-run"};
  workflow::Phase proxy = AddonChild(
      data, "kube-proxy", "Install the kube-proxy addon to a Kubernetes cluster",
      "Install the kube-proxy addon components via the API server.", [&data]() -> Status {
        if (data.cfg.cluster.proxy.disabled) {
          spdlog::debug("[addons] the kube-proxy addon is disabled; skipping it");
          return Status::Ok();
        }
        return Install(data,
                       KubeProxyObjects(data.cfg.cluster, data.cfg.local_api_endpoint,
                                        data.cfg.component_configs.kube_proxy),
                       "kube-proxy");
      });
  proxy.inherit_flags = {"config",
                         "kubeconfig",
                         "kubernetes-version",
                         "image-repository",
                         "apiserver-advertise-address",
                         "control-plane-endpoint",
                         "apiserver-bind-port",
                         "pod-network-cidr",
                         "feature-gates",
                         "dry-run"};

  workflow::Phase phase;
  phase.name = "addon";
  phase.description = "Install required addons for passing conformance tests";
  phase.long_description =
      "This command is not meant to be run on its own. See list of available subcommands.";
  phase.children = {std::move(coredns), std::move(proxy)};
  return phase;
}

}  // namespace kkadm::phases
