// EventOutput: a command's progress for machines and its timing table (docs/events.md): the
// flags -o/--output, --events and --show-secrets, the event writer, the phase observer, and where
// the command's human lines go (stdout, or stderr under -o json so stdout holds JSON Lines only).
// Workflow commands (init, join, reset) register the flags in their FlagSet; a command without
// phases (certs renew, config images pull) adds them with AddFlags and runs through Run.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "app/phases/events/event_observer.h"
#include "app/util/clock.h"
#include "app/util/event_writer.h"
#include "app/util/events.h"
#include "app/util/printer.h"
#include "app/util/status.h"
#include "app/workflow/cli.h"
#include "app/workflow/observer_chain.h"
#include "cmd/context.h"

namespace kkadm::cmd {

class EventOutput {
 public:
  // `command` is the command's name as events carry it ("init").
  EventOutput(CommandContext& context, std::string command);
  EventOutput(const EventOutput&) = delete;
  EventOutput& operator=(const EventOutput&) = delete;

  // Where the command's Printer writes: stdout until Start, stderr after it under -o json.
  std::ostream& human() { return human_; }

  // Registers -o/--output, --events and --show-secrets in `flags`, bound to this object.
  void RegisterFlags(workflow::FlagSet& flags);
  // Their names, for workflow::BindOptions::every_phase_flags: phase subcommands have them too.
  static std::vector<std::string> FlagNames();
  // For a command without phases, whose kubeadm counterpart has no -o of its own: adds -o/--output
  // and --events to `app` (no --show-secrets: such a command has no secret to show).
  void AddFlags(CLI::App& app);
  // Start, then `body`, then Finish with its outcome: the events of a command without phases.
  // `body` writes its human lines to human().
  Status Run(const std::function<Status()>& body);

  // Once the command line is parsed, before the command prints anything: moves human lines to
  // stderr under -o json, opens the --events file and emits CommandStarted. Unavailable when the
  // file cannot be opened. A second call does nothing.
  Status Start();
  // Adds the phase observer to `chain` (after the journal, so it sees the journal's plan).
  void Observe(workflow::ObserverChain& chain);
  // The sink phases emit to; a no-op one without -o json or --events.
  util::Events events() const { return util::Events(writer_.get()); }
  // Emits CommandFinished with the run's outcome; nothing when Start was not reached.
  void Finish(const Status& outcome, const std::string& failed_phase);

 private:
  CommandContext& context_;
  std::string command_;
  std::ostream human_;
  util::Printer table_printer_;  // the timing table: stderr, beside the logs
  std::string output_ = "text";
  std::string events_path_;
  bool show_secrets_ = false;
  bool started_ = false;
  const util::Clock& clock_ = util::RealClock();  // the command's time, for its events
  util::Clock::TimePoint start_;
  std::unique_ptr<std::ostream> file_;
  std::unique_ptr<util::EventWriter> writer_;
  std::optional<phases::events::EventObserver> observer_;
};

}  // namespace kkadm::cmd
