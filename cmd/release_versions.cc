// The release-label lookup of kkadm's commands (see release_versions.h).
#include "cmd/release_versions.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "app/util/http_client.h"

namespace kkadm::cmd {
namespace {

Result<std::string> ReadTrustedCertificates(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in.is_open()) text << in.rdbuf();
  if (!in.is_open() || text.str().empty()) {
    return FailedPrecondition("SSL_CERT_FILE " + path + ": cannot read trusted certificates");
  }
  return text.str();
}

}  // namespace

config::ReleaseVersionSource ReleaseVersionsFromEnvironment(const util::Machine& machine) {
  config::ReleaseVersionSource source;
  if (auto mirror = machine.Getenv(kReleaseUrlVariable); mirror && !mirror->empty()) {
    std::string base = *mirror;
    while (!base.empty() && base.back() == '/') base.pop_back();
    source.release_bucket = base;
    source.ci_bucket = base;
  }
  const std::optional<std::string> cert_file = machine.Getenv("SSL_CERT_FILE");
  auto client = std::make_shared<std::unique_ptr<util::HttpClient>>();
  source.fetch = [cert_file, client](const std::string& url,
                                     std::chrono::milliseconds timeout) -> Result<std::string> {
    if (!*client) {
      util::HttpClientOptions options;
      if (cert_file && !cert_file->empty()) {
        auto pem = ReadTrustedCertificates(*cert_file);
        if (!pem) return pem.error();
        options.ca_pem = *pem;
      }
      options.connect_timeout = timeout;
      options.request_timeout = timeout;
      *client = util::NewHttpClient(std::move(options));
    }
    return config::HttpFetch(**client)(url, timeout);
  };
  return source;
}

}  // namespace kkadm::cmd
