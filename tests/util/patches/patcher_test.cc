#include "app/util/patches/patcher.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/fakes/temp_dir.h"

namespace kkadm::util::patches {
namespace {

using nlohmann::json;

class PatcherTest : public ::testing::Test {
 protected:
  Patcher Load(const std::string& file, const std::string& content) {
    std::ofstream(dir_.path() + "/" + file) << content;
    return Patcher(dir_.path(), printer_);
  }

  static Result<json> Built(json object) { return object; }

  kkadm::testing::TempDir dir_;
  std::ostringstream out_;
  Printer printer_{out_};
};

TEST_F(PatcherTest, NoDirectoryMeansNoPatchesAndNoLines) {
  const Patcher patcher;
  json pod = {{"kind", "Pod"}};
  EXPECT_EQ(*patcher.Apply("etcd", pod), pod);
  EXPECT_TRUE(patcher.Check("etcd", [] { return Built({}); }).ok());
  EXPECT_EQ(out_.str(), "");
}

TEST_F(PatcherTest, DescribesTheDirectoryOnceAcrossCopiesThenEachPatch) {
  Patcher patcher = Load("etcd+merge.json", R"({"metadata": {"labels": {"a": "b"}}})");
  const Patcher copy = patcher;
  json pod = {{"kind", "Pod"}, {"metadata", {{"name", "etcd"}}}};
  EXPECT_EQ(*patcher.Apply("kube-apiserver", pod), pod);
  Result<json> patched = copy.Apply("etcd", pod);
  ASSERT_TRUE(patched.has_value());
  EXPECT_EQ((*patched)["metadata"]["labels"]["a"], "b");
  EXPECT_EQ(
      out_.str(),
      "[patches] Reading patches from path \"" + dir_.path() +
          "\"\n"
          "[patches] Found the following patch files: [etcd+merge.json]\n"
          "[patches] Applied patch of type \"application/merge-patch+json\" to target \"etcd\"\n");
}

TEST_F(PatcherTest, CheckNamesTheFileAndPrintsNothing) {
  Patcher patcher = Load("etcd+json.yaml", "- {op: remove, path: /spec/nodeName}\n");
  Status status = patcher.Check("etcd", [] { return Built({{"spec", json::object()}}); });
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), dir_.path() +
                                  "/etcd+json.yaml: invalid JSON patch: operation 1 (\"remove\" "
                                  "/spec/nodeName): path not found");
  EXPECT_TRUE(patcher.Check("etcd", [] { return Built({{"spec", {{"nodeName", "n"}}}}); }).ok());
  // A target without patches is not built.
  EXPECT_TRUE(
      patcher.Check("kube-apiserver", []() -> Result<json> { return Internal("built"); }).ok());
  EXPECT_EQ(out_.str(), "");
}

// The directory is read on first use only, as kubeadm reads it in a phase that patches: a missing
// directory or an unknown target is an error there, and no earlier.
TEST_F(PatcherTest, ReadsTheDirectoryOnFirstUseAndKeepsItsError) {
  const Patcher missing(dir_.path() + "/nope", printer_);
  const std::string want =
      "could not list patch files for path \"" + dir_.path() + "/nope\": No such file or directory";
  EXPECT_EQ(missing.Check("etcd", [] { return Built({}); }).message(), want);
  std::filesystem::create_directory(dir_.path() + "/nope");  // the first answer is kept
  EXPECT_EQ(missing.Apply("etcd", json::object()).error().message(), want);

  std::ofstream(dir_.path() + "/kube-proxy.yaml") << "a: b\n";
  const Patcher unknown(dir_.path(), printer_);
  EXPECT_NE(unknown.Check("etcd", [] { return Built({}); })
                .message()
                .find("kube-proxy.yaml: unknown patch target \"kube-proxy\""),
            std::string::npos);
  EXPECT_EQ(out_.str(), "");
}

}  // namespace
}  // namespace kkadm::util::patches

namespace kkadm::util::patches {
namespace {

TEST_F(PatcherTest, FingerprintsFollowEachTargetsPatchesAndNothingElse) {
  EXPECT_TRUE(Patcher().Fingerprints().empty());
  const auto first =
      Load("etcd+merge.json", R"({"metadata": {"labels": {"a": "b"}}})").Fingerprints();
  ASSERT_EQ(first.size(), 1u);
  ASSERT_TRUE(first.at("etcd").starts_with("sha256:"));
  std::ofstream(dir_.path() + "/kube-apiserver.yaml") << "metadata: {labels: {x: y}}\n";
  const auto second = Patcher(dir_.path(), printer_).Fingerprints();
  EXPECT_EQ(second.at("etcd"), first.at("etcd"));  // an unrelated patch changes nothing of etcd's
  EXPECT_EQ(second.size(), 2u);
  const auto third =
      Load("etcd+merge.json", R"({"metadata": {"labels": {"a": "c"}}})").Fingerprints();
  EXPECT_NE(third.at("etcd"), first.at("etcd"));
  EXPECT_EQ(third.at("kube-apiserver"), second.at("kube-apiserver"));
  // An unreadable directory counts as a change of every target.
  const auto missing = Patcher(dir_.path() + "/nope", printer_).Fingerprints();
  EXPECT_EQ(missing.size(), KnownPatchTargets().size());
  EXPECT_TRUE(missing.at("etcd").starts_with("unreadable:sha256:"));
  EXPECT_EQ(out_.str(), "");
}

}  // namespace
}  // namespace kkadm::util::patches
