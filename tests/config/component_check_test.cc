// Strict decoding of KubeletConfiguration and KubeProxyConfiguration documents: unknown fields warn
// (or fail when strict), wrongly typed values fail, every Kubernetes 1.32 field is known.
#include "app/config/component_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/config/component_fields.h"
#include "app/config/load.h"
#include "tests/config/testdata.h"

namespace kkadm::config {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kKubelet =
    "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n";
constexpr const char* kProxy =
    "apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\n";
constexpr const char* kKubeletDoc = "k.yaml: KubeletConfiguration (document 1): ";
constexpr const char* kProxyDoc = "k.yaml: KubeProxyConfiguration (document 1): ";

Result<LoadedDocuments> Load(const std::string& yaml, bool strict) {
  return LoadDocuments(ConfigSource{"k.yaml", yaml}, strict);
}

TEST(ComponentCheckTest, KnowsEveryKubernetes132Field) {
  for (bool strict : {true, false}) {
    auto docs = LoadDocuments(kkadm::testing::Testdata("component_configs_1.32.yaml"), strict);
    ASSERT_TRUE(docs.has_value()) << docs.error().message();
    EXPECT_THAT(docs->warnings, IsEmpty());
    EXPECT_EQ(docs->component_configs.kubelet["shutdownGracePeriodByPodPriority"][0]["priority"],
              7);
    EXPECT_EQ(docs->component_configs.kube_proxy["conntrack"]["maxPerCore"], 7);
  }
}

struct UnknownCase {
  std::string yaml;
  std::string message;
};

TEST(ComponentCheckTest, UnknownFieldsWarnOrFailWhenStrict) {
  const std::vector<UnknownCase> cases = {
      {std::string(kKubelet) + "maxPod: 110\n", std::string(kKubeletDoc) + "maxPod: unknown field"},
      {std::string(kKubelet) + "authentication:\n  x509:\n    clientCAfile: /ca.crt\n",
       std::string(kKubeletDoc) + "authentication.x509.clientCAfile: unknown field"},
      {std::string(kKubelet) +
           "shutdownGracePeriodByPodPriority:\n- priority: 1\n  shutdownGracePeriodSeconds: 10\n"
           "- priority: 2\n  shutdownGracePeriodSecond: 5\n",
       std::string(kKubeletDoc) +
           "shutdownGracePeriodByPodPriority[1].shutdownGracePeriodSecond: unknown field"},
      {std::string(kKubelet) + "logging:\n  options:\n    text:\n      splitStreams: true\n",
       std::string(kKubeletDoc) + "logging.options.text.splitStreams: unknown field"},
      {std::string(kKubelet) + "metadata:\n  name: x\n",
       std::string(kKubeletDoc) + "metadata: unknown field"},
      {std::string(kKubelet) + "tlsCurvePreferences: [23]\n",  // added after 1.32
       std::string(kKubeletDoc) + "tlsCurvePreferences: unknown field"},
      {std::string(kProxy) + "iptables:\n  masqueradeBits: 14\n",
       std::string(kProxyDoc) + "iptables.masqueradeBits: unknown field"},
      {std::string(kProxy) + "clientConnection:\n  QPS: 5\n",  // field names are case-sensitive
       std::string(kProxyDoc) + "clientConnection.QPS: unknown field"},
  };
  for (const UnknownCase& c : cases) {
    auto strict = Load(c.yaml, true);
    ASSERT_FALSE(strict.has_value()) << c.yaml;
    EXPECT_EQ(strict.error().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(strict.error().message(), c.message);
    auto lenient = Load(c.yaml, false);
    ASSERT_TRUE(lenient.has_value()) << lenient.error().message();
    EXPECT_THAT(lenient->warnings, ElementsAre(c.message));
  }
}

TEST(ComponentCheckTest, WrongTypesFailEvenWhenLenient) {
  const std::vector<UnknownCase> cases = {
      {std::string(kKubelet) + "maxPods: lots\n",
       std::string(kKubeletDoc) + "maxPods: invalid value \"lots\": must be an integer"},
      {std::string(kKubelet) + "port: 99999999999\n",
       std::string(kKubeletDoc) + "port: invalid value \"99999999999\": out of range"},
      {std::string(kKubelet) + "syncFrequency: 5\n",
       std::string(kKubeletDoc) +
           "syncFrequency: invalid value \"5\": must be a duration string such as \"24h0m0s\""},
      {std::string(kKubelet) + "syncFrequency: soon\n",
       std::string(kKubeletDoc) +
           "syncFrequency: invalid value \"soon\": time: invalid duration \"soon\""},
      {std::string(kKubelet) + "clusterDNS: 10.96.0.10\n",
       std::string(kKubeletDoc) + "clusterDNS: invalid value \"10.96.0.10\": must be a list"},
      {std::string(kKubelet) + "evictionHard:\n  memory.available: 5\n",
       std::string(kKubeletDoc) +
           "evictionHard.memory.available: invalid value \"5\": must be a string"},
      {std::string(kKubelet) + "featureGates:\n  Foo: maybe\n",
       std::string(kKubeletDoc) + "featureGates.Foo: invalid value \"maybe\": must be a boolean"},
      {std::string(kKubelet) + "reservedMemory:\n- numaNode: 0\n  limits:\n    memory: lots\n",
       std::string(kKubeletDoc) + "reservedMemory[0].limits.memory: invalid value \"lots\": must "
                                  "be a quantity such as \"100Mi\""},
      {std::string(kKubelet) + "authentication: true\n",
       std::string(kKubeletDoc) + "authentication: invalid value \"true\": must be an object"},
      {std::string(kKubelet) + "logging:\n  verbosity: -1\n",
       std::string(kKubeletDoc) + "logging.verbosity: invalid value \"-1\": out of range"},
      {std::string(kProxy) + "conntrack:\n  maxPerCore: x\n",
       std::string(kProxyDoc) + "conntrack.maxPerCore: invalid value \"x\": must be an integer"},
      {std::string(kProxy) + "clientConnection:\n  qps: fast\n",
       std::string(kProxyDoc) + "clientConnection.qps: invalid value \"fast\": must be a number"},
  };
  for (const UnknownCase& c : cases) {
    for (bool strict : {true, false}) {
      auto docs = Load(c.yaml, strict);
      ASSERT_FALSE(docs.has_value()) << c.yaml;
      EXPECT_EQ(docs.error().message(), c.message);
    }
  }
}

TEST(ComponentCheckTest, FreeMapKeysNullsAndAlternativeFormsAreAccepted) {
  const std::string yaml =
      std::string(kKubelet) +
      "evictionHard:\n  memory.available: 100Mi\n  nodefs.available: \"10%\"\n"
      "featureGates:\n  AnyGateAtAll: true\nsystemReserved:\n  cpu: 500m\n"
      "staticPodURLHeader:\n  X-Token: [a, b]\nclusterDNS: null\ntracing: null\n"
      "logging:\n  flushFrequency: 5000000000\n  options:\n    json:\n"
      "      infoBufferSize: 65536\nmemoryThrottlingFactor: 1\n"
      "reservedMemory:\n- numaNode: 0\n  limits:\n    memory: 1.5Gi\n";
  auto docs = Load(yaml, true);
  ASSERT_TRUE(docs.has_value()) << docs.error().message();
  EXPECT_THAT(docs->warnings, IsEmpty());
}

TEST(ComponentCheckTest, TablesFollowTheirGoStructs) {
  const auto* kubelet = ComponentFields("KubeletConfiguration");
  const auto* proxy = ComponentFields("KubeProxyConfiguration");
  ASSERT_NE(kubelet, nullptr);
  ASSERT_NE(proxy, nullptr);
  EXPECT_EQ(ComponentFields("InitConfiguration"), nullptr);
  EXPECT_EQ(kubelet->at("evictionHard"), FieldKind::kStringMap);
  EXPECT_EQ(kubelet->at("logging.vmodule[].filePattern"), FieldKind::kString);
  EXPECT_EQ(proxy->at("logging.flushFrequency"), FieldKind::kDurationOrInt);
  // Every nested path hangs under an object or a list of objects declared as such.
  for (const auto* table : {kubelet, proxy}) {
    for (const auto& [path, kind] : *table) {
      const size_t dot = path.rfind('.');
      if (dot == std::string::npos) continue;
      std::string parent = path.substr(0, dot);
      const bool list = parent.size() > 2 && parent.compare(parent.size() - 2, 2, "[]") == 0;
      if (list) parent.resize(parent.size() - 2);
      ASSERT_TRUE(table->count(parent)) << path;
      EXPECT_EQ(table->at(parent), list ? FieldKind::kObjectList : FieldKind::kObject) << path;
    }
  }
}

}  // namespace
}  // namespace kkadm::config
