// Running pre-flight checks and validating --ignore-preflight-errors.
#include "app/phases/preflight/run_checks.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "app/util/ascii.h"
#include "app/util/strings.h"
#include "app/util/suggestions.h"

namespace kkadm::phases::preflight {
namespace {

bool IsIgnored(const std::set<std::string>& ignored, const std::string& name) {
  return ignored.count("all") > 0 || ignored.count(util::AsciiToLower(name)) > 0;
}

void EmitCheckEvents(const util::Events& events, const std::string& name, const CheckResult& result,
                     std::size_t ignored_errors) {
  if (result.warnings.empty() && result.errors.empty()) {
    events.Emit("PreflightCheck", {{"check", name}, {"severity", "pass"}, {"message", ""}});
  }
  for (std::size_t i = 0; i < result.warnings.size(); ++i) {
    // The ignored errors were appended after the check's own warnings.
    const bool ignored = i >= result.warnings.size() - ignored_errors;
    events.Emit("PreflightCheck", {{"check", name},
                                   {"severity", "warning"},
                                   {"message", result.warnings[i]},
                                   {"ignored", ignored}});
  }
  for (const std::string& error : result.errors) {
    events.Emit("PreflightCheck", {{"check", name},
                                   {"severity", "error"},
                                   {"message", error},
                                   {"remediation",
                                    "fix the cause, or make the check non-fatal with "
                                    "--ignore-preflight-errors=" +
                                        util::AsciiToLower(name)}});
  }
}

}  // namespace

Status RunChecks(const CheckList& checks, const util::Host& host,
                 const std::set<std::string>& ignored, util::Printer& out,
                 const util::Events& events) {
  std::string fatal_lines;
  std::vector<std::string> fatal_names;
  for (const auto& check : checks) {
    std::string name = check->Name();
    CheckResult result = check->Run(host);
    std::size_t ignored_errors = 0;
    if (IsIgnored(ignored, name)) {
      ignored_errors = result.errors.size();
      result.warnings.insert(result.warnings.end(), result.errors.begin(), result.errors.end());
      result.errors.clear();
    }
    EmitCheckEvents(events, name, result, ignored_errors);
    for (const auto& warning : result.warnings) {
      out.Raw("\t[WARNING " + name + "]: " + warning + "\n");
    }
    for (const auto& error : result.errors)
      fatal_lines += "\t[ERROR " + name + "]: " + error + "\n";
    if (!result.errors.empty()) fatal_names.push_back(name);
  }
  if (fatal_names.empty()) return Status();
  out.Raw("[preflight] Some fatal errors occurred:\n" + fatal_lines +
          "[preflight] If you know what you are doing, you can make a check non-fatal with "
          "`--ignore-preflight-errors=...`\n");
  std::string names;
  for (const auto& name : fatal_names) names += (names.empty() ? "" : ", ") + name;
  return FailedPrecondition("[preflight] Some fatal errors occurred: " + names);
}

const std::set<std::string>& KnownCheckNames() {
  static const std::set<std::string> kNames = {"all",
                                               "cri",
                                               "externaletcdclientcertificates",
                                               "externaletcdversion",
                                               "firewalld",
                                               "hostname",
                                               "httpproxy",
                                               "httpproxycidr",
                                               "imagepull",
                                               "isprivilegeduser",
                                               "kubeletversion",
                                               "kubernetesversion",
                                               "mem",
                                               "numcpu",
                                               "service-kubelet",
                                               "swap",
                                               "systemverification"};
  return kNames;
}

bool IsKnownCheckName(const std::string& name) {
  std::string lower = util::AsciiToLower(name);
  if (KnownCheckNames().count(lower) > 0) return true;
  constexpr std::string_view kPort = "port-";
  if (lower.rfind(kPort, 0) == 0) {
    std::string digits = lower.substr(kPort.size());
    return !digits.empty() && digits.size() <= 5 &&
           std::all_of(digits.begin(), digits.end(),
                       [](unsigned char c) { return std::isdigit(c); });
  }
  for (std::string_view prefix :
       {"fileavailable-", "diravailable-", "filecontent-", "fileexisting-"}) {
    if (lower.rfind(prefix, 0) == 0 && lower.size() > prefix.size()) return true;
  }
  return false;
}

namespace {

// The name, the known names close to it, and every name a check can have.
Status UnknownCheckName(const std::string& name) {
  const std::vector<std::string> known(KnownCheckNames().begin(), KnownCheckNames().end());
  return InvalidArgument(
      "ignore-preflight-errors: unknown pre-flight check \"" + name + "\"" +
      util::DidYouMeanHint(name, known) + "; known checks: " + util::Join(known, ", ") +
      ", port-<port>, fileavailable-<path>, diravailable-<path>, filecontent-<path>, "
      "fileexisting-<path>");
}

}  // namespace

Result<std::set<std::string>> ParseIgnorePreflightErrors(
    const std::vector<std::string>& flag_values, const std::vector<std::string>& config_values) {
  std::set<std::string> names;
  for (const auto* values : {&flag_values, &config_values}) {
    for (const auto& value : *values) {
      std::istringstream items(value);
      for (std::string item; std::getline(items, item, ',');) {
        item = util::AsciiToLower(util::TrimSpace(item));
        if (item.empty()) continue;
        if (!IsKnownCheckName(item)) return UnknownCheckName(item);
        names.insert(item);
      }
    }
  }
  if (names.count("all") > 0 && names.size() > 1) {
    return InvalidArgument(
        "ignore-preflight-errors: don't specify individual checks if 'all' is used");
  }
  return names;
}

}  // namespace kkadm::phases::preflight
