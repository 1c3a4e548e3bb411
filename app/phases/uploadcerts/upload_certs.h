// The work of upload-certs (kubeadm's phases/copycerts): the control-plane CAs and keys, encrypted
// with the certificate key, in Secret kube-system/kubeadm-certs.
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/util/file_system.h"
#include "app/util/kube_client.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

inline constexpr const char* kKubeadmCertsSecret = "kubeadm-certs";
inline constexpr const char* kCertsTokenDescription =
    "Proxy for managing TTL for the kubeadm-certs secret";
inline constexpr std::chrono::hours kCertsTokenTtl{2};

// Secret key -> node path of every file shared: ca.crt ca.key front-proxy-ca.crt
// front-proxy-ca.key sa.pub sa.key, then etcd-ca.crt etcd-ca.key (local etcd) or
// external-etcd-ca.crt external-etcd.crt external-etcd.key (external etcd's files).
std::map<std::string, std::string> CertsToTransfer(const config::ClusterConfiguration& cluster);

// Creates a 2 h bootstrap token, then Secret kubeadm-certs (each file encrypted with the key; a
// missing file becomes an empty value, as in kubeadm) owned by that token's Secret, then
// Role+RoleBinding kubeadm:kubeadm-certs. `certificate_key` is 64 hex characters.
Status UploadCerts(util::KubeClient& client, const util::FileSystem& fs, util::Printer& out,
                   const config::ClusterConfiguration& cluster, const std::string& certificate_key,
                   std::chrono::system_clock::time_point now);

// The decrypted files of a kubeadm-certs Secret, by Secret key (for join's download-certs).
// InvalidArgument when the key is malformed or a value does not decrypt.
Result<std::map<std::string, std::string>> DecryptKubeadmCerts(const nlohmann::json& secret,
                                                               const std::string& certificate_key);

// GETs Secret kube-system/kubeadm-certs, decrypts it with the 64-hex-character certificate key and
// writes each file under the cluster's certificate directory (keys 0600, certificates 0644),
// printing kubeadm's [download-certs] lines. Errors: kubeadm's "Secret "kubeadm-certs" was not
// found ... This Secret might have expired ..." text; "error decoding secret data with provided
// key:
// ..." for a wrong key.
Status DownloadCerts(util::KubeClient& client, util::FileSystem& fs, util::Printer& out,
                     const config::ClusterConfiguration& cluster,
                     const std::string& certificate_key);

}  // namespace kkadm::phases
