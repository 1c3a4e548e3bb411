// `kkadm join`'s argument and flags: a join token becomes exactly the flags it stands for, bad
// tokens and mixed flags fail before anything happens, and the command's bad input is one line.
#include "cmd/join.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "app/config/encode.h"
#include "app/config/make_config.h"
#include "app/util/join_token.h"
#include "cmd/context.h"
#include "tests/cmd/sample_values.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::cmd {
namespace {

using samples::kKey;
using samples::kPin;

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string Token(std::vector<std::string> endpoints, const std::string& key = "") {
  util::JoinToken t;
  t.endpoints = std::move(endpoints);
  t.bootstrap_token = "abcdef.0123456789abcdef";
  t.ca_cert_hashes = {kPin};
  t.certificate_key = key;
  return *util::EncodeJoinToken(t);
}

TEST(ApplyJoinArgumentTest, TokenFillsTheFlagsItStandsFor) {
  JoinOptions o;
  o.argument = Token({"10.0.0.1:6443", "10.0.0.2:6443"});
  ASSERT_TRUE(ApplyJoinArgument(o).ok());
  EXPECT_EQ(o.flags.endpoint, "10.0.0.1:6443");
  EXPECT_THAT(o.extra_endpoints, ElementsAre("10.0.0.2:6443"));
  EXPECT_EQ(o.flags.token, "abcdef.0123456789abcdef");
  EXPECT_EQ(o.flags.discovery_token_ca_cert_hash, std::vector<std::string>{kPin});
  EXPECT_FALSE(o.flags.control_plane.has_value());
  EXPECT_FALSE(o.flags.certificate_key.has_value());
}

TEST(ApplyJoinArgumentTest, CertificateKeyImpliesControlPlane) {
  JoinOptions o;
  o.argument = Token({"10.0.0.1:6443"}, kKey);
  ASSERT_TRUE(ApplyJoinArgument(o).ok());
  EXPECT_EQ(o.flags.control_plane, true);
  EXPECT_EQ(o.flags.certificate_key, kKey);
}

// Both forms end in the same configuration: one code path from there on.
TEST(ApplyJoinArgumentTest, TokenAndKubeadmFlagsGiveTheSameConfiguration) {
  kkadm::testing::FakeMachine machine;
  JoinOptions token_form;
  token_form.argument = Token({"10.0.0.1:6443"}, kKey);
  ASSERT_TRUE(ApplyJoinArgument(token_form).ok());
  JoinOptions flag_form;
  flag_form.argument = "10.0.0.1:6443";
  flag_form.flags.token = "abcdef.0123456789abcdef";
  flag_form.flags.discovery_token_ca_cert_hash = std::vector<std::string>{kPin};
  flag_form.flags.control_plane = true;
  flag_form.flags.certificate_key = kKey;
  ASSERT_TRUE(ApplyJoinArgument(flag_form).ok());
  auto a = config::MakeJoinConfiguration(std::nullopt, token_form.flags, machine);
  auto b = config::MakeJoinConfiguration(std::nullopt, flag_form.flags, machine);
  ASSERT_TRUE(a.has_value()) << a.error().message();
  ASSERT_TRUE(b.has_value()) << b.error().message();
  EXPECT_EQ(config::EncodeJoinConfiguration(a->cfg), config::EncodeJoinConfiguration(b->cfg));
  EXPECT_EQ(a->cfg.discovery.tls_bootstrap_token, "abcdef.0123456789abcdef");
  ASSERT_TRUE(a->cfg.control_plane.has_value());
  EXPECT_EQ(a->cfg.control_plane->certificate_key, kKey);
}

TEST(ApplyJoinArgumentTest, TokenCannotBeMixedWithWhatItCarries) {
  JoinOptions o;
  o.argument = Token({"10.0.0.1:6443"});
  o.flags.token = "abcdef.0123456789abcdef";
  o.flags.discovery_token_ca_cert_hash = std::vector<std::string>{kPin};
  o.config_path = "join.yaml";
  EXPECT_EQ(ApplyJoinArgument(o).message(),
            "a join token carries the discovery settings; it can not be mixed with [--config "
            "--discovery-token-ca-cert-hash --token]");
  JoinOptions worker;
  worker.argument = Token({"10.0.0.1:6443"});
  worker.flags.certificate_key = kKey;  // a worker token: the key is the user's own
  worker.flags.node_name = "w-1";
  EXPECT_TRUE(ApplyJoinArgument(worker).ok());
}

TEST(ApplyJoinArgumentTest, BadTokenIsOneLineAndNeverEchoed) {
  std::string token = Token({"10.0.0.1:6443"});
  JoinOptions o;
  o.argument = token.substr(0, token.size() - 5);
  Status s = ApplyJoinArgument(o);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), StartsWith("invalid join token: "));
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
  EXPECT_EQ(s.message().find(o.argument), std::string::npos);
  EXPECT_EQ(s.message().find("0123456789abcdef"), std::string::npos);
}

TEST(ApplyJoinArgumentTest, AnythingElseIsTheEndpoint) {
  JoinOptions o;
  o.argument = "cp.example:6443";
  ASSERT_TRUE(ApplyJoinArgument(o).ok());
  EXPECT_EQ(o.flags.endpoint, "cp.example:6443");
  JoinOptions none;
  ASSERT_TRUE(ApplyJoinArgument(none).ok());
  EXPECT_FALSE(none.flags.endpoint.has_value());
}

// The whole command: bad input stops in the data initialiser, before any phase or network.
class JoinCommandTest : public ::testing::Test {
 protected:
  Status Run(std::vector<std::string> args) {
    CLI::App app("kkadm");
    CommandContext context(out_, err_);
    context.global.rootfs = root_.path();
    JoinCommand join(context);
    join.Bind(app);
    EXPECT_TRUE(context.status.ok()) << context.status.message();
    args.insert(args.begin(), {"kkadm", "join"});
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    app.parse(static_cast<int>(argv.size()), const_cast<char**>(argv.data()));
    return context.status;
  }
  bool RootfsEmpty() const { return std::filesystem::is_empty(root_.path()); }

  kkadm::testing::TempDir root_;
  std::ostringstream out_, err_;
};

TEST_F(JoinCommandTest, TruncatedTokenFailsBeforeAnyPhase) {
  std::string token = Token({"10.0.0.1:6443"});
  Status s = Run({token.substr(0, 40)});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), StartsWith("invalid join token: "));
  EXPECT_EQ(out_.str(), "");  // not even "[preflight] Running pre-flight checks"
  EXPECT_TRUE(RootfsEmpty());
}

TEST_F(JoinCommandTest, MixedTokenAndFlagsFail) {
  Status s = Run({Token({"10.0.0.1:6443"}), "--token", "abcdef.0123456789abcdef"});
  EXPECT_THAT(s.message(), HasSubstr("can not be mixed with [--token]"));
  EXPECT_TRUE(RootfsEmpty());
}

TEST_F(JoinCommandTest, TokenDiscoveryWithoutPinsNeedsTheUnsafeFlag) {
  Status s = Run({"10.0.0.1:6443", "--token", "abcdef.0123456789abcdef"});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("discovery.bootstrapToken.caCertHashes"));
  EXPECT_TRUE(RootfsEmpty());
}

TEST_F(JoinCommandTest, ControlPlanePhaseWithoutDiscoveryNeedsAdminConf) {
  Status s = Run({"phase", "control-plane-join", "mark-control-plane", "--control-plane"});
  EXPECT_EQ(s.message(),
            "File /etc/kubernetes/admin.conf does not exists. Please use 'kkadm join phase "
            "control-plane-prepare' "
            "subcommands to generate it.");
}

TEST_F(JoinCommandTest, UnknownSkipPhaseIsRefused) {
  Status s = Run({Token({"10.0.0.1:6443"}), "--skip-phases", "nope"});
  EXPECT_THAT(s.message(), HasSubstr("invalid phase name: nope"));
}

}  // namespace
}  // namespace kkadm::cmd
