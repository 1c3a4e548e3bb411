// Tests for the join token of a cluster: endpoints from the controlPlaneEndpoint and the admin
// kubeconfig, the CA pins, and the server URL forms.
#include "app/phases/showjoincommand/join_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/util/pubkey_pin.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::phases {
namespace {

using ::testing::HasSubstr;

class JoinTokenForTest : public testing::ClusterPhasesTest {
 protected:
  void SetUp() override { ca_ = MakeCa(); }
  Result<util::JoinToken> For(const std::string& server, const std::string& control_plane_endpoint,
                              const std::string& key = "") {
    WriteAdminConf(ca_, server);
    return JoinTokenFor(fs_, {.kubeconfig_path = "/etc/kubernetes/admin.conf",
                              .control_plane_endpoint = control_plane_endpoint,
                              .token = "abcdef.0123456789abcdef",
                              .certificate_key = key});
  }
  std::vector<std::string> Endpoints(const std::string& server, const std::string& cpe) {
    auto token = For(server, cpe);
    EXPECT_TRUE(token.has_value()) << token.status().message();
    return token ? token->endpoints : std::vector<std::string>{};
  }
  std::string ca_;
};

TEST_F(JoinTokenForTest, FieldsFromTheAdminKubeconfig) {
  auto token = For("https://10.123.0.11:6443", "", std::string(64, 'c'));
  ASSERT_TRUE(token.has_value()) << token.status().message();
  EXPECT_EQ(token->endpoints, std::vector<std::string>{"10.123.0.11:6443"});
  EXPECT_EQ(token->bootstrap_token, "abcdef.0123456789abcdef");
  EXPECT_EQ(token->ca_cert_hashes, *util::PinsOfPemBundle(ca_));
  EXPECT_EQ(token->certificate_key, std::string(64, 'c'));
  auto text = EncodedJoinToken(fs_, {.kubeconfig_path = "/etc/kubernetes/admin.conf",
                                     .control_plane_endpoint = "",
                                     .token = "abcdef.0123456789abcdef",
                                     .certificate_key = ""});
  ASSERT_TRUE(text.has_value());
  auto decoded = util::DecodeJoinToken(*text);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->certificate_key, "");
}

TEST_F(JoinTokenForTest, ControlPlaneEndpointFirstAndOnce) {
  EXPECT_EQ(Endpoints("https://10.123.0.11:6443", "lb.example.com:443"),
            (std::vector<std::string>{"lb.example.com:443", "10.123.0.11:6443"}));
  EXPECT_EQ(Endpoints("https://lb.example.com:6443", "lb.example.com"),
            std::vector<std::string>{"lb.example.com:6443"});
  EXPECT_EQ(Endpoints("https://10.123.0.11:7443", "fd00::10"),
            (std::vector<std::string>{"[fd00::10]:7443", "10.123.0.11:7443"}));
  EXPECT_EQ(Endpoints("https://[fd00::1]:6443", ""), std::vector<std::string>{"[fd00::1]:6443"});
  EXPECT_EQ(Endpoints("https://cp.example.com", ""),
            std::vector<std::string>{"cp.example.com:443"});
}

TEST_F(JoinTokenForTest, RefusalsNameTheField) {
  auto bad_endpoint = For("https://10.123.0.11:6443", "bad_host:6443");
  ASSERT_FALSE(bad_endpoint.has_value());
  EXPECT_THAT(bad_endpoint.status().message(),
              HasSubstr("invalid controlPlaneEndpoint \"bad_host:6443\""));
  auto bad_key = For("https://10.123.0.11:6443", "", "xyz");
  ASSERT_FALSE(bad_key.has_value());
  EXPECT_THAT(bad_key.status().message(), HasSubstr("certificate key is not 64 hex"));
  EXPECT_FALSE(JoinTokenFor(fs_, {.kubeconfig_path = "/nonexistent.conf",
                                  .control_plane_endpoint = "",
                                  .token = "abcdef.0123456789abcdef",
                                  .certificate_key = ""})
                   .has_value());
}

TEST(ServerHostPortTest, Forms) {
  EXPECT_EQ(ServerHostPort("https://10.0.0.1:6443"), "10.0.0.1:6443");
  EXPECT_EQ(ServerHostPort("https://10.0.0.1:6443/prefix"), "10.0.0.1:6443");
  EXPECT_EQ(ServerHostPort("https://[fd00::1]"), "[fd00::1]:443");
  EXPECT_EQ(ServerHostPort("https://cp.example.com"), "cp.example.com:443");
}

}  // namespace
}  // namespace kkadm::phases
