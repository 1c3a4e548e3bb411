// HookObserver: see hook_observer.h.
#include "app/phases/hooks/hook_observer.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "app/phases/hooks/hook_report.h"
#include "app/util/duration.h"
#include "app/util/secret_words.h"

namespace kkadm::phases::hooks {
namespace {

constexpr std::size_t kStderrLines = 10;

// The last kStderrLines lines of `text`, each indented by two spaces on a line of its own (a tab
// would be shown escaped: kkadm prints errors with control characters escaped).
std::string LastLines(const std::string& text, bool cut) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  if (cut && !lines.empty()) lines.erase(lines.begin());  // the first may be a line's end only
  const std::size_t from = lines.size() > kStderrLines ? lines.size() - kStderrLines : 0;
  std::string out;
  // A hook may print a secret it read; kkadm's error must not carry it on.
  for (std::size_t i = from; i < lines.size(); ++i)
    out += "\n  " + util::RedactSecretWords(lines[i]);
  return out;
}

Status HookFailure(const std::string& label, const Hook& hook, const util::ProcessOutcome& end) {
  std::string how;
  if (end.timed_out) {
    how = "did not end within its timeout of " + util::FormatDuration(hook.timeout) +
          " and was killed with its process group";
  } else if (end.exited) {
    how = fmt::format("exited with status {}", end.exit_code);
  } else {
    how = fmt::format("was killed by signal {}", end.signal);
  }
  const std::string tail = LastLines(end.err, end.err_cut);
  return FailedPrecondition(
      fmt::format("{} hook \"{}\" ({}) {}{}", label, hook.name, hook.path, how,
                  tail.empty() ? "; its stderr was empty" : "; the end of its stderr:" + tail));
}

}  // namespace

HookObserver::HookObserver(const util::FileSystem& fs, util::ProcessRunner& runner,
                           util::Printer& out, RunFacts facts, HookReporting reporting)
    : fs_(fs),
      runner_(runner),
      out_(out),
      facts_(std::move(facts)),
      reporting_(std::move(reporting)),
      clock_(reporting_.clock != nullptr ? *reporting_.clock : util::RealClock()) {}

Result<std::vector<bool>> HookObserver::Plan(const std::vector<workflow::PhaseEntry>& entries,
                                             const std::vector<bool>& selected,
                                             bool phase_command) {
  phase_command_ = phase_command;
  paths_.clear();
  parents_.clear();
  index_.clear();
  last_planned_.assign(entries.size(), 0);
  open_.assign(entries.size(), false);
  outputs_.assign(entries.size(), PhaseOutputs{});
  all_outputs_ = PhaseOutputs{};
  run_error_.clear();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    paths_.push_back(entries[i].path);
    parents_.push_back(entries[i].parent);
    index_.emplace(entries[i].path, i);
    last_planned_[i] = i;
    for (std::size_t j = i + 1; j < entries[i].end && j < selected.size(); ++j) {
      if (selected[j]) last_planned_[i] = j;
    }
  }
  if (!phase_command) KKADM_RETURN_IF_ERROR(RunHooks(kCommand, Stage::kPre, std::nullopt));
  return selected;
}

Status HookObserver::PhaseStarting(const workflow::PhaseEntry& entry) {
  KKADM_RETURN_IF_ERROR(RunHooks(IndexOf(entry), Stage::kPre, std::nullopt));
  open_[IndexOf(entry)] = true;
  return Status();
}

Status HookObserver::PhaseEnded(const workflow::PhaseEntry& entry, const Status& outcome,
                                bool ran) {
  const std::size_t i = IndexOf(entry);
  // Now, while the journal still holds what the phase made as the phase's own.
  if (ran || !outcome.ok()) CollectOutputs(i);
  // A failed phase ends the run: RunEnded runs the post hooks of what it leaves open.
  if (!outcome.ok()) return outcome;
  Status status;
  if (last_planned_[i] == i) {
    status = Close(i, ran ? PhaseResult::kSucceeded : PhaseResult::kSkipped);
  }
  for (int p = parents_[i]; status.ok() && p >= 0; p = parents_[static_cast<std::size_t>(p)]) {
    const auto parent = static_cast<std::size_t>(p);
    if (last_planned_[parent] != i) break;
    status = Close(parent, PhaseResult::kSucceeded);
  }
  return status;
}

Status HookObserver::RunEnded(const Status& outcome) {
  Status status = outcome;
  if (!outcome.ok()) run_error_ = outcome.message();
  auto keep = [&status](Status hooks) {
    if (hooks.ok()) return;
    if (status.ok()) {
      status = std::move(hooks);
    } else {
      spdlog::warn("[hooks] {}", hooks.message());
    }
  };
  for (std::size_t i = open_.size(); i-- > 0;) {
    if (open_[i]) keep(Close(i, outcome.ok() ? PhaseResult::kSucceeded : PhaseResult::kFailed));
  }
  if (!phase_command_) {
    keep(RunHooks(kCommand, Stage::kPost,
                  outcome.ok() ? PhaseResult::kSucceeded : PhaseResult::kFailed));
  }
  return status;
}

Status HookObserver::Close(std::size_t i, PhaseResult result) {
  if (!open_[i]) return Status();
  open_[i] = false;
  return RunHooks(i, Stage::kPost, result);
}

void HookObserver::CollectOutputs(std::size_t i) {
  if (!reporting_.outputs) return;
  const PhaseOutputs made = reporting_.outputs(paths_[i]);
  outputs_[i].Merge(made);
  for (int p = parents_[i]; p >= 0; p = parents_[static_cast<std::size_t>(p)]) {
    outputs_[static_cast<std::size_t>(p)].Merge(made);
  }
  all_outputs_.Merge(made);
}

std::size_t HookObserver::IndexOf(const workflow::PhaseEntry& entry) const {
  return index_.find(entry.path)->second;
}

Status HookObserver::RunHooks(std::size_t i, Stage stage, std::optional<PhaseResult> result) {
  const std::string_view phase = i == kCommand ? std::string_view() : paths_[i];
  const std::string label =
      fmt::format("{}-{}", StageName(stage), phase.empty() ? facts_.command : phase);
  Result<std::vector<Hook>> hooks =
      FindHooks(fs_, HookDirectory(facts_.hooks_dir, facts_.command, stage, phase));
  if (!hooks) return hooks.error().Wrap(label + " hooks");
  // A hook must find the node's files as the phases left them: the certificate and kubeconfig
  // phases write behind, and HostPath waits for every write below the path it is given.
  if (!hooks->empty() && !facts_.dry_run) static_cast<void>(fs_.HostPath("/"));
  const PhaseOutputs* outputs = nullptr;
  if (result && reporting_.outputs) outputs = i == kCommand ? &all_outputs_ : &outputs_[i];
  const std::string_view error =
      result == PhaseResult::kFailed ? std::string_view(run_error_) : std::string_view();
  for (const Hook& hook : *hooks) {
    if (facts_.dry_run) {
      out_.Line("hooks", fmt::format("Would run {} hook {}", label, hook.path));
      continue;
    }
    KKADM_RETURN_IF_ERROR(RunHook(HookCall{phase, stage, hook, result, error, outputs}, label));
  }
  return Status();
}

Status HookObserver::RunHook(const HookCall& call, const std::string& label) {
  const Hook& hook = call.hook;
  out_.Line("hooks", fmt::format("Running {} hook {}", label, hook.name));
  reporting_.events.Emit("HookStarted", HookStartedFields(call));
  HookOutput output;
  util::ProcessRequest request;
  request.path = fs_.HostPath(hook.path);
  request.env = HookEnvironment(facts_, call);
  request.input = BindingContextJson(facts_, call);
  request.input_file_env = kBindingContextEnv;
  request.timeout = hook.timeout;
  request.on_line = [&hook, &output](util::ProcessStream stream, std::string_view line) {
    spdlog::info("[hooks] {}{}: {}", hook.name,
                 stream == util::ProcessStream::kStderr ? " (stderr)" : "",
                 output.Add(stream, line));
  };
  const util::Clock::TimePoint start = clock_.Now();
  Result<util::ProcessOutcome> end = runner_.Run(request);
  Status failure;
  if (!end) {
    failure = FailedPrecondition(
        fmt::format("{} hook \"{}\" could not start: {}", label, hook.name, end.error().message()));
  } else if (!end->succeeded()) {
    failure = HookFailure(label, hook, *end);
  }
  reporting_.events.Emit("HookFinished",
                         HookFinishedFields(call, end, failure, clock_.Now() - start, output));
  if (failure.ok() || hook.fatal) return failure;
  spdlog::warn("[hooks] {} (the hook is not fatal: going on)", failure.message());
  return Status();
}

}  // namespace kkadm::phases::hooks
