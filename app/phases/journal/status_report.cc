// StatusReport: the journal's state with each phase's drift, and its JSON document.
#include "app/phases/journal/status_report.h"

#include <algorithm>

#include "app/config/config_fields.h"
#include "app/util/ascii.h"
#include "app/util/rfc3339.h"

namespace kkadm::phases::journal {
namespace {

// A journal time (FormatRfc3339Milli) with its milliseconds: ParseRfc3339 drops fractions, and
// most phases take less than a second.
std::optional<std::chrono::system_clock::time_point> JournalTime(const std::string& text) {
  auto time = util::ParseRfc3339(text, util::Rfc3339Case::kUpper);
  if (!time) return std::nullopt;
  const std::size_t dot = text.find('.');
  if (dot == std::string::npos) return time;
  long millis = 0;
  for (std::size_t i = dot + 1; i < dot + 4; ++i) {
    const bool digit = i < text.size() && util::IsAsciiDigit(text[i]);
    millis = millis * 10 + (digit ? text[i] - '0' : 0);
  }
  return *time + std::chrono::milliseconds(millis);
}

nlohmann::ordered_json InputsJson(const std::vector<workflow::PhaseInput>& inputs) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const workflow::PhaseInput& input : inputs) {
    if (IsSecretInput(input.name)) {
      list.push_back({{"name", input.name}, {"secret", true}});
    } else {
      list.push_back({{"name", input.name}, {"value", input.value}});
    }
  }
  return list;
}

nlohmann::ordered_json PhaseJson(const PhaseReport& phase) {
  const PhaseRecord& record = phase.record;
  nlohmann::ordered_json entry = {{"command", record.command}};
  entry.update(PhaseStateJson(record.path, StateName(record.state), record.started, record.ended));
  if (!record.error.empty()) entry["error"] = record.error;
  entry["fingerprint"] = record.fingerprint;
  entry["inputs"] = InputsJson(record.inputs);
  entry["made"] = {{"files", record.files.size()},
                   {"directories", record.created_dirs.size()},
                   {"units", UnitsOf(record).size()},
                   {"objects", record.objects.size()},
                   {"etcdMembers", record.etcd_members.size()}};
  nlohmann::ordered_json drift = nlohmann::ordered_json::array();
  for (const FileDrift& file : phase.drift) {
    drift.push_back({{"path", file.path}, {"change", DriftName(file.kind)}});
  }
  entry["drift"] = std::move(drift);
  return entry;
}

}  // namespace

bool IsSecretInput(const std::string& name) { return config::IsSecretField(name); }

std::string_view DriftName(FileDrift::Kind kind) {
  return kind == FileDrift::Kind::kMissing ? "missing" : "changed";
}

std::vector<std::string> UnitsOf(const PhaseRecord& record) {
  std::vector<std::string> units = record.units_enabled;
  for (const std::string& unit : record.units_started) {
    if (std::find(units.begin(), units.end(), unit) == units.end()) units.push_back(unit);
  }
  return units;
}

std::optional<std::chrono::milliseconds> PhaseDuration(const PhaseRecord& record) {
  if (record.started.empty() || record.ended.empty()) return std::nullopt;
  const auto started = JournalTime(record.started);
  const auto ended = JournalTime(record.ended);
  if (!started || !ended || *ended < *started) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::milliseconds>(*ended - *started);
}

StatusReport MakeStatusReport(const JournalState& state, const util::FileSystem& fs) {
  StatusReport report;
  report.runs = state.runs;
  report.ignored_records = state.ignored_records;
  for (const PhaseRecord& record : state.phases) {
    report.phases.push_back(PhaseReport{record, FindDrift(fs, record)});
  }
  return report;
}

nlohmann::ordered_json PhaseStateJson(const std::string& path, std::string_view state,
                                      const std::string& started, const std::string& ended) {
  nlohmann::ordered_json entry = {{"phase", path}, {"state", state}, {"started", started}};
  if (!ended.empty()) entry["ended"] = ended;
  return entry;
}

nlohmann::ordered_json StatusJson(const StatusReport& report) {
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const RunRecord& run : report.runs) {
    runs.push_back({{"command", run.command},
                    {"version", run.version},
                    {"bootId", run.boot_id},
                    {"started", run.started}});
  }
  nlohmann::ordered_json phases = nlohmann::ordered_json::array();
  for (const PhaseReport& phase : report.phases) phases.push_back(PhaseJson(phase));
  return {{"journal", kJournalPath},
          {"ignoredRecords", report.ignored_records},
          {"runs", std::move(runs)},
          {"phases", std::move(phases)}};
}

}  // namespace kkadm::phases::journal
