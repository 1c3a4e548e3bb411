// A hook's run as events: see hook_report.h.
#include "app/phases/hooks/hook_report.h"

#include "app/phases/events/timing_table.h"
#include "app/util/secret_words.h"

namespace kkadm::phases::hooks {
namespace {

std::string_view HookResult(const Result<util::ProcessOutcome>& end) {
  if (!end) return "not-started";
  if (end->timed_out) return "timeout";
  return end->succeeded() ? "succeeded" : "failed";
}

}  // namespace

std::string HookOutput::Add(util::ProcessStream stream, std::string_view line) {
  std::string text = util::RedactSecretWords(line);
  bytes_ += text.size();
  lines_.push_back({stream, text});
  while (lines_.size() > kMaxLines || (bytes_ > kMaxBytes && !lines_.empty())) {
    bytes_ -= lines_.front().text.size();
    lines_.pop_front();
    ++dropped_;
  }
  return text;
}

nlohmann::json HookOutput::Json() const {
  nlohmann::json lines = nlohmann::json::array();
  for (const Line& line : lines_) {
    lines.push_back({{"stream", line.stream == util::ProcessStream::kStderr ? "stderr" : "stdout"},
                     {"line", line.text}});
  }
  return lines;
}

nlohmann::json HookStartedFields(const HookCall& call) {
  return {{"phase", call.phase},
          {"stage", StageName(call.stage)},
          {"hook", call.hook.name},
          {"path", call.hook.path}};
}

nlohmann::json HookFinishedFields(const HookCall& call, const Result<util::ProcessOutcome>& end,
                                  const Status& failure, std::chrono::nanoseconds took,
                                  const HookOutput& output) {
  nlohmann::json fields = HookStartedFields(call);
  fields["fatal"] = call.hook.fatal;
  fields["result"] = HookResult(end);
  if (end && end->exited) fields["exitCode"] = end->exit_code;
  if (end && !end->exited && end->signal != 0) fields["signal"] = end->signal;
  fields["durationSeconds"] = events::Seconds(took);
  fields["output"] = output.Json();
  fields["outputLinesDropped"] = output.dropped();
  if (!failure.ok()) fields["error"] = failure.message();
  return fields;
}

}  // namespace kkadm::phases::hooks
