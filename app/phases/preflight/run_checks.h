// Running pre-flight checks: kubeadm's RunChecks output, --ignore-preflight-errors handling.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "app/phases/preflight/check.h"
#include "app/util/events.h"
#include "app/util/host.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases::preflight {

// Runs every check in order. Warnings print at once as "\t[WARNING <Name>]: <msg>"; errors of a
// check whose lower-cased name is in `ignored` (or when `ignored` holds "all") print as warnings
// too. The remaining errors print after all checks as
//   [preflight] Some fatal errors occurred:
//   \t[ERROR <Name>]: <msg>
//   [preflight] If you know what you are doing, you can make a check non-fatal with
//   `--ignore-preflight-errors=...`
// and the result is FailedPrecondition "[preflight] Some fatal errors occurred: <Name>, ...".
// OK when no error is left. Each check's result is also a PreflightCheck event: severity "pass"
// without warnings or errors, else one event per message, "warning" or "error" (an ignored error
// is a "warning" with "ignored": true; an error carries its remediation).
Status RunChecks(const CheckList& checks, const util::Host& host,
                 const std::set<std::string>& ignored, util::Printer& out,
                 const util::Events& events = {});

// The lower-cased names of kubeadm's fixed-name checks (including ones kkadm does not run, such
// as "systemverification" and "imagepull", so kubeadm command lines keep working) plus "all".
const std::set<std::string>& KnownCheckNames();

// True for a known fixed name or a name of a generated family, compared lower-case:
// "port-<n>", "fileavailable-<path>", "diravailable-<path>", "filecontent-<path>",
// "fileexisting-<name>".
bool IsKnownCheckName(const std::string& name);

// Merges --ignore-preflight-errors values (each may be a comma list) with
// nodeRegistration.ignorePreflightErrors into one lower-cased set. InvalidArgument when a name
// is unknown, or when "all" is combined with individual names (as kubeadm's validation).
Result<std::set<std::string>> ParseIgnorePreflightErrors(
    const std::vector<std::string>& flag_values, const std::vector<std::string>& config_values);

}  // namespace kkadm::phases::preflight
