// Certificate issuance: kubeadm's certificate template built with OpenSSL's X509 API.
#include "app/util/pki/sign.h"

#include <openssl/core_names.h>
#include <openssl/rand.h>

#include <algorithm>

#include "app/util/net_rules.h"
#include "app/util/pki/san.h"

namespace kkadm::util::pki {
namespace {

// Go's asn1 marshals a name attribute as PrintableString when it can, else UTF8String.
bool IsPrintableString(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view(" '()+,-./:=?").find(c) != std::string_view::npos;
  });
}

Status AddNameEntry(X509_NAME* name, int nid, const std::string& value) {
  int type = IsPrintableString(value) ? V_ASN1_PRINTABLESTRING : V_ASN1_UTF8STRING;
  if (X509_NAME_add_entry_by_NID(name, nid, type,
                                 reinterpret_cast<const unsigned char*>(value.data()),
                                 static_cast<int>(value.size()), -1, 0) != 1) {
    return OpenSslError("adding subject attribute");
  }
  return Status();
}

// Uniform in [1, 2^63-1), as kubeadm: a 63-bit draw below 2^63-2, plus one.
Status SetRandomSerial(X509* cert) {
  uint64_t value = 0;
  do {
    unsigned char buf[8];
    if (RAND_bytes(buf, sizeof(buf)) != 1) return OpenSslError("generating serial number");
    value = 0;
    for (unsigned char b : buf) value = (value << 8) | b;
    value &= 0x7fffffffffffffffULL;
  } while (value >= 0x7ffffffffffffffeULL);
  OsslPtr<BIGNUM> bn(BN_new());
  if (!bn || BN_set_word(bn.get(), value + 1) != 1 ||
      BN_to_ASN1_INTEGER(bn.get(), X509_get_serialNumber(cert)) == nullptr) {
    return OpenSslError("setting serial number");
  }
  return Status();
}

Status AddExt(X509* cert, int nid, void* value, bool critical) {
  if (X509_add1_ext_i2d(cert, nid, value, critical ? 1 : 0, X509V3_ADD_DEFAULT) != 1) {
    return OpenSslError("adding certificate extension");
  }
  return Status();
}

Status AddKeyUsage(X509* cert, bool is_ca) {
  OsslPtr<ASN1_BIT_STRING> bits(ASN1_BIT_STRING_new());
  ASN1_BIT_STRING_set_bit(bits.get(), 0, 1);             // digitalSignature
  ASN1_BIT_STRING_set_bit(bits.get(), 2, 1);             // keyEncipherment
  if (is_ca) ASN1_BIT_STRING_set_bit(bits.get(), 5, 1);  // keyCertSign
  return AddExt(cert, NID_key_usage, bits.get(), true);
}

Status AddExtKeyUsage(X509* cert, const std::vector<ExtKeyUsage>& usages) {
  if (usages.empty()) return Status();
  OsslPtr<EXTENDED_KEY_USAGE> eku(sk_ASN1_OBJECT_new_null());
  for (auto usage : usages) {
    int nid = usage == ExtKeyUsage::kServerAuth ? NID_server_auth : NID_client_auth;
    sk_ASN1_OBJECT_push(eku.get(), OBJ_nid2obj(nid));
  }
  return AddExt(cert, NID_ext_key_usage, eku.get(), false);
}

Status AddBasicConstraints(X509* cert, bool is_ca) {
  OsslPtr<BASIC_CONSTRAINTS> bc(BASIC_CONSTRAINTS_new());
  bc->ca = is_ca ? 0xff : 0;
  return AddExt(cert, NID_basic_constraints, bc.get(), true);
}

Status AddSubjectKeyId(X509* cert) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  OsslPtr<ASN1_OCTET_STRING> id(ASN1_OCTET_STRING_new());
  // SHA-1 over the subjectPublicKey bits: RFC 5280 method 1, what Go uses.
  if (X509_pubkey_digest(cert, EVP_sha1(), md, &len) != 1 ||
      ASN1_OCTET_STRING_set(id.get(), md, static_cast<int>(len)) != 1) {
    return OpenSslError("computing subject key identifier");
  }
  return AddExt(cert, NID_subject_key_identifier, id.get(), false);
}

Status AddAuthorityKeyId(X509* cert, const X509* ca) {
  const ASN1_OCTET_STRING* ca_id = X509_get0_subject_key_id(const_cast<X509*>(ca));
  if (ca_id == nullptr) return Status();
  OsslPtr<AUTHORITY_KEYID> akid(AUTHORITY_KEYID_new());
  akid->keyid = ASN1_OCTET_STRING_dup(ca_id);
  return AddExt(cert, NID_authority_key_identifier, akid.get(), false);
}

Status AddGeneralName(GENERAL_NAMES* names, int type, const std::string& bytes) {
  GENERAL_NAME* gn = GENERAL_NAME_new();
  ASN1_STRING* value = type == GEN_DNS ? ASN1_IA5STRING_new() : ASN1_OCTET_STRING_new();
  if (gn == nullptr || value == nullptr ||
      ASN1_STRING_set(value, bytes.data(), static_cast<int>(bytes.size())) != 1) {
    GENERAL_NAME_free(gn);
    ASN1_STRING_free(value);
    return OpenSslError("building subject alternative name");
  }
  GENERAL_NAME_set0_value(gn, type, value);
  sk_GENERAL_NAME_push(names, gn);
  return Status();
}

Status AddSans(X509* cert, const std::vector<std::string>& dns,
               const std::vector<std::string>& ips) {
  if (dns.empty() && ips.empty()) return Status();
  auto names = SubjectAltNames(dns, ips);
  if (!names) return names.error();
  return AddExt(cert, NID_subject_alt_name, names->get(), false);
}

Status SetSubjectAndValidity(X509* cert, const CertConfig& config) {
  auto subject = SubjectName(config.common_name, config.organizations);
  if (!subject) return subject.error();
  OsslPtr<X509_NAME> name = std::move(*subject);
  auto to_time = [](TimePoint t) { return std::chrono::system_clock::to_time_t(t); };
  if (X509_set_version(cert, X509_VERSION_3) != 1 || X509_set_subject_name(cert, name.get()) != 1 ||
      ASN1_TIME_set(X509_getm_notBefore(cert), to_time(config.not_before)) == nullptr ||
      ASN1_TIME_set(X509_getm_notAfter(cert), to_time(config.not_after)) == nullptr) {
    return OpenSslError("filling certificate template");
  }
  return SetRandomSerial(cert);
}

// The SubjectPublicKeyInfo of an EC key written field by field (RFC 5480: id-ecPublicKey, the
// named curve, the point in the key's own format, uncompressed unless set otherwise).
// X509_set_pubkey does the same through OpenSSL 3.0's encoder and decoder lookups: about 3.3M
// instructions a certificate, a fifth of `init` before kubelet-start. The certificate is left
// without OpenSSL's decoded copy of the key (see Issue).
Status SetEcPublicKey(X509* cert, const PrivateKey& key) {
  char group[64];
  size_t point_size = 0;
  if (EVP_PKEY_get_utf8_string_param(key.get(), OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group),
                                     nullptr) != 1 ||
      EVP_PKEY_get_octet_string_param(key.get(), OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, nullptr, 0,
                                      &point_size) != 1) {
    return OpenSslError("reading the EC public key");
  }
  int curve = OBJ_txt2nid(group);
  auto* point = static_cast<unsigned char*>(OPENSSL_malloc(point_size));
  if (curve == NID_undef || point == nullptr ||
      EVP_PKEY_get_octet_string_param(key.get(), OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, point,
                                      point_size, &point_size) != 1) {
    OPENSSL_free(point);
    return OpenSslError("reading the EC public key");
  }
  // On success the SubjectPublicKeyInfo owns `point`.
  if (X509_PUBKEY_set0_param(X509_get_X509_PUBKEY(cert), OBJ_nid2obj(NID_X9_62_id_ecPublicKey),
                             V_ASN1_OBJECT, OBJ_nid2obj(curve), point,
                             static_cast<int>(point_size)) != 1) {
    OPENSSL_free(point);
    return OpenSslError("setting the certificate's public key");
  }
  return Status();
}

const EVP_MD* DigestFor(const PrivateKey& signer) {
  return signer.IsEcdsa() && signer.Bits() >= 384 ? EVP_sha384() : EVP_sha256();
}

struct Template {
  const CertConfig& config;
  const std::vector<std::string>& dns;
  const std::vector<std::string>& ips;
};

Result<Certificate> Issue(const Template& t, const PrivateKey& subject_key, const X509* issuer,
                          const PrivateKey& signer) {
  OsslPtr<X509> cert(X509_new());
  if (!cert) return OpenSslError("allocating certificate");
  KKADM_RETURN_IF_ERROR(SetSubjectAndValidity(cert.get(), t.config));
  const X509_NAME* issuer_name =
      issuer ? X509_get_subject_name(issuer) : X509_get_subject_name(cert.get());
  if (X509_set_issuer_name(cert.get(), issuer_name) != 1) {
    return OpenSslError("filling certificate template");
  }
  bool ec = subject_key.IsEcdsa();
  if (ec) {
    KKADM_RETURN_IF_ERROR(SetEcPublicKey(cert.get(), subject_key));
  } else if (X509_set_pubkey(cert.get(), subject_key.get()) != 1) {
    return OpenSslError("setting the certificate's public key");
  }
  KKADM_RETURN_IF_ERROR(AddKeyUsage(cert.get(), t.config.is_ca));
  KKADM_RETURN_IF_ERROR(AddExtKeyUsage(cert.get(), t.config.usages));
  KKADM_RETURN_IF_ERROR(AddBasicConstraints(cert.get(), t.config.is_ca));
  if (t.config.is_ca) KKADM_RETURN_IF_ERROR(AddSubjectKeyId(cert.get()));
  if (issuer) KKADM_RETURN_IF_ERROR(AddAuthorityKeyId(cert.get(), issuer));
  KKADM_RETURN_IF_ERROR(AddSans(cert.get(), t.dns, t.ips));
  if (X509_sign(cert.get(), signer.get(), DigestFor(signer)) <= 0) {
    return OpenSslError("signing certificate");
  }
  if (!ec) return Certificate::Adopt(std::move(cert));
  // A CA is matched against its key before each signing, which needs OpenSSL's decoded copy of
  // its public key: parsing the certificate back once still costs a fifth less than
  // X509_set_pubkey. A leaf's rarer checks parse it back when they run.
  Certificate issued = Certificate::AdoptWithoutDecodedKey(std::move(cert));
  if (t.config.is_ca) return Certificate::ParseDer(issued.ToDer());
  return issued;
}

}  // namespace

Result<OsslPtr<X509_NAME>> SubjectName(const std::string& common_name,
                                       const std::vector<std::string>& organizations) {
  OsslPtr<X509_NAME> name(X509_NAME_new());
  // Go's pkix.Name order: O before CN.
  for (const auto& o : organizations) {
    KKADM_RETURN_IF_ERROR(AddNameEntry(name.get(), NID_organizationName, o));
  }
  KKADM_RETURN_IF_ERROR(AddNameEntry(name.get(), NID_commonName, common_name));
  return name;
}

// Go's order: DNS names, then IP addresses.
Result<OsslPtr<GENERAL_NAMES>> SubjectAltNames(const std::vector<std::string>& dns,
                                               const std::vector<std::string>& ips) {
  OsslPtr<GENERAL_NAMES> names(sk_GENERAL_NAME_new_null());
  for (const auto& d : dns) KKADM_RETURN_IF_ERROR(AddGeneralName(names.get(), GEN_DNS, d));
  for (const auto& text : ips) {
    auto ip = ParseIp(text);
    if (!ip) return InvalidArgument("invalid IP address in SANs: " + text);
    KKADM_RETURN_IF_ERROR(AddGeneralName(names.get(), GEN_IPADD, *ip));
  }
  return names;
}

Result<Certificate> SelfSignCA(const CertConfig& config, const PrivateKey& key) {
  if (config.common_name.empty()) return InvalidArgument("must specify a CommonName");
  CertConfig ca = config;
  ca.is_ca = true;
  std::vector<std::string> dns = {config.common_name};
  std::vector<std::string> no_ips;
  return Issue(Template{ca, dns, no_ips}, key, nullptr, key);
}

Result<Certificate> SignLeaf(const CertConfig& config, const PrivateKey& subject_key,
                             const Certificate& ca, const PrivateKey& ca_key) {
  if (config.common_name.empty()) return InvalidArgument("must specify a CommonName");
  if (config.usages.empty() && !config.is_ca) {
    return InvalidArgument("must specify at least one ExtKeyUsage");
  }
  if (!ca.MatchesKey(ca_key)) {
    return FailedPrecondition("the CA private key does not match the CA certificate");
  }
  AltNames names{config.dns_names, {}};
  for (const auto& ip : config.ips) {
    auto canonical = CanonicalIp(ip);
    if (!canonical) return InvalidArgument("invalid IP address in SANs: " + ip);
    names.ips.push_back(*canonical);
  }
  RemoveDuplicateAltNames(names);
  return Issue(Template{config, names.dns_names, names.ips}, subject_key, ca.get(), ca_key);
}

}  // namespace kkadm::util::pki
