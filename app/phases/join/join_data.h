// JoinData: what `kkadm join` phases read and hand to each other. Built once by MakeJoinData
// (cmd/join.cc) after flags are parsed; from then on it is trusted and no phase re-validates it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/phases/discovery/join_cluster.h"
#include "app/phases/node_context.h"
#include "app/util/kube_client.h"

namespace kkadm::phases {

class EtcdJoiner;
class KubeletBootstrapWaiter;
class Waiter;

struct JoinData : NodeContext {
  config::JoinConfiguration cfg;

  // The API endpoints to discover from, in order: the configured one first, then the other
  // endpoints of a join token.
  std::vector<std::string> discovery_endpoints;

  // Discovery and the cluster's configuration, done on the first call (normally by preflight) and
  // kept; a failure is returned again on later calls. Set by the command.
  std::function<Result<JoinCluster*>()> cluster;
  // A client with the TLS bootstrap identity of cluster(), built on first use.
  std::function<Result<util::KubeClient*>()> bootstrap_client;
  // A client with admin.conf (written by control-plane-prepare), or the dry-run client.
  std::function<Result<util::KubeClient*>()> client;
  // admin.conf's identity against this node's own API server (advertise address and bind port):
  // what wait-control-plane polls.
  std::function<Result<std::unique_ptr<util::KubeClient>>()> local_api_client;
  // What the phases wait for and how they change etcd: real ones, or the dry run's (set by the
  // command, owned by it).
  Waiter* waiter = nullptr;
  KubeletBootstrapWaiter* kubelet_bootstrap = nullptr;
  EtcdJoiner* etcd = nullptr;

  // Set by preflight when a check failed (not discovery): the command exits with code 2 then.
  bool preflight_checks_failed = false;

  bool control_plane() const { return cfg.control_plane.has_value(); }
  const std::string& certificate_key() const {
    static const std::string kNone;
    return cfg.control_plane ? cfg.control_plane->certificate_key : kNone;
  }
  std::string admin_kubeconfig_path() const { return kubeconfig_dir + "/admin.conf"; }
  std::string kubelet_kubeconfig_path() const { return kubeconfig_dir + "/kubelet.conf"; }
  std::string bootstrap_kubeconfig_path() const {
    return kubeconfig_dir + "/bootstrap-kubelet.conf";
  }
};

}  // namespace kkadm::phases
