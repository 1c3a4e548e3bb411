// AnonymousClient: HTTPS GETs that carry no credential, for every request `kkadm join` makes before
// it has verified the cluster's CA. Its options hold nothing but how the server is trusted, so it
// cannot send a bootstrap token or a client certificate, however it is used.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "app/util/http_client.h"
#include "app/util/status.h"

namespace kkadm::phases::discovery {

// Makes an HTTP client for a set of options: util::NewHttpClient in production, a fake in tests.
using HttpClientFactory =
    std::function<std::unique_ptr<util::HttpClient>(const util::HttpClientOptions&)>;

// How an anonymous client trusts the server it talks to.
struct ServerTrust {
  enum class Mode {
    kNone,      // no server check at all: only for the first look at cluster-info
    kCaBundle,  // only the CA bundle in ca_pem
    kSystem,    // the system's trust store (a --discovery-file https URL)
  };
  Mode mode = Mode::kNone;
  std::string ca_pem;

  static ServerTrust None() { return {Mode::kNone, ""}; }
  static ServerTrust CaBundle(std::string pem) { return {Mode::kCaBundle, std::move(pem)}; }
  static ServerTrust System() { return {Mode::kSystem, ""}; }
};

class AnonymousClient {
 public:
  // The client is made once, here, from `trust` and `request_timeout` only.
  AnonymousClient(const HttpClientFactory& factory, const ServerTrust& trust,
                  std::chrono::milliseconds request_timeout);

  // GET `url` with no Authorization header and no client certificate. The answer as
  // util::HttpClient::Do gives it (any HTTP status is a response).
  Result<util::HttpResponse> Get(const std::string& url);

 private:
  std::unique_ptr<util::HttpClient> http_;
};

}  // namespace kkadm::phases::discovery
