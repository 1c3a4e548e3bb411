// The `preflight` phase of `kkadm reset`: the confirmation unless the command skips it, then the
// root check.
#include "app/phases/reset/preflight_phase.h"

#include "app/phases/preflight/checks_system.h"
#include "app/phases/preflight/confirm_reset.h"
#include "app/phases/preflight/run_checks.h"

namespace kkadm::phases {
namespace reset {

Status RunResetPreflight(ResetData& data) {
  if (data.confirm)
    KKADM_RETURN_IF_ERROR(preflight::ConfirmReset(data.host->terminal, data.printer()));
  data.printer().Line("preflight", "Running pre-flight checks");
  preflight::CheckList root;
  root.push_back(preflight::NewIsPrivilegedUserCheck());
  return preflight::RunChecks(root, *data.host, data.ignore_preflight_errors, data.printer(),
                              data.events);
}

}  // namespace reset

workflow::Phase NewResetPreflightPhase(ResetData& data) {
  workflow::Phase phase;
  phase.name = "preflight";
  phase.aliases = {"pre-flight"};
  phase.description = "Run reset pre-flight checks";
  phase.long_description = "Run pre-flight checks for kkadm reset.";
  phase.run = [&data] { return reset::RunResetPreflight(data); };
  phase.inherit_flags = {"config", "ignore-preflight-errors", "force", "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
