// The timing table printed at the end of init, join and reset: each top-level phase that was
// planned with how long it took (its sub-phases included) and the run's total.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace kkadm::phases::events {

enum class PhaseResult { kSucceeded, kFailed, kSkipped };

struct PhaseTiming {
  std::string path;  // a top-level phase: "certs"
  PhaseResult result = PhaseResult::kSucceeded;
  std::chrono::nanoseconds duration{0};
};

// Seconds with millisecond precision, as the events carry them: 1.234.
double Seconds(std::chrono::nanoseconds duration);

// "[timing] Phase durations:", then a table with one row per timing in the given order and a last
// row "total":
//   PHASE        DURATION
//   preflight    0.120s
//   certs        1.042s (failed)
//   kubeconfig   skipped
//   total        1.201s
std::string TimingTable(const std::vector<PhaseTiming>& timings, std::chrono::nanoseconds total);

}  // namespace kkadm::phases::events
