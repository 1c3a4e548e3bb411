// JoinData: what `kkadm join` phases read and hand to each other. Built once by MakeJoinData
// (cmd/join.cc) after flags are parsed; from then on it is trusted and no phase re-validates it.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>

#include "app/config/types.h"
#include "app/util/etcd_client.h"
#include "app/util/host.h"
#include "app/util/kube_client.h"
#include "app/util/kubeconfig.h"
#include "app/util/patches/patcher.h"
#include "app/util/printer.h"

namespace kkadm::phases {

class EtcdJoiner;
class KubeletBootstrapWaiter;
class Waiter;

// What discovery established about the cluster this node joins.
struct JoinCluster {
  // The identity the kubelet bootstraps with and kkadm reads the cluster with before this node has
  // its own: cluster "kubernetes" (server + verified CA) and user tls-bootstrap-token-user (or the
  // discovery file's credentials, or admin.conf when a control-plane join resumes).
  util::Kubeconfig tls_bootstrap;
  std::string ca_pem;  // the cluster CA, verified
  // The cluster's ClusterConfiguration and KubeletConfiguration with this node's registration,
  // local API endpoint (control plane), timeouts and patches: what kubeadm calls initCfg.
  config::InitConfiguration init_cfg;
};

struct JoinData {
  config::JoinConfiguration cfg;

  // Set by MakeJoinData before any phase runs; never null while phases run.
  util::Host* host = nullptr;
  util::Printer* out = nullptr;

  // The dry run's seams (FileSystem, InitSystem, clients, waiters) say what would happen; this is
  // only for kubeadm's "Would pull the required images" line, a step kkadm never takes.
  bool dry_run = false;
  // Node paths. In dry-run the FileSystem diverts writes, so these keep their real values.
  std::string kubeconfig_dir = "/etc/kubernetes";
  std::string manifest_dir = "/etc/kubernetes/manifests";
  std::string kubelet_dir = "/var/lib/kubelet";

  // Lower-cased check names from --ignore-preflight-errors and nodeRegistration, or {"all"}.
  std::set<std::string> ignore_preflight_errors;
  // The --patches or patches.directory patches, read before any phase runs (none by default).
  util::patches::Patcher patches;
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
  // A client from a kubeconfig file on the node, with the files it names; an error while any of
  // them is missing or unreadable (how kubelet-start sees the kubelet's TLS bootstrap finish).
  std::function<Result<std::unique_ptr<util::KubeClient>>(const std::string& path)>
      client_from_kubeconfig;
  // A plain HTTP GET (the kubelet's healthz): the body on 200.
  std::function<Result<std::string>(const std::string& url)> http_get;
  // An etcd client for `config` (real one: util::EtcdClient over libcurl).
  std::function<std::unique_ptr<util::EtcdClient>(util::EtcdClientConfig config)> etcd_client;
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
  util::FileSystem& fs() { return host->fs; }
  util::Printer& printer() { return *out; }
};

}  // namespace kkadm::phases
