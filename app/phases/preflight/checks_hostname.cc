// The "Hostname" pre-flight check: the node name's form (apimachinery's IsQualifiedName, as
// kubeadm uses it) and whether it names this machine.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "app/phases/preflight/checks_system.h"
#include "app/util/ascii.h"
#include "app/util/net_rules.h"

namespace kkadm::phases::preflight {
namespace {

// The patterns are only quoted in messages, as apimachinery's RegexError does; the checks are
// util::HasQualifiedNameForm and util::HasDns1123SubdomainForm.
constexpr const char* kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr const char* kQualifiedNameErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr const char* kSubdomainFmt =
    R"([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)";
constexpr const char* kSubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";

// apimachinery's RegexError text.
std::string RegexError(const std::string& msg, const std::string& format,
                       const std::vector<std::string>& examples) {
  std::string out = msg + " (e.g. ";
  for (std::size_t i = 0; i < examples.size(); ++i) {
    if (i > 0) out += " or ";
    out += "'" + examples[i] + "', ";
  }
  return out + "regex used for validation is '" + format + "')";
}

std::string QualifiedNameRegexError() {
  return RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"});
}

void CheckPrefix(const std::string& prefix, std::vector<std::string>& errs) {
  if (prefix.empty()) {
    errs.push_back("prefix part must be non-empty");
    return;
  }
  if (prefix.size() > 253) errs.push_back("prefix part must be no more than 253 characters");
  if (!util::HasDns1123SubdomainForm(prefix)) {
    errs.push_back("prefix part " + RegexError(kSubdomainErrMsg, kSubdomainFmt, {"example.com"}));
  }
}

std::vector<std::string> IsQualifiedName(const std::string& value) {
  std::vector<std::string> errs;
  auto slashes = std::count(value.begin(), value.end(), '/');
  if (slashes > 1) return {"a qualified name " + QualifiedNameRegexError()};
  std::string name = value;
  if (slashes == 1) {
    auto at = value.find('/');
    CheckPrefix(value.substr(0, at), errs);
    name = value.substr(at + 1);
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > 63) {
    errs.push_back("name part must be no more than 63 characters");
  }
  if (!util::HasQualifiedNameForm(name)) errs.push_back("name part " + QualifiedNameRegexError());
  return errs;
}

class HostnameCheck final : public Check {
 public:
  explicit HostnameCheck(std::string node_name) : node_name_(std::move(node_name)) {}
  std::string Name() const override { return "Hostname"; }
  CheckResult Run(const util::Host& host) const override {
    CheckResult result;
    for (const auto& msg : IsQualifiedName(node_name_)) {
      result.warnings.push_back(
          fmt::format("invalid node name format \"{}\": {}", node_name_, msg));
    }
    // kubeadm resolves the name (net.LookupHost); kkadm makes no network lookup, so it only
    // knows the name is reachable when it is this machine's own hostname.
    std::string hostname = util::AsciiToLower(host.machine.Hostname());
    if (util::AsciiToLower(node_name_) != hostname) {
      result.warnings.push_back(fmt::format(
          "hostname \"{}\" is not this machine's hostname \"{}\" and may not be reachable; make "
          "sure it resolves to this node",
          node_name_, hostname));
    }
    return result;
  }

 private:
  std::string node_name_;
};

}  // namespace

std::unique_ptr<Check> NewHostnameCheck(std::string node_name) {
  return std::make_unique<HostnameCheck>(std::move(node_name));
}

}  // namespace kkadm::phases::preflight
