// Certificate: an X.509 certificate over OpenSSL 3: PEM parsing (one or a bundle), the fields
// kubeadm looks at (subject, SANs, CA flag, usages, validity), the public key and chain checks.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/pki/key.h"
#include "app/util/pki/openssl_util.h"
#include "app/util/status.h"

namespace kkadm::util::pki {

using TimePoint = std::chrono::system_clock::time_point;

enum class ExtKeyUsage { kServerAuth, kClientAuth };

// KeyUsage bits as X.509 numbers them (Go's x509.KeyUsage* constants use the same order).
enum KeyUsageBits : unsigned {
  kKeyUsageDigitalSignature = 1u << 0,
  kKeyUsageContentCommitment = 1u << 1,
  kKeyUsageKeyEncipherment = 1u << 2,
  kKeyUsageDataEncipherment = 1u << 3,
  kKeyUsageKeyAgreement = 1u << 4,
  kKeyUsageCertSign = 1u << 5,
  kKeyUsageCrlSign = 1u << 6,
};

class Certificate {
 public:
  // The first "CERTIFICATE" block of `pem` (other blocks are skipped). InvalidArgument when
  // there is none or it does not parse.
  static Result<Certificate> ParsePem(std::string_view pem);
  // One DER certificate; InvalidArgument when it does not parse.
  static Result<Certificate> ParseDer(std::string_view der);
  // Every "CERTIFICATE" block, in order; InvalidArgument when there is none.
  static Result<std::vector<Certificate>> ParsePemBundle(std::string_view pem);
  // Takes ownership of `cert`.
  static Certificate Adopt(OsslPtr<X509> cert) { return Certificate(std::move(cert), true); }
  // Takes ownership of a certificate whose public key OpenSSL has not decoded (its
  // SubjectPublicKeyInfo was written field by field, see sign.cc): the checks that need the key
  // parse the certificate back from DER first.
  static Certificate AdoptWithoutDecodedKey(OsslPtr<X509> cert) {
    return Certificate(std::move(cert), false);
  }

  Certificate(const Certificate& other);
  Certificate& operator=(const Certificate& other);
  Certificate(Certificate&&) = default;
  Certificate& operator=(Certificate&&) = default;

  std::string ToPem() const;
  std::string ToDer() const;

  std::string CommonName() const;
  std::vector<std::string> Organizations() const;
  std::vector<std::string> DnsNames() const;
  std::vector<std::string> IpAddresses() const;  // Go's IP.String() text
  bool IsCa() const;
  unsigned KeyUsage() const;                      // KeyUsageBits; 0 when the extension is absent
  std::vector<ExtKeyUsage> ExtKeyUsages() const;  // server/client auth only, in order
  bool HasExtKeyUsage(ExtKeyUsage usage) const;
  TimePoint NotBefore() const;
  TimePoint NotAfter() const;
  std::string SerialHex() const;
  // The DER SubjectPublicKeyInfo of the certificate's key, as the certificate holds it (its pin
  // is util::PinsOfPemBundle's, pubkey_pin.h).
  std::string PublicKeyDer() const;

  // OK when `ca`'s key made this certificate's signature (X509_verify), FailedPrecondition else.
  Status VerifySignedBy(const Certificate& ca) const;

  // Like Go's x509 Verify with `root` as the only trust anchor and `intermediates` as the pool:
  // the chain must build and every signature, CA flag and (unless `at` is nullopt) validity
  // period must hold. FailedPrecondition with OpenSSL's reason otherwise.
  Status VerifyChain(const std::vector<Certificate>& intermediates, const Certificate& root,
                     std::optional<TimePoint> at) const;

  // True when `key` is the private half of this certificate's public key.
  bool MatchesKey(const PrivateKey& key) const;

  // The certificate itself; for one adopted without a decoded key, X509_get0_pubkey gives null
  // and leaves an error on OpenSSL's queue.
  X509* get() const { return cert_.get(); }

 private:
  Certificate(OsslPtr<X509> cert, bool key_decoded)
      : cert_(std::move(cert)), key_decoded_(key_decoded) {}
  // cert_ (another reference to it) when OpenSSL has decoded its key, else a copy parsed back.
  OsslPtr<X509> WithDecodedKey() const;
  OsslPtr<X509> cert_;
  bool key_decoded_ = true;
};

}  // namespace kkadm::util::pki
