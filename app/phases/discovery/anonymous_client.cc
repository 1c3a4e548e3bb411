// AnonymousClient: the credential-free HTTP client of discovery.
#include "app/phases/discovery/anonymous_client.h"

#include <algorithm>

namespace kkadm::phases::discovery {

AnonymousClient::AnonymousClient(const HttpClientFactory& factory, const ServerTrust& trust,
                                 std::chrono::milliseconds request_timeout) {
  // Only trust settings and timeouts are filled in: client_cert_pem, client_key_pem and
  // bearer_token stay empty by construction.
  util::HttpClientOptions options;
  options.insecure_skip_tls_verify = trust.mode == ServerTrust::Mode::kNone;
  if (trust.mode == ServerTrust::Mode::kCaBundle) options.ca_pem = trust.ca_pem;
  options.request_timeout = request_timeout;
  options.connect_timeout = std::min(request_timeout, std::chrono::milliseconds(5000));
  http_ = factory(options);
}

Result<util::HttpResponse> AnonymousClient::Get(const std::string& url) {
  util::HttpRequest request;
  request.url = url;
  request.headers["Accept"] = "application/json";
  return http_->Do(request);
}

}  // namespace kkadm::phases::discovery
