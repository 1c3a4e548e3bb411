// The timing table of init, join and reset.
#include "app/phases/events/timing_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kkadm::phases::events {
namespace {

std::string SecondsText(std::chrono::nanoseconds duration) {
  return fmt::format("{:.3f}s", Seconds(duration));
}

std::string DurationCell(const PhaseTiming& timing) {
  switch (timing.result) {
    case PhaseResult::kSkipped:
      return "skipped";
    case PhaseResult::kFailed:
      return SecondsText(timing.duration) + " (failed)";
    case PhaseResult::kSucceeded:
      break;
  }
  return SecondsText(timing.duration);
}

}  // namespace

double Seconds(std::chrono::nanoseconds duration) {
  const auto ms = std::chrono::round<std::chrono::milliseconds>(duration);
  return static_cast<double>(ms.count()) / 1000.0;
}

std::string TimingTable(const std::vector<PhaseTiming>& timings, std::chrono::nanoseconds total) {
  std::size_t width = std::string("PHASE").size();
  for (const PhaseTiming& timing : timings) width = std::max(width, timing.path.size());
  width += 2;
  std::string out = "[timing] Phase durations:\n";
  out += fmt::format("{:<{}}{}\n", "PHASE", width, "DURATION");
  for (const PhaseTiming& timing : timings) {
    out += fmt::format("{:<{}}{}\n", timing.path, width, DurationCell(timing));
  }
  out += fmt::format("{:<{}}{}\n", "total", width, SecondsText(total));
  return out;
}

}  // namespace kkadm::phases::events
