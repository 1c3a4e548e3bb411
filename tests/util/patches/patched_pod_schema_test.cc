// A patched static Pod must still be a valid Pod: checks ApplyPatches' output with the independent
// schema validator (tests/validator/validate.js, node + kubernetes-models).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/util/patches/patch_set.h"
#include "tests/fakes/source_dir.h"
#include "tests/fakes/temp_dir.h"
#include "tests/util/patches/pod_fixture.h"

namespace kkadm::util::patches {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path ValidatorDir() { return kkadm::testing::SourceDir() / "tests" / "validator"; }

// Runs validate.js on `object`; returns its exit code and output.
int Validate(const json& object, std::string* output) {
  kkadm::testing::TempDir dir;
  std::string file = dir.path() + "/object.json";
  std::ofstream(file) << object.dump();
  std::string command =
      "node " + (ValidatorDir() / "validate.js").string() + " --stdin < " + file + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) output->append(buf, n);
  int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class PatchedPodSchemaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(ValidatorDir() / "node_modules" / "kubernetes-models")) {
      GTEST_SKIP() << "validator dependencies not installed (npm ci --prefix tests/validator)";
    }
  }

  json Patched(std::vector<PatchFile> files) {
    Result<PatchSet> set = LoadPatchSet(files);
    EXPECT_TRUE(set.has_value()) << set.status().ToString();
    Result<PatchedObject> out = ApplyPatches(*set, "kube-apiserver", testing::ApiServerPod());
    EXPECT_TRUE(out.has_value()) << out.status().ToString();
    return out.has_value() ? out->object : json();
  }
};

TEST_F(PatchedPodSchemaTest, PatchedPodIsStillValid) {
  json pod = Patched({
      {"p/kube-apiserver0.yaml",
       "spec:\n  containers:\n  - name: kube-apiserver\n    resources:\n      limits: {memory: "
       "1Gi}\n"
       "    volumeMounts:\n    - {mountPath: /var/log/kubernetes, name: audit}\n"
       "  volumes:\n  - name: audit\n    hostPath: {path: /var/log/kubernetes, type: "
       "DirectoryOrCreate}\n"},
      {"p/kube-apiserver1+json.yaml",
       "- {op: add, path: /spec/containers/0/command/-, value: "
       "--audit-log-path=/var/log/kubernetes/audit.log}\n"},
      {"p/kube-apiserver2+merge.yaml", "metadata:\n  labels:\n    audited: 'yes'\n"},
  });
  std::string output;
  EXPECT_EQ(Validate(pod, &output), 0) << output;
  EXPECT_EQ(output, "<stdin>: OK\n");
}

TEST_F(PatchedPodSchemaTest, ValidatorCatchesAPatchThatBreaksThePod) {
  // goyaml.v2 reads `on` as true, so the env value becomes a boolean, as it would with kubeadm.
  json pod =
      Patched({{"p/kube-apiserver.yaml",
                "spec:\n  containers:\n  - name: kube-apiserver\n    env:\n    - name: FEATURE\n"
                "      value: on\n    imagePullPolcy: Always\n"}});
  std::string output;
  EXPECT_EQ(Validate(pod, &output), 1) << output;
  EXPECT_NE(output.find("<stdin>: INVALID: /spec/containers/0/env/0/value must be string"),
            std::string::npos)
      << output;
  EXPECT_NE(output.find("<stdin>: INVALID: /spec/containers/0/imagePullPolcy unknown field"),
            std::string::npos)
      << output;
}

}  // namespace
}  // namespace kkadm::util::patches
