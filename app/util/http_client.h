// HttpClient: one HTTP(S) request at a time over libcurl, with TLS material given as PEM bytes. The
// only code that calls curl_* is http_client_real.cc; everything else (the Kubernetes client, the
// etcd client, the kubelet health check) goes through this interface.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util {

// TLS and timeouts shared by every request of one client.
struct HttpClientOptions {
  std::string ca_pem;           // trust only this CA (PEM); empty: the system's trust store
  std::string client_cert_pem;  // client certificate (PEM) presented for mutual TLS; empty: none
  std::string client_key_pem;   // its private key (PEM); never logged
  std::string bearer_token;     // sent as "Authorization: Bearer <token>"; never logged
  // Skips server certificate and host name checks. Only for token discovery of an API server whose
  // CA is not known yet (kubeadm's unsafe-skip-ca-verification); never for anything that sends
  // secrets.
  bool insecure_skip_tls_verify = false;
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds request_timeout{10000};  // whole request, connect included
  // A longer response body ends the transfer with an error: a server (before discovery trusts it,
  // any server) cannot make kkadm hold more. 64 MiB; kkadm's largest replies are a few kB.
  std::size_t max_response_bytes = std::size_t{64} << 20;
};

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  std::string body;
  std::string content_type;  // empty: no Content-Type header
  std::map<std::string, std::string> headers;
  // Overrides HttpClientOptions::request_timeout for this request when non-zero.
  std::chrono::milliseconds timeout{0};
};

struct HttpResponse {
  long status = 0;  // HTTP status code
  std::string body;
  std::map<std::string, std::string>
      headers;  // names lower-cased; a repeated header keeps the last
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  // Sends the request. Any HTTP status is a response (callers judge it); an error means no
  // response, with curl's message and the URL: kFailedPrecondition when the server's certificate
  // is not trusted (wrong CA, wrong host) or ours is unusable — retrying will not help;
  // kUnavailable for every other connection, TLS handshake or timeout failure.
  virtual Result<HttpResponse> Do(const HttpRequest& request) = 0;
  // Do, with the body handed to `sink` piece by piece as it arrives instead of kept in
  // HttpResponse::body (which stays empty), so max_response_bytes does not apply: for bodies too
  // large to hold, such as an etcd snapshot. An error from `sink` ends the transfer and is
  // returned. This default, for clients that only have Do, hands the whole body over at once.
  using BodySink = std::function<Status(std::string_view piece)>;
  virtual Result<HttpResponse> DoStreaming(const HttpRequest& request, const BodySink& sink) {
    Result<HttpResponse> response = Do(request);
    if (!response) return response;
    if (!response->body.empty()) KKADM_RETURN_IF_ERROR(sink(response->body));
    response->body.clear();
    return response;
  }
  // A plain GET, e.g. http://127.0.0.1:10248/healthz for the kubelet.
  Result<HttpResponse> Get(const std::string& url) {
    HttpRequest request;
    request.url = url;
    return Do(request);
  }
};

// The libcurl client. Thread-compatible: use one object per thread.
std::unique_ptr<HttpClient> NewHttpClient(HttpClientOptions options);

}  // namespace kkadm::util
