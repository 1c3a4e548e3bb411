// TokenCommandTest: runs `kkadm token ...` command lines against a FakeKubeClient, with the node's
// files in a temporary directory (ClusterPhasesTest) and a fake clock.
#pragma once

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cmd/context.h"
#include "cmd/token.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::testing {

// The fake outlives each command's unique_ptr: commands get a forwarding client.
class ForwardingClient : public util::KubeClient {
 public:
  explicit ForwardingClient(util::KubeClient& c) : c_(c) {}
  Result<nlohmann::json> Get(const std::string& p) override { return c_.Get(p); }
  Result<nlohmann::json> Create(const std::string& p, const nlohmann::json& o) override {
    return c_.Create(p, o);
  }
  Result<nlohmann::json> Update(const std::string& p, const nlohmann::json& o) override {
    return c_.Update(p, o);
  }
  Result<nlohmann::json> Patch(const std::string& p, util::PatchType t,
                               const nlohmann::json& o) override {
    return c_.Patch(p, t, o);
  }
  Status Delete(const std::string& p) override { return c_.Delete(p); }
  Result<std::string> GetRaw(const std::string& p) override { return c_.GetRaw(p); }

 private:
  util::KubeClient& c_;
};

class TokenCommandTest : public ClusterPhasesTest {
 protected:
  TokenCommandTest() {
    deps_.client_factory =
        [this](const std::string& path) -> Result<std::unique_ptr<util::KubeClient>> {
      kubeconfigs_.push_back(path);
      return std::unique_ptr<util::KubeClient>(new ForwardingClient(client_));
    };
    deps_.clock = &clock_;
    deps_.fs = [this]() -> util::FileSystem& { return fs_; };
  }
  nlohmann::json Secret(const std::string& id) {
    return client_.Object("/api/v1/namespaces/kube-system/secrets/bootstrap-token-" + id);
  }
  int Run(std::vector<std::string> args) {
    CLI::App app("kkadm");
    cmd::CommandContext context(cmd_out_, cmd_err_);
    cmd::AddTokenCommand(app, context, deps_);
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
  cmd::TokenCommandDeps deps_;
  std::vector<std::string> kubeconfigs_;
  std::ostringstream cmd_out_, cmd_err_;
  Status status_;
};

}  // namespace kkadm::testing
