// Journal: records appended through a RecordLog, folded into a JournalState.
#include "app/phases/journal/journal.h"

#include <algorithm>

#include "app/phases/journal/fingerprint.h"
#include "app/util/crypto.h"
#include "app/util/rfc3339.h"
#include "app/util/secret_words.h"

namespace kkadm::phases::journal {
namespace {

constexpr unsigned kJournalMode = 0600;

void AddOnce(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

std::string Text(const nlohmann::json& record, const char* key) {
  auto it = record.find(key);
  return it != record.end() && it->is_string() ? it->get<std::string>() : std::string();
}

PhaseState StateNamed(const std::string& name) {
  if (name == "done") return PhaseState::kDone;
  if (name == "failed") return PhaseState::kFailed;
  if (name == "skipped") return PhaseState::kSkipped;
  return PhaseState::kStarted;
}

std::vector<FileOutput> FilesOf(const nlohmann::json& record) {
  std::vector<FileOutput> files;
  auto it = record.find("files");
  if (it == record.end() || !it->is_array()) return files;
  for (const auto& file : *it) {
    if (!file.is_object() || !file.value("mode", nlohmann::json()).is_number_unsigned()) continue;
    files.push_back(
        FileOutput{Text(file, "path"), Text(file, "sha256"), file["mode"].get<unsigned>()});
  }
  return files;
}

std::vector<workflow::PhaseInput> InputsOf(const nlohmann::json& record) {
  std::vector<workflow::PhaseInput> inputs;
  auto it = record.find("inputs");
  if (it == record.end() || !it->is_array()) return inputs;
  for (const auto& input : *it) {
    if (input.is_object()) inputs.push_back({Text(input, "name"), Text(input, "value"), false});
  }
  return inputs;
}

}  // namespace

std::string_view StateName(PhaseState state) {
  switch (state) {
    case PhaseState::kStarted:
      return "started";
    case PhaseState::kDone:
      return "done";
    case PhaseState::kFailed:
      return "failed";
    case PhaseState::kSkipped:
      return "skipped";
  }
  return "started";
}

const PhaseRecord* JournalState::Find(std::string_view command, std::string_view path) const {
  for (const auto& phase : phases) {
    if (phase.command == command && phase.path == path) return &phase;
  }
  return nullptr;
}

Journal::Journal(util::FileSystem& fs, util::Clock& clock)
    : fs_(fs), clock_(clock), log_(fs, kJournalPath, kJournalMode) {}

Status Journal::Load() {
  state_ = JournalState{};
  Result<std::vector<nlohmann::json>> records = log_.ReadAll(&state_.ignored_records);
  if (!records) return records.error().Wrap("reading kkadm's journal");
  for (const auto& record : *records) Apply(record);
  live_ = fs_.Exists(kJournalPath);
  return Status();
}

std::string Journal::Now() const { return util::FormatRfc3339Milli(clock_.Now()); }

PhaseRecord& Journal::Record(const std::string& command, const std::string& path) {
  for (auto& phase : state_.phases) {
    if (phase.command == command && phase.path == path) return phase;
  }
  state_.phases.push_back(PhaseRecord{});
  state_.phases.back().command = command;
  state_.phases.back().path = path;
  return state_.phases.back();
}

void Journal::Apply(const nlohmann::json& record) {
  if (!record.is_object()) return;
  const std::string kind = Text(record, "record");
  if (kind == "run") {
    state_.runs.push_back(RunRecord{Text(record, "command"), Text(record, "version"),
                                    Text(record, "bootId"), Text(record, "time")});
    return;
  }
  PhaseRecord& phase = Record(Text(record, "command"), Text(record, "phase"));
  if (kind == "phase") {
    ApplyPhaseState(phase, record);
  } else {
    ApplyMade(phase, kind, record);
  }
}

// What a phase made or changed: a file or directory, a unit, an API object, an etcd member.
void Journal::ApplyMade(PhaseRecord& phase, const std::string& kind, const nlohmann::json& record) {
  const std::string path = Text(record, "path");
  if (kind == "created") {
    const bool dir = Text(record, "type") == "dir";
    AddOnce(dir ? phase.created_dirs : phase.created_files, path);
    AddOnce(dir ? phase.attempt_dirs : phase.attempt_files, path);
    return;
  }
  if (kind == "replacing") {
    AddOnce(phase.attempt_replaced, path);
    return;
  }
  phase.attempt_beyond_files = true;
  if (kind == "unit") {
    AddOnce(Text(record, "change") == "enabled" ? phase.units_enabled : phase.units_started,
            Text(record, "unit"));
  } else if (kind == "object") {
    if (std::none_of(phase.objects.begin(), phase.objects.end(),
                     [&](const ObjectChange& object) { return object.path == path; })) {
      phase.objects.push_back(ObjectChange{Text(record, "verb"), path});
    }
  } else if (kind == "etcd-member") {
    // A re-run finds the member it added before and records it again: once is enough.
    const std::string id = Text(record, "id");
    if (std::none_of(phase.etcd_members.begin(), phase.etcd_members.end(),
                     [&](const EtcdMemberAdded& member) { return member.id == id; })) {
      phase.etcd_members.push_back(
          EtcdMemberAdded{id, Text(record, "name"), Text(record, "peerURL")});
    }
  }
}

// A phase's state: a new attempt started, or the last one ended.
void Journal::ApplyPhaseState(PhaseRecord& phase, const nlohmann::json& record) {
  phase.state = StateNamed(Text(record, "state"));
  if (phase.state == PhaseState::kStarted) {
    phase.started = Text(record, "time");
    phase.ended.clear();
    phase.error.clear();
    phase.fingerprint = Text(record, "fingerprint");
    phase.inputs = InputsOf(record);
    phase.attempt_files.clear();
    phase.attempt_dirs.clear();
    phase.attempt_replaced.clear();
    phase.attempt_beyond_files = false;
    return;
  }
  phase.ended = Text(record, "time");
  phase.error = Text(record, "error");
  if (phase.state != PhaseState::kDone) return;
  phase.files = FilesOf(record);
  // The last phase to write a file answers for it (kubelet-finalize rewrites the kubelet.conf
  // the kubeconfig phase wrote): the others no longer expect their content.
  for (PhaseRecord& other : state_.phases) {
    if (&other == &phase) continue;
    std::erase_if(other.files, [&](const FileOutput& file) {
      return std::any_of(phase.files.begin(), phase.files.end(),
                         [&](const FileOutput& mine) { return mine.path == file.path; });
    });
  }
}

void Journal::KeepBack(nlohmann::json record) {
  Apply(record);
  kept_back_.push_back(std::move(record));
}

Status Journal::Append(nlohmann::json record) {
  KeepBack(std::move(record));
  return live_ ? WriteKeptBack() : Status();
}

Status Journal::WriteKeptBack() {
  KKADM_RETURN_IF_ERROR(log_.Append(kept_back_));
  kept_back_.clear();
  return Status();
}

// What was kept back is written with the record that makes the journal live.
Status Journal::GoLive() {
  if (live_) return Status();
  live_ = true;
  if (on_live_) on_live_();
  return Status();
}

Status Journal::BeginRun(const std::string& command, const std::string& version,
                         const std::string& boot_id) {
  command_ = command;
  KeepBack({{"record", "run"},
            {"command", command},
            {"version", version},
            {"bootId", boot_id},
            {"time", Now()}});
  return Status();
}

Status Journal::PhaseStarted(const std::string& path, const std::string& fingerprint,
                             const std::vector<workflow::PhaseInput>& inputs) {
  nlohmann::json stored = nlohmann::json::array();
  for (const auto& input : StoredInputs(inputs)) {
    stored.push_back({{"name", input.name}, {"value", input.value}});
  }
  current_ = path;
  current_files_.clear();
  KeepBack({{"record", "phase"},
            {"command", command_},
            {"phase", path},
            {"state", "started"},
            {"time", Now()},
            {"fingerprint", fingerprint},
            {"inputs", std::move(stored)}});
  return Status();
}

Status Journal::WillMake(const std::vector<Making>& changes) {
  if (current_.empty() || changes.empty()) return Status();
  KKADM_RETURN_IF_ERROR(GoLive());
  for (const Making& made : changes) {
    KeepBack({{"record", made.change == Change::kReplacedFile ? "replacing" : "created"},
              {"command", command_},
              {"phase", current_},
              {"type", made.change == Change::kNewDirectory ? "dir" : "file"},
              {"path", made.path}});
  }
  return WriteKeptBack();
}

void Journal::Wrote(const std::string& path, std::string_view data, unsigned mode) {
  if (current_.empty()) return;
  Removed(path);
  current_files_.push_back(FileOutput{path, util::Sha256Hex(data), mode});
}

void Journal::Removed(const std::string& path) {
  std::erase_if(current_files_, [&](const FileOutput& file) { return file.path == path; });
}

Status Journal::UnitChanged(const std::string& unit, bool enabled) {
  if (current_.empty()) return Status();
  KKADM_RETURN_IF_ERROR(GoLive());
  return Append({{"record", "unit"},
                 {"command", command_},
                 {"phase", current_},
                 {"change", enabled ? "enabled" : "started"},
                 {"unit", unit}});
}

Status Journal::ObjectChanged(const std::string& verb, const std::string& path) {
  if (current_.empty()) return Status();
  KKADM_RETURN_IF_ERROR(GoLive());
  return Append({{"record", "object"},
                 {"command", command_},
                 {"phase", current_},
                 {"verb", verb},
                 {"path", path}});
}

Status Journal::EtcdMemberWasAdded(const EtcdMemberAdded& member) {
  if (current_.empty()) return Status();
  KKADM_RETURN_IF_ERROR(GoLive());
  return Append({{"record", "etcd-member"},
                 {"command", command_},
                 {"phase", current_},
                 {"id", member.id},
                 {"name", member.name},
                 {"peerURL", member.peer_url}});
}

void Journal::PhaseEnded(PhaseState state, const std::string& error) {
  if (current_.empty()) return;
  nlohmann::json files = nlohmann::json::array();
  for (const auto& file : current_files_) {
    files.push_back({{"path", file.path}, {"sha256", file.sha256}, {"mode", file.mode}});
  }
  nlohmann::json record = {{"record", "phase"}, {"command", command_},
                           {"phase", current_}, {"state", StateName(state)},
                           {"time", Now()},     {"files", std::move(files)}};
  if (!error.empty()) record["error"] = util::RedactSecretWords(error);
  ended_.push_back(std::move(record));
  current_.clear();
  current_files_.clear();
}

Status Journal::PhaseSkipped(const std::string& path) {
  KeepBack({{"record", "phase"},
            {"command", command_},
            {"phase", path},
            {"state", "skipped"},
            {"time", Now()}});
  return Status();
}

Status Journal::Flush() {
  KKADM_RETURN_IF_ERROR(fs_.Sync());
  // Nothing was made (a journal not live), or nothing ended: no record needs to be durable.
  const bool ended = !ended_.empty();
  for (auto& record : ended_) KeepBack(std::move(record));
  ended_.clear();
  if (!live_ || kept_back_.empty()) return Status();
  KKADM_RETURN_IF_ERROR(WriteKeptBack());
  return ended ? fs_.Sync() : Status();
}

}  // namespace kkadm::phases::journal
