// The files an external CA must have signed before kkadm runs (see external_ca.h).
#include "app/phases/certs/external_ca.h"

#include <vector>

#include "app/util/pki/pki_files.h"

namespace kkadm::phases::certs {
namespace {

struct SignedFile {
  const char* base;     // "apiserver"
  const char* ux_name;  // "API server", as kubeadm names it
};

// kubeadm's validateSignedCert: the key loads, the certificate chain loads and verifies against
// the CA certificate.
Status CheckSigned(const util::FileSystem& fs, const std::string& dir, const std::string& ca_base,
                   const SignedFile& file, util::Clock& clock) {
  auto ca = util::pki::LoadCert(fs, util::pki::CertPath(dir, ca_base));
  if (!ca)
    return ca.error().Wrap(std::string("failure loading certificate authority for ") +
                           file.ux_name);
  auto key = util::pki::LoadKey(fs, util::pki::KeyPath(dir, file.base));
  if (!key) return key.error().Wrap(std::string("failure loading key for ") + file.base);
  auto chain = util::pki::LoadCertChain(fs, util::pki::CertPath(dir, file.base));
  if (!chain)
    return chain.error().Wrap(std::string("failure loading certificate for ") + file.ux_name);
  std::vector<util::pki::Certificate> intermediates(chain->begin() + 1, chain->end());
  Status verified = chain->front().VerifyChain(intermediates, *ca, clock.Now());
  if (!verified.ok()) {
    return verified.Wrap(std::string("certificate ") + file.ux_name +
                         " is not signed by corresponding CA");
  }
  return Status();
}

Status CheckAll(const util::FileSystem& fs, const std::string& dir, const std::string& ca_base,
                const std::vector<SignedFile>& files, const char* what, util::Clock& clock) {
  if (!UsingExternalCA(fs, dir, ca_base)) return Status();
  for (const SignedFile& file : files) {
    Status s = CheckSigned(fs, dir, ca_base, file, clock);
    if (!s.ok())
      return FailedPrecondition(std::string("invalid or incomplete ") + what + ": " + s.message());
  }
  return Status();
}

}  // namespace

bool UsingExternalCA(const util::FileSystem& fs, const std::string& cert_dir,
                     const std::string& ca_base) {
  return fs.Exists(util::pki::CertPath(cert_dir, ca_base)) &&
         !fs.Exists(util::pki::KeyPath(cert_dir, ca_base));
}

Status CheckExternalCACertificates(const util::FileSystem& fs, const std::string& cert_dir,
                                   util::Clock& clock) {
  KKADM_RETURN_IF_ERROR(CheckAll(
      fs, cert_dir, "ca",
      {{"apiserver", "API server"}, {"apiserver-kubelet-client", "API server kubelet client"}},
      "external CA", clock));
  return CheckAll(fs, cert_dir, "front-proxy-ca", {{"front-proxy-client", "front-proxy client"}},
                  "external front-proxy CA", clock);
}

}  // namespace kkadm::phases::certs
