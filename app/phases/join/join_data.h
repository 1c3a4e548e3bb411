// JoinData: what `kkadm join` phases read and hand to each other. Built once by MakeJoinData
// (cmd/join.cc) after flags are parsed; from then on it is trusted and no phase re-validates it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/phases/cluster_access.h"
#include "app/phases/discovery/join_cluster.h"
#include "app/phases/node_context.h"

namespace kkadm::phases {

class EtcdJoiner;
class KubeletBootstrapWaiter;
class Waiter;

class JoinClusterAccess : public ClusterAccess {
 public:
  // Discovery and the cluster's configuration: done on the first call (normally by preflight).
  virtual Result<JoinCluster*> Discovered() = 0;
  // A client with the TLS bootstrap identity of Discovered().
  virtual Result<util::KubeClient*> BootstrapClient() = 0;
  // admin.conf's identity against this node's own API server (advertise address and bind port):
  // what wait-control-plane polls. A new client each call.
  virtual Result<std::unique_ptr<util::KubeClient>> LocalApiClient() = 0;
};

struct JoinData : NodeContext {
  config::JoinConfiguration cfg;

  // The API endpoints to discover from, in order: the configured one first, then the other
  // endpoints of a join token.
  std::vector<std::string> discovery_endpoints;

  // The discovered cluster and its API clients, each made on first use (admin.conf's once
  // control-plane-prepare wrote it). Set by the command, owned by it.
  JoinClusterAccess* access = nullptr;
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
