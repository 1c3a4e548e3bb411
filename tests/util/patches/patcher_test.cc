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
    Result<Patcher> patcher = LoadPatcher(dir_.path(), printer_);
    EXPECT_TRUE(patcher.has_value()) << patcher.status().ToString();
    return std::move(*patcher);
  }

  kkadm::testing::TempDir dir_;
  std::ostringstream out_;
  Printer printer_{out_};
};

TEST_F(PatcherTest, NoDirectoryMeansNoPatchesAndNoLines) {
  Result<Patcher> patcher = LoadPatcher("", printer_);
  ASSERT_TRUE(patcher.has_value());
  json pod = {{"kind", "Pod"}};
  EXPECT_EQ(*patcher->Apply("etcd", pod), pod);
  EXPECT_FALSE(patcher->Patches("etcd"));
  EXPECT_TRUE(patcher->Check("etcd", pod).ok());
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
  Status status = patcher.Check("etcd", {{"spec", json::object()}});
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), dir_.path() +
                                  "/etcd+json.yaml: invalid JSON patch: operation 1 (\"remove\" "
                                  "/spec/nodeName): path not found");
  EXPECT_TRUE(patcher.Check("etcd", {{"spec", {{"nodeName", "n"}}}}).ok());
  EXPECT_EQ(out_.str(), "");
}

TEST_F(PatcherTest, LoadRefusesAMissingDirectoryAndAnUnknownTarget) {
  Result<Patcher> missing = LoadPatcher(dir_.path() + "/nope", printer_);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message(), "could not list patch files for path \"" + dir_.path() +
                                           "/nope\": No such file or directory");
  std::ofstream(dir_.path() + "/kube-proxy.yaml") << "a: b\n";
  Result<Patcher> unknown = LoadPatcher(dir_.path(), printer_);
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message().find("kube-proxy.yaml: unknown patch target \"kube-proxy\""),
            std::string::npos)
      << unknown.error().message();
  EXPECT_EQ(out_.str(), "");
}

}  // namespace
}  // namespace kkadm::util::patches
