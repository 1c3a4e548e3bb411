// `kkadm certs renew <name>|all`: re-issues leaf and kubeconfig client certificates from the local
// CAs, printing kubeadm's lines.
#include <fmt/format.h>

#include <memory>

#include "app/phases/certs/renewal.h"
#include "app/util/printer.h"
#include "cmd/certs.h"
#include "cmd/certs_host.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

namespace certs = phases::certs;

constexpr char kRenewAllDone[] =
    "\nDone renewing certificates. You must restart the kube-apiserver, kube-controller-manager, "
    "kube-scheduler and etcd, so that they can use the new certificates.\n";

Status RenewOne(const certs::RenewalItem& item, const certs::RenewalEnv& env, std::ostream& out) {
  auto outcome = certs::RenewItem(item, env);
  if (!outcome) return outcome.error();
  switch (*outcome) {
    case certs::RenewOutcome::kMissing:
      out << "MISSING! " << item.long_name << '\n';
      break;
    case certs::RenewOutcome::kExternalCA:
      out << fmt::format("Detected external {}, {} can't be renewed\n", item.ca_base,
                         item.long_name);
      break;
    case certs::RenewOutcome::kRenewed:
      out << item.long_name << " renewed\n";
      break;
  }
  return Status();
}

// Renews `name`, or every item when it is empty.
Status Renew(const CertsConfigOptions& options, const std::string& name, CommandContext& context) {
  return WithCertsHost(context, [&](util::Host& host) -> Status {
    auto cluster = LoadCertsClusterConfig(options, host, context, &context.out, "renew");
    if (!cluster) return cluster.error();
    KKADM_RETURN_IF_ERROR(CheckCertDirExists(host.fs, cluster->certificates_dir));
    const certs::RenewalEnv env{.cluster = *cluster, .fs = host.fs, .clock = host.clock};
    util::Printer printer(context.out);
    KKADM_RETURN_IF_ERROR(certs::FinishInterruptedRenewals(env, printer));
    if (!name.empty()) {
      auto item = certs::FindRenewalItem(name);
      if (!item) return InvalidArgument(name + " is not a valid certificate for this cluster");
      return RenewOne(*item, env, context.out);
    }
    for (const certs::RenewalItem& item : certs::RenewalItems(env.external_etcd())) {
      KKADM_RETURN_IF_ERROR(RenewOne(item, env, context.out));
    }
    context.out << kRenewAllDone;
    return Status();
  });
}

void AddRenewSubcommand(CLI::App& renew, CommandContext& context, const std::string& name,
                        const std::string& description) {
  auto* cmd = renew.add_subcommand(name.empty() ? "all" : name, description);
  auto options = std::make_shared<CertsConfigOptions>();
  AddCertsConfigFlags(*cmd, *options);
  cmd->callback([&context, options, name] { context.status = Renew(*options, name, context); });
}

}  // namespace

void AddCertsRenewCommand(CLI::App& parent, CommandContext& context) {
  auto* renew = parent.add_subcommand("renew", "Renew certificates for a Kubernetes cluster");
  renew->require_subcommand(1);
  for (const certs::RenewalItem& item : certs::RenewalItems(/*external_etcd=*/false)) {
    AddRenewSubcommand(*renew, context, item.name, "Renew the " + item.long_name);
  }
  AddRenewSubcommand(*renew, context, "", "Renew all available certificates");
}

}  // namespace kkadm::cmd
