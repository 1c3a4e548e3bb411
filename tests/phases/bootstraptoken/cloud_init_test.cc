// Tests for the cloud-init user-data of `kkadm token create --print-cloud-init`: its YAML shape
// (read back by kkadm's YAML reader), its refusals, and that /bin/sh parses its script.
#include "app/phases/bootstraptoken/cloud_init.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "app/util/join_token.h"
#include "app/util/yaml/yaml.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

std::string JoinToken(const std::string& certificate_key = "") {
  util::JoinToken token{.endpoints = {"10.123.0.1:6443"},
                        .bootstrap_token = "abcdef.0123456789abcdef",
                        .ca_cert_hashes = {"sha256:" + std::string(64, 'a')},
                        .certificate_key = certificate_key};
  return *util::EncodeJoinToken(token);
}

CloudInitInput Input() {
  return {.join_token = JoinToken(),
          .cri_socket = "unix:///var/run/containerd/containerd.sock",
          .expires = "2030-01-02T03:04:05Z"};
}

TEST(CloudInitTest, UserDataRunsTheScriptWithItsArguments) {
  auto text = CloudInitUserData(Input());
  ASSERT_TRUE(text.has_value()) << text.status().message();
  EXPECT_EQ(text->rfind(
                "#cloud-config\n# kkadm join: a worker node. This user-data holds a join "
                "token: keep it secret.\n# The bootstrap token expires at 2030-01-02T03:04:05Z.\n",
                0),
            0u)
      << *text;
  auto doc = util::yaml::Read(*text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  ASSERT_EQ(doc->size(), 1u);
  EXPECT_EQ((*doc)["runcmd"],
            json::array({json::array({"sh", "-c", CloudInitJoinScript(), "kkadm-join", JoinToken(),
                                      "unix:///var/run/containerd/containerd.sock", "300"})}));
  // The script is a literal block; "300" is quoted, as a plain 300 would read as a number.
  EXPECT_THAT(*text, HasSubstr("- |\n"));
  EXPECT_THAT(*text, HasSubstr("- \"300\"\n"));
}

TEST(CloudInitTest, ControlPlaneAndNeverExpiring) {
  CloudInitInput in = Input();
  in.join_token = JoinToken(std::string(64, 'c'));
  in.control_plane = true;
  in.expires = "";
  in.cri_socket_wait = std::chrono::seconds(42);
  auto text = CloudInitUserData(in);
  ASSERT_TRUE(text.has_value());
  EXPECT_THAT(*text, HasSubstr("# kkadm join: a control-plane node."));
  EXPECT_THAT(*text, HasSubstr("# The bootstrap token never expires.\n"));
  auto doc = util::yaml::Read(*text);
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ((*doc)["runcmd"][0][4], in.join_token);
  EXPECT_EQ((*doc)["runcmd"][0][6], "42");
}

TEST(CloudInitTest, RefusesWhatCannotWork) {
  CloudInitInput in = Input();
  for (const std::string socket :
       {"", "unix://", "unix://relative.sock", "npipe:////./pipe/containerd",
        "/var/run/containerd/containerd.sock"}) {
    in.cri_socket = socket;
    auto text = CloudInitUserData(in);
    ASSERT_FALSE(text.has_value()) << socket;
    EXPECT_EQ(text.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(text.status().message(),
                HasSubstr("--cri-socket: invalid value \"" + socket + "\""));
  }
  in = Input();
  in.join_token = "abcdef.0123456789abcdef";
  EXPECT_FALSE(CloudInitUserData(in).has_value());
  in = Input();
  in.cri_socket_wait = std::chrono::seconds(0);
  EXPECT_FALSE(CloudInitUserData(in).has_value());
}

TEST(CloudInitTest, ScriptIsShellThatGuardsWaitsAndJoins) {
  const std::string script = CloudInitJoinScript();
  EXPECT_THAT(script, HasSubstr("if [ -f /etc/kubernetes/kubelet.conf ]; then"));
  EXPECT_THAT(script, HasSubstr("until [ -S \"$socket\" ]; do"));
  EXPECT_THAT(script, HasSubstr("kkadm join \"$token\" --cri-socket \"$socket_url\" </dev/null"));
  testing::TempDir dir;
  const std::string path = dir.path() + "/join.sh";
  std::ofstream(path) << script;
  const std::string check = "sh -n '" + path + "'";
  EXPECT_EQ(std::system(check.c_str()), 0) << script;
}

}  // namespace
}  // namespace kkadm::phases
