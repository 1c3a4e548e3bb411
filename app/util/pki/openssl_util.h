// OpenSSL plumbing shared by the pki library: unique_ptr deleters and turning OpenSSL's error queue
// into a Status. Internal to app/util/pki; other code uses key.h, certificate.h and sign.h.
#pragma once

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <string>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util::pki {

struct OpenSslDeleter {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(EVP_PKEY_CTX* p) const { EVP_PKEY_CTX_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(BIO* p) const { BIO_free_all(p); }
  void operator()(X509_STORE* p) const { X509_STORE_free(p); }
  void operator()(X509_STORE_CTX* p) const { X509_STORE_CTX_free(p); }
  void operator()(X509_NAME* p) const { X509_NAME_free(p); }
  void operator()(X509_EXTENSION* p) const { X509_EXTENSION_free(p); }
  // ASN1_INTEGER, ASN1_OCTET_STRING, ASN1_BIT_STRING, ... are all ASN1_STRING.
  void operator()(ASN1_STRING* p) const { ASN1_STRING_free(p); }
  void operator()(BIGNUM* p) const { BN_free(p); }
  void operator()(GENERAL_NAMES* p) const { GENERAL_NAMES_free(p); }
  void operator()(EXTENDED_KEY_USAGE* p) const { EXTENDED_KEY_USAGE_free(p); }
  void operator()(AUTHORITY_KEYID* p) const { AUTHORITY_KEYID_free(p); }
  void operator()(BASIC_CONSTRAINTS* p) const { BASIC_CONSTRAINTS_free(p); }
  void operator()(STACK_OF(X509) * p) const { sk_X509_pop_free(p, X509_free); }
};

template <class T>
using OsslPtr = std::unique_ptr<T, OpenSslDeleter>;

// Drains OpenSSL's error queue (of this thread) into "<what>: <OpenSSL's reasons>" as kInternal,
// or kInvalidArgument when `bad_input` says the caller's bytes were at fault.
Status OpenSslError(std::string_view what, bool bad_input = false);

// Clears this thread's error queue (before an operation whose failure is expected and handled).
void ClearOpenSslErrors();

// A read-only memory BIO over `data` (which must outlive it).
OsslPtr<BIO> MemoryBio(std::string_view data);

// The bytes written into a memory BIO.
std::string BioContents(BIO* bio);

}  // namespace kkadm::util::pki
