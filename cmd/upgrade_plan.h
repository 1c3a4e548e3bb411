// `kkadm upgrade plan [version] [-o text|json|yaml]`: the versions this cluster can be upgraded
// to, checked against kubeadm's version skew policy, and what each would change (kubeadm's
// cmd/upgrade/plan.go). It only reads the cluster, through --kubeconfig (admin.conf).
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

#include "app/config/release_version.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"
#include "cmd/token.h"

namespace kkadm::cmd {

struct CommandContext;

struct UpgradePlanOptions {
  std::string version;  // "" = the versions kkadm looks up (offline: its own)
  std::string output = "text";
  std::string kubeconfig = "/etc/kubernetes/admin.conf";
  bool allow_experimental = false;
  bool allow_rc = false;
  bool etcd_upgrade = true;
  bool force = false;  // kkadm: bypasses the skippable policy errors, as apply's --force
};

// The plan for the cluster behind `client`. Progress lines ("[upgrade/versions] ...") go to `out`
// for text and to `err` for json/yaml, so that stdout is the document alone.
Status RunUpgradePlan(const UpgradePlanOptions& options, util::KubeClient& client,
                      const config::ReleaseVersionSource& releases, std::ostream& out,
                      std::ostream& err);

// `kkadm upgrade` with its `plan` subcommand.
void AddUpgradeCommand(CLI::App& root, CommandContext& context, HostProvider host);

}  // namespace kkadm::cmd
