// What `kkadm reset` prints when its phases are done: kubeadm's closing instructions, then the
// list of everything that could not be undone.
#pragma once

#include <string>
#include <vector>

#include "app/phases/reset/reset_data.h"

namespace kkadm::cmd {

// kubeadm's text after a reset, verbatim (it starts with an empty line); without its CNI paragraph
// when `cni_cleaned` (kkadm's --cleanup-cni emptied /etc/cni/net.d).
std::string CleanupInstructions(bool cni_cleaned);

// "" when `left_behind` is empty; otherwise an empty line, a heading and one tab-indented
// "<what>: <reason>" line per item, for the very end of the output.
std::string LeftBehindReport(const std::vector<phases::LeftBehind>& left_behind);

}  // namespace kkadm::cmd
