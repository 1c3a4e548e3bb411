// `kkadm status`: the node's journal as a table per command, or as one JSON or YAML document.
#include "cmd/status.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>
#include <sstream>

#include "app/util/duration.h"
#include "app/util/machine_real.h"
#include "app/util/printable.h"
#include "app/util/printer.h"
#include "app/util/tab_writer.h"
#include "app/util/yaml/yaml.h"
#include "cmd/context.h"
#include "cmd/host_factory.h"

namespace kkadm::cmd {
namespace {

namespace journal = phases::journal;
using Rows = std::vector<std::vector<std::string>>;

// Columns as kubectl aligns them: each cell but a line's last padded to its column's widest,
// plus three spaces.
std::string Counted(std::size_t n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string MadeCell(const journal::PhaseRecord& record) {
  std::vector<std::string> parts;
  if (!record.files.empty()) parts.push_back(Counted(record.files.size(), "file", "files"));
  if (!record.created_dirs.empty()) {
    parts.push_back(Counted(record.created_dirs.size(), "dir", "dirs"));
  }
  if (const std::size_t units = journal::UnitsOf(record).size(); units > 0) {
    parts.push_back(Counted(units, "unit", "units"));
  }
  if (!record.objects.empty()) parts.push_back(Counted(record.objects.size(), "object", "objects"));
  if (!record.etcd_members.empty()) {
    parts.push_back(Counted(record.etcd_members.size(), "etcd member", "etcd members"));
  }
  return parts.empty() ? "-" : fmt::format("{}", fmt::join(parts, ", "));
}

std::string DriftCell(const std::vector<journal::FileDrift>& drift) {
  const auto missing = std::count_if(drift.begin(), drift.end(), [](const auto& file) {
    return file.kind == journal::FileDrift::Kind::kMissing;
  });
  const auto changed = static_cast<long>(drift.size()) - missing;
  std::vector<std::string> parts;
  if (changed > 0) parts.push_back(fmt::format("{} changed", changed));
  if (missing > 0) parts.push_back(fmt::format("{} missing", missing));
  return parts.empty() ? "-" : fmt::format("{}", fmt::join(parts, ", "));
}

std::vector<std::string> PhaseRow(const journal::PhaseReport& phase) {
  const journal::PhaseRecord& record = phase.record;
  const auto duration = journal::PhaseDuration(record);
  return {record.path,
          std::string(journal::StateName(record.state)),
          record.started.empty() ? "-" : util::EscapeNonPrintable(record.started),
          duration ? util::FormatDuration(*duration) : "-",
          std::to_string(record.inputs.size()),
          MadeCell(record),
          DriftCell(phase.drift)};
}

// "init: 2 runs, the last started ... by kkadm v0.1.0 (boot id ...)".
std::string CommandHeading(const journal::StatusReport& report, const std::string& command) {
  const journal::RunRecord* last = nullptr;
  std::size_t runs = 0;
  for (const journal::RunRecord& run : report.runs) {
    if (run.command != command) continue;
    last = &run;
    ++runs;
  }
  if (last == nullptr) return command + ":\n";
  return fmt::format("{}: {}, the last started {} by kkadm {} (boot id {})\n", command,
                     Counted(runs, "run", "runs"), util::EscapeNonPrintable(last->started),
                     util::EscapeNonPrintable(last->version),
                     util::EscapeNonPrintable(last->boot_id));
}

// The commands of the journal, in the order first recorded.
std::vector<std::string> Commands(const journal::StatusReport& report) {
  std::vector<std::string> commands;
  auto add = [&commands](const std::string& command) {
    if (std::find(commands.begin(), commands.end(), command) == commands.end()) {
      commands.push_back(command);
    }
  };
  for (const journal::RunRecord& run : report.runs) add(run.command);
  for (const journal::PhaseReport& phase : report.phases) add(phase.record.command);
  return commands;
}

// The phases of `command` that never ended, in one line: a killed run leaves every phase it
// began so, the last one begun where it was killed.
std::string NeverEnded(const journal::StatusReport& report, const std::string& command) {
  std::vector<const journal::PhaseRecord*> started;
  for (const journal::PhaseReport& phase : report.phases) {
    if (phase.record.command == command && phase.record.state == journal::PhaseState::kStarted) {
      started.push_back(&phase.record);
    }
  }
  if (started.empty()) return "";
  const auto* last = *std::max_element(started.begin(), started.end(),
                                       [](auto* a, auto* b) { return a->started < b->started; });
  const std::string when = util::EscapeNonPrintable(last->started);
  if (started.size() == 1) {
    return fmt::format("{} {}: started {} and never ended: its run was killed, or is running now\n",
                       command, last->path, when);
  }
  return fmt::format(
      "{}: {} phases started and never ended, the last {} at {}: their run was killed there, or "
      "is running now\n",
      command, started.size(), last->path, when);
}

// Phases that never ended, each phase that failed, and each drifted file get a line.
std::string Notes(const journal::StatusReport& report) {
  std::string notes, drift;
  for (const std::string& command : Commands(report)) notes += NeverEnded(report, command);
  for (const journal::PhaseReport& phase : report.phases) {
    const journal::PhaseRecord& record = phase.record;
    const std::string name = record.command + " " + record.path;
    if (record.state == journal::PhaseState::kFailed) {
      notes += fmt::format("{}: failed: {}\n", name, util::EscapeNonPrintable(record.error));
    }
    for (const journal::FileDrift& file : phase.drift) {
      drift += fmt::format("  {}  {}  (written by {})\n", journal::DriftName(file.kind),
                           util::EscapeNonPrintable(file.path), name);
    }
  }
  if (!drift.empty()) drift = "Files changed or missing since kkadm wrote them:\n" + drift;
  return (notes.empty() ? "" : "\n" + notes) + (drift.empty() ? "" : "\n" + drift);
}

Status RunStatus(const std::string& rootfs, const std::string& output, std::ostream& out) {
  util::RealMachine machine;
  std::ostringstream unused;  // MakeHost's printer: status makes no mount or service change
  util::Printer printer(unused);
  HostOptions options;
  options.rootfs = rootfs;
  Result<std::unique_ptr<OwnedHost>> host = MakeHost(options, machine, printer);
  if (!host) return host.error();
  util::Host& node = (*host)->host();
  journal::Journal journal(node.fs, node.clock);  // only loaded: status writes nothing
  KKADM_RETURN_IF_ERROR(journal.Load());
  const journal::StatusReport report = journal::MakeStatusReport(journal.state(), node.fs);
  if (report.ignored_records > 0) {
    spdlog::warn("{} damaged or torn lines of the journal {} were ignored", report.ignored_records,
                 journal::kJournalPath);
  }
  if (output == "json") {
    out << journal::StatusJson(report).dump(2) << '\n';
  } else if (output == "yaml") {
    out << util::yaml::Emit(journal::StatusJson(report));
  } else {
    out << (journal.live() ? StatusText(report) : kNoJournalText);
  }
  return Status();
}

}  // namespace

std::string StatusText(const journal::StatusReport& report) {
  std::string text;
  for (const std::string& command : Commands(report)) {
    Rows rows = {{"PHASE", "STATE", "STARTED", "DURATION", "INPUTS", "MADE", "DRIFT"}};
    for (const journal::PhaseReport& phase : report.phases) {
      if (phase.record.command == command) rows.push_back(PhaseRow(phase));
    }
    text += (text.empty() ? "" : "\n") + CommandHeading(report, command);
    if (rows.size() > 1) text += util::TabWrite(rows, 0);
  }
  if (report.phases.empty()) {
    text += fmt::format("No phase is recorded in the journal ({}).\n", journal::kJournalPath);
    return text;
  }
  text += Notes(report);
  return text + "\nEach phase's inputs, fingerprint and errors in full: kkadm status -o yaml\n";
}

void AddStatusCommand(CLI::App& parent, CommandContext& context) {
  auto* cmd = parent.add_subcommand(
      "status", "Show what kkadm did on this node, phase by phase, and what changed since");
  auto output = std::make_shared<std::string>("text");
  cmd->add_option("-o,--output", *output, "Output format. One of: text|json|yaml")
      ->check(CLI::IsMember({"text", "json", "yaml"}));
  cmd->callback([&context, output] {
    context.status = RunStatus(context.global.rootfs, *output, context.out);
  });
}

}  // namespace kkadm::cmd
