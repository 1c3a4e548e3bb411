// Tests for reading a cluster's versions and building `kkadm upgrade plan` from them, over an
// in-memory API.
#include "app/phases/upgrade/plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/phases/upgrade/plan_output.h"
#include "tests/fakes/fake_release_versions.h"
#include "tests/fakes/memory_kube_client.h"

namespace kkadm::phases::upgrade {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kPods[] = "/api/v1/namespaces/kube-system/pods?labelSelector=component%3D";

json Pod(const std::string& node, const std::string& image) {
  return {{"spec", {{"nodeName", node}, {"containers", {{{"name", "c"}, {"image", image}}}}}}};
}

json NodeObject(const std::string& name, const std::string& kubelet, bool cp, bool ready) {
  json labels = json::object();
  if (cp) labels["node-role.kubernetes.io/control-plane"] = "";
  return {{"metadata", {{"name", name}, {"labels", labels}}},
          {"status",
           {{"nodeInfo", {{"kubeletVersion", kubelet}}},
            {"conditions", {{{"type", "Ready"}, {"status", ready ? "True" : "False"}}}}}}};
}

// A one-control-plane cluster at v1.31.2 with a worker, CoreDNS, kube-proxy and their configs.
void Seed(testing::MemoryKubeClient& api, bool cp_ready = true) {
  api.raw["/version"] = R"({"major":"1","minor":"31","gitVersion":"v1.31.2"})";
  api.Put("/api/v1/nodes", {{"items",
                             {NodeObject("cp-1", "v1.31.2", true, cp_ready),
                              NodeObject("worker-1", "v1.30.4", false, false)}}});
  for (std::string c : {"kube-apiserver", "kube-controller-manager", "kube-scheduler"}) {
    api.Put(kPods + c + "%2Ctier%3Dcontrol-plane",
            {{"items", {Pod("cp-1", "registry.k8s.io/" + c + ":v1.31.2")}}});
  }
  api.Put(std::string(kPods) + "etcd%2Ctier%3Dcontrol-plane",
          {{"items", {Pod("cp-1", "registry.k8s.io/etcd:3.5.15-0")}}});
  json tmpl = {{"spec", {{"template", Pod("", "registry.k8s.io/coredns/coredns:v1.11.1")}}}};
  api.Put("/apis/apps/v1/namespaces/kube-system/deployments/coredns", tmpl);
  tmpl["spec"]["template"] = Pod("", "registry.k8s.io/kube-proxy:v1.31.2");
  api.Put("/apis/apps/v1/namespaces/kube-system/daemonsets/kube-proxy", tmpl);
  api.Put("/api/v1/namespaces/kube-system/configmaps/kube-proxy",
          {{"data", {{"config.conf", "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: X\n"}}}});
}

TEST(UpgradePlanTest, ReadsEveryVersionAsKubeadm) {
  testing::MemoryKubeClient api;
  Seed(api);
  auto cluster = ReadClusterVersions(api);
  ASSERT_TRUE(cluster.has_value()) << cluster.error().message();
  EXPECT_EQ(cluster->api_server, "v1.31.2");
  ASSERT_EQ(cluster->kubelets.size(), 2u);
  EXPECT_EQ(cluster->kubelets[1].node, "worker-1");
  EXPECT_EQ(cluster->kubelets[1].version, "v1.30.4");
  ASSERT_EQ(cluster->control_plane.size(), 3u);
  EXPECT_EQ(cluster->control_plane[2].first, "kube-scheduler");
  EXPECT_EQ(cluster->control_plane[2].second[0].version, "v1.31.2");
  EXPECT_EQ(cluster->etcd[0].version, "3.5.15-0");
  EXPECT_EQ(cluster->coredns, "v1.11.1");
  EXPECT_EQ(cluster->kube_proxy, "v1.31.2");
  EXPECT_EQ(cluster->configs[0].current, "v1alpha1");
  EXPECT_EQ(cluster->configs[1].current, "");               // no kubelet-config ConfigMap
  EXPECT_TRUE(CheckControlPlaneNodesReady(*cluster).ok());  // the worker's readiness is not asked
}

TEST(UpgradePlanTest, NotReadyControlPlanesAndMissingPodsAreErrors) {
  testing::MemoryKubeClient api;
  Seed(api, /*cp_ready=*/false);
  auto cluster = ReadClusterVersions(api);
  ASSERT_TRUE(cluster.has_value());
  EXPECT_EQ(CheckControlPlaneNodesReady(*cluster).message(),
            "[upgrade] FATAL: there are NotReady control-planes in the cluster: [cp-1]");
  api.Put(std::string(kPods) + "kube-scheduler%2Ctier%3Dcontrol-plane", {{"items", json::array()}});
  EXPECT_EQ(ReadClusterVersions(api).error().message(),
            "cannot find pods for component \"kube-scheduler\"");
}

TEST(UpgradePlanTest, OfflineTheNextMinorIsKkadmsOwnAndNoPatchIsInvented) {
  auto files = std::make_shared<testing::FakeReleaseFiles>();  // every label: 404
  auto targets = AvailableTargets("v1.31.2", testing::FakeReleaseVersions(files));
  ASSERT_TRUE(targets.has_value());
  ASSERT_EQ(targets->size(), 1u);
  EXPECT_EQ((*targets)[0].description, "stable version");
  EXPECT_EQ((*targets)[0].version, build_info::kKubernetesVersion);
}

TEST(UpgradePlanTest, OnlineBothThePatchAndTheNextMinor) {
  auto files = std::make_shared<testing::FakeReleaseFiles>();
  files->files[testing::kRelease + "stable.txt"] = "v1.32.0";
  files->files[testing::kRelease + "stable-1.31.txt"] = "v1.31.7";
  auto targets = AvailableTargets("v1.31.2", testing::FakeReleaseVersions(files));
  ASSERT_TRUE(targets.has_value());
  ASSERT_EQ(targets->size(), 2u);
  EXPECT_EQ((*targets)[0].description, "version in the v1.31 series");
  EXPECT_EQ((*targets)[0].version, "v1.31.7");
  EXPECT_EQ((*targets)[1].version, "v1.32.0");
  // Up to date: nothing to offer.
  files->files[testing::kRelease + "stable-1.32.txt"] = "v1.32.0";
  EXPECT_TRUE(AvailableTargets("v1.32.0", testing::FakeReleaseVersions(files))->empty());
}

TEST(UpgradePlanTest, ExplicitTargetsAreDescribedAsKubeadm) {
  const auto& none = testing::BuiltInVersions();
  EXPECT_EQ(ExplicitTarget("v1.31.2", "v1.32.0", none)->description, "stable version");
  EXPECT_EQ(ExplicitTarget("v1.31.2", "v1.31.5", none)->description, "version in the v1.31 series");
  EXPECT_EQ(ExplicitTarget("v1.31.2", "v1.32.0-rc.0", none)->description,
            "release candidate version");
  EXPECT_EQ(ExplicitTarget("v1.31.2", "v1.32.0-beta.1", none)->description, "experimental version");
  EXPECT_EQ(ExplicitTarget("v1.31.2", "1.32", none).error().code(), StatusCode::kInvalidArgument);
}

TEST(UpgradePlanTest, TextAndDocumentHaveKubeadmsRows) {
  testing::MemoryKubeClient api;
  Seed(api);
  auto cluster = ReadClusterVersions(api);
  ASSERT_TRUE(cluster.has_value());
  AvailableUpgrade up = PlanUpgrade(*cluster, {"stable version", "v1.32.0"}, "v1.32.0", true);
  std::string text = PlanText({up}, cluster->configs);
  EXPECT_THAT(text, HasSubstr("Components that must be upgraded manually after you have upgraded "
                              "the control plane with 'kkadm upgrade apply':\n"
                              "COMPONENT   NODE       CURRENT   TARGET\n"
                              "kubelet     cp-1       v1.31.2   v1.32.0\n"
                              "kubelet     worker-1   v1.30.4   v1.32.0\n\n"));
  EXPECT_THAT(text, HasSubstr("Upgrade to the latest stable version:\n\n"
                              "COMPONENT                 NODE      CURRENT    TARGET\n"
                              "kube-apiserver            cp-1      v1.31.2    v1.32.0\n"));
  EXPECT_THAT(text, HasSubstr("kube-proxy                          v1.31.2    v1.32.0\n"
                              "CoreDNS                             v1.11.1    v1.11.3\n"
                              "etcd                      cp-1      3.5.15-0   3.5.16-0\n\n"));
  EXPECT_THAT(text, HasSubstr("\tkkadm upgrade apply v1.32.0\n\n____"));
  EXPECT_THAT(text, Not(HasSubstr("kubeadm ")));
  EXPECT_THAT(text, Not(HasSubstr("Note: Before")));
  EXPECT_THAT(text,
              HasSubstr("kubeproxy.config.k8s.io   v1alpha1          v1alpha1            no"));
  EXPECT_THAT(text,
              HasSubstr("kubelet.config.k8s.io     -                 v1beta1             no"));
  auto doc = PlanDocument({up}, cluster->configs);
  EXPECT_EQ(doc["apiVersion"], "output.kubeadm.k8s.io/v1alpha3");
  EXPECT_EQ(doc["kind"], "UpgradePlan");
  const auto& rows = doc["availableUpgrades"][0]["components"];
  EXPECT_EQ(rows.size(), 9u);  // 2 kubelets, 3 control plane, kube-proxy, CoreDNS, kubeadm, etcd
  EXPECT_EQ(rows[7].dump(),
            R"({"name":"kubeadm","currentVersion":"v1.32.0","newVersion":"v1.32.0"})");
  EXPECT_EQ(rows[8]["nodeName"], "cp-1");
  EXPECT_FALSE(doc["configVersions"][1].contains("currentVersion"));
}

TEST(UpgradePlanTest, EtcdRowsOnlyWhenUpgradedAndNoteWhenKkadmIsOlder) {
  testing::MemoryKubeClient api;
  Seed(api);
  auto cluster = ReadClusterVersions(api);
  AvailableUpgrade up = PlanUpgrade(*cluster, {"stable version", "v1.32.4"}, "v1.32.0", false);
  std::string text = PlanText({up}, {});
  EXPECT_THAT(text, Not(HasSubstr("etcd")));
  EXPECT_THAT(text, HasSubstr("Note: Before you can perform this upgrade, you have to update kkadm "
                              "to v1.32.4.\n"));
  EXPECT_THAT(text, HasSubstr("No information available on component configs.\n"));
  up = PlanUpgrade(*cluster, {"release candidate version", "v1.32.0-rc.1"}, "v1.32.0", false);
  EXPECT_THAT(PlanText({up}, {}),
              HasSubstr("kkadm upgrade apply v1.32.0-rc.1 --allow-release-candidate-upgrades\n"));
}

}  // namespace
}  // namespace kkadm::phases::upgrade
