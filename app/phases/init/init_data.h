// InitData: what `kkadm init` phases read and hand to each other. Built once by MakeInitData
// (cmd/init.cc) after flags are parsed; from then on it is trusted and no phase re-validates it.
#pragma once

#include <functional>
#include <string>

#include "app/config/types.h"
#include "app/phases/cluster_access.h"
#include "app/phases/node_context.h"

namespace kkadm::phases {

class Waiter;

class InitClusterAccess : public ClusterAccess {
 public:
  // A client with super-admin.conf (system:masters): only for creating the kubeadm:cluster-admins
  // binding that admin.conf needs, as kubeadm does while admin.conf is still Forbidden.
  virtual Result<util::KubeClient*> SuperAdminClient() = 0;
};

struct InitData : NodeContext {
  config::InitConfiguration cfg;

  std::string admin_kubeconfig_path = "/etc/kubernetes/admin.conf";
  bool upload_certs = false;
  bool skip_token_print = false;
  bool skip_certificate_key_print = false;

  // True when ca.crt exists without ca.key: kubeadm's external-CA mode. Set by MakeInitData.
  bool external_ca = false;

  // The API clients, made on first use: phases from wait-control-plane on reach the cluster
  // through it. Set by the command, owned by it.
  InitClusterAccess* access = nullptr;
  // What wait-control-plane waits with: a RealWaiter, or the dry run's (set by the command).
  Waiter* waiter = nullptr;
  // The ClusterConfiguration as kubeadm's v1beta4 YAML, for the kubeadm-config ConfigMap.
  std::function<std::string()> cluster_config_yaml;
  // Set by upload-certs (from cfg.certificate_key or generated); read by show-join-command.
  std::string certificate_key;
  // The addon phase's --print-manifest: print the addon objects instead of creating them.
  bool print_addon_manifests = false;

  const std::string& cert_dir() const { return cfg.cluster.certificates_dir; }
};

}  // namespace kkadm::phases
