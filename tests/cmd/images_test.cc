#include "cmd/images.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cmd/context.h"
#include "tests/fakes/fake_release_versions.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::cmd {
namespace {

// Runs `kkadm config <args...>` with only the images command wired and returns what it printed.
// Version labels are looked up in `versions` (by default: stable-1 is kkadm's own version).
std::string RunConfigImages(
    std::vector<std::string> args, Status* status = nullptr,
    config::ReleaseVersionSource versions = kkadm::testing::StableIsBuiltInVersion()) {
  std::ostringstream out, err;
  CommandContext context(out, err);
  context.release_versions = std::move(versions);
  CLI::App app("kkadm");
  auto* config = app.add_subcommand("config", "config");
  AddImagesCommand(*config, context);
  args.insert(args.begin(), "config");
  std::reverse(args.begin(), args.end());  // CLI11 takes the vector reversed
  app.parse(args);
  if (status != nullptr) *status = context.status;
  return out.str();
}

TEST(ImagesCommandTest, TextListsDefaultImages) {
  EXPECT_EQ(RunConfigImages({"images", "list"}),
            "registry.k8s.io/kube-apiserver:v1.32.0\n"
            "registry.k8s.io/kube-controller-manager:v1.32.0\n"
            "registry.k8s.io/kube-scheduler:v1.32.0\n"
            "registry.k8s.io/kube-proxy:v1.32.0\n"
            "registry.k8s.io/coredns/coredns:v1.11.3\n"
            "registry.k8s.io/pause:3.10\n"
            "registry.k8s.io/etcd:3.5.16-0\n");
}

// As kubeadm's `config images list`, a label is looked up the way `init` looks it up.
TEST(ImagesCommandTest, VersionLabelIsLookedUp) {
  auto files = std::make_shared<kkadm::testing::FakeReleaseFiles>();
  files->files[std::string(config::kReleaseBucketUrl) + "/release/stable-1.31.txt"] = "v1.31.4";
  const std::string text =
      RunConfigImages({"images", "list", "--kubernetes-version", "stable-1.31"}, nullptr,
                      kkadm::testing::FakeReleaseVersions(files));
  EXPECT_EQ(text.rfind("registry.k8s.io/kube-apiserver:v1.31.4\n", 0), 0u) << text;
  EXPECT_EQ(files->fetched.size(), 1u);
}

TEST(ImagesCommandTest, JsonAndYamlUseKubeadmsImagesObject) {
  const std::string json = RunConfigImages({"images", "list", "-o", "json", "--kubernetes-version",
                                            "1.31.1", "--image-repository", "mirror.example"});
  EXPECT_EQ(json.rfind("{\n    \"kind\": \"Images\",\n"
                       "    \"apiVersion\": \"output.kubeadm.k8s.io/v1alpha3\",\n"
                       "    \"images\": [\n        \"mirror.example/kube-apiserver:v1.31.1\",\n",
                       0),
            0u)
      << json;
  const std::string yaml = RunConfigImages({"images", "list", "-o", "yaml"});
  EXPECT_EQ(yaml.rfind("apiVersion: output.kubeadm.k8s.io/v1alpha3\nimages:\n"
                       "- registry.k8s.io/kube-apiserver:v1.32.0\n",
                       0),
            0u)
      << yaml;
  EXPECT_NE(yaml.find("\nkind: Images\n"), std::string::npos);
}

TEST(ImagesCommandTest, ConfigFileFieldsAndNoMixingWithFlags) {
  kkadm::testing::TempDir dir;
  const std::string path = dir.path() + "/kkadm.yaml";
  std::ofstream(path) << "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n---\n"
                         "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n"
                         "kubernetesVersion: v1.31.0\nimageRepository: file.example\n"
                         "etcd:\n  external:\n    endpoints: [https://10.0.0.1:2379]\n"
                         "dns:\n  imageTag: v1.12.0\nproxy:\n  disabled: true\n";
  EXPECT_EQ(RunConfigImages({"images", "list", "--config", path}),
            "file.example/kube-apiserver:v1.31.0\n"
            "file.example/kube-controller-manager:v1.31.0\n"
            "file.example/kube-scheduler:v1.31.0\n"
            "file.example/coredns:v1.12.0\n"
            "file.example/pause:3.10\n");
  // As in kubeadm, config-bound flags may not be mixed with --config.
  Status status;
  EXPECT_EQ(
      RunConfigImages({"images", "list", "--config", path, "--image-repository", "flag.example"},
                      &status),
      "");
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("can not mix '--config' with arguments"), std::string::npos);
}

TEST(ImagesCommandTest, UnreadableConfigIsAnError) {
  Status status;
  EXPECT_EQ(RunConfigImages({"images", "list", "--config", "/nonexistent/kkadm.yaml"}, &status),
            "");
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace kkadm::cmd
