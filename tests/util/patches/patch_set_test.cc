#include "app/util/patches/patch_set.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/util/patches/pod_fixture.h"

namespace kkadm::util::patches {
namespace {

using nlohmann::json;
using testing::ApiServerPod;

struct NameCase {
  const char* file;
  const char* target;
  const char* suffix;
  PatchType type;
};

TEST(PatchFileNameTest, ParsesTargetSuffixAndType) {
  const NameCase cases[] = {
      {"etcd.yaml", "etcd", "", PatchType::kStrategic},
      {"etcd.json", "etcd", "", PatchType::kStrategic},
      {"kube-apiserver0+json.yaml", "kube-apiserver", "0", PatchType::kJson},
      {"kube-controller-manager+merge.json", "kube-controller-manager", "", PatchType::kMerge},
      {"kube-scheduler-extra+strategic.yaml", "kube-scheduler", "-extra", PatchType::kStrategic},
      {"kubeletconfiguration+json.json", "kubeletconfiguration", "", PatchType::kJson},
      {"corednsdeployment1.yaml", "corednsdeployment", "1", PatchType::kStrategic},
      {"etcd.more.yaml", "etcd", "", PatchType::kStrategic},
  };
  for (const NameCase& c : cases) {
    Result<PatchFileName> parsed = ParsePatchFileName(c.file);
    ASSERT_TRUE(parsed.has_value()) << c.file << ": " << parsed.status().ToString();
    EXPECT_EQ(parsed->target, c.target) << c.file;
    EXPECT_EQ(parsed->suffix, c.suffix) << c.file;
    EXPECT_EQ(parsed->type, c.type) << c.file;
  }
}

TEST(PatchFileNameTest, RejectsBadNames) {
  auto error = [](const char* name) { return ParsePatchFileName(name).status().ToString(); };
  EXPECT_EQ(error("etcd.yml"), "unsupported file extension; patch files end in .json or .yaml");
  EXPECT_EQ(error(".yaml"), "unsupported file extension; patch files end in .json or .yaml");
  EXPECT_EQ(error("kube-foo.yaml"),
            "unknown patch target \"kube-foo\"; valid targets are: etcd, kube-apiserver, "
            "kube-controller-manager, kube-scheduler, kubeletconfiguration, corednsdeployment");
  EXPECT_EQ(error("etcd+xml.yaml"),
            "unknown patch type \"xml\"; valid types are: json, merge, strategic");
  EXPECT_EQ(error("etcd+.yaml"),
            "missing patch type after \"+\"; valid types are: json, merge, strategic");
}

TEST(PatchSetTest, SortsFilesAndSplitsDocuments) {
  Result<PatchSet> set = LoadPatchSet({
      {"p/kube-apiserver1+merge.yaml", "metadata: {labels: {b: two}}\n"},
      {"p/etcd.yaml",
       "---\nmetadata: {labels: {x: y}}\n---\n# only a comment\n---\nspec: {priority: 1}\n"},
      {"p/kube-apiserver0+json.json",
       R"([{"op": "add", "path": "/metadata/labels/a", "value": "one"}])"},
      {"p/kube-scheduler.yaml", ""},
  });
  ASSERT_TRUE(set.has_value()) << set.status().ToString();
  EXPECT_EQ(set->files, (std::vector<std::string>{"etcd.yaml", "kube-apiserver0+json.json",
                                                  "kube-apiserver1+merge.yaml"}));
  EXPECT_EQ(set->ignored, std::vector<std::string>{"kube-scheduler.yaml"});
  ASSERT_EQ(set->by_target.at("etcd").size(), 2u);
  EXPECT_EQ(set->by_target.at("etcd")[1].body, json::parse(R"({"spec":{"priority":1}})"));
  const std::vector<Patch>& api = set->by_target.at("kube-apiserver");
  ASSERT_EQ(api.size(), 2u);
  EXPECT_EQ(api[0].type, PatchType::kJson);
  EXPECT_EQ(api[1].type, PatchType::kMerge);
  EXPECT_FALSE(set->by_target.contains("kube-scheduler"));
  EXPECT_EQ(DescribePatchSet(*set, "p"),
            (std::vector<std::string>{
                "[patches] Reading patches from path \"p\"",
                "[patches] Ignoring empty file: \"kube-scheduler.yaml\"",
                "[patches] Found the following patch files: [etcd.yaml kube-apiserver0+json.json "
                "kube-apiserver1+merge.yaml]",
                "[patches] Ignored the following files: [kube-scheduler.yaml]"}));
}

TEST(PatchSetTest, MalformedFilesGiveOneLineErrors) {
  auto error = [](const char* name, const char* content) {
    return LoadPatchSet({{name, content}}).status().ToString();
  };
  EXPECT_EQ(error("patches/kube-foo.yaml", "a: b\n"),
            "patches/kube-foo.yaml: unknown patch target \"kube-foo\"; valid targets are: etcd, "
            "kube-apiserver, kube-controller-manager, kube-scheduler, kubeletconfiguration, "
            "corednsdeployment");
  EXPECT_EQ(
      error("patches/etcd+xml.yaml", "a: b\n"),
      "patches/etcd+xml.yaml: unknown patch type \"xml\"; valid types are: json, merge, strategic");
  EXPECT_EQ(error("patches/etcd.txt", "a: b\n"),
            "patches/etcd.txt: unsupported file extension; patch files end in .json or .yaml");
  EXPECT_EQ(error("patches/etcd.yaml", "spec:\n  a: [1, 2\n"),
            "patches/etcd.yaml: invalid YAML: line 3, column 1: end of sequence flow not found");
  EXPECT_EQ(error("patches/etcd+json.yaml", "- op: frobnicate\n  path: /spec\n"),
            "patches/etcd+json.yaml: invalid JSON patch: operation 1: unknown op \"frobnicate\"");
  EXPECT_EQ(error("patches/etcd+json.yaml", "op: add\npath: /spec\n"),
            "patches/etcd+json.yaml: a JSON patch must be a list of operations");
  EXPECT_EQ(error("patches/etcd+merge.yaml", "a: b\n---\n- c\n"),
            "patches/etcd+merge.yaml: document 2: a merge patch must be a map, got [\"c\"]");
}

TEST(ApplyPatchesTest, AppliesEveryTypeInFileOrderAndReportsEach) {
  Result<PatchSet> set = LoadPatchSet({
      {"p/kube-apiserver2+json.yaml",
       "- op: add\n  path: /spec/containers/0/command/-\n  value: --v=4\n"
       "- op: replace\n  path: /metadata/labels/owner\n  value: json\n"},
      {"p/kube-apiserver1+merge.yaml", "metadata:\n  labels:\n    owner: merge\n    tier: null\n"},
      {"p/kube-apiserver0.yaml",
       "spec:\n  containers:\n  - name: kube-apiserver\n    image: example.com/kas:v1\n"
       "---\nmetadata:\n  labels:\n    owner: strategic\n"},
      {"p/etcd.yaml", "spec:\n  hostNetwork: false\n"},
  });
  ASSERT_TRUE(set.has_value()) << set.status().ToString();
  Result<PatchedObject> out = ApplyPatches(*set, "kube-apiserver", ApiServerPod());
  ASSERT_TRUE(out.has_value()) << out.status().ToString();
  const json& pod = out->object;
  EXPECT_EQ(pod["metadata"]["labels"],
            json::parse(R"({"component":"kube-apiserver","owner":"json"})"));
  EXPECT_EQ(pod["spec"]["containers"][0]["image"], "example.com/kas:v1");
  EXPECT_EQ(pod["spec"]["containers"][0]["command"].back(), "--v=4");
  EXPECT_EQ(pod["spec"]["hostNetwork"], true);  // the etcd patch is not for this target
  EXPECT_EQ(
      out->messages,
      (std::vector<std::string>{
          R"([patches] Applied patch of type "application/strategic-merge-patch+json" to target "kube-apiserver")",
          R"([patches] Applied patch of type "application/strategic-merge-patch+json" to target "kube-apiserver")",
          R"([patches] Applied patch of type "application/merge-patch+json" to target "kube-apiserver")",
          R"([patches] Applied patch of type "application/json-patch+json" to target "kube-apiserver")"}));
}

TEST(ApplyPatchesTest, TargetWithoutPatchesIsUnchanged) {
  Result<PatchSet> set = LoadPatchSet({{"p/etcd.yaml", "spec: {hostNetwork: false}\n"}});
  ASSERT_TRUE(set.has_value());
  Result<PatchedObject> out = ApplyPatches(*set, "kube-scheduler", ApiServerPod());
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->object, ApiServerPod());
  EXPECT_TRUE(out->messages.empty());
  EXPECT_EQ(ApplyPatches(*set, "kube-proxy", json::object()).status().ToString(),
            "unknown patch target \"kube-proxy\"");
}

TEST(ApplyPatchesTest, ApplyErrorsNameFileAndOperation) {
  auto error = [](const char* name, const char* content) {
    Result<PatchSet> set = LoadPatchSet({{name, content}});
    EXPECT_TRUE(set.has_value()) << set.status().ToString();
    return ApplyPatches(*set, "kube-apiserver", ApiServerPod()).status().ToString();
  };
  EXPECT_EQ(
      error("patches/kube-apiserver+json.yaml", "- op: replace\n  path: /spec/foo\n  value: 1\n"),
      "patches/kube-apiserver+json.yaml: invalid JSON patch: operation 1 (\"replace\" /spec/foo): "
      "path not found");
  EXPECT_EQ(
      error("patches/kube-apiserver+json.yaml",
            "- op: add\n  path: /spec/x\n  value: 1\n- op: test\n  path: /spec/x\n  value: 2\n"),
      "patches/kube-apiserver+json.yaml: invalid JSON patch: operation 2 (\"test\" /spec/x): test "
      "failed");
  EXPECT_EQ(
      error("patches/kube-apiserver.yaml",
            "spec: {hostNetwork: true}\n---\nspec:\n  volumes:\n  - hostPath: {}\n"),
      "patches/kube-apiserver.yaml: document 2: invalid strategic merge patch: at spec.volumes: "
      "map {\"hostPath\":{}} does not contain declared merge key \"name\"");
}

// Found by the patches fuzz target: nlohmann's patch asserted (and, built without assertions,
// silently did nothing) when an operation added or removed a member of a string.
TEST(ApplyPatchesTest, AddOrRemoveUnderAScalarIsAPathNotFound) {
  for (const char* op : {"add", "remove", "copy", "move"}) {
    const std::string content = fmt::format(
        "- op: {}\n  path: /metadata/name/x\n  from: /metadata/namespace\n  value: 1\n", op);
    Result<PatchSet> set = LoadPatchSet({{"patches/kube-apiserver+json.yaml", content}});
    ASSERT_TRUE(set.has_value()) << set.status().ToString();
    EXPECT_EQ(ApplyPatches(*set, "kube-apiserver", ApiServerPod()).status().ToString(),
              fmt::format("patches/kube-apiserver+json.yaml: invalid JSON patch: operation 1 "
                          "(\"{}\" /metadata/name/x): path not found",
                          op));
  }
}

}  // namespace
}  // namespace kkadm::util::patches
