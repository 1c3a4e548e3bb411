// Tests for the KubeletConfiguration kubeadm writes: defaults, user overrides, YAML.
#include "app/phases/kubelet/kubelet_config.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "app/util/yaml/yaml.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

json Build(const json& user, bool resolved = false, const std::string& subnet = "10.96.0.0/12") {
  config::ClusterConfiguration cluster;
  cluster.networking.service_subnet = subnet;
  cluster.networking.dns_domain = "example.local";
  cluster.certificates_dir = "/etc/kubernetes/pki";
  auto doc = BuildKubeletConfiguration({.cluster = cluster,
                                        .user = user,
                                        .static_pod_path = "/etc/kubernetes/manifests",
                                        .systemd_resolv_conf = resolved});
  EXPECT_TRUE(doc.has_value()) << doc.status().message();
  return doc.value_or(json());
}

TEST(KubeletConfigTest, ClusterDnsIsTenthServiceAddress) {
  EXPECT_EQ(*ClusterDnsIp("10.96.0.0/12"), "10.96.0.10");
  // kubeadm's GetDNSIP counts from the network address (ParseCIDR masks it); kkadm counted from
  // the address as written and gave 10.96.1.4, outside the subnet.
  EXPECT_EQ(*ClusterDnsIp("10.96.0.250/24"), "10.96.0.10");
  EXPECT_EQ(*ClusterDnsIp("fd00::/108,10.96.0.0/12"), "fd00::a");
  EXPECT_EQ(*ClusterDnsIp("10.1.0.0/28"), "10.1.0.10");
  EXPECT_FALSE(ClusterDnsIp("10.1.0.0/29").has_value());
  EXPECT_FALSE(ClusterDnsIp("10.1.0.0").has_value());
  EXPECT_FALSE(ClusterDnsIp("nonsense/12").has_value());
}

TEST(KubeletConfigTest, DefaultsMatchKubeadm) {
  json d = Build(nullptr);
  EXPECT_EQ(d["apiVersion"], "kubelet.config.k8s.io/v1beta1");
  EXPECT_EQ(d["kind"], "KubeletConfiguration");
  EXPECT_EQ(d["staticPodPath"], "/etc/kubernetes/manifests");
  EXPECT_EQ(d["clusterDNS"], json::array({"10.96.0.10"}));
  EXPECT_EQ(d["clusterDomain"], "example.local");
  EXPECT_EQ(d["authentication"]["x509"]["clientCAFile"], "/etc/kubernetes/pki/ca.crt");
  EXPECT_EQ(d["authentication"]["anonymous"]["enabled"], false);
  EXPECT_EQ(d["authentication"]["webhook"]["enabled"], true);
  EXPECT_EQ(d["authorization"]["mode"], "Webhook");
  EXPECT_EQ(d["healthzBindAddress"], "127.0.0.1");
  EXPECT_EQ(d["healthzPort"], 10248);
  EXPECT_EQ(d["readOnlyPort"], 0);
  EXPECT_EQ(d["rotateCertificates"], true);
  EXPECT_EQ(d["cgroupDriver"], "systemd");
  EXPECT_FALSE(d.contains("resolvConf"));
  EXPECT_EQ(Build(nullptr, true)["resolvConf"], "/run/systemd/resolve/resolv.conf");
}

TEST(KubeletConfigTest, UserValuesWinAndRotateCertificatesIsForced) {
  json user = {{"apiVersion", "kubelet.config.k8s.io/v1beta1"},
               {"kind", "KubeletConfiguration"},
               {"cgroupDriver", "cgroupfs"},
               {"clusterDNS", {"10.0.0.53"}},
               {"authentication", {{"anonymous", {{"enabled", true}}}}},
               {"maxPods", 50},
               {"rotateCertificates", false},
               {"resolvConf", "/etc/my-resolv.conf"}};
  json d = Build(user, true);
  EXPECT_EQ(d["cgroupDriver"], "cgroupfs");
  EXPECT_EQ(d["clusterDNS"], json::array({"10.0.0.53"}));
  EXPECT_EQ(d["authentication"]["anonymous"]["enabled"], true);
  // Siblings of an overridden key keep kubeadm's defaults.
  EXPECT_EQ(d["authentication"]["webhook"]["enabled"], true);
  EXPECT_EQ(d["authentication"]["x509"]["clientCAFile"], "/etc/kubernetes/pki/ca.crt");
  EXPECT_EQ(d["maxPods"], 50);
  EXPECT_EQ(d["rotateCertificates"], true);
  EXPECT_EQ(d["resolvConf"], "/etc/my-resolv.conf");
}

TEST(KubeletConfigTest, EmptyStringCountsAsUnset) {
  json d = Build({{"cgroupDriver", ""}, {"staticPodPath", nullptr}});
  EXPECT_EQ(d["cgroupDriver"], "systemd");
  EXPECT_EQ(d["staticPodPath"], "/etc/kubernetes/manifests");
}

TEST(KubeletConfigTest, RejectsWrongKindOrShape) {
  config::ClusterConfiguration cluster;
  json wrong_kind = {{"kind", "KubeProxyConfiguration"}};
  json list = json::array({1});
  EXPECT_FALSE(BuildKubeletConfiguration({cluster, wrong_kind, "/m", false}).has_value());
  EXPECT_FALSE(BuildKubeletConfiguration({cluster, list, "/m", false}).has_value());
}

// config.yaml as kubeadm writes it: keys sorted, sequences not indented under their key (the
// yaml-cpp emitter kkadm used before indented them), strings that read as another type quoted.
TEST(KubeletConfigTest, YamlIsKubeadmsLayoutAndReadsBack) {
  json d = Build({{"featureGates", json::object()}, {"podPidsLimit", -1}, {"providerID", "true"}});
  const std::string yaml = util::yaml::Emit(d);
  EXPECT_EQ(yaml.rfind("apiVersion: kubelet.config.k8s.io/v1beta1\nauthentication:\n", 0), 0u)
      << yaml;
  EXPECT_LT(yaml.find("healthzPort: 10248"), yaml.find("kind: KubeletConfiguration"));
  EXPECT_NE(yaml.find("\nclusterDNS:\n- 10.96.0.10\nclusterDomain: example.local\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("\nfeatureGates: {}\n"), std::string::npos) << yaml;
  YAML::Node back = YAML::Load(yaml);  // an independent reader
  EXPECT_EQ(back["providerID"].as<std::string>(), "true");
  EXPECT_EQ(back["providerID"].Tag(), "!");  // quoted: stays a string
  EXPECT_EQ(back["podPidsLimit"].as<int>(), -1);
  EXPECT_EQ(back["clusterDNS"][0].as<std::string>(), "10.96.0.10");
  EXPECT_TRUE(back["featureGates"].IsMap());
  EXPECT_EQ(back["rotateCertificates"].as<bool>(), true);
}

}  // namespace
}  // namespace kkadm::phases
