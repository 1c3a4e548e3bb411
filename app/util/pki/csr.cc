// PKCS#10 requests over OpenSSL's X509_REQ (see csr.h).
#include "app/util/pki/csr.h"

#include <openssl/pem.h>

#include <memory>

namespace kkadm::util::pki {
namespace {

using RequestPtr = std::unique_ptr<X509_REQ, decltype(&X509_REQ_free)>;
using ExtensionsPtr =
    std::unique_ptr<STACK_OF(X509_EXTENSION), void (*)(STACK_OF(X509_EXTENSION)*)>;

void FreeExtensions(STACK_OF(X509_EXTENSION) * extensions) {
  sk_X509_EXTENSION_pop_free(extensions, X509_EXTENSION_free);
}

// The SANs as an extensionRequest attribute, as Go's CreateCertificateRequest writes them.
Status AddSanRequest(X509_REQ* request, const CertConfig& config) {
  if (config.dns_names.empty() && config.ips.empty()) return Status();
  auto names = SubjectAltNames(config.dns_names, config.ips);
  if (!names) return names.error();
  ExtensionsPtr extensions(sk_X509_EXTENSION_new_null(), FreeExtensions);
  X509_EXTENSION* san = X509V3_EXT_i2d(NID_subject_alt_name, 0, names->get());
  if (!extensions || san == nullptr) return OpenSslError("encoding the subject alternative names");
  if (sk_X509_EXTENSION_push(extensions.get(), san) == 0) {
    X509_EXTENSION_free(san);
    return OpenSslError("encoding the subject alternative names");
  }
  if (X509_REQ_add_extensions(request, extensions.get()) != 1) {
    return OpenSslError("adding the subject alternative names to the request");
  }
  return Status();
}

}  // namespace

Result<std::string> CreateCsrPem(const CertConfig& config, const PrivateKey& key) {
  if (config.common_name.empty()) return InvalidArgument("must specify a CommonName");
  RequestPtr request(X509_REQ_new(), X509_REQ_free);
  auto subject = SubjectName(config.common_name, config.organizations);
  if (!subject) return subject.error();
  if (!request || X509_REQ_set_version(request.get(), X509_REQ_VERSION_1) != 1 ||
      X509_REQ_set_subject_name(request.get(), subject->get()) != 1 ||
      X509_REQ_set_pubkey(request.get(), key.get()) != 1) {
    return OpenSslError("building the certificate request");
  }
  KKADM_RETURN_IF_ERROR(AddSanRequest(request.get(), config));
  const EVP_MD* digest = key.IsEcdsa() && key.Bits() >= 384 ? EVP_sha384() : EVP_sha256();
  if (X509_REQ_sign(request.get(), key.get(), digest) <= 0) {
    return OpenSslError("signing the certificate request");
  }
  OsslPtr<BIO> bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_X509_REQ(bio.get(), request.get()) != 1) {
    return OpenSslError("encoding the certificate request");
  }
  return BioContents(bio.get());
}

}  // namespace kkadm::util::pki
