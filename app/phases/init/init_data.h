// InitData: what `kkadm init` phases read and hand to each other. Built once by MakeInitData
// (cmd/init.cc) after flags are parsed; from then on it is trusted and no phase re-validates it.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>

#include "app/config/types.h"
#include "app/util/host.h"
#include "app/util/kube_client.h"
#include "app/util/patches/patcher.h"
#include "app/util/printer.h"

namespace kkadm::phases {

class Waiter;

struct InitData {
  config::InitConfiguration cfg;

  // Set by MakeInitData before any phase runs; never null while phases run.
  util::Host* host = nullptr;
  util::Printer* out = nullptr;

  // The dry run's seams (FileSystem, InitSystem, clients, waiter) say what would happen; this is
  // only for kubeadm's "Would pull the required images" line, a step kkadm never takes.
  bool dry_run = false;
  // Node paths. In dry-run the FileSystem diverts writes, so these keep their real values.
  std::string kubeconfig_dir = "/etc/kubernetes";
  std::string manifest_dir = "/etc/kubernetes/manifests";
  std::string admin_kubeconfig_path = "/etc/kubernetes/admin.conf";
  std::string kubelet_dir = "/var/lib/kubelet";

  // Lower-cased check names from --ignore-preflight-errors and nodeRegistration, or {"all"}.
  std::set<std::string> ignore_preflight_errors;
  bool upload_certs = false;
  bool skip_token_print = false;
  bool skip_certificate_key_print = false;
  // The --patches or patches.directory patches, read before any phase runs (none by default).
  util::patches::Patcher patches;

  // True when ca.crt exists without ca.key: kubeadm's external-CA mode. Set by MakeInitData.
  bool external_ca = false;

  // The API client, built lazily by the command on first call (from admin.conf, or a dry-run
  // client); phases after kubelet-start call data.client(). The pointer stays owned by the command.
  std::function<Result<util::KubeClient*>()> client;
  // A client with super-admin.conf (system:masters): only for creating the kubeadm:cluster-admins
  // binding that admin.conf needs, as kubeadm does when admin.conf is still Forbidden.
  std::function<Result<util::KubeClient*>()> super_admin_client;
  // A plain HTTP GET (the kubelet's healthz at http://127.0.0.1:10248/healthz): the body on 200.
  std::function<Result<std::string>(const std::string& url)> http_get;
  // What wait-control-plane waits with: a RealWaiter, or the dry run's (set by the command).
  Waiter* waiter = nullptr;
  // The ClusterConfiguration as kubeadm's v1beta4 YAML, for the kubeadm-config ConfigMap.
  std::function<std::string()> cluster_config_yaml;
  // Set by upload-certs (from cfg.certificate_key or generated); read by show-join-command.
  std::string certificate_key;
  // The addon phase's --print-manifest: print the addon objects instead of creating them.
  bool print_addon_manifests = false;

  util::FileSystem& fs() { return host->fs; }
  util::Printer& printer() { return *out; }
  const std::string& cert_dir() const { return cfg.cluster.certificates_dir; }
};

}  // namespace kkadm::phases
