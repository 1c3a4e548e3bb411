// The closing text of `kkadm reset`.
#include "cmd/reset_summary.h"

#include <fmt/format.h>

namespace kkadm::cmd {

std::string CleanupInstructions(bool cni_cleaned) {
  std::string text = "\n";
  if (!cni_cleaned) {
    text +=
        "The reset process does not clean CNI configuration. To do so, you must remove "
        "/etc/cni/net.d\n\n";
  }
  text +=
      "The reset process does not reset or clean up iptables rules or IPVS tables.\n"
      "If you wish to reset iptables, you must do so manually by using the \"iptables\" command.\n"
      "\n"
      "If your cluster was setup to utilize IPVS, run ipvsadm --clear (or similar)\n"
      "to reset your system's IPVS tables.\n"
      "\n"
      "The reset process does not clean your kubeconfig files and you must remove them manually.\n"
      "Please, check the contents of the $HOME/.kube/config file.\n";
  return text;
}

std::string KeptReport(const std::vector<phases::LeftBehind>& kept,
                       const std::vector<std::string>& removed_changed) {
  std::string text;
  if (!kept.empty()) {
    text += fmt::format(
        "\n[reset] Left in place on purpose: {} item(s) kkadm did not make, or not all of:\n",
        kept.size());
    for (const phases::LeftBehind& item : kept)
      text += fmt::format("\t{}: {}\n", item.what, item.reason);
  }
  if (!removed_changed.empty()) {
    text += fmt::format("{}[reset] Removed although changed since kkadm wrote them: {} file(s):\n",
                        kept.empty() ? "\n" : "", removed_changed.size());
    for (const std::string& path : removed_changed) text += fmt::format("\t{}\n", path);
  }
  return text;
}

std::string LeftBehindReport(const std::vector<phases::LeftBehind>& left_behind) {
  if (left_behind.empty()) return "";
  std::string text =
      fmt::format("\n[reset] The reset is incomplete: {} item(s) could not be cleaned up:\n",
                  left_behind.size());
  for (const phases::LeftBehind& item : left_behind)
    text += fmt::format("\t{}: {}\n", item.what, item.reason);
  text += "[reset] Fix these and run 'kkadm reset' again: it only does what is still left to do.\n";
  return text;
}

}  // namespace kkadm::cmd
