// OpenSSL error queue and BIO helpers.
#include "app/util/pki/openssl_util.h"

#include <openssl/err.h>

namespace kkadm::util::pki {

Status OpenSslError(std::string_view what, bool bad_input) {
  std::string reasons;
  unsigned long code = 0;
  while ((code = ERR_get_error()) != 0) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof(buf));
    if (!reasons.empty()) reasons += "; ";
    reasons += buf;
  }
  std::string message(what);
  if (!reasons.empty()) message += ": " + reasons;
  return Status(bad_input ? StatusCode::kInvalidArgument : StatusCode::kInternal, message);
}

void ClearOpenSslErrors() { ERR_clear_error(); }

OsslPtr<BIO> MemoryBio(std::string_view data) {
  return OsslPtr<BIO>(BIO_new_mem_buf(data.data(), static_cast<int>(data.size())));
}

std::string BioContents(BIO* bio) {
  char* data = nullptr;
  long len = BIO_get_mem_data(bio, &data);
  if (len <= 0 || data == nullptr) return std::string();
  return std::string(data, static_cast<size_t>(len));
}

}  // namespace kkadm::util::pki
