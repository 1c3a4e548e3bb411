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
#include "tests/fakes/forwarding_kube_client.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::testing {

class TokenCommandTest : public ClusterPhasesTest {
 protected:
  TokenCommandTest() {
    // Every client is the fake API server, whatever kubeconfig it was made from.
    host_seams_.network.kube = [this](util::KubeClientConfig config) {
      servers_.push_back(config.server);
      return std::unique_ptr<util::KubeClient>(new ForwardingKubeClient(client_));
    };
    WriteAdminConf("any CA: the fake API server is not dialled");
  }
  nlohmann::json Secret(const std::string& id) {
    return client_.Object("/api/v1/namespaces/kube-system/secrets/bootstrap-token-" + id);
  }
  int Run(std::vector<std::string> args) {
    CLI::App app("kkadm");
    cmd::CommandContext context(cmd_out_, cmd_err_);
    cmd::AddTokenCommand(app, context, [this]() -> Result<util::Host*> { return &host_; });
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
  // The API servers of the clients the commands made: the kubeconfig's (admin.conf's by default).
  std::vector<std::string> servers_;
  std::ostringstream cmd_out_, cmd_err_;
  Status status_;
};

}  // namespace kkadm::testing
