// Tests for `kkadm token create|list|delete|generate` against a fake API server.
#include "cmd/token.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "app/phases/bootstraptoken/token.h"
#include "app/util/kube_apply.h"
#include "cmd/context.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::cmd {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

// The fake outlives each command's unique_ptr: commands get a forwarding client.
class ForwardingClient : public util::KubeClient {
 public:
  explicit ForwardingClient(util::KubeClient& c) : c_(c) {}
  Result<json> Get(const std::string& p) override { return c_.Get(p); }
  Result<json> Create(const std::string& p, const json& o) override { return c_.Create(p, o); }
  Result<json> Update(const std::string& p, const json& o) override { return c_.Update(p, o); }
  Result<json> Patch(const std::string& p, util::PatchType t, const json& o) override { return c_.Patch(p, t, o); }
  Status Delete(const std::string& p) override { return c_.Delete(p); }
  Result<std::string> GetRaw(const std::string& p) override { return c_.GetRaw(p); }

 private:
  util::KubeClient& c_;
};

class TokenCommandTest : public testing::ClusterPhasesTest {
 protected:
  TokenCommandTest() {
    deps_.client_factory = [this](const std::string& path) -> Result<std::unique_ptr<util::KubeClient>> {
      kubeconfigs_.push_back(path);
      return std::unique_ptr<util::KubeClient>(new ForwardingClient(client_));
    };
    deps_.clock = &clock_;
    deps_.fs = [this]() -> util::FileSystem& { return fs_; };
  }
  json Secret(const std::string& id) {
    return client_.Object("/api/v1/namespaces/kube-system/secrets/bootstrap-token-" + id);
  }
  int Run(std::vector<std::string> args) {
    CLI::App app("kkadm");
    CommandContext context(cmd_out_, cmd_err_);
    AddTokenCommand(app, context, deps_);
    std::vector<const char*> argv = {"kkadm"};
    for (const auto& a : args) argv.push_back(a.c_str());
    try {
      app.parse(static_cast<int>(argv.size()), const_cast<char**>(argv.data()));
    } catch (const CLI::ParseError& e) {
      return app.exit(e, cmd_out_, cmd_err_) == 0 ? 0 : 3;
    }
    status_ = context.status;
    return context.status.ok() ? 0 : 1;
  }
  TokenCommandDeps deps_;
  std::vector<std::string> kubeconfigs_;
  std::ostringstream cmd_out_, cmd_err_;
  Status status_;
};

TEST(ParseGoDurationTest, Forms) {
  EXPECT_EQ(*ParseGoDuration("24h0m0s"), std::chrono::hours(24));
  EXPECT_EQ(*ParseGoDuration("1h30m"), std::chrono::minutes(90));
  EXPECT_EQ(*ParseGoDuration("0"), std::chrono::milliseconds(0));
  EXPECT_EQ(*ParseGoDuration("1.5s"), std::chrono::milliseconds(1500));
  EXPECT_EQ(*ParseGoDuration("250ms"), std::chrono::milliseconds(250));
  EXPECT_FALSE(ParseGoDuration("1d").has_value());
  EXPECT_FALSE(ParseGoDuration("").has_value());
  EXPECT_FALSE(ParseGoDuration("h").has_value());
}

TEST_F(TokenCommandTest, CreateWithGivenTokenAndFlags) {
  ASSERT_EQ(Run({"token", "create", "abcdef.0123456789abcdef", "--ttl", "2h", "--description", "ci",
                 "--usages", "authentication", "--groups", "system:bootstrappers:ci"}), 0)
      << status_.message();
  EXPECT_EQ(cmd_out_.str(), "abcdef.0123456789abcdef\n");
  EXPECT_EQ(kubeconfigs_, std::vector<std::string>{"/etc/kubernetes/admin.conf"});
  auto token = phases::BootstrapTokenFromSecret(Secret("abcdef"));
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(token->description, "ci");
  EXPECT_EQ(token->usages, std::vector<std::string>{"authentication"});
  EXPECT_EQ(token->groups, std::vector<std::string>{"system:bootstrappers:ci"});
  EXPECT_EQ(token->expires, clock_.Now() + std::chrono::hours(2));
  // The same id again is refused.
  EXPECT_EQ(Run({"token", "create", "abcdef.0123456789abcdef"}), 1);
  EXPECT_EQ(status_.message(), "a token with id \"abcdef\" already exists");
}

TEST_F(TokenCommandTest, CreateGeneratesAndValidates) {
  ASSERT_EQ(Run({"token", "create", "--kubeconfig", "/root/other.conf", "--ttl", "0"}), 0);
  const std::string printed = cmd_out_.str();
  auto token = phases::ParseBootstrapToken(printed.substr(0, printed.size() - 1));
  ASSERT_TRUE(token.has_value()) << printed;
  EXPECT_FALSE(Secret(token->id)["data"].contains("expiration"));
  EXPECT_EQ(kubeconfigs_.back(), "/root/other.conf");
  EXPECT_EQ(Run({"token", "create", "--usages", "bogus"}), 1);
  EXPECT_THAT(status_.message(), HasSubstr("invalid bootstrap token usage string: bogus"));
  EXPECT_EQ(Run({"token", "create", "--groups", "admins"}), 1);
  EXPECT_EQ(Run({"token", "create", "not-a-token"}), 1);
}

TEST_F(TokenCommandTest, CreatePrintsJoinCommand) {
  WriteAdminConf(MakeCa());
  ASSERT_EQ(Run({"token", "create", "abcdef.0123456789abcdef", "--print-join-command"}), 0);
  EXPECT_THAT(cmd_out_.str(), ::testing::StartsWith("kkadm join 192.0.2.10:6443 --token "
                                                    "abcdef.0123456789abcdef \\\n\t--discovery-token-ca-cert-hash sha256:"));
  EXPECT_THAT(cmd_out_.str(), ::testing::Not(HasSubstr("--control-plane")));
}

TEST_F(TokenCommandTest, ListPrintsKubeadmTable) {
  config::BootstrapToken a = *phases::ParseBootstrapToken("abcdef.0123456789abcdef");
  a.description = "The default bootstrap token generated by 'kubeadm init'.";
  a.ttl = std::chrono::hours(23);
  config::BootstrapToken b = *phases::ParseBootstrapToken("zzzzzz.0123456789abcdef");
  b.ttl = std::chrono::milliseconds(0);
  b.usages = {"signing"};
  b.groups.clear();
  for (const auto& t : {a, b}) client_.Put("/api/v1/namespaces/kube-system/secrets/bootstrap-token-" + t.id,
                                           phases::BootstrapTokenSecret(t, clock_.Now()));
  client_.Put("/api/v1/namespaces/kube-system/secrets/other",
              {{"apiVersion", "v1"}, {"kind", "Secret"}, {"type", "Opaque"}, {"metadata", {{"name", "other"}}}});
  ASSERT_EQ(Run({"token", "list"}), 0) << status_.message();
  const std::string expires = phases::FormatRfc3339(clock_.Now() + std::chrono::hours(23));
  EXPECT_EQ(cmd_out_.str(),
            "TOKEN                     TTL         EXPIRES                USAGES                   "
            "DESCRIPTION                                                EXTRA GROUPS\n"
            "abcdef.0123456789abcdef   23h         " + expires + "   authentication,signing   "
            "The default bootstrap token generated by 'kubeadm init'.   "
            "system:bootstrappers:kubeadm:default-node-token\n"
            "zzzzzz.0123456789abcdef   <forever>   <never>                signing                  "
            "<none>                                                     <none>\n");
  EXPECT_EQ(cmd_err_.str(), "");
}

TEST_F(TokenCommandTest, ListJsonAndYaml) {
  config::BootstrapToken a = *phases::ParseBootstrapToken("abcdef.0123456789abcdef");
  a.ttl = std::chrono::hours(1);
  client_.Put("/api/v1/namespaces/kube-system/secrets/bootstrap-token-abcdef",
              phases::BootstrapTokenSecret(a, clock_.Now()));
  ASSERT_EQ(Run({"token", "list", "-o", "json"}), 0);
  json obj = json::parse(cmd_out_.str());
  EXPECT_EQ(obj["kind"], "BootstrapToken");
  EXPECT_EQ(obj["apiVersion"], "output.kubeadm.k8s.io/v1alpha3");
  EXPECT_EQ(obj["token"], "abcdef.0123456789abcdef");
  EXPECT_EQ(obj["expires"], phases::FormatRfc3339(clock_.Now() + std::chrono::hours(1)));
  cmd_out_.str("");
  ASSERT_EQ(Run({"token", "list", "-o", "yaml"}), 0);
  EXPECT_THAT(cmd_out_.str(), HasSubstr("token: abcdef.0123456789abcdef\n"));
  EXPECT_EQ(Run({"token", "list", "-o", "xml"}), 3);
}

TEST_F(TokenCommandTest, DeleteByIdOrToken) {
  for (const char* t : {"abcdef.0123456789abcdef", "ghijkl.0123456789abcdef"}) {
    config::BootstrapToken token = *phases::ParseBootstrapToken(t);
    client_.Put("/api/v1/namespaces/kube-system/secrets/bootstrap-token-" + token.id,
                phases::BootstrapTokenSecret(token, clock_.Now()));
  }
  ASSERT_EQ(Run({"token", "delete", "abcdef", "ghijkl.0123456789abcdef"}), 0) << status_.message();
  EXPECT_EQ(cmd_out_.str(), "bootstrap token \"abcdef\" deleted\nbootstrap token \"ghijkl\" deleted\n");
  EXPECT_TRUE(Secret("abcdef").is_null());
  EXPECT_TRUE(Secret("ghijkl").is_null());
  EXPECT_EQ(Run({"token", "delete", "abcdef"}), 1);
  EXPECT_THAT(status_.message(), HasSubstr("failed to delete bootstrap token \"abcdef\""));
  EXPECT_EQ(Run({"token", "delete", "bad!"}), 1);
  EXPECT_THAT(status_.message(), HasSubstr("didn't match pattern"));
  EXPECT_EQ(Run({"token", "delete"}), 1);
  EXPECT_THAT(status_.message(), HasSubstr("missing argument"));
}

TEST_F(TokenCommandTest, Generate) {
  ASSERT_EQ(Run({"token", "generate"}), 0);
  const std::string printed = cmd_out_.str();
  EXPECT_TRUE(phases::ParseBootstrapToken(printed.substr(0, printed.size() - 1)).has_value());
  EXPECT_TRUE(client_.calls().empty());
}

}  // namespace
}  // namespace kkadm::cmd
