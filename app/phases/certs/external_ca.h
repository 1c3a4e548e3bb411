// External CA mode (kubeadm's certs.go UsingExternalCA / UsingExternalFrontProxyCA): a CA
// certificate present without its key means the user signs the files that CA would sign, so every
// one of them must already be there, and kubeadm checks that before any phase does anything.
#pragma once

#include <string>

#include "app/util/clock.h"
#include "app/util/file_system.h"
#include "app/util/status.h"

namespace kkadm::phases::certs {

// True when <cert_dir>/<ca_base>.crt exists and <cert_dir>/<ca_base>.key does not.
bool UsingExternalCA(const util::FileSystem& fs, const std::string& cert_dir,
                     const std::string& ca_base = "ca");

// With ca.crt but no ca.key: apiserver and apiserver-kubelet-client must each have a key that loads
// and a certificate (chain) signed by ca.crt. With front-proxy-ca.crt but no front-proxy-ca.key:
// likewise front-proxy-client. OK otherwise, also when no CA is external. Reads only; certificates
// outside their validity period only warn, as in kubeadm. On failure FailedPrecondition
// "invalid or incomplete external CA: failure loading key for apiserver: ..." (or "... external
// front-proxy CA: ...").
Status CheckExternalCACertificates(const util::FileSystem& fs, const std::string& cert_dir,
                                   util::Clock& clock);

}  // namespace kkadm::phases::certs
