// `kkadm status [-o text|json|yaml]`: what kkadm did to this node, phase by phase, from its
// journal (docs/journal.md): states, times, inputs, what each phase made and what drifted since.
// It only reads the node: neither the journal nor anything else is written.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "app/phases/journal/status_report.h"

namespace kkadm::cmd {

struct CommandContext;

void AddStatusCommand(CLI::App& parent, CommandContext& context);

// What `kkadm status` prints for a node without a journal.
inline constexpr char kNoJournalText[] =
    "No kkadm journal on this node (/var/lib/kkadm/journal): kkadm has not initialised or joined "
    "it, or it was reset.\n";

// The text form: per command a table of its phases (PHASE, STATE, STARTED, DURATION, INPUTS,
// MADE, DRIFT), then a line for each phase that never ended or failed and each drifted file.
std::string StatusText(const phases::journal::StatusReport& report);

}  // namespace kkadm::cmd
