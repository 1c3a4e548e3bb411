// Fuzz target: the cluster-info ConfigMap a joining node fetches before it trusts anything (token
// discovery): its JSON, the detached JWS signature checked against the bootstrap token, the
// kubeconfig inside, the CA bundle and its pins, and the verified re-fetch. The input is served as
// the API server's answer twice: as it is (hostile signatures), and re-signed with the token, so
// that the kubeconfig and the CA behind a valid signature are reached too.
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/phases/discovery/token_discovery.h"
#include "app/util/jws.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_http_client.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using kkadm::phases::discovery::DiscoverWithToken;
using kkadm::phases::discovery::DiscoveryEnv;
using kkadm::phases::discovery::TokenDiscoveryInput;

constexpr const char* kTokenId = "abcdef";
constexpr const char* kTokenSecret = "0123456789abcdef";
// The SPKI pin of the CA in the seed corpus (corpus/cluster_info_jws/), so that seeds get past the
// pin check to the re-fetch over verified TLS.
constexpr const char* kSeedCaPin =
    "sha256:2ab576ad154cd270bbd5191f9e76103f712bdb6578e82f0736a95c482bb8d13d";

void Discover(const std::string& body) {
  kkadm::testing::FakeHttpServer server;
  server.handler = [&body](const auto&) {
    return kkadm::Result<kkadm::util::HttpResponse>(kkadm::util::HttpResponse{200, body, {}});
  };
  kkadm::testing::FakeClock clock;
  std::ostringstream out;
  kkadm::util::Printer printer(out);
  TokenDiscoveryInput in;
  in.endpoints = {"10.0.0.1:6443"};
  in.token = std::string(kTokenId) + "." + kTokenSecret;
  in.ca_cert_hashes = {kSeedCaPin};
  in.timeout = std::chrono::milliseconds(0);  // one look: no polling on the fake clock
  DiscoveryEnv env{server.Factory(), clock, printer};
  (void)DiscoverWithToken(in, env);
}

// The body with a valid signature for the token over its kubeconfig; empty when the body is not a
// ConfigMap-like object with a kubeconfig string.
std::string Resigned(const std::string& body) {
  auto parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("data") || !parsed["data"].is_object()) return "";
  nlohmann::json& data = parsed["data"];
  if (!data.contains("kubeconfig") || !data["kubeconfig"].is_string()) return "";
  auto signature = kkadm::util::ComputeDetachedSignature(data["kubeconfig"].get<std::string>(),
                                                         kTokenId, kTokenSecret);
  kkadm::fuzz::Check(signature.has_value(), "no signature for a kubeconfig");
  kkadm::fuzz::Check(kkadm::util::DetachedSignatureMatches(data["kubeconfig"].get<std::string>(),
                                                           *signature, kTokenId, kTokenSecret),
                     "a computed signature does not verify", *signature);
  data[std::string("jws-kubeconfig-") + kTokenId] = *signature;
  return parsed.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string body(kkadm::fuzz::AsText(data, size));
  Discover(body);
  const std::string resigned = Resigned(body);
  if (!resigned.empty()) Discover(resigned);
  return 0;
}
