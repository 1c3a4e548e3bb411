// The `preflight` phase of `kkadm reset`: a thin adapter over RunResetPreflight.
#include "app/phases/reset/reset_preflight_phase.h"

#include "app/phases/reset/reset_preflight.h"

namespace kkadm::phases {

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
