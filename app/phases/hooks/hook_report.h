// What a hook's run tells the progress events (docs/events.md): HookStarted as it starts, and
// HookFinished with how it ended, how long it took and the last lines it wrote, bounded in count
// and size and with bootstrap tokens and certificate keys redacted.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "app/phases/hooks/binding_context.h"
#include "app/util/process.h"
#include "app/util/status.h"

namespace kkadm::phases::hooks {

// The lines a hook wrote to stdout and stderr, in the order they came: the last kMaxLines of
// them, at most kMaxBytes of text; the earlier ones are counted as dropped.
class HookOutput {
 public:
  static constexpr std::size_t kMaxLines = 100;
  static constexpr std::size_t kMaxBytes = 16 * 1024;

  // Keeps `line` with its secret words redacted (util::RedactSecretWords); returns it so.
  std::string Add(util::ProcessStream stream, std::string_view line);
  // [{"stream": "stdout"|"stderr", "line": "..."}, ...]
  nlohmann::json Json() const;
  std::size_t dropped() const { return dropped_; }

 private:
  struct Line {
    util::ProcessStream stream;
    std::string text;
  };
  std::deque<Line> lines_;
  std::size_t bytes_ = 0;
  std::size_t dropped_ = 0;
};

// The fields of HookStarted.
nlohmann::json HookStartedFields(const HookCall& call);

// The fields of HookFinished: `end` as the runner returned it, `failure` the error kkadm reports
// for it (OK when it succeeded).
nlohmann::json HookFinishedFields(const HookCall& call, const Result<util::ProcessOutcome>& end,
                                  const Status& failure, std::chrono::nanoseconds took,
                                  const HookOutput& output);

}  // namespace kkadm::phases::hooks
