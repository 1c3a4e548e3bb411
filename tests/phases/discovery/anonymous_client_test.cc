// Discovery over real TLS (libcurl against tests/util/servers/tls_echo.py on 127.0.0.1, with a
// throwaway PKI made by the openssl CLI): the unverified first look, the pinned CA that verifies
// the server the second time, a CA that does not, and what the server received: no credential.
#include "app/phases/discovery/anonymous_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "app/phases/bootstraptoken/bootstrap_token.h"
#include "app/phases/discovery/cluster_info.h"
#include "app/phases/discovery/token_discovery.h"
#include "app/util/jws.h"
#include "app/util/kubeconfig.h"
#include "app/util/pubkey_pin.h"
#include "tests/fakes/temp_dir.h"
#include "tests/phases/discovery/cluster_fixture.h"
#include "tests/util/servers/echo_server.h"

namespace kkadm::phases::discovery {
namespace {

HttpClientFactory Curl() {
  return [](const util::HttpClientOptions& options) { return util::NewHttpClient(options); };
}

class AnonymousClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kkadm::testing::RunShell(
            "command -v openssl >/dev/null && command -v python3 >/dev/null")) {
      GTEST_SKIP() << "needs openssl and python3";
    }
    ASSERT_TRUE(pki_.Create(dir_.path() + "/pki"));
  }
  // The cluster-info a cluster with CA `ca_pem` publishes (API server
  // "https://cluster.example:6443"), signed for token abcdef.
  static nlohmann::json ClusterInfo(const std::string& ca_pem) {
    util::KubeconfigCluster cluster;
    cluster.server = "https://cluster.example:6443";
    cluster.certificate_authority_data = ca_pem;
    const std::string kubeconfig = ClusterInfoKubeconfig(cluster);
    return {{"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"data",
             {{"kubeconfig", kubeconfig},
              {"jws-kubeconfig-abcdef",
               *util::ComputeDetachedSignature(kubeconfig, "abcdef", "0123456789abcdef")}}}};
  }
  // A TLS echo server (certificate from the test PKI) answering every request with `cluster_info`.
  void Serve(const nlohmann::json& cluster_info) {
    server_ = std::make_unique<kkadm::testing::EchoServer>(
        dir_.path(), std::vector<nlohmann::json>{{{"status", 200}, {"body", cluster_info.dump()}}},
        kkadm::testing::EchoServer::Mode::kTls, &pki_);
    ASSERT_NE(server_->port(), 0);
  }
  TokenDiscoveryInput Input(const std::string& pinned_ca) const {
    TokenDiscoveryInput in;
    in.endpoints = {Endpoint()};
    in.token = "abcdef.0123456789abcdef";
    in.ca_cert_hashes = {*util::PinOfPemCertificate(pinned_ca)};
    in.timeout = std::chrono::seconds(5);
    return in;
  }
  std::string Endpoint() const { return "127.0.0.1:" + std::to_string(server_->port()); }

  kkadm::testing::TempDir dir_;
  kkadm::testing::TestPki pki_;
  std::unique_ptr<kkadm::testing::EchoServer> server_;
};

TEST_F(AnonymousClientTest, TrustModesAgainstARealTlsServer) {
  Serve(ClusterInfo(pki_.Pem("ca.crt")));
  AnonymousClient unverified(Curl(), ServerTrust::None(), std::chrono::seconds(5));
  auto first = unverified.Get(server_->url() + kClusterInfoPath);
  ASSERT_TRUE(first.has_value()) << first.error().message();
  EXPECT_EQ(first->status, 200);
  AnonymousClient pinned(Curl(), ServerTrust::CaBundle(pki_.Pem("ca.crt")),
                         std::chrono::seconds(5));
  EXPECT_TRUE(pinned.Get(server_->url() + kClusterInfoPath).has_value());
  AnonymousClient other(Curl(), ServerTrust::CaBundle(kkadm::testing::MakeCaPem("impostor")),
                        std::chrono::seconds(5));
  auto refused = other.Get(server_->url() + kClusterInfoPath);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), StatusCode::kFailedPrecondition);
}

TEST_F(AnonymousClientTest, TokenDiscoveryOverRealTlsSendsNoCredential) {
  Serve(ClusterInfo(pki_.Pem("ca.crt")));
  std::ostringstream out;
  util::Printer printer(out);
  DiscoveryEnv env{Curl(), util::RealClock(), printer};
  auto verified = DiscoverWithToken(Input(pki_.Pem("ca.crt")), env);
  ASSERT_TRUE(verified.has_value()) << verified.error().message();
  EXPECT_EQ(verified->server, "https://cluster.example:6443");
  EXPECT_TRUE(verified->pinned);
  // What the server received: two anonymous GETs of cluster-info, nothing else.
  const auto requests = server_->Requests();
  ASSERT_EQ(requests.size(), 2u);
  for (const auto& r : requests) {
    EXPECT_EQ(r["method"], "GET");
    EXPECT_EQ(r["path"], kClusterInfoPath);
    EXPECT_FALSE(r["headers"].contains("authorization")) << r.dump();
    EXPECT_EQ(r["client_cn"], "");
  }
}

TEST_F(AnonymousClientTest, AServerTheCaDoesNotVouchForIsRefusedAfterOneLook) {
  // cluster-info republished by a man in the middle: its CA matches the pin, but the server's
  // certificate is the test PKI's, which that CA did not sign.
  const std::string real_ca = kkadm::testing::MakeCaPem("kubernetes");
  Serve(ClusterInfo(real_ca));
  std::ostringstream out;
  util::Printer printer(out);
  DiscoveryEnv env{Curl(), util::RealClock(), printer};
  auto verified = DiscoverWithToken(Input(real_ca), env);
  ASSERT_FALSE(verified.has_value());
  EXPECT_THAT(verified.error().message(),
              ::testing::HasSubstr("over TLS verified by the pinned CA"));
  EXPECT_EQ(server_->Requests().size(),
            1u);  // the verified connection never got to send its request
}

}  // namespace
}  // namespace kkadm::phases::discovery
