// The certificates kubeadm creates (its certlist.go): names, files, signing CA, and the subject,
// SANs and usages each gets under a given configuration.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/config/types.h"
#include "app/util/pki/key.h"
#include "app/util/pki/san.h"
#include "app/util/pki/sign.h"
#include "app/util/status.h"

namespace kkadm::phases::certs {

struct CertSpec {
  std::string name;       // sub-phase name: "apiserver"
  std::string long_name;  // "certificate for serving the Kubernetes API"
  std::string base_name;  // file base under the certificate dir: "etcd/server"
  std::string ca_name;    // name of the signing CA; empty for a CA
  bool IsCa() const { return ca_name.empty(); }
  // The etcd CA and what it signs (skipped with external etcd).
  bool IsEtcd() const { return name == "etcd-ca" || ca_name == "etcd-ca"; }
};

// kubeadm's GetDefaultCertList order: each CA before the certificates it signs.
const std::vector<CertSpec>& CertList();
// The entry named `name`, or nullptr.
const CertSpec* FindCertSpec(std::string_view name);

// The sa key pair's base name ("sa" -> sa.key, sa.pub).
inline constexpr char kServiceAccountKeyBaseName[] = "sa";

util::pki::KeyType KeyTypeFor(config::EncryptionAlgorithm algorithm);

// apiserver SANs: node name, kubernetes, kubernetes.default, kubernetes.default.svc,
// kubernetes.default.svc.<dnsDomain>, the controlPlaneEndpoint host, apiServer.certSANs; IPs: the
// first address of the first service CIDR, the advertise address, IP hosts and SANs. Not yet
// deduplicated. InvalidArgument for an unparsable advertise address, service CIDR or endpoint.
Result<util::pki::AltNames> GetAPIServerAltNames(const config::InitConfiguration& cfg);
// etcd server (`peer` false) or peer SANs: node name, localhost; advertise address, 127.0.0.1,
// ::1; plus etcd.local.serverCertSANs / peerCertSANs.
Result<util::pki::AltNames> GetEtcdAltNames(const config::InitConfiguration& cfg, bool peer);

// The subject, SANs, usages and CA flag for `spec` under `cfg`; validity is left to the caller.
// SANs that are neither IP nor DNS name are dropped with a warning, as kubeadm does.
Result<util::pki::CertConfig> GetCertConfig(const CertSpec& spec,
                                            const config::InitConfiguration& cfg);

}  // namespace kkadm::phases::certs
