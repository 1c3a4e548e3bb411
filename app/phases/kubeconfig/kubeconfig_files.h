// The kubeconfig work: admin.conf, super-admin.conf, kubelet.conf, controller-manager.conf and
// scheduler.conf, each with a client certificate signed by the cluster CA. Knows nothing of phases.
//
// Idempotent: an existing file with the same CA is reused (a different server only warns); one
// with another CA is an error and is left alone; a missing one is written (0600).
#pragma once

#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/util/clock.h"
#include "app/util/file_system.h"
#include "app/util/pki/key_pool.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases::kubeconfig {

inline constexpr char kAdminConf[] = "admin.conf";
inline constexpr char kSuperAdminConf[] = "super-admin.conf";
inline constexpr char kKubeletConf[] = "kubelet.conf";
inline constexpr char kControllerManagerConf[] = "controller-manager.conf";
inline constexpr char kSchedulerConf[] = "scheduler.conf";

// The five files, in kubeadm's order.
const std::vector<std::string>& KubeconfigFileNames();

// "https://<controlPlaneEndpoint host>:<its port, else bindPort>", or the local endpoint when no
// controlPlaneEndpoint is set (kubeadm's GetControlPlaneEndpoint: the server of the kubeconfig
// files and of kube-proxy's). InvalidArgument for an unparsable endpoint or address.
Result<std::string> ControlPlaneEndpoint(const std::string& control_plane_endpoint,
                                         const config::APIEndpoint& local);
Result<std::string> ControlPlaneEndpoint(const config::InitConfiguration& cfg);
// "https://<advertiseAddress, canonical>:<bindPort>" (IPv6 bracketed).
Result<std::string> LocalEndpoint(const config::APIEndpoint& local);
Result<std::string> LocalEndpoint(const config::InitConfiguration& cfg);

struct KubeconfigSpec {
  std::string file_name;
  std::string client_name;  // user name and certificate CN
  std::vector<std::string> organizations;
  std::string server;
};

// What `file_name` holds under `cfg`. NotFound for an unknown file name.
Result<KubeconfigSpec> GetKubeconfigSpec(const std::string& file_name,
                                         const config::InitConfiguration& cfg);

struct KubeconfigEnv {
  const config::InitConfiguration& cfg;
  util::FileSystem& fs;
  util::Printer& out;
  util::Clock& clock;
  std::string kubeconfig_dir;          // "/etc/kubernetes"
  util::pki::KeyPool* keys = nullptr;  // client keys generated ahead of time; may be null

  const std::string& cert_dir() const { return cfg.cluster.certificates_dir; }
};

// A kubeconfig (YAML) for `spec` with a new client certificate signed by the CA of the
// certificate directory (which needs its key), valid until `not_after`; `kubeconfig user` prints
// it, CreateKubeconfigFile writes it.
Result<std::string> BuildWithClientCert(const KubeconfigSpec& spec, KubeconfigEnv& env,
                                        util::Clock::TimePoint not_after);

// Writes `file_name` ("[kubeconfig] Writing "admin.conf" kubeconfig file") or reuses it
// ("[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/admin.conf""). Needs ca.crt and
// ca.key to write. FailedPrecondition "a kubeconfig file "<path>" exists already but has got the
// wrong CA cert" when an existing file trusts another CA.
Status CreateKubeconfigFile(const std::string& file_name, KubeconfigEnv& env);

// External-CA mode: the file must exist, trust ca.crt and carry a client certificate signed by it;
// nothing is written. FailedPrecondition/NotFound "the admin.conf file does not exists or it is not
// valid: ..." otherwise. Silent.
Status CheckKubeconfigForExternalCA(const std::string& file_name, KubeconfigEnv& env);
// The check above, then "[kubeconfig] External CA mode: Using user provided admin.conf".
Status ValidateKubeconfigForExternalCA(const std::string& file_name, KubeconfigEnv& env);
// The check above for all five files (kubeadm's ValidateKubeconfigsForExternalCA): done before
// any phase runs, since none of them can be written without ca.key.
Status CheckKubeconfigsForExternalCA(KubeconfigEnv& env);

// Starts generating, in env.keys (not null), the client keys of the files that do not exist yet.
void PregenerateKeys(KubeconfigEnv& env);

}  // namespace kkadm::phases::kubeconfig
