// What `kkadm reset` prints when its phases are done: kubeadm's closing instructions, then the
// list of what was left on purpose and of everything that could not be undone.
#pragma once

#include <string>
#include <vector>

#include "app/phases/reset/reset_data.h"

namespace kkadm::cmd {

// kubeadm's text after a reset, verbatim (it starts with an empty line); without its CNI paragraph
// when `cni_cleaned` (kkadm's --cleanup-cni emptied /etc/cni/net.d).
std::string CleanupInstructions(bool cni_cleaned);

// What a reset with kkadm's journal left on purpose (`kept`: what, why) and the files it removed
// although they changed since kkadm wrote them: "" when both are empty; otherwise a block of
// tab-indented lines under a heading each. They do not make the reset incomplete.
std::string KeptReport(const std::vector<phases::LeftBehind>& kept,
                       const std::vector<std::string>& removed_changed);

// "" when `left_behind` is empty; otherwise an empty line, a heading and one tab-indented
// "<what>: <reason>" line per item, for the very end of the output.
std::string LeftBehindReport(const std::vector<phases::LeftBehind>& left_behind);

}  // namespace kkadm::cmd
