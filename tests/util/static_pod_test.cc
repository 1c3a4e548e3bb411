#include "app/util/static_pod.h"

#include <gtest/gtest.h>

#include "app/util/file_system_real.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

using Args = std::vector<Arg>;
using Strings = std::vector<std::string>;

TEST(ArgumentsToCommandTest, OverrideReplacesEveryBaseEntryOfThatName) {
  Args base = {{"b", "1"}, {"a", "x"}, {"a", "y"}, {"c", "3"}};
  Args overrides = {{"a", "z"}};
  EXPECT_EQ(ArgumentsToCommand(base, overrides), (Strings{"--a=z", "--b=1", "--c=3"}));
}

TEST(ArgumentsToCommandTest, DuplicatesKeptAndSortedByNameThenValue) {
  Args overrides = {{"feature-gates", "B=true"}, {"feature-gates", "A=false"}, {"v", ""}};
  EXPECT_EQ(ArgumentsToCommand({{"leader-elect", "true"}}, overrides),
            (Strings{"--feature-gates=A=false", "--feature-gates=B=true", "--leader-elect=true",
                     "--v="}));
}

TEST(ArgsTest, GetAndSetUseTheLastEntry) {
  Args args = {{"a", "1"}, {"a", "2"}};
  EXPECT_EQ(GetArgValue(args, "a"), "2");
  EXPECT_EQ(GetArgValue(args, "b"), std::nullopt);
  SetArgValue(args, "a", "3");
  SetArgValue(args, "b", "4");
  EXPECT_EQ(args, (Args{{"a", "1"}, {"a", "3"}, {"b", "4"}}));
}

TEST(EnvTest, ProxyVariablesInAnyCaseWithValues) {
  std::vector<EnvVar> env = {{"HTTP_PROXY", "h"}, {"no_proxy", "n"}, {"Https_Proxy", "s"},
                             {"ftp_proxy", ""},   {"PROXY", "p"},    {"PATH", "/bin"}};
  EXPECT_EQ(ProxyEnvVars(env),
            (std::vector<EnvVar>{{"HTTP_PROXY", "h"}, {"no_proxy", "n"}, {"Https_Proxy", "s"}}));
}

TEST(EnvTest, MergeLaterWinsSortedByName) {
  EXPECT_EQ(MergeEnvVars({{"b", "1"}, {"a", "1"}}, {{"b", "2"}, {"c", "3"}}),
            (std::vector<EnvVar>{{"a", "1"}, {"b", "2"}, {"c", "3"}}));
}

TEST(ProbeTest, StartupThresholdIsCeilingOfTimeoutOverTenSeconds) {
  EXPECT_EQ(StartupFailureThreshold(std::chrono::minutes(4)), 24);
  EXPECT_EQ(StartupFailureThreshold(std::chrono::seconds(41)), 5);
  EXPECT_EQ(StartupFailureThreshold(std::chrono::seconds(40)), 4);
}

TEST(VolumesTest, ExtraVolumeOverridesDefaultAndAllSortByName) {
  VolumeMap volumes;
  AddVolume(volumes, "k8s-certs", "/etc/kubernetes/pki", true, "DirectoryOrCreate");
  AddVolume(volumes, "ca-certs", "/etc/ssl/certs", true, "DirectoryOrCreate");
  ASSERT_TRUE(AddExtraVolumes(volumes, {{.name = "k8s-certs",
                                         .host_path = "/srv/pki",
                                         .mount_path = "/etc/kubernetes/pki",
                                         .path_type = ""}})
                  .ok());
  auto list = VolumesJson(volumes);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["name"], "ca-certs");
  EXPECT_EQ(list[1]["hostPath"]["path"], "/srv/pki");
  EXPECT_EQ(list[1]["hostPath"]["type"], "");
  auto mounts = VolumeMountsJson(volumes);
  EXPECT_EQ(mounts[0]["readOnly"], true);
  EXPECT_FALSE(mounts[1].contains("readOnly"));
}

TEST(VolumesTest, RelativePathsAreRejected) {
  VolumeMap volumes;
  Status status = AddExtraVolumes(
      volumes, {{.name = "v", .host_path = "/a", .mount_path = "b", .path_type = ""}});
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(volumes.empty());
}

TEST(LoadPodBaseTest, EveryBaseIsAPodWithOneContainer) {
  for (const char* name : {"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"}) {
    auto pod = LoadPodBase(name);
    ASSERT_TRUE(pod.has_value()) << name << ": " << pod.error().message();
    EXPECT_EQ((*pod)["kind"], "Pod");
    EXPECT_EQ((*pod)["metadata"]["labels"]["component"], name);
    EXPECT_EQ((*pod)["spec"]["containers"][0]["name"], name);
    EXPECT_EQ((*pod)["spec"]["priority"], 2000001000);
  }
  EXPECT_EQ(LoadPodBase("nothing").error().code(), StatusCode::kInternal);
}

TEST(WriteStaticPodManifestTest, WritesAPrivateFileInAPrivateDirectory) {
  kkadm::testing::TempDir root;
  RealFileSystem fs(root.path());
  ASSERT_TRUE(WriteStaticPodManifest(fs, "/etc/kubernetes/manifests", "etcd", "a: 1\nb: 2\n").ok());
  EXPECT_EQ(*fs.ReadFile("/etc/kubernetes/manifests/etcd.yaml"), "a: 1\nb: 2\n");
  EXPECT_EQ(fs.Stat("/etc/kubernetes/manifests/etcd.yaml")->mode, 0600u);
  EXPECT_EQ(fs.Stat("/etc/kubernetes/manifests")->mode, 0700u);
}

}  // namespace
}  // namespace kkadm::util
