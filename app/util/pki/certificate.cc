// Certificate parsing, field extraction and verification over OpenSSL 3.
#include "app/util/pki/certificate.h"

#include <openssl/err.h>
#include <openssl/pem.h>

#include <ctime>

#include "app/util/net_rules.h"

namespace kkadm::util::pki {
namespace {

std::string Asn1Text(const ASN1_STRING* s) {
  return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)),
                     static_cast<size_t>(ASN1_STRING_length(s)));
}

TimePoint Asn1TimeToPoint(const ASN1_TIME* t) {
  std::tm tm{};
  if (t == nullptr || ASN1_TIME_to_tm(t, &tm) != 1) return TimePoint{};
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

// Reads certificates until the PEM data ends; a CERTIFICATE block that does not parse is an error.
Result<std::vector<Certificate>> ReadAll(std::string_view pem, bool first_only) {
  ClearOpenSslErrors();
  auto bio = MemoryBio(pem);
  std::vector<Certificate> certs;
  while (!first_only || certs.empty()) {
    X509* raw = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
    if (raw == nullptr) {
      unsigned long err = ERR_peek_last_error();
      if (ERR_GET_LIB(err) == ERR_LIB_PEM && ERR_GET_REASON(err) == PEM_R_NO_START_LINE) {
        ClearOpenSslErrors();
        break;
      }
      return OpenSslError("data contains an invalid certificate", true);
    }
    certs.push_back(Certificate::Adopt(OsslPtr<X509>(raw)));
  }
  if (certs.empty())
    return InvalidArgument("data does not contain any valid RSA or ECDSA certificates");
  return certs;
}

}  // namespace

Result<Certificate> Certificate::ParsePem(std::string_view pem) {
  auto certs = ReadAll(pem, true);
  if (!certs) return std::move(certs).error();
  return std::move(certs->front());
}

Result<Certificate> Certificate::ParseDer(std::string_view der) {
  ClearOpenSslErrors();
  const auto* p = reinterpret_cast<const unsigned char*>(der.data());
  OsslPtr<X509> cert(d2i_X509(nullptr, &p, static_cast<long>(der.size())));
  if (!cert) return OpenSslError("data contains an invalid certificate", true);
  return Adopt(std::move(cert));
}

Result<std::vector<Certificate>> Certificate::ParsePemBundle(std::string_view pem) {
  return ReadAll(pem, false);
}

Certificate::Certificate(const Certificate& other)
    : cert_(other.cert_.get()), key_decoded_(other.key_decoded_) {
  if (cert_) X509_up_ref(cert_.get());
}

Certificate& Certificate::operator=(const Certificate& other) {
  if (this != &other) {
    if (other.cert_) X509_up_ref(other.cert_.get());
    cert_.reset(other.cert_.get());
    key_decoded_ = other.key_decoded_;
  }
  return *this;
}

OsslPtr<X509> Certificate::WithDecodedKey() const {
  if (key_decoded_) {
    X509_up_ref(cert_.get());
    return OsslPtr<X509>(cert_.get());
  }
  auto parsed = ParseDer(ToDer());
  if (!parsed) return nullptr;
  X509_up_ref(parsed->get());
  return OsslPtr<X509>(parsed->get());
}

std::string Certificate::ToPem() const {
  OsslPtr<BIO> bio(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(bio.get(), cert_.get());
  return BioContents(bio.get());
}

std::string Certificate::ToDer() const {
  unsigned char* der = nullptr;
  int len = i2d_X509(cert_.get(), &der);
  if (len <= 0) return std::string();
  std::string out(reinterpret_cast<char*>(der), static_cast<size_t>(len));
  OPENSSL_free(der);
  return out;
}

std::string Certificate::CommonName() const {
  // Go keeps the last CN when there are several.
  const X509_NAME* name = X509_get_subject_name(cert_.get());
  std::string cn;
  for (int i = -1; (i = X509_NAME_get_index_by_NID(name, NID_commonName, i)) >= 0;) {
    cn = Asn1Text(X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i)));
  }
  return cn;
}

std::vector<std::string> Certificate::Organizations() const {
  const X509_NAME* name = X509_get_subject_name(cert_.get());
  std::vector<std::string> orgs;
  for (int i = -1; (i = X509_NAME_get_index_by_NID(name, NID_organizationName, i)) >= 0;) {
    orgs.push_back(Asn1Text(X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i))));
  }
  return orgs;
}

std::vector<std::string> Certificate::DnsNames() const {
  std::vector<std::string> out;
  OsslPtr<GENERAL_NAMES> names(static_cast<GENERAL_NAMES*>(
      X509_get_ext_d2i(cert_.get(), NID_subject_alt_name, nullptr, nullptr)));
  for (int i = 0; names && i < sk_GENERAL_NAME_num(names.get()); ++i) {
    const GENERAL_NAME* gn = sk_GENERAL_NAME_value(names.get(), i);
    if (gn->type == GEN_DNS) out.push_back(Asn1Text(gn->d.dNSName));
  }
  return out;
}

std::vector<std::string> Certificate::IpAddresses() const {
  std::vector<std::string> out;
  OsslPtr<GENERAL_NAMES> names(static_cast<GENERAL_NAMES*>(
      X509_get_ext_d2i(cert_.get(), NID_subject_alt_name, nullptr, nullptr)));
  for (int i = 0; names && i < sk_GENERAL_NAME_num(names.get()); ++i) {
    const GENERAL_NAME* gn = sk_GENERAL_NAME_value(names.get(), i);
    if (gn->type != GEN_IPADD) continue;
    // Go's IP.String(): a 16-byte IPv4-mapped address prints as IPv4.
    out.push_back(FormatIp(Asn1Text(gn->d.iPAddress)));
  }
  return out;
}

bool Certificate::IsCa() const {
  OsslPtr<BASIC_CONSTRAINTS> bc(static_cast<BASIC_CONSTRAINTS*>(
      X509_get_ext_d2i(cert_.get(), NID_basic_constraints, nullptr, nullptr)));
  return bc && bc->ca;
}

unsigned Certificate::KeyUsage() const {
  uint32_t ku = X509_get_key_usage(cert_.get());
  if (ku == UINT32_MAX) return 0;
  unsigned out = 0;
  if (ku & KU_DIGITAL_SIGNATURE) out |= kKeyUsageDigitalSignature;
  if (ku & KU_NON_REPUDIATION) out |= kKeyUsageContentCommitment;
  if (ku & KU_KEY_ENCIPHERMENT) out |= kKeyUsageKeyEncipherment;
  if (ku & KU_DATA_ENCIPHERMENT) out |= kKeyUsageDataEncipherment;
  if (ku & KU_KEY_AGREEMENT) out |= kKeyUsageKeyAgreement;
  if (ku & KU_KEY_CERT_SIGN) out |= kKeyUsageCertSign;
  if (ku & KU_CRL_SIGN) out |= kKeyUsageCrlSign;
  return out;
}

std::vector<ExtKeyUsage> Certificate::ExtKeyUsages() const {
  std::vector<ExtKeyUsage> out;
  OsslPtr<EXTENDED_KEY_USAGE> eku(static_cast<EXTENDED_KEY_USAGE*>(
      X509_get_ext_d2i(cert_.get(), NID_ext_key_usage, nullptr, nullptr)));
  for (int i = 0; eku && i < sk_ASN1_OBJECT_num(eku.get()); ++i) {
    int nid = OBJ_obj2nid(sk_ASN1_OBJECT_value(eku.get(), i));
    if (nid == NID_server_auth) out.push_back(ExtKeyUsage::kServerAuth);
    if (nid == NID_client_auth) out.push_back(ExtKeyUsage::kClientAuth);
  }
  return out;
}

bool Certificate::HasExtKeyUsage(ExtKeyUsage usage) const {
  for (auto u : ExtKeyUsages()) {
    if (u == usage) return true;
  }
  return false;
}

TimePoint Certificate::NotBefore() const {
  return Asn1TimeToPoint(X509_get0_notBefore(cert_.get()));
}
TimePoint Certificate::NotAfter() const { return Asn1TimeToPoint(X509_get0_notAfter(cert_.get())); }

std::string Certificate::SerialHex() const {
  OsslPtr<BIGNUM> bn(ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert_.get()), nullptr));
  if (!bn) return std::string();
  char* hex = BN_bn2hex(bn.get());
  std::string out(hex);
  OPENSSL_free(hex);
  return out;
}

std::string Certificate::PublicKeyDer() const {
  unsigned char* der = nullptr;
  int len = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(cert_.get()), &der);
  if (len <= 0) return std::string();
  std::string out(reinterpret_cast<char*>(der), static_cast<size_t>(len));
  OPENSSL_free(der);
  return out;
}

Status Certificate::VerifySignedBy(const Certificate& ca) const {
  ClearOpenSslErrors();
  OsslPtr<X509> decoded_ca = ca.WithDecodedKey();
  EVP_PKEY* ca_key = decoded_ca ? X509_get0_pubkey(decoded_ca.get()) : nullptr;
  if (ca_key == nullptr || X509_verify(cert_.get(), ca_key) != 1) {
    ClearOpenSslErrors();
    return FailedPrecondition(
        "x509: certificate signature does not verify with the CA's public key");
  }
  return Status();
}

Status Certificate::VerifyChain(const std::vector<Certificate>& intermediates,
                                const Certificate& root, std::optional<TimePoint> at) const {
  OsslPtr<X509_STORE> store(X509_STORE_new());
  OsslPtr<STACK_OF(X509)> pool(sk_X509_new_null());
  OsslPtr<X509_STORE_CTX> ctx(X509_STORE_CTX_new());
  if (!store || !pool || !ctx ||
      X509_STORE_add_cert(store.get(), root.WithDecodedKey().get()) != 1) {
    return OpenSslError("preparing certificate verification");
  }
  for (const auto& c : intermediates) {
    OsslPtr<X509> decoded = c.WithDecodedKey();
    if (!decoded || sk_X509_push(pool.get(), decoded.get()) <= 0) {
      return OpenSslError("preparing certificate verification");
    }
    decoded.release();  // the pool owns it now
  }
  OsslPtr<X509> leaf = WithDecodedKey();
  if (!leaf || X509_STORE_CTX_init(ctx.get(), store.get(), leaf.get(), pool.get()) != 1) {
    return OpenSslError("preparing certificate verification");
  }
  // The root need not be self-signed: like Go's cert pool, whatever is given is trusted.
  unsigned long flags = X509_V_FLAG_PARTIAL_CHAIN;
  if (at) {
    X509_STORE_CTX_set_time(ctx.get(), 0, std::chrono::system_clock::to_time_t(*at));
  } else {
    flags |= X509_V_FLAG_NO_CHECK_TIME;
  }
  X509_STORE_CTX_set_flags(ctx.get(), flags);
  if (X509_verify_cert(ctx.get()) != 1) {
    ClearOpenSslErrors();
    return FailedPrecondition(std::string("x509: ") +
                              X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx.get())));
  }
  return Status();
}

bool Certificate::MatchesKey(const PrivateKey& key) const {
  OsslPtr<X509> decoded = WithDecodedKey();
  EVP_PKEY* pub = decoded ? X509_get0_pubkey(decoded.get()) : nullptr;
  return pub != nullptr && EVP_PKEY_eq(pub, key.get()) == 1;
}

}  // namespace kkadm::util::pki
