// Tests for mark-control-plane: labels, taints (default, none, custom) merged with the Node's.
#include "app/phases/markcontrolplane/mark_control_plane.h"

#include <gtest/gtest.h>

#include "app/phases/init/mark_control_plane_phase.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

class MarkControlPlaneTest : public testing::ClusterPhasesTest {
 protected:
  void PutNode(json taints) {
    json node = {
        {"apiVersion", "v1"},
        {"kind", "Node"},
        {"metadata", {{"name", "cp-1"}, {"labels", {{"kubernetes.io/hostname", "cp-1"}}}}}};
    if (!taints.is_null()) node["spec"]["taints"] = taints;
    client_.Put("/api/v1/nodes/cp-1", node);
  }
  json Node() { return client_.Object("/api/v1/nodes/cp-1"); }
};

TEST_F(MarkControlPlaneTest, DefaultTaintAndLabels) {
  PutNode(json::parse(R"([{"key":"node.kubernetes.io/not-ready","effect":"NoSchedule"}])"));
  ASSERT_TRUE(RunTree(NewMarkControlPlanePhase(data_)).ok());
  EXPECT_EQ(out_.str(),
            "[mark-control-plane] Marking the node cp-1 as control-plane by adding the labels: "
            "[node-role.kubernetes.io/control-plane "
            "node.kubernetes.io/exclude-from-external-load-balancers]\n"
            "[mark-control-plane] Marking the node cp-1 as control-plane by adding the taints "
            "[node-role.kubernetes.io/control-plane:NoSchedule]\n");
  json node = Node();
  EXPECT_EQ(node["metadata"]["labels"],
            json({{"kubernetes.io/hostname", "cp-1"},
                  {"node-role.kubernetes.io/control-plane", ""},
                  {"node.kubernetes.io/exclude-from-external-load-balancers", ""}}));
  EXPECT_EQ(node["spec"]["taints"],
            json::parse(R"([{"key":"node-role.kubernetes.io/control-plane","effect":"NoSchedule"},
                           {"key":"node.kubernetes.io/not-ready","effect":"NoSchedule"}])"));
}

TEST_F(MarkControlPlaneTest, EmptyTaintListAddsNone) {
  PutNode(nullptr);
  data_.cfg.node_registration.taints = std::vector<config::Taint>{};
  ASSERT_TRUE(RunTree(NewMarkControlPlanePhase(data_)).ok());
  EXPECT_EQ(out_.str().find("taints"), std::string::npos);
  EXPECT_EQ(Node()["spec"]["taints"], json::array());
}

TEST_F(MarkControlPlaneTest, CustomTaintReplacesSameKeyAndEffect) {
  PutNode(json::parse(R"([{"key":"dedicated","value":"old","effect":"NoExecute"}])"));
  data_.cfg.node_registration.taints = std::vector<config::Taint>{{"dedicated", "cp", "NoExecute"}};
  ASSERT_TRUE(RunTree(NewMarkControlPlanePhase(data_)).ok());
  EXPECT_NE(out_.str().find("adding the taints [dedicated=cp:NoExecute]"), std::string::npos);
  EXPECT_EQ(Node()["spec"]["taints"],
            json::parse(R"([{"key":"dedicated","value":"cp","effect":"NoExecute"}])"));
  // Idempotent.
  ASSERT_TRUE(RunTree(NewMarkControlPlanePhase(data_)).ok());
  EXPECT_EQ(Node()["spec"]["taints"].size(), 1u);
}

TEST_F(MarkControlPlaneTest, WaitsForTheNodeToAppear) {
  int gets = 0;
  client_.fail = [&](const testing::FakeKubeClient::Call& call) {
    if (call.verb == "GET" && ++gets == 3) PutNode(nullptr);
    return Status::Ok();
  };
  ASSERT_TRUE(RunTree(NewMarkControlPlanePhase(data_)).ok());
  EXPECT_EQ(clock_.slept(), std::chrono::milliseconds(1000));
}

}  // namespace
}  // namespace kkadm::phases
