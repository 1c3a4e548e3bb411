// EventOutput: -o json, --events and --show-secrets for init, join and reset, and -o json and
// --events for the commands without phases that do work on a node.
#include "cmd/event_output.h"

#include <CLI/CLI.hpp>
#include <utility>

#include "app/phases/events/timing_table.h"
#include "build_info.h"

namespace kkadm::cmd {

EventOutput::EventOutput(CommandContext& context, std::string command)
    : context_(context),
      command_(std::move(command)),
      human_(context.out.rdbuf()),
      table_printer_(context.err) {}

void EventOutput::RegisterFlags(workflow::FlagSet& flags) {
  flags.Register("output", [this](CLI::App& app) {
    return app
        .add_option("-o,--output", output_,
                    "Output format. One of: text|json. json writes progress events as JSON Lines "
                    "on stdout and the human output on stderr")
        ->check(CLI::IsMember({"text", "json"}))
        ->capture_default_str();
  });
  flags.Register("events", [this](CLI::App& app) {
    return app.add_option("--events", events_path_,
                          "Also write progress events as JSON Lines to this file (mode 0600)");
  });
  flags.Register("show-secrets", [this](CLI::App& app) {
    return app.add_flag("--show-secrets", show_secrets_,
                        "Show the bootstrap token, the certificate key and join commands in "
                        "events instead of <redacted>");
  });
}

std::vector<std::string> EventOutput::FlagNames() { return {"output", "events", "show-secrets"}; }

void EventOutput::AddFlags(CLI::App& app) {
  workflow::FlagSet flags;
  RegisterFlags(flags);
  flags.Add(app, "output");
  flags.Add(app, "events");
}

Status EventOutput::Run(const std::function<Status()>& body) {
  KKADM_RETURN_IF_ERROR(Start());
  Status outcome = body();
  Finish(outcome, "");
  return outcome;
}

Status EventOutput::Start() {
  if (started_) return Status::Ok();
  started_ = true;
  start_ = clock_.Now();
  const bool json = output_ == "json";
  if (json) human_.rdbuf(context_.err.rdbuf());
  if (json || !events_path_.empty()) {
    writer_ = std::make_unique<util::EventWriter>(clock_, command_, show_secrets_);
    if (json) writer_->AddStream(context_.out);
    if (!events_path_.empty()) {
      Result<std::unique_ptr<std::ostream>> file = util::OpenEventFile(events_path_);
      if (!file) return file.error();
      file_ = std::move(*file);
      writer_->AddStream(*file_);
    }
  }
  if (!observer_) observer_.emplace(clock_, events(), &table_printer_);
  events().Emit("CommandStarted", {{"version", build_info::kVersion}});
  return Status::Ok();
}

void EventOutput::Observe(workflow::ObserverChain& chain) {
  if (!observer_) observer_.emplace(clock_, events(), &table_printer_);
  chain.Add(*observer_);
}

void EventOutput::Finish(const Status& outcome, const std::string& failed_phase) {
  if (!started_) return;
  const auto duration = clock_.Now() - start_;
  nlohmann::json fields = {{"result", outcome.ok() ? "succeeded" : "failed"},
                           {"durationSeconds", phases::events::Seconds(duration)}};
  if (!outcome.ok()) fields["error"] = outcome.message();
  if (!failed_phase.empty()) fields["failedPhase"] = failed_phase;
  events().Emit("CommandFinished", std::move(fields));
}

}  // namespace kkadm::cmd
