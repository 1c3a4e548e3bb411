#include "app/phases/init/certs_phase.h"

#include <gtest/gtest.h>

#include "tests/phases/certs/test_node.h"

namespace kkadm::phases {
namespace {

// Runs a phase and its children in pre-order, as the workflow runner does; stops at an error.
Status RunTree(const workflow::Phase& phase) {
  if (phase.run) KKADM_RETURN_IF_ERROR(phase.run());
  for (const auto& child : phase.children) KKADM_RETURN_IF_ERROR(RunTree(child));
  return Status();
}

const workflow::Phase& Child(const workflow::Phase& parent, const std::string& name) {
  for (const auto& c : parent.children) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no child " + name);
}

TEST(CertsPhaseTest, TreeNamesDescriptionsAndFlags) {
  testing::TestNode node;
  workflow::Phase phase = NewCertsPhase(node.data);
  EXPECT_EQ(phase.name, "certs");
  EXPECT_EQ(phase.description, "Certificate generation");
  std::vector<std::string> names;
  for (const auto& c : phase.children) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ca", "apiserver", "apiserver-kubelet-client",
                                             "front-proxy-ca", "front-proxy-client", "etcd-ca",
                                             "etcd-server", "etcd-peer", "etcd-healthcheck-client",
                                             "apiserver-etcd-client", "sa"}));
  EXPECT_EQ(Child(phase, "ca").description,
            "Generate the self-signed Kubernetes CA to provision identities for other Kubernetes "
            "components");
  EXPECT_EQ(Child(phase, "apiserver").description,
            "Generate the certificate for serving the Kubernetes API");
  EXPECT_EQ(Child(phase, "sa").description,
            "Generate a private key for signing service account tokens along with its public key");
  EXPECT_NE(Child(phase, "etcd-peer")
                .long_description.find("Default SANs are localhost, 127.0.0.1, 127.0.0.1, ::1"),
            std::string::npos);
  EXPECT_NE(
      Child(phase, "apiserver")
          .long_description.find("kubernetes.default.svc.cluster.local, 10.96.0.1, 127.0.0.1"),
      std::string::npos);
  auto has = [](const std::vector<std::string>& v, const std::string& f) {
    return std::find(v.begin(), v.end(), f) != v.end();
  };
  EXPECT_TRUE(has(Child(phase, "apiserver").inherit_flags, "apiserver-cert-extra-sans"));
  EXPECT_FALSE(has(Child(phase, "front-proxy-client").inherit_flags, "apiserver-cert-extra-sans"));
  EXPECT_TRUE(has(Child(phase, "front-proxy-client").inherit_flags, "cert-dir"));
  EXPECT_TRUE(has(phase.inherit_flags, "service-cidr"));
}

TEST(CertsPhaseTest, WholePhaseCreatesThenReuses) {
  testing::TestNode node;
  workflow::Phase phase = NewCertsPhase(node.data);
  ASSERT_TRUE(RunTree(phase).ok());
  std::string out = node.TakeOutput();
  EXPECT_EQ(out.rfind("[certs] Using certificateDir folder \"/etc/kubernetes/pki\"\n"
                      "[certs] Generating \"ca\" certificate and key\n",
                      0),
            0u)
      << out;
  EXPECT_NE(out.find("[certs] Generating \"sa\" key and public key\n"), std::string::npos);
  std::string apiserver = node.Read("/etc/kubernetes/pki/apiserver.key");
  ASSERT_TRUE(RunTree(phase).ok());
  out = node.TakeOutput();
  EXPECT_EQ(out.find("Generating"), std::string::npos) << out;
  EXPECT_EQ(node.Read("/etc/kubernetes/pki/apiserver.key"), apiserver);
}

TEST(CertsPhaseTest, SingleSubPhaseNeedsItsCa) {
  testing::TestNode node;
  workflow::Phase phase = NewCertsPhase(node.data);
  Status s = Child(phase, "apiserver").run();
  EXPECT_EQ(s.message().rfind("couldn't load CA certificate ca: ", 0), 0u) << s.message();
  ASSERT_TRUE(Child(phase, "ca").run().ok());
  ASSERT_TRUE(Child(phase, "apiserver").run().ok());
  EXPECT_TRUE(node.fs.Exists("/etc/kubernetes/pki/apiserver.crt"));
  EXPECT_FALSE(node.fs.Exists("/etc/kubernetes/pki/etcd/ca.crt"));
}

TEST(CertsPhaseTest, ExternalCaSkipsServiceAccountKeys) {
  testing::TestNode node;
  node.data.external_ca = true;
  workflow::Phase phase = NewCertsPhase(node.data);
  ASSERT_TRUE(Child(phase, "sa").run().ok());
  EXPECT_EQ(node.TakeOutput(), "[certs] Using existing sa keys\n");
  EXPECT_FALSE(node.fs.Exists("/etc/kubernetes/pki/sa.key"));
}

}  // namespace
}  // namespace kkadm::phases
