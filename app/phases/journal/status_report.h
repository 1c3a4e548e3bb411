// StatusReport: what `kkadm status` tells of a node from its journal: each command run, and per
// phase its state, times, error, inputs, what it made and which of its files changed or went
// missing since; and the JSON document `kkadm status -o json|yaml` prints (docs/journal.md).
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/phases/journal/drift.h"
#include "app/phases/journal/journal.h"
#include "app/util/file_system.h"

namespace kkadm::phases::journal {

struct PhaseReport {
  PhaseRecord record;
  std::vector<FileDrift> drift;  // of the files it recorded, as the node has them now
};

struct StatusReport {
  std::vector<RunRecord> runs;
  std::vector<PhaseReport> phases;  // in the order the journal first recorded them
  int ignored_records = 0;          // torn or damaged journal lines
};

// The journal's state with each phase's drift looked up on `fs`, which is only read.
StatusReport MakeStatusReport(const JournalState& state, const util::FileSystem& fs);

// The one document of `kkadm status -o json|yaml`: {journal, ignoredRecords, runs, phases}; an
// empty state gives empty lists. A secret input is named with "secret": true, never its value
// (the journal holds only its hash anyway).
nlohmann::ordered_json StatusJson(const StatusReport& report);

// The fields a phase's entry has in common with /run/kkadm/status.json's: phase, state, started
// and, once it ended, ended.
nlohmann::ordered_json PhaseStateJson(const std::string& path, std::string_view state,
                                      const std::string& started, const std::string& ended);

// How long the phase ran; nullopt while it has no end (killed, or running now) or no start.
std::optional<std::chrono::milliseconds> PhaseDuration(const PhaseRecord& record);

// Units the phase enabled or started, each named once.
std::vector<std::string> UnitsOf(const PhaseRecord& record);

// Whether the input named `name` is a secret, whose journal value is only its hash.
bool IsSecretInput(const std::string& name);

std::string_view DriftName(FileDrift::Kind kind);  // "changed", "missing"

}  // namespace kkadm::phases::journal
