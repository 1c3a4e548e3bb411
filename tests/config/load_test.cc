// Decoding of valid v1beta3/v1beta4 documents into the internal types.
#include "app/config/load.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/config/testdata.h"

namespace kkadm::config {
namespace {

using kkadm::testing::Testdata;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

LoadedDocuments MustLoad(const ConfigSource& source, bool strict = false) {
  auto docs = LoadDocuments(source, strict);
  EXPECT_TRUE(docs.has_value()) << docs.status().message();
  return docs.has_value() ? std::move(*docs) : LoadedDocuments{};
}

TEST(LoadTest, DecodesEveryV1beta4Field) {
  LoadedDocuments docs = MustLoad(Testdata("v1beta4_full.yaml"), /*strict=*/true);
  ASSERT_TRUE(docs.init && docs.cluster);
  const InitConfiguration& init = *docs.init;
  ASSERT_EQ(init.bootstrap_tokens.size(), 2u);
  EXPECT_EQ(init.bootstrap_tokens[0].id, "abcdef");
  EXPECT_EQ(init.bootstrap_tokens[0].secret, "0123456789abcdef");
  EXPECT_EQ(init.bootstrap_tokens[0].ttl, std::chrono::minutes(90));
  EXPECT_EQ(std::chrono::system_clock::to_time_t(*init.bootstrap_tokens[1].expires), 1893553445);
  EXPECT_EQ(init.node_registration.name, "node-a");  // lower-cased
  ASSERT_TRUE(init.node_registration.taints.has_value());
  EXPECT_TRUE(init.node_registration.taints->empty());
  EXPECT_THAT(init.node_registration.kubelet_extra_args,
              ElementsAre(Arg{"v", "4"}, Arg{"node-labels", "a=b"}, Arg{"v", "5"}));
  EXPECT_EQ(init.node_registration.image_pull_policy, "Never");
  EXPECT_FALSE(init.node_registration.image_pull_serial);
  EXPECT_EQ(init.local_api_endpoint.bind_port, 7443);
  EXPECT_TRUE(init.dry_run);
  EXPECT_EQ(init.patches_directory, "/etc/kubeadm/patches");
  EXPECT_EQ(init.timeouts.etcd_api_call, std::chrono::seconds(90));
  EXPECT_EQ(init.timeouts.upgrade_manifests, std::chrono::minutes(7));
  const ClusterConfiguration& c = docs.cluster->cfg;
  EXPECT_EQ(c.encryption_algorithm, EncryptionAlgorithm::kEcdsaP256);
  EXPECT_EQ(c.certificate_validity_period, std::chrono::hours(4380));
  EXPECT_EQ(c.networking.service_subnet, "10.96.0.0/16,fd00:10:96::/112");
  ASSERT_TRUE(c.etcd.local.has_value());
  EXPECT_EQ(c.etcd.local->data_dir, "/data/etcd");
  EXPECT_THAT(c.etcd.local->extra_envs, ElementsAre(EnvVar{"ETCD_X", "1"}));
  EXPECT_THAT(c.api_server.component.extra_volumes,
              ElementsAre(HostPathMount{"audit", "/var/log/kubernetes", "/var/log", false,
                                        "DirectoryOrCreate"}));
  EXPECT_TRUE(c.dns.disabled);
  EXPECT_TRUE(c.proxy.disabled);
  EXPECT_EQ(c.feature_gates.at("EtcdLearnerMode"), true);
  EXPECT_EQ(docs.component_configs.kubelet["maxPods"], 50);
  EXPECT_EQ(docs.component_configs.kube_proxy["mode"], "ipvs");
  EXPECT_TRUE(docs.warnings.empty());
}

TEST(LoadTest, V1beta3MapsBecomeSortedArgsAndTimeoutsMove) {
  LoadedDocuments docs = MustLoad(Testdata("v1beta3_full.yaml"), /*strict=*/true);
  ASSERT_TRUE(docs.init && docs.cluster);
  EXPECT_FALSE(docs.init->node_registration.taints.has_value());  // taints: null
  EXPECT_THAT(docs.init->node_registration.kubelet_extra_args,
              ElementsAre(Arg{"node-labels", "a=b"}, Arg{"v", "4"}));
  EXPECT_THAT(docs.cluster->cfg.api_server.component.extra_args,
              ElementsAre(Arg{"audit-log-maxage", "30"}, Arg{"authorization-mode", "Node,RBAC"}));
  EXPECT_EQ(docs.cluster->timeout_for_control_plane, std::chrono::minutes(6));
}

TEST(LoadTest, TaintsAbsentIsNullopt) {
  auto docs = MustLoad({"k.yaml", "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n"});
  ASSERT_TRUE(docs.init);
  EXPECT_FALSE(docs.init->node_registration.taints.has_value());
  auto listed =
      MustLoad({"k.yaml",
                "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\nnodeRegistration:\n"
                "  taints:\n  - key: a\n    value: b\n    effect: NoExecute\n"});
  ASSERT_TRUE(listed.init && listed.init->node_registration.taints);
  EXPECT_THAT(*listed.init->node_registration.taints, ElementsAre(Taint{"a", "b", "NoExecute"}));
}

TEST(LoadTest, JoinV1beta3DiscoveryTimeout) {
  LoadedDocuments docs = MustLoad(Testdata("join_v1beta3.yaml"), /*strict=*/true);
  ASSERT_TRUE(docs.join);
  EXPECT_EQ(docs.join->timeouts.discovery, std::chrono::minutes(2));
  ASSERT_TRUE(docs.join->discovery.bootstrap_token);
  EXPECT_EQ(docs.join->discovery.bootstrap_token->api_server_endpoint, "10.0.0.5:6443");
  ASSERT_TRUE(docs.join->control_plane);
  EXPECT_EQ(docs.join->control_plane->local_api_endpoint.advertise_address, "10.0.0.7");
  EXPECT_THAT(docs.join->node_registration.kubelet_extra_args,
              ElementsAre(Arg{"node-ip", "10.0.0.7"}));
}

TEST(LoadTest, ResetConfigurationV1beta4) {
  LoadedDocuments docs = MustLoad(Testdata("reset_v1beta4.yaml"), /*strict=*/true);
  ASSERT_TRUE(docs.reset);
  EXPECT_TRUE(docs.reset->force);
  EXPECT_TRUE(docs.reset->cleanup_tmp_dir);
  EXPECT_THAT(docs.reset->unmount_flags, ElementsAre("MNT_FORCE"));
}

TEST(LoadTest, UnknownFieldsWarnWhenLenient) {
  LoadedDocuments docs = MustLoad(Testdata("unknown_fields.yaml"), /*strict=*/false);
  ASSERT_TRUE(docs.init);
  EXPECT_EQ(docs.init->node_registration.name, "node-c");
  EXPECT_THAT(
      docs.warnings,
      ElementsAre(
          "unknown_fields.yaml: InitConfiguration (document 1): nodeRegistration.colour: unknown "
          "field",
          "unknown_fields.yaml: InitConfiguration (document 1): extraTopLevel: unknown field",
          "unknown_fields.yaml: Widget (document 2): kind: unknown kind \"Widget\" for apiVersion "
          "\"example.com/v1\"; ignored"));
}

TEST(LoadTest, UnknownFieldsFailWhenStrict) {
  auto docs = LoadDocuments(Testdata("unknown_fields.yaml"), /*strict=*/true);
  ASSERT_FALSE(docs.has_value());
  EXPECT_EQ(docs.error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(docs.error().message(),
            "unknown_fields.yaml: InitConfiguration (document 1): nodeRegistration.colour: unknown "
            "field");
  auto kind = LoadDocuments({"w.yaml", "apiVersion: example.com/v1\nkind: Widget\n"}, true);
  ASSERT_FALSE(kind.has_value());
  EXPECT_EQ(kind.error().message(),
            "w.yaml: Widget (document 1): kind: unknown kind \"Widget\" for apiVersion "
            "\"example.com/v1\"");
}

TEST(LoadTest, V1beta4OnlyFieldsAreUnknownInV1beta3) {
  auto docs = LoadDocuments(
      {"k.yaml", "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\ndryRun: true\n"},
      true);
  ASSERT_FALSE(docs.has_value());
  EXPECT_EQ(docs.error().message(),
            "k.yaml: InitConfiguration (document 1): dryRun: unknown field");
}

TEST(LoadTest, SyntaxErrorNamesLineAndColumn) {
  auto docs = LoadDocuments(Testdata("syntax_error.yaml"), false);
  ASSERT_FALSE(docs.has_value());
  EXPECT_EQ(docs.error().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(docs.error().message(), ::testing::StartsWith("syntax_error.yaml:5:1: "));
}

TEST(LoadTest, EmptyFileIsAnError) {
  auto docs = LoadDocuments({"e.yaml", "---\n"}, false);
  ASSERT_FALSE(docs.has_value());
  EXPECT_EQ(docs.error().message(), "e.yaml: no configuration documents found");
}

}  // namespace
}  // namespace kkadm::config
