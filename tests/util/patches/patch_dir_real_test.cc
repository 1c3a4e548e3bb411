#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "app/util/patches/patch_dir.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::util::patches {
namespace {

void Write(const std::string& path, const std::string& content) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << content;
}

TEST(ReadPatchDirectoryTest, ReadsPatchFilesRecursivelyAndNotesTheRest) {
  kkadm::testing::TempDir dir;
  Write(dir.path() + "/kube-apiserver.yaml", "metadata: {labels: {a: b}}\n");
  Write(dir.path() + "/sub/etcd+json.json", R"([{"op": "remove", "path": "/spec/x"}])");
  Write(dir.path() + "/README.md", "# patches\n");
  Write(dir.path() + "/etcd.yml", "spec: {}\n");
  Write(dir.path() + "/corednsdeployment.yaml", "");
  Result<PatchSet> set = ReadPatchDirectory(dir.path());
  ASSERT_TRUE(set.has_value()) << set.status().ToString();
  EXPECT_EQ(set->files, (std::vector<std::string>{"kube-apiserver.yaml", "etcd+json.json"}));
  EXPECT_EQ(set->ignored,
            (std::vector<std::string>{"README.md", "corednsdeployment.yaml", "etcd.yml"}));
  ASSERT_EQ(set->by_target.at("etcd").size(), 1u);
  EXPECT_EQ(set->by_target.at("etcd")[0].file, dir.path() + "/sub/etcd+json.json");
  // kubeadm's lines, in its (alphabetical walk) order.
  EXPECT_EQ(
      DescribePatchSet(*set, dir.path()),
      (std::vector<std::string>{
          "[patches] Reading patches from path \"" + dir.path() + "\"",
          "[patches] Ignoring file \"README.md\": the file extension must be one of [json yaml]",
          "[patches] Ignoring empty file: \"corednsdeployment.yaml\"",
          "[patches] Ignoring file \"etcd.yml\": the file extension must be one of [json yaml]",
          "[patches] Found the following patch files: [kube-apiserver.yaml etcd+json.json]",
          "[patches] Ignored the following files: [README.md corednsdeployment.yaml etcd.yml]"}));
}

TEST(ReadPatchDirectoryTest, BadFileNamesTheFile) {
  kkadm::testing::TempDir dir;
  Write(dir.path() + "/kube-foo.yaml", "a: b\n");
  EXPECT_EQ(ReadPatchDirectory(dir.path()).status().ToString(),
            dir.path() +
                "/kube-foo.yaml: unknown patch target \"kube-foo\"; valid targets are: etcd, "
                "kube-apiserver, kube-controller-manager, kube-scheduler, kubeletconfiguration, "
                "corednsdeployment");
}

TEST(ReadPatchDirectoryTest, MissingOrNonDirectoryPath) {
  kkadm::testing::TempDir dir;
  EXPECT_EQ(
      ReadPatchDirectory(dir.path() + "/none").status().ToString(),
      "could not list patch files for path \"" + dir.path() + "/none\": No such file or directory");
  Write(dir.path() + "/file.yaml", "a: b\n");
  EXPECT_EQ(
      ReadPatchDirectory(dir.path() + "/file.yaml").status().ToString(),
      "could not list patch files for path \"" + dir.path() + "/file.yaml\": not a directory");
}

}  // namespace
}  // namespace kkadm::util::patches
