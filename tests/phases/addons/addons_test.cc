// Tests for the addon phase: CoreDNS and kube-proxy objects field by field, --print-manifest,
// disabled addons.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/phases/addons/addon_objects.h"
#include "app/phases/init/addon_phase.h"
#include "app/util/yaml/yaml.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

const char kNs[] = "/api/v1/namespaces/kube-system/";
const char kApps[] = "/apis/apps/v1/namespaces/kube-system/";
const char kRbac[] = "/apis/rbac.authorization.k8s.io/v1/";

class AddonsTest : public testing::ClusterPhasesTest {};

TEST_F(AddonsTest, InstallsCoreDnsAndKubeProxy) {
  data_.cfg.cluster.networking.pod_subnet = "10.244.0.0/16";
  ASSERT_TRUE(RunTree(NewAddonPhase(data_)).ok());
  EXPECT_EQ(
      out_.str(),
      "[addons] Applied essential addon: CoreDNS\n[addons] Applied essential addon: kube-proxy\n");
  std::vector<std::string> expected = {
      std::string(kNs) + "configmaps/coredns",
      std::string(kRbac) + "clusterroles/system:coredns",
      std::string(kRbac) + "clusterrolebindings/system:coredns",
      std::string(kNs) + "serviceaccounts/coredns",
      std::string(kApps) + "deployments/coredns",
      std::string(kNs) + "services/kube-dns",
      std::string(kNs) + "serviceaccounts/kube-proxy",
      std::string(kRbac) + "clusterrolebindings/kubeadm:node-proxier",
      std::string(kRbac) + "namespaces/kube-system/roles/kube-proxy",
      std::string(kRbac) + "namespaces/kube-system/rolebindings/kube-proxy",
      std::string(kNs) + "configmaps/kube-proxy",
      std::string(kApps) + "daemonsets/kube-proxy"};
  EXPECT_EQ(client_.Writes(), expected);
}

TEST_F(AddonsTest, CoreDnsObjectsAsKubeadm) {
  data_.cfg.cluster.networking.pod_subnet = "10.244.0.0/16";
  ASSERT_TRUE(RunTree(NewAddonPhase(data_)).ok());
  json corefile = client_.Object(std::string(kNs) + "configmaps/coredns")["data"]["Corefile"];
  EXPECT_EQ(corefile,
            ".:53 {\n    errors\n    health {\n       lameduck 5s\n    }\n    ready\n"
            "    kubernetes cluster.local in-addr.arpa ip6.arpa {\n       pods insecure\n"
            "       fallthrough in-addr.arpa ip6.arpa\n       ttl 30\n    }\n"
            "    prometheus :9153\n    forward . /etc/resolv.conf {\n       max_concurrent 1000\n"
            "    }\n    cache 30\n    loop\n    reload\n    loadbalance\n}\n");
  json deployment = client_.Object(std::string(kApps) + "deployments/coredns");
  EXPECT_EQ(deployment["spec"]["replicas"], 2);
  const json& pod = deployment["spec"]["template"]["spec"];
  EXPECT_EQ(pod["priorityClassName"], "system-cluster-critical");
  EXPECT_EQ(pod["serviceAccountName"], "coredns");
  EXPECT_EQ(pod["containers"][0]["image"], "registry.k8s.io/coredns/coredns:v1.11.3");
  EXPECT_EQ(pod["containers"][0]["args"], json::array({"-conf", "/etc/coredns/Corefile"}));
  EXPECT_EQ(pod["tolerations"][1],
            json({{"key", "node-role.kubernetes.io/control-plane"}, {"effect", "NoSchedule"}}));
  json service = client_.Object(std::string(kNs) + "services/kube-dns");
  EXPECT_EQ(service["spec"]["clusterIP"], "10.96.0.10");
  EXPECT_EQ(service["metadata"]["labels"]["kubernetes.io/name"], "CoreDNS");
  EXPECT_EQ(service["metadata"]["labels"]["kubernetes.io/cluster-service"], "true");
  ASSERT_EQ(service["spec"]["ports"].size(), 3u);
  EXPECT_EQ(service["spec"]["ports"][0],
            json({{"name", "dns"}, {"port", 53}, {"protocol", "UDP"}, {"targetPort", 53}}));
  EXPECT_EQ(service["spec"]["ports"][2]["port"], 9153);
  json crb = client_.Object(std::string(kRbac) + "clusterrolebindings/system:coredns");
  EXPECT_EQ(
      crb["subjects"],
      json::parse(R"([{"kind":"ServiceAccount","name":"coredns","namespace":"kube-system"}])"));
}

TEST_F(AddonsTest, KubeProxyObjectsAsKubeadm) {
  data_.cfg.cluster.networking.pod_subnet = "10.244.0.0/16";
  ASSERT_TRUE(RunTree(NewAddonPhase(data_)).ok());
  json proxy_cm = client_.Object(std::string(kNs) + "configmaps/kube-proxy");
  EXPECT_EQ(proxy_cm["metadata"]["labels"], json({{"app", "kube-proxy"}}));
  auto proxy_config = util::yaml::Read(proxy_cm["data"]["config.conf"].get<std::string>());
  ASSERT_TRUE(proxy_config.has_value());
  EXPECT_EQ((*proxy_config)["kind"], "KubeProxyConfiguration");
  EXPECT_EQ((*proxy_config)["apiVersion"], "kubeproxy.config.k8s.io/v1alpha1");
  EXPECT_EQ((*proxy_config)["bindAddress"], "0.0.0.0");
  EXPECT_EQ((*proxy_config)["clusterCIDR"], "10.244.0.0/16");
  EXPECT_EQ((*proxy_config)["clientConnection"]["kubeconfig"],
            "/var/lib/kube-proxy/kubeconfig.conf");
  auto kubeconfig = util::yaml::Read(proxy_cm["data"]["kubeconfig.conf"].get<std::string>());
  ASSERT_TRUE(kubeconfig.has_value());
  EXPECT_EQ((*kubeconfig)["clusters"][0]["cluster"]["server"], "https://192.0.2.10:6443");
  EXPECT_EQ((*kubeconfig)["users"][0]["user"]["tokenFile"],
            "/var/run/secrets/kubernetes.io/serviceaccount/token");
  json ds = client_.Object(std::string(kApps) + "daemonsets/kube-proxy");
  EXPECT_EQ(ds["spec"]["template"]["spec"]["containers"][0]["image"],
            "registry.k8s.io/kube-proxy:v1.32.0");
  EXPECT_EQ(ds["spec"]["template"]["spec"]["containers"][0]["command"][1],
            "--config=/var/lib/kube-proxy/config.conf");
  EXPECT_EQ(ds["spec"]["template"]["spec"]["priorityClassName"], "system-node-critical");
  json rb = client_.Object(std::string(kRbac) + "namespaces/kube-system/rolebindings/kube-proxy");
  EXPECT_EQ(rb["subjects"][0]["name"], "system:bootstrappers:kubeadm:default-node-token");
  json role = client_.Object(std::string(kRbac) + "namespaces/kube-system/roles/kube-proxy");
  EXPECT_EQ(
      role["rules"],
      json::parse(
          R"([{"apiGroups":[""],"resources":["configmaps"],"resourceNames":["kube-proxy"],"verbs":["get"]}])"));
  EXPECT_EQ(client_.Object(std::string(kRbac) +
                           "clusterrolebindings/kubeadm:node-proxier")["roleRef"]["name"],
            "system:node-proxier");
}

// kube-proxy's server is admin.conf's (kubeadm's GetControlPlaneEndpoint): a copy of that rule
// here once wrote an IPv6 advertise address as given instead of in canonical form.
TEST_F(AddonsTest, KubeProxyServerIsTheKubeconfigFilesServer) {
  data_.cfg.local_api_endpoint.advertise_address = "fd00:0:0::10";
  ASSERT_TRUE(RunTree(NewAddonPhase(data_)).ok());
  json proxy_cm = client_.Object(std::string(kNs) + "configmaps/kube-proxy");
  EXPECT_THAT(proxy_cm["data"]["kubeconfig.conf"].get<std::string>(),
              HasSubstr("server: https://[fd00::10]:6443"));
  data_.cfg.cluster.control_plane_endpoint = "fd00::9";
  ASSERT_TRUE(RunTree(NewAddonPhase(data_)).ok());
  proxy_cm = client_.Object(std::string(kNs) + "configmaps/kube-proxy");
  EXPECT_THAT(proxy_cm["data"]["kubeconfig.conf"].get<std::string>(),
              HasSubstr("server: https://[fd00::9]:6443"));
}

TEST_F(AddonsTest, UserKubeProxyConfigAndEndpointAndDomain) {
  data_.cfg.cluster.control_plane_endpoint = "lb.example.com";
  data_.cfg.cluster.networking.dns_domain = "corp.local";
  data_.cfg.cluster.networking.service_subnet = "10.100.0.0/16";
  data_.cfg.component_configs.kube_proxy = {{"mode", "ipvs"}, {"ipvs", {{"strictARP", true}}}};
  ASSERT_TRUE(RunTree(NewAddonPhase(data_)).ok());
  json proxy_cm = client_.Object(std::string(kNs) + "configmaps/kube-proxy");
  auto cfg = util::yaml::Read(proxy_cm["data"]["config.conf"].get<std::string>());
  EXPECT_EQ((*cfg)["mode"], "ipvs");
  EXPECT_EQ((*cfg)["ipvs"]["strictARP"], true);
  EXPECT_EQ((*cfg)["ipvs"]["scheduler"], "");
  EXPECT_THAT(proxy_cm["data"]["kubeconfig.conf"].get<std::string>(),
              HasSubstr("server: https://lb.example.com:6443"));
  EXPECT_THAT(client_.Object(std::string(kNs) + "configmaps/coredns")["data"]["Corefile"]
                  .get<std::string>(),
              HasSubstr("kubernetes corp.local in-addr.arpa"));
  EXPECT_EQ(client_.Object(std::string(kNs) + "services/kube-dns")["spec"]["clusterIP"],
            "10.100.0.10");
}

TEST_F(AddonsTest, ExistingCorefileIsKeptAndOthersUpdated) {
  client_.Put(std::string(kNs) + "configmaps/coredns",
              {{"apiVersion", "v1"},
               {"kind", "ConfigMap"},
               {"metadata", {{"name", "coredns"}, {"namespace", "kube-system"}}},
               {"data", {{"Corefile", "custom"}}}});
  ASSERT_TRUE(RunTree(NewAddonPhase(data_)).ok());
  ASSERT_TRUE(RunTree(NewAddonPhase(data_)).ok());
  EXPECT_EQ(client_.Object(std::string(kNs) + "configmaps/coredns")["data"]["Corefile"], "custom");
}

TEST_F(AddonsTest, PrintManifestCreatesNothing) {
  data_.print_addon_manifests = true;
  access_.admin = nullptr;  // print mode makes no client
  ASSERT_TRUE(RunTree(NewAddonPhase(data_)).ok());
  const std::string text = out_.str();
  EXPECT_EQ(text.rfind("---\n", 0), 0u);
  EXPECT_THAT(text, HasSubstr("kind: Deployment"));
  EXPECT_THAT(text, HasSubstr("kind: DaemonSet"));
  EXPECT_THAT(text, HasSubstr("clusterIP: 10.96.0.10"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("Applied essential addon")));
  EXPECT_TRUE(client_.calls().empty());
}

// kubeadm patches the CoreDNS Deployment (apps/v1 strategic merge: containers merge by name).
TEST_F(AddonsTest, CoreDnsDeploymentIsPatchedBeforeItIsCreated) {
  auto set = util::patches::LoadPatchSet(
      {{"/p/corednsdeployment.yaml",
        "spec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n"
        "      - name: coredns\n        resources: {limits: {memory: 250Mi}}\n"}});
  ASSERT_TRUE(set.has_value()) << set.status().ToString();
  data_.patches = util::patches::Patcher("/p", std::move(*set), printer_);
  workflow::Phase phase = NewAddonPhase(data_);
  ASSERT_TRUE(phase.children[0].check().ok());
  ASSERT_TRUE(RunTree(phase).ok());
  json deployment = client_.Object(std::string(kApps) + "deployments/coredns");
  EXPECT_EQ(deployment["spec"]["replicas"], 3);
  const json& container = deployment["spec"]["template"]["spec"]["containers"][0];
  EXPECT_EQ(container["resources"]["limits"]["memory"], "250Mi");
  EXPECT_EQ(container["resources"]["requests"]["cpu"], "100m");  // kept from kubeadm's base
  EXPECT_THAT(out_.str(), HasSubstr("[patches] Applied patch of type "
                                    "\"application/strategic-merge-patch+json\" to target "
                                    "\"corednsdeployment\"\n[addons] Applied essential addon: "
                                    "CoreDNS\n"));
}

TEST_F(AddonsTest, CoreDnsPatchThatDoesNotApplyIsRefusedByTheCheck) {
  auto set = util::patches::LoadPatchSet(
      {{"/p/corednsdeployment+json.json", R"([{"op": "remove", "path": "/spec/paused"}])"}});
  ASSERT_TRUE(set.has_value());
  data_.patches = util::patches::Patcher("/p", std::move(*set), printer_);
  Status status = NewAddonPhase(data_).children[0].check();
  EXPECT_EQ(status.message(),
            "could not apply patches to the CoreDNS Deployment: /p/corednsdeployment+json.json: "
            "invalid JSON patch: operation 1 (\"remove\" /spec/paused): path not found");
  EXPECT_TRUE(client_.calls().empty());
  EXPECT_EQ(out_.str(), "");
}

TEST_F(AddonsTest, DisabledAddonsAreSkipped) {
  data_.cfg.cluster.dns.disabled = true;
  data_.cfg.cluster.proxy.disabled = true;
  ASSERT_TRUE(RunTree(NewAddonPhase(data_)).ok());
  EXPECT_TRUE(client_.calls().empty());
  EXPECT_EQ(out_.str(), "");
}

}  // namespace
}  // namespace kkadm::phases
