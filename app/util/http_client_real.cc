// The libcurl HttpClient: an easy handle per request, TLS material passed as in-memory PEM blobs.
// libcurl is loaded on first use (shared_library.h says why).
#include <curl/curl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <chrono>

#include "app/util/http_client.h"
#include "app/util/shared_library.h"

namespace kkadm::util {
namespace {

// The libcurl functions kkadm calls, typed by <curl/curl.h>'s declarations.
struct CurlApi {
  decltype(&::curl_global_init) global_init = nullptr;
  decltype(&::curl_easy_init) easy_init = nullptr;
  decltype(&::curl_easy_cleanup) easy_cleanup = nullptr;
  decltype(&::curl_easy_setopt) easy_setopt = nullptr;
  decltype(&::curl_easy_perform) easy_perform = nullptr;
  decltype(&::curl_easy_getinfo) easy_getinfo = nullptr;
  decltype(&::curl_easy_strerror) easy_strerror = nullptr;
  decltype(&::curl_slist_append) slist_append = nullptr;
  decltype(&::curl_slist_free_all) slist_free_all = nullptr;
};

Result<CurlApi> LoadCurlApi() {
  auto library = OpenSharedLibrary("libcurl.so.4");
  if (!library) return library.error();
  CurlApi api;
  for (const Status& loaded : {LoadSymbol(*library, "curl_global_init", api.global_init),
                               LoadSymbol(*library, "curl_easy_init", api.easy_init),
                               LoadSymbol(*library, "curl_easy_cleanup", api.easy_cleanup),
                               LoadSymbol(*library, "curl_easy_setopt", api.easy_setopt),
                               LoadSymbol(*library, "curl_easy_perform", api.easy_perform),
                               LoadSymbol(*library, "curl_easy_getinfo", api.easy_getinfo),
                               LoadSymbol(*library, "curl_easy_strerror", api.easy_strerror),
                               LoadSymbol(*library, "curl_slist_append", api.slist_append),
                               LoadSymbol(*library, "curl_slist_free_all", api.slist_free_all)}) {
    KKADM_RETURN_IF_ERROR(loaded);
  }
  // Thread-unsafe in libcurl, hence here: the first caller initialises it under the static's guard.
  api.global_init(CURL_GLOBAL_DEFAULT);
  return api;
}

// libcurl, loaded and initialised once per process.
const Result<CurlApi>& Curl() {
  static const Result<CurlApi> api = LoadCurlApi();
  return api;
}

// Where a response body goes: into `body` up to its limit, or piece by piece to `stream`.
struct ResponseSink {
  std::string& body;
  std::size_t limit;
  const HttpClient::BodySink* stream = nullptr;
  bool overflowed = false;
  Status stream_error;  // what `stream` refused a piece with
};

size_t AppendBody(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<ResponseSink*>(user);
  if (sink->stream != nullptr) {
    sink->stream_error = (*sink->stream)(std::string_view(data, size * count));
    return sink->stream_error.ok() ? size * count : 0;  // 0: curl ends with CURLE_WRITE_ERROR
  }
  if (sink->body.size() + size * count > sink->limit) {
    sink->overflowed = true;
    return 0;  // curl ends the transfer with CURLE_WRITE_ERROR
  }
  sink->body.append(data, size * count);
  return size * count;
}

size_t AppendHeader(char* data, size_t size, size_t count, void* user) {
  std::string line(data, size * count);
  auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::string value = line.substr(colon + 1);
    auto first = value.find_first_not_of(" \t");
    auto last = value.find_last_not_of(" \t\r\n");
    value = first == std::string::npos ? "" : value.substr(first, last - first + 1);
    (*static_cast<std::map<std::string, std::string>*>(user))[name] = value;
  }
  return size * count;
}

// curl copies blobs with CURL_BLOB_COPY, so `pem` need not outlive the call.
void SetBlob(const CurlApi& api, CURL* curl, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  api.easy_setopt(curl, option, &blob);
}

// Failures a retry cannot fix: the server's certificate is not trusted, or ours is unusable.
bool IsTlsTrustFailure(CURLcode rc) {
  return rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE ||
         rc == CURLE_SSL_CERTPROBLEM || rc == CURLE_SSL_ISSUER_ERROR ||
         rc == CURLE_SSL_PINNEDPUBKEYNOTMATCH;
}

class CurlHttpClient final : public HttpClient {
 public:
  CurlHttpClient(const CurlApi& api, HttpClientOptions options)
      : api_(api), options_(std::move(options)) {}

  Result<HttpResponse> Do(const HttpRequest& request) override { return Perform(request, nullptr); }

  Result<HttpResponse> DoStreaming(const HttpRequest& request, const BodySink& sink) override {
    return Perform(request, &sink);
  }

 private:
  Result<HttpResponse> Perform(const HttpRequest& request, const BodySink* stream) {
    std::unique_ptr<CURL, decltype(&::curl_easy_cleanup)> curl(api_.easy_init(), api_.easy_cleanup);
    if (!curl) return Internal("curl_easy_init failed");
    HttpResponse response;
    char error[CURL_ERROR_SIZE] = {0};
    api_.easy_setopt(curl.get(), CURLOPT_ERRORBUFFER, error);
    ResponseSink sink{response.body, options_.max_response_bytes, stream, false, Status()};
    curl_slist* headers = SetUp(curl.get(), request, response, sink);
    auto start = std::chrono::steady_clock::now();
    CURLcode rc = api_.easy_perform(curl.get());
    api_.slist_free_all(headers);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - start)
                  .count();
    if (rc != CURLE_OK && !sink.stream_error.ok()) return sink.stream_error;
    if (rc != CURLE_OK) {
      std::string why = sink.overflowed ? fmt::format("the response is over the limit of {} bytes",
                                                      options_.max_response_bytes)
                        : error[0] != '\0' ? error
                                           : api_.easy_strerror(rc);
      spdlog::debug("http {} {} failed after {} ms: {}", request.method, request.url, ms, why);
      return Status(
          IsTlsTrustFailure(rc) ? StatusCode::kFailedPrecondition : StatusCode::kUnavailable,
          request.method + " " + request.url + ": " + why);
    }
    api_.easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &response.status);
    spdlog::debug("http {} {} -> {} in {} ms", request.method, request.url, response.status, ms);
    return response;
  }

  // Configures the handle; returns the header list the caller frees after the transfer.
  curl_slist* SetUp(CURL* curl, const HttpRequest& request, HttpResponse& response,
                    ResponseSink& sink) {
    api_.easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    api_.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    api_.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    api_.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    if (request.method == "HEAD") api_.easy_setopt(curl, CURLOPT_NOBODY, 1L);
    if (!request.body.empty() || request.method == "POST" || request.method == "PUT" ||
        request.method == "PATCH") {
      api_.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                       static_cast<curl_off_t>(request.body.size()));
      api_.easy_setopt(curl, CURLOPT_COPYPOSTFIELDS, request.body.c_str());
      api_.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    }
    auto timeout = request.timeout.count() > 0 ? request.timeout : options_.request_timeout;
    api_.easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    api_.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(options_.connect_timeout.count()));
    api_.easy_setopt(curl, CURLOPT_WRITEFUNCTION, AppendBody);
    api_.easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
    api_.easy_setopt(curl, CURLOPT_HEADERFUNCTION, AppendHeader);
    api_.easy_setopt(curl, CURLOPT_HEADERDATA, &response.headers);
    SetUpTls(curl);
    curl_slist* headers = Headers(request);
    api_.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    return headers;
  }

  void SetUpTls(CURL* curl) {
    if (!options_.ca_pem.empty()) SetBlob(api_, curl, CURLOPT_CAINFO_BLOB, options_.ca_pem);
    if (!options_.client_cert_pem.empty()) {
      SetBlob(api_, curl, CURLOPT_SSLCERT_BLOB, options_.client_cert_pem);
      api_.easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
    }
    if (!options_.client_key_pem.empty()) {
      SetBlob(api_, curl, CURLOPT_SSLKEY_BLOB, options_.client_key_pem);
      api_.easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
    }
    if (options_.insecure_skip_tls_verify) {
      api_.easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
      api_.easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
    }
  }

  curl_slist* Headers(const HttpRequest& request) {
    curl_slist* list = nullptr;
    // Without this, curl sends "Expect: 100-continue" for larger bodies and waits for it.
    list = api_.slist_append(list, "Expect:");
    if (!request.content_type.empty())
      list = api_.slist_append(list, ("Content-Type: " + request.content_type).c_str());
    if (!options_.bearer_token.empty())
      list = api_.slist_append(list, ("Authorization: Bearer " + options_.bearer_token).c_str());
    for (const auto& [name, value] : request.headers)
      list = api_.slist_append(list, (name + ": " + value).c_str());
    return list;
  }

  const CurlApi& api_;
  HttpClientOptions options_;
};

// Stands in when libcurl cannot be loaded: every request fails with the reason.
class UnavailableHttpClient final : public HttpClient {
 public:
  explicit UnavailableHttpClient(Status why) : why_(std::move(why)) {}
  Result<HttpResponse> Do(const HttpRequest& /*request*/) override { return why_; }

 private:
  Status why_;
};

}  // namespace

std::unique_ptr<HttpClient> NewHttpClient(HttpClientOptions options) {
  const Result<CurlApi>& api = Curl();
  if (!api) return std::make_unique<UnavailableHttpClient>(api.error());
  return std::make_unique<CurlHttpClient>(*api, std::move(options));
}

}  // namespace kkadm::util
