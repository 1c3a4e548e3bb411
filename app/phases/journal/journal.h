// Journal: the node's record of what kkadm did to it (/var/lib/kkadm/journal): each command run
// and, per phase, its state, the inputs it ran with and what it made: files (path, SHA-256, mode),
// directories, systemd units, API objects, etcd members. A command reads it first to know what need
// not run again and what an interrupted attempt left behind; reset reads it to undo exactly that.
// Secrets never reach it: a secret input is kept as its hash, a file's content as its hash.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/clock.h"
#include "app/util/file_system.h"
#include "app/util/record_log.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases::journal {

// kkadm's own state on the node: kept across boots, and the live status of a running command.
inline constexpr char kStateDir[] = "/var/lib/kkadm";
inline constexpr char kJournalPath[] = "/var/lib/kkadm/journal";
inline constexpr char kRunDir[] = "/run/kkadm";
inline constexpr char kStatusPath[] = "/run/kkadm/status.json";

enum class PhaseState { kStarted, kDone, kFailed, kSkipped };
std::string_view StateName(PhaseState state);

struct FileOutput {
  std::string path;
  std::string sha256;
  unsigned mode = 0;
};

// An API object a phase created or changed: its first change in the phase ("create", "update",
// "patch" or "delete") and its resource path.
struct ObjectChange {
  std::string verb;
  std::string path;  // "/api/v1/namespaces/kube-system/configmaps/kubeadm-config"
};

// An etcd member a phase added to the cluster (a joining control-plane node's).
struct EtcdMemberAdded {
  std::string id;  // etcd's member ID, in hex as etcdctl shows it
  std::string name;
  std::string peer_url;
};

// What the journal says of one phase of one command: its last attempt, and what every attempt
// since the node's last reset created.
struct PhaseRecord {
  std::string command;  // "init", "join", "reset"
  std::string path;     // "certs/ca"
  PhaseState state = PhaseState::kStarted;
  std::string started, ended;  // RFC 3339 with milliseconds; ended empty while started
  std::string error;
  std::string fingerprint;                   // of the inputs, see fingerprint.h
  std::vector<workflow::PhaseInput> inputs;  // a secret's value is its hash
  // Written by the last attempt that finished, unless a later phase wrote them since.
  std::vector<FileOutput> files;
  std::vector<std::string> created_files;  // absent before an attempt wrote them
  std::vector<std::string> created_dirs;   // absent before an attempt made them
  // What the last attempt created, and the files it began to replace: an attempt that did not
  // finish is undone before the next (what it created removed, its temporary files too).
  std::vector<std::string> attempt_files;
  std::vector<std::string> attempt_dirs;
  std::vector<std::string> attempt_replaced;
  // The last attempt reached beyond the node's files: it started or enabled a unit, changed an API
  // object or added an etcd member. Removing its files would not undo that, only break what it
  // started (an etcd member's manifest): such an attempt is run again as it is, never undone.
  bool attempt_beyond_files = false;
  std::vector<std::string> units_enabled;  // not enabled before an attempt enabled them
  std::vector<std::string> units_started;
  std::vector<ObjectChange> objects;          // by every attempt, each object once
  std::vector<EtcdMemberAdded> etcd_members;  // by every attempt
};

struct RunRecord {
  std::string command;
  std::string version;  // kkadm's
  std::string boot_id;  // /proc/sys/kernel/random/boot_id
  std::string started;
};

// The journal's records folded into what they say now.
struct JournalState {
  std::vector<RunRecord> runs;
  std::vector<PhaseRecord> phases;  // in the order first recorded
  int ignored_records = 0;          // torn or damaged lines, left out

  const PhaseRecord* Find(std::string_view command, std::string_view path) const;
};

class Journal {
 public:
  // `fs` is the node's file system as the journal's own writes must reach it: not the recording
  // one phases write through (recording_file_system.h).
  Journal(util::FileSystem& fs, util::Clock& clock);

  // Reads the node's journal (none yet: an empty state).
  Status Load();
  const JournalState& state() const { return state_; }

  Status BeginRun(const std::string& command, const std::string& version,
                  const std::string& boot_id);

  // The phase now running: what is made until PhaseEnded is its. Kept back and appended with the
  // phase's first record that must be on the node at once (WillWrite, UnitChanged, ...), or at
  // Flush: one write less per phase, and a phase killed before it changed anything had nothing
  // to undo.
  Status PhaseStarted(const std::string& path, const std::string& fingerprint,
                      const std::vector<workflow::PhaseInput>& inputs);
  // Before a file or directory is made or a file replaced: appended at once, so that a crash
  // right after still leaves the record of what an unfinished attempt touched. WillMake appends
  // several (a file and the directories made for it) with one write.
  enum class Change { kNewFile, kNewDirectory, kReplacedFile };
  struct Making {
    std::string path;
    Change change;
  };
  Status WillWrite(const std::string& path, Change change) { return WillMake({{path, change}}); }
  Status WillMake(const std::vector<Making>& changes);
  // After a write: the file's content as the phase left it (its hash is kept).
  void Wrote(const std::string& path, std::string_view data, unsigned mode);
  void Removed(const std::string& path);
  // After systemd enabled (it was not before) or started a unit.
  Status UnitChanged(const std::string& unit, bool enabled);
  // After the API server accepted a change of an object.
  Status ObjectChanged(const std::string& verb, const std::string& path);
  // After etcd added a member for this node.
  Status EtcdMemberWasAdded(const EtcdMemberAdded& member);
  // Ends the current phase. Kept back until its files are durable: Flush appends it.
  void PhaseEnded(PhaseState state, const std::string& error);
  // A phase of this command that was not run (its run condition said no, --skip-phases).
  Status PhaseSkipped(const std::string& path);
  // Makes the node's files durable (FileSystem::Sync), then appends the phases ended since and
  // makes those records durable too: a phase is recorded done only once what it made is on disk.
  Status Flush();

  const std::string& current_phase() const { return current_; }
  // The files the running phase wrote so far, as it left them (post-phase hooks are told them).
  const std::vector<FileOutput>& current_files() const { return current_files_; }
  // Whether the journal is on the node: it was there when loaded, or this run changed the node.
  // Until a phase first makes something, records are kept back: a run that changes nothing (a
  // join refused by preflight) leaves no journal.
  bool live() const { return live_; }
  // Called once, when the journal goes live: whoever publishes the run's status can start then,
  // in the middle of the first phase that changes the node.
  void OnLive(std::function<void()> callback) { on_live_ = std::move(callback); }
  // The journal's time now: RFC 3339 with milliseconds.
  std::string Now() const;

 private:
  // Folds `record` into state_ and keeps it back; Append then writes what was kept back (once
  // the journal is live), with one write.
  void KeepBack(nlohmann::json record);
  Status Append(nlohmann::json record);
  Status WriteKeptBack();
  Status GoLive();
  void Apply(const nlohmann::json& record);
  void ApplyMade(PhaseRecord& phase, const std::string& kind, const nlohmann::json& record);
  void ApplyPhaseState(PhaseRecord& phase, const nlohmann::json& record);
  PhaseRecord& Record(const std::string& command, const std::string& path);

  util::FileSystem& fs_;
  util::Clock& clock_;
  util::RecordLog log_;
  JournalState state_;
  std::string command_;
  std::string current_;  // the running phase's path; empty between phases
  std::vector<FileOutput> current_files_;
  std::vector<nlohmann::json> ended_;      // awaiting Flush
  std::vector<nlohmann::json> kept_back_;  // until the next Append, or the journal is live
  bool live_ = false;
  std::function<void()> on_live_;
};

}  // namespace kkadm::phases::journal
