// Token discovery against a FakeHttpServer: the JWS check, the CA pins, the verified re-fetch,
// polling on a fake clock, and that nothing sent carries a credential.
#include "app/phases/discovery/token_discovery.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "app/util/pubkey_pin.h"
#include "tests/fakes/fake_clock.h"
#include "tests/phases/discovery/cluster_fixture.h"

namespace kkadm::phases::discovery {
namespace {

using kkadm::testing::Answer;
using kkadm::testing::ClusterFixture;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

class TokenDiscoveryTest : public ::testing::Test {
 protected:
  TokenDiscoveryTest() {
    in_.endpoints = {"10.0.0.1:6443"};
    in_.token = cluster_.Token();
    in_.ca_cert_hashes = {*util::PinOfPemCertificate(cluster_.ca_pem)};
    server_.handler = [this](const auto&) { return Answer(200, cluster_.ConfigMap()); };
  }

  Result<VerifiedCluster> Discover() {
    DiscoveryEnv env{server_.Factory(), clock_, printer_};
    return DiscoverWithToken(in_, env);
  }

  // Every request went out without a credential of any kind.
  void ExpectNoCredentialSent() const {
    for (const auto& seen : server_.seen()) {
      EXPECT_EQ(seen.options.bearer_token, "");
      EXPECT_EQ(seen.options.client_cert_pem, "");
      EXPECT_EQ(seen.options.client_key_pem, "");
      EXPECT_EQ(seen.request.headers.count("Authorization"), 0u);
      EXPECT_EQ(seen.request.method, "GET");
    }
  }

  ClusterFixture cluster_;
  TokenDiscoveryInput in_;
  kkadm::testing::FakeHttpServer server_;
  kkadm::testing::FakeClock clock_;
  std::ostringstream out_;
  util::Printer printer_{out_};
};

TEST_F(TokenDiscoveryTest, VerifiesSignatureAndPinThenRefetchesOverVerifiedTls) {
  auto verified = Discover();
  ASSERT_TRUE(verified.has_value()) << verified.error().message();
  EXPECT_EQ(verified->server, cluster_.server);
  EXPECT_EQ(verified->ca_pem, cluster_.ca_pem);
  EXPECT_EQ(verified->endpoint, "10.0.0.1:6443");
  EXPECT_TRUE(verified->pinned);
  ASSERT_EQ(server_.seen().size(), 2u);
  EXPECT_THAT(server_.Urls(), ElementsAre(ClusterFixture::Url("10.0.0.1:6443"),
                                          ClusterFixture::Url("10.0.0.1:6443")));
  // First look: no server check; second: only the pinned CA.
  EXPECT_TRUE(server_.seen()[0].options.insecure_skip_tls_verify);
  EXPECT_EQ(server_.seen()[0].options.ca_pem, "");
  EXPECT_FALSE(server_.seen()[1].options.insecure_skip_tls_verify);
  EXPECT_EQ(server_.seen()[1].options.ca_pem, cluster_.ca_pem);
  ExpectNoCredentialSent();
  EXPECT_EQ(clock_.slept(), std::chrono::milliseconds(0));
}

TEST_F(TokenDiscoveryTest, PinMismatchFailsWithKubeadmsTextAfterOneAnonymousRequest) {
  const std::string other_pin = *util::PinOfPemCertificate(kkadm::testing::MakeCaPem("other"));
  in_.ca_cert_hashes = {other_pin};
  auto verified = Discover();
  ASSERT_FALSE(verified.has_value());
  EXPECT_EQ(verified.error().message(),
            "cluster CA found in cluster-info ConfigMap is invalid: none of the public keys \"" +
                *util::PinOfPemCertificate(cluster_.ca_pem) + "\" are pinned");
  EXPECT_EQ(server_.seen().size(), 1u);
  ExpectNoCredentialSent();
}

TEST_F(TokenDiscoveryTest, PinsAreCaseInsensitiveAndOneMatchIsEnough) {
  std::string pin = *util::PinOfPemCertificate(cluster_.ca_pem);
  std::transform(pin.begin(), pin.end(), pin.begin(), ::toupper);
  in_.ca_cert_hashes = {*util::PinOfPemCertificate(kkadm::testing::MakeCaPem("old")), pin};
  EXPECT_TRUE(Discover().has_value());
}

TEST_F(TokenDiscoveryTest, TamperedSignatureNamesTheTokenIdNotTheSecret) {
  server_.handler = [this](const auto&) {
    nlohmann::json cm = nlohmann::json::parse(cluster_.ConfigMap());
    cm["data"]["jws-kubeconfig-abcdef"] =
        cluster_.Signature(cluster_.Kubeconfig(), "ffffffffffffffff");
    return Answer(200, cm.dump());
  };
  auto verified = Discover();
  ASSERT_FALSE(verified.has_value());
  EXPECT_THAT(verified.error().message(), HasSubstr("failed to verify JWS signature"));
  EXPECT_THAT(verified.error().message(),
              HasSubstr("the signature for token ID \"abcdef\" does not match"));
  EXPECT_THAT(verified.error().message(), Not(HasSubstr(cluster_.token_secret)));
  EXPECT_EQ(server_.seen().size(), 1u);
  ExpectNoCredentialSent();
}

TEST_F(TokenDiscoveryTest, TamperedKubeconfigFailsTheSignatureToo) {
  server_.handler = [this](const auto&) {
    nlohmann::json cm = nlohmann::json::parse(cluster_.ConfigMap());
    std::string kubeconfig = cm["data"]["kubeconfig"];
    cm["data"]["kubeconfig"] = kubeconfig.replace(kubeconfig.find("10.0.0.1"), 8, "10.6.6.6");
    return Answer(200, cm.dump());
  };
  auto verified = Discover();
  ASSERT_FALSE(verified.has_value());
  EXPECT_THAT(verified.error().message(), HasSubstr("does not match"));
}

TEST_F(TokenDiscoveryTest, UnknownTokenPollsWithBackoffUntilTheTimeoutThenSaysSoPlainly) {
  server_.handler = [this](const auto&) {
    return Answer(200, cluster_.ConfigMap(/*signed_=*/false));
  };
  in_.timeout = std::chrono::seconds(10);
  auto verified = Discover();
  ASSERT_FALSE(verified.has_value());
  EXPECT_EQ(verified.error().message(),
            "token id \"abcdef\" is invalid for this cluster or it has expired. Use \"kkadm token "
            "create\" "
            "on the control-plane node to create a new valid token");
  EXPECT_EQ(clock_.slept(), std::chrono::seconds(10));
  // 200, 400, 800, 1600, then 2000 ms steps: 0.2+0.4+0.8+1.6+2+2+2+1 = 10 s, 9 requests.
  EXPECT_EQ(server_.seen().size(), 9u);
  // The reason to wait is printed at once (and once), not hidden behind -v.
  const std::string out = out_.str();
  EXPECT_THAT(out, HasSubstr("[discovery] The cluster-info ConfigMap has no JWS signature for "
                             "token ID \"abcdef\" yet"));
  EXPECT_EQ(out.find("[discovery]"), out.rfind("[discovery]"));
  ExpectNoCredentialSent();
}

TEST_F(TokenDiscoveryTest, SignatureThatAppearsLaterIsPickedUpQuickly) {
  int calls = 0;
  server_.handler = [this, &calls](const auto&) {
    return Answer(200, cluster_.ConfigMap(++calls > 2));
  };
  auto verified = Discover();
  ASSERT_TRUE(verified.has_value()) << verified.error().message();
  EXPECT_EQ(clock_.slept(), std::chrono::milliseconds(600));  // 200 + 400, not kubeadm's 5 s steps
}

TEST_F(TokenDiscoveryTest, EndpointsAreTriedInOrder) {
  in_.endpoints = {"10.0.0.9:6443", "10.0.0.1:6443"};
  server_.handler =
      [this](const kkadm::testing::FakeHttpServer::Seen& seen) -> Result<util::HttpResponse> {
    if (seen.request.url.find("10.0.0.9") != std::string::npos)
      return Unavailable("Connection refused");
    return Answer(200, cluster_.ConfigMap());
  };
  auto verified = Discover();
  ASSERT_TRUE(verified.has_value()) << verified.error().message();
  EXPECT_EQ(verified->endpoint, "10.0.0.1:6443");
  EXPECT_THAT(server_.Urls(), ElementsAre(ClusterFixture::Url("10.0.0.9:6443"),
                                          ClusterFixture::Url("10.0.0.1:6443"),
                                          ClusterFixture::Url("10.0.0.1:6443")));
}

TEST_F(TokenDiscoveryTest, UnreachableEndpointReportsTheLastRequestError) {
  server_.handler = [](const auto&) -> Result<util::HttpResponse> {
    return Unavailable("Connection refused");
  };
  in_.timeout = std::chrono::seconds(1);
  auto verified = Discover();
  ASSERT_FALSE(verified.has_value());
  EXPECT_EQ(
      verified.error().message(),
      "failed to request the cluster-info ConfigMap from \"10.0.0.1:6443\": Connection refused");
  EXPECT_THAT(out_.str(), HasSubstr("[discovery] Cannot read the cluster-info ConfigMap yet"));
}

TEST_F(TokenDiscoveryTest, SecondFetchMustBeIdentical) {
  server_.handler = [this](const kkadm::testing::FakeHttpServer::Seen& seen) {
    if (seen.options.ca_pem.empty()) return Answer(200, cluster_.ConfigMap());
    nlohmann::json cm = nlohmann::json::parse(cluster_.ConfigMap());
    cm["data"]["kubeconfig"] = std::string(cm["data"]["kubeconfig"]) + "# changed\n";
    return Answer(200, cm.dump());
  };
  auto verified = Discover();
  ASSERT_FALSE(verified.has_value());
  EXPECT_EQ(verified.error().message(),
            "the second kubeconfig from the cluster-info ConfigMap (using validated TLS) was "
            "different from the first");
}

TEST_F(TokenDiscoveryTest, ServerNotTrustedByThePinnedCaStopsAtOnce) {
  server_.handler =
      [this](const kkadm::testing::FakeHttpServer::Seen& seen) -> Result<util::HttpResponse> {
    if (seen.options.ca_pem.empty()) return Answer(200, cluster_.ConfigMap());
    return FailedPrecondition("SSL certificate problem: unable to get local issuer certificate");
  };
  auto verified = Discover();
  ASSERT_FALSE(verified.has_value());
  EXPECT_THAT(verified.error().message(), HasSubstr("over TLS verified by the pinned CA"));
  EXPECT_EQ(server_.seen().size(), 2u);
}

TEST_F(TokenDiscoveryTest, UnsafeSkipTrustsTheCaWithoutASecondFetch) {
  in_.ca_cert_hashes.clear();
  in_.unsafe_skip_ca_verification = true;
  auto verified = Discover();
  ASSERT_TRUE(verified.has_value());
  EXPECT_FALSE(verified->pinned);
  EXPECT_EQ(server_.seen().size(), 1u);
}

TEST_F(TokenDiscoveryTest, ClusterInfoWithoutKubeconfigIsNotSetUpForTokens) {
  server_.handler = [this](const auto&) {
    nlohmann::json cm = nlohmann::json::parse(cluster_.ConfigMap());
    cm["data"]["kubeconfig"] = "";
    return Answer(200, cm.dump());
  };
  auto verified = Discover();
  ASSERT_FALSE(verified.has_value());
  EXPECT_THAT(verified.error().message(),
              HasSubstr("This API Server isn't set up for token bootstrapping"));
}

TEST_F(TokenDiscoveryTest, AnswerWhoseKindIsNotAStringIsNotAConfigMap) {
  for (const char* body : {R"({"kind": {"kubeconfig": "x"}})", R"({"kind": 7})", "[]", "null"}) {
    server_.handler = [body](const auto&) { return Answer(200, body); };
    in_.timeout = std::chrono::milliseconds(0);
    auto verified = Discover();
    ASSERT_FALSE(verified.has_value()) << body;
    EXPECT_EQ(verified.error().message(),
              "failed to request the cluster-info ConfigMap from \"10.0.0.1:6443\": the "
              "cluster-info answer is not a ConfigMap")
        << body;
  }
}

TEST(CheckPinsTest, FormatsAndMatches) {
  const std::string ca = kkadm::testing::MakeCaPem("kubernetes");
  const std::string pin = *util::PinOfPemCertificate(ca);
  EXPECT_TRUE(CheckPins(ca, {pin}).ok());
  EXPECT_EQ(CheckPins(ca, {"md5:abc"}).message(),
            "invalid discovery token CA certificate hash: unknown hash format \"md5\". Known "
            "format(s) are: sha256");
  EXPECT_EQ(CheckPins(ca, {"sha256:abc"}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(CheckPins(ca, {"nocolon"}).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(CheckPins("not a pem", {pin}).code(), StatusCode::kInvalidArgument);
  // A bundle: every certificate's pin is listed, joined with ':' as kubeadm does.
  const std::string other = kkadm::testing::MakeCaPem("other");
  Status none = CheckPins(ca + other, {"sha256:" + std::string(64, '0')});
  EXPECT_EQ(none.message(), "none of the public keys \"" + pin + ":" +
                                *util::PinOfPemCertificate(other) + "\" are pinned");
  EXPECT_TRUE(CheckPins(ca + other, {*util::PinOfPemCertificate(other)}).ok());
}

}  // namespace
}  // namespace kkadm::phases::discovery
