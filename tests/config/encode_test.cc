// v1beta4 encoding: round trips through the decoder and matches kubeadm's layout.
#include "app/config/encode.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/config/make_config.h"
#include "tests/config/testdata.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/fake_release_versions.h"

namespace kkadm::config {
namespace {

// stable-1 is kkadm's own version: these tests are not about version labels.
using kkadm::testing::BuiltInVersions;

using kkadm::testing::FakeMachine;
using kkadm::testing::Testdata;
using ::testing::HasSubstr;

InitConfiguration MustMakeInit(const ConfigSource& source) {
  FakeMachine machine;
  auto loaded = MakeInitConfiguration(source, InitFlags{}, machine, BuiltInVersions());
  EXPECT_TRUE(loaded.has_value()) << loaded.status().message();
  return loaded.has_value() ? loaded->cfg : InitConfiguration{};
}

std::string EncodeBoth(const InitConfiguration& cfg) {
  return EncodeInitConfiguration(cfg) + "---\n" + EncodeClusterConfiguration(cfg.cluster);
}

TEST(EncodeTest, RoundTripsEveryField) {
  for (const char* fixture : {"v1beta4_full.yaml", "v1beta3_full.yaml"}) {
    InitConfiguration first = MustMakeInit(Testdata(fixture));
    std::string text = EncodeBoth(first);
    auto docs = LoadDocuments({"encoded.yaml", text}, /*strict=*/true);
    ASSERT_TRUE(docs.has_value()) << fixture << ": " << docs.status().message() << "\n" << text;
    InitConfiguration second = MustMakeInit({"encoded.yaml", text});
    EXPECT_EQ(EncodeBoth(second), text) << fixture;
    EXPECT_EQ(second.node_registration.kubelet_extra_args,
              first.node_registration.kubelet_extra_args);
    EXPECT_EQ(second.node_registration.taints, first.node_registration.taints);
    EXPECT_EQ(second.cluster.api_server.component.extra_args,
              first.cluster.api_server.component.extra_args);
    EXPECT_EQ(second.cluster.api_server.cert_sans, first.cluster.api_server.cert_sans);
    EXPECT_EQ(second.cluster.encryption_algorithm, first.cluster.encryption_algorithm);
    EXPECT_EQ(second.timeouts.control_plane_component_health_check,
              first.timeouts.control_plane_component_health_check);
    ASSERT_EQ(second.bootstrap_tokens.size(), first.bootstrap_tokens.size());
    EXPECT_EQ(second.bootstrap_tokens[0].Token(), first.bootstrap_tokens[0].Token());
    EXPECT_EQ(second.bootstrap_tokens.back().expires, first.bootstrap_tokens.back().expires);
  }
}

TEST(EncodeTest, V1beta3IsWrittenAsV1beta4) {
  std::string text = EncodeBoth(MustMakeInit(Testdata("v1beta3_full.yaml")));
  EXPECT_THAT(text, HasSubstr("apiVersion: kubeadm.k8s.io/v1beta4\n"));
  EXPECT_THAT(text, HasSubstr("  kubeletExtraArgs:\n  - name: node-labels\n    value: a=b\n  - "
                              "name: v\n    value: \"4\"\n"));
  EXPECT_THAT(text, HasSubstr("  controlPlaneComponentHealthCheck: 6m0s\n"));
  EXPECT_THAT(text, HasSubstr("  taints: null\n"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("timeoutForControlPlane")));
}

TEST(EncodeTest, EmptyTaintsStayEmpty) {
  std::string text = EncodeBoth(MustMakeInit(Testdata("v1beta4_full.yaml")));
  EXPECT_THAT(text, HasSubstr("  taints: []\n"));
  EXPECT_THAT(text, HasSubstr("encryptionAlgorithm: ECDSA-P256\n"));
  EXPECT_THAT(text, HasSubstr("- expires: \"2030-01-02T03:04:05Z\"\n"));
}

TEST(EncodeTest, JoinRoundTrip) {
  FakeMachine machine;
  auto loaded = MakeJoinConfiguration(Testdata("join_v1beta3.yaml"), JoinFlags{}, machine);
  ASSERT_TRUE(loaded.has_value()) << loaded.status().message();
  std::string text = EncodeJoinConfiguration(loaded->cfg);
  auto again = MakeJoinConfiguration(ConfigSource{"join.yaml", text}, JoinFlags{}, machine);
  ASSERT_TRUE(again.has_value()) << again.status().message() << "\n" << text;
  EXPECT_EQ(EncodeJoinConfiguration(again->cfg), text);
  EXPECT_THAT(text, HasSubstr("  discovery: 2m0s\n"));
}

}  // namespace
}  // namespace kkadm::config
