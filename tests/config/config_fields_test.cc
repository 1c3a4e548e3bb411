// InitConfigFields and JoinConfigFields: the inputs a node's journal fingerprints. They flatten
// the documents kkadm prints without printing them; the fields must be exactly those of the
// printed documents read back (how kkadm made them before), or every journal already on a node
// would see its phases' inputs changed.
#include "app/config/config_fields.h"

#include <gtest/gtest.h>

#include "app/config/encode.h"
#include "app/config/make_config.h"
#include "app/util/yaml/yaml.h"
#include "tests/config/testdata.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/fake_release_versions.h"

namespace kkadm::config {
namespace {

using kkadm::testing::BuiltInVersions;
using kkadm::testing::FakeMachine;
using kkadm::testing::Testdata;

// A printed document read back and flattened, as InitConfigFields did before.
void AddPrinted(const std::string& yaml, const std::string& prefix,
                std::vector<util::JsonField>& fields) {
  if (yaml.empty()) return;
  Result<nlohmann::json> doc = util::yaml::Read(yaml);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  doc->erase("apiVersion");
  doc->erase("kind");
  for (auto& field : util::FlattenJson(*doc, prefix)) fields.push_back(std::move(field));
}

void ExpectSameFields(const std::vector<util::JsonField>& got,
                      const std::vector<util::JsonField>& printed) {
  ASSERT_EQ(got.size(), printed.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].name, printed[i].name);
    EXPECT_EQ(got[i].value, printed[i].value) << got[i].name;
  }
}

class InitConfigFieldsTest : public ::testing::TestWithParam<const char*> {};

TEST_P(InitConfigFieldsTest, AreThoseOfThePrintedDocuments) {
  FakeMachine machine;
  auto loaded =
      MakeInitConfiguration(Testdata(GetParam()), InitFlags{}, machine, BuiltInVersions());
  ASSERT_TRUE(loaded.has_value()) << loaded.status().message();
  const InitConfiguration& cfg = loaded->cfg;
  std::vector<util::JsonField> printed;
  AddPrinted(EncodeInitConfiguration(cfg), "", printed);
  AddPrinted(EncodeClusterConfiguration(cfg.cluster), "", printed);
  AddPrinted(EncodeComponentConfig(cfg.component_configs.kubelet), "KubeletConfiguration", printed);
  AddPrinted(EncodeComponentConfig(cfg.component_configs.kube_proxy), "KubeProxyConfiguration",
             printed);
  const std::vector<util::JsonField> fields = InitConfigFields(cfg);
  ExpectSameFields(fields, printed);
  // Not vacuous: the documents' fields are there.
  EXPECT_GT(fields.size(), 30u);
}

INSTANTIATE_TEST_SUITE_P(Files, InitConfigFieldsTest,
                         ::testing::Values("v1beta4_full.yaml", "v1beta3_full.yaml",
                                           "component_configs_1.32.yaml"));

TEST(JoinConfigFieldsTest, AreThoseOfThePrintedDocuments) {
  FakeMachine machine;
  auto loaded = MakeJoinConfiguration(Testdata("join_v1beta3.yaml"), JoinFlags{}, machine);
  ASSERT_TRUE(loaded.has_value()) << loaded.status().message();
  std::vector<util::JsonField> printed;
  AddPrinted(EncodeJoinConfiguration(loaded->cfg), "", printed);
  ExpectSameFields(JoinConfigFields(loaded->cfg), printed);
  EXPECT_GT(printed.size(), 5u);
}

}  // namespace
}  // namespace kkadm::config
