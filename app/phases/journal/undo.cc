// Undo: the journal folded into what kkadm made, and its removal through the seams.
#include "app/phases/journal/undo.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "app/util/crypto.h"
#include "app/util/strings.h"

namespace kkadm::phases::journal {
namespace {

constexpr char kEtcdDataDirInput[] = "etcd.local.dataDir";
// A file this large is not one kkadm wrote (certificates, kubeconfigs, manifests): changed.
constexpr std::uintmax_t kLargestWritten = 16u << 20;
constexpr std::size_t kNamesShown = 5;

bool IsListed(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

void AppendUnique(std::vector<std::string>& list, const std::string& item) {
  if (!IsListed(list, item)) list.push_back(item);
}

// Whether `path` is `dir` or lies below it.
bool AtOrBelow(const std::string& path, const std::string& dir) {
  if (dir == "/") return true;
  return path.starts_with(dir) && (path.size() == dir.size() || path[dir.size()] == '/');
}

std::string ChildPath(const std::string& dir, const std::string& name) {
  return (dir == "/" ? "" : dir) + "/" + name;
}

std::string LastComponent(const std::string& path) {
  return path.substr(path.find_last_of('/') + 1);
}

// "a, b, c": at most a few names, then how many more.
std::string SomeNames(const std::vector<std::string>& names) {
  std::vector<std::string> shown(names.begin(),
                                 names.begin() + std::min(names.size(), kNamesShown));
  std::string text = util::Join(shown, ", ");
  if (names.size() > kNamesShown) text += fmt::format(" and {} more", names.size() - kNamesShown);
  return text;
}

std::string_view TypeName(util::FileType type) {
  switch (type) {
    case util::FileType::kRegular:
      return "a file";
    case util::FileType::kDirectory:
      return "a directory";
    case util::FileType::kSymlink:
      return "a symbolic link";
    case util::FileType::kOther:
      break;
  }
  return "something else";
}

// Removes what kkadm made below the node's root, in UndoFiles' order, keeping what is not its.
class FileUndo {
 public:
  FileUndo(const MadeByKkadm& made, const UndoScope& scope, util::FileSystem& fs,
           util::TreeRemover& remover, UndoReport& report)
      : made_(made), scope_(scope), fs_(fs), remover_(remover), report_(report) {}

  void Run() {
    RemoveTempFiles();
    for (const std::string& path : made_.files) RemoveFile(path, true);
    for (const std::string& path : scope_.component_files) RemoveFile(path, false);
    KeepReplaced();
    EmptyComponents();
    RemoveDirs(false);
    RemoveState();
    RemoveDirs(true);
  }

 private:
  void Fail(const std::string& path, std::string reason) {
    report_.failed.push_back({path, std::move(reason)});
  }
  void Keep(const std::string& path, std::string reason) {
    report_.kept.push_back({path, std::move(reason)});
  }
  bool Spared(const std::string& path) const {
    return std::any_of(scope_.spared.begin(), scope_.spared.end(),
                       [&](const std::string& dir) { return AtOrBelow(path, dir); });
  }
  // Whether `dir` holds kkadm's own state, which goes last.
  static bool HoldsState(const std::string& dir) {
    return AtOrBelow(kStateDir, dir) || AtOrBelow(kRunDir, dir);
  }

  // The nearest directory above `path` that is a symbolic link; empty when there is none.
  std::string LinkAbove(const std::string& path) {
    for (std::string dir = util::ParentDirectory(path); dir != "/";
         dir = util::ParentDirectory(dir)) {
      auto known = is_link_.find(dir);
      if (known == is_link_.end()) {
        Result<util::FileInfo> info = fs_.Stat(dir);
        known = is_link_.emplace(dir, info && info->type == util::FileType::kSymlink).first;
      }
      if (known->second) return dir;
    }
    return "";
  }

  // The node's entry at `path` when it is there and may be removed; otherwise says why not.
  std::optional<util::FileInfo> Removable(const std::string& path) {
    Result<util::FileInfo> info = fs_.Stat(path);
    if (!info) {
      if (info.error().code() != StatusCode::kNotFound) {
        Fail(path, "could not be examined: " + info.error().message());
      }
      return std::nullopt;
    }
    if (std::string link = LinkAbove(path); !link.empty()) {
      Fail(path, fmt::format("is below the symbolic link {}; not followed, so not removed", link));
      return std::nullopt;
    }
    return *info;
  }

  bool ChangedSinceWritten(const std::string& path, const util::FileInfo& info) const {
    auto recorded = made_.sha256.find(path);
    if (recorded == made_.sha256.end() || info.type != util::FileType::kRegular) return false;
    if (info.size > kLargestWritten) return true;
    Result<std::string> data = fs_.ReadFile(path);
    return data && util::Sha256Hex(*data) != recorded->second;
  }

  void RemoveFile(const std::string& path, bool check_content) {
    if (gone_.contains(path) || Spared(path)) return;
    std::optional<util::FileInfo> info = Removable(path);
    if (!info) return;
    if (info->type == util::FileType::kDirectory) {
      Keep(path, "kkadm made a file here, but it is a directory now: not removed");
      return;
    }
    const bool changed = check_content && ChangedSinceWritten(path, *info);
    if (Status removed = fs_.Remove(path); !removed.ok()) {
      Fail(path, "could not be removed: " + removed.message());
      return;
    }
    if (changed) report_.changed.push_back(path);
    gone_.insert(path);
    report_.files.push_back(path);
  }

  // What a write kkadm began and never finished left beside its file (it may hold a key).
  void RemoveTempFiles() {
    std::map<std::string, std::vector<std::string>> prefixes;  // by directory
    for (const auto* list : {&made_.files, &made_.replaced}) {
      for (const std::string& path : *list) {
        prefixes[util::ParentDirectory(path)].push_back(util::TempFilePrefix(LastComponent(path)));
      }
    }
    for (const auto& [dir, starts] : prefixes) {
      if (Spared(dir)) continue;
      Result<std::vector<std::string>> names = fs_.ListDir(dir);
      if (!names) continue;
      for (const std::string& name : *names) {
        if (std::any_of(starts.begin(), starts.end(),
                        [&](const std::string& start) { return name.starts_with(start); })) {
          RemoveFile(ChildPath(dir, name), false);
        }
      }
    }
  }

  void KeepReplaced() {
    for (const std::string& path : made_.replaced) {
      if (fs_.Exists(path)) {
        Keep(path,
             "was there before kkadm, which wrote over it: kept as it is now (the journal "
             "keeps no earlier content to put back)");
      }
    }
  }

  // The entries of `dir` that this undo has not removed; an error when it cannot be listed.
  Result<std::vector<std::string>> Remaining(const std::string& dir) const {
    if (emptied_.contains(dir)) return std::vector<std::string>{};
    Result<std::vector<std::string>> names = fs_.ListDir(dir);
    if (!names) return names.error();
    std::erase_if(*names,
                  [&](const std::string& name) { return gone_.contains(ChildPath(dir, name)); });
    return names;
  }

  // Entries of `dir` that are not listed already as kept or failed: what makes it worth a word.
  std::vector<std::string> Unexplained(const std::string& dir,
                                       const std::vector<std::string>& names) const {
    std::vector<std::string> left;
    for (const std::string& name : names) {
      const std::string path = ChildPath(dir, name);
      auto listed = [&](const UndoItem& item) { return AtOrBelow(item.path, path); };
      if (std::none_of(report_.kept.begin(), report_.kept.end(), listed) &&
          std::none_of(report_.failed.begin(), report_.failed.end(), listed)) {
        left.push_back(name);
      }
    }
    return left;
  }

  void EmptyComponents() {
    std::set<std::string> seen;
    for (const ComponentDir& component : scope_.components) {
      if (!seen.insert(component.path).second || Spared(component.path)) continue;
      Result<util::FileInfo> info = fs_.Stat(component.path);
      if (!info || info->type != util::FileType::kDirectory) continue;
      if (!made_.MadeDir(component.path)) {
        Result<std::vector<std::string>> left = Remaining(component.path);
        if (left && !left->empty()) {
          Keep(component.path,
               fmt::format("{} was there before kkadm: what is in it is kept, since kkadm cannot "
                           "tell what the component wrote from what was there before ({})",
                           component.what, SomeNames(*left)));
        }
        continue;
      }
      if (!Removable(component.path)) continue;
      std::vector<util::RemovalFailure> failures = remover_.CleanDirectory(component.path);
      for (const util::RemovalFailure& failure : failures) Fail(failure.path, failure.reason);
      if (!failures.empty()) continue;
      emptied_.insert(component.path);
      report_.emptied.push_back(component);
    }
  }

  void RemoveDir(const std::string& dir) {
    std::optional<util::FileInfo> info = Removable(dir);
    if (!info) return;
    if (info->type != util::FileType::kDirectory) {
      Keep(dir, fmt::format("kkadm made a directory here, but it is {} now: not removed",
                            TypeName(info->type)));
      return;
    }
    Result<std::vector<std::string>> left = Remaining(dir);
    if (!left) {
      Fail(dir, "could not be listed: " + left.error().message());
      return;
    }
    if (!left->empty()) {
      std::vector<std::string> unexplained = Unexplained(dir, *left);
      if (!unexplained.empty()) {
        Keep(dir, "kkadm made this directory, but it holds what kkadm did not make: " +
                      SomeNames(unexplained));
      }
      return;
    }
    if (Status removed = fs_.Remove(dir); !removed.ok()) {
      Fail(dir, "could not be removed: " + removed.message());
      return;
    }
    gone_.insert(dir);
    report_.dirs.push_back(dir);
  }

  // The directories kkadm made, deepest first; those that hold its own state only once that
  // is gone (`holding_state`).
  void RemoveDirs(bool holding_state) {
    std::vector<std::string> dirs = made_.dirs;
    std::stable_sort(dirs.begin(), dirs.end(), [](const std::string& a, const std::string& b) {
      return std::count(a.begin(), a.end(), '/') > std::count(b.begin(), b.end(), '/');
    });
    for (const std::string& dir : dirs) {
      if (HoldsState(dir) != holding_state || gone_.contains(dir) || Spared(dir)) continue;
      RemoveDir(dir);
    }
  }

  void RemoveState() {
    for (const char* dir : {kRunDir, kStateDir}) {
      if (!fs_.Exists(dir)) continue;
      std::vector<util::RemovalFailure> failures = remover_.RemovePath(dir);
      for (const util::RemovalFailure& failure : failures) Fail(failure.path, failure.reason);
      if (!failures.empty()) continue;
      gone_.insert(dir);
      report_.state.push_back(dir);
    }
  }

  const MadeByKkadm& made_;
  const UndoScope& scope_;
  util::FileSystem& fs_;
  util::TreeRemover& remover_;
  UndoReport& report_;
  std::set<std::string> gone_;     // removed by this undo
  std::set<std::string> emptied_;  // component directories emptied by it
  std::map<std::string, bool> is_link_;
};

}  // namespace

bool MadeByKkadm::MadeDir(const std::string& path) const { return IsListed(dirs, path); }

MadeByKkadm WhatKkadmMade(const JournalState& state) {
  MadeByKkadm made;
  std::vector<std::string> written;
  for (const PhaseRecord& phase : state.phases) {
    if (phase.command == "reset") continue;
    for (const std::string& path : phase.created_files) AppendUnique(made.files, path);
    for (const std::string& path : phase.created_dirs) AppendUnique(made.dirs, path);
    for (const std::string& path : phase.attempt_replaced) AppendUnique(written, path);
    for (const FileOutput& file : phase.files) {
      AppendUnique(written, file.path);
      made.sha256[file.path] = file.sha256;
    }
    for (const std::string& unit : phase.units_started) AppendUnique(made.units_started, unit);
    for (const std::string& unit : phase.units_enabled) AppendUnique(made.units_enabled, unit);
    for (const workflow::PhaseInput& input : phase.inputs) {
      if (input.name == kEtcdDataDirInput && input.value.starts_with("/")) {
        AppendUnique(made.etcd_data_dirs, input.value);
      }
    }
  }
  for (const std::string& path : written) {
    if (!IsListed(made.files, path)) made.replaced.push_back(path);
  }
  return made;
}

void UndoUnits(const MadeByKkadm& made, util::InitSystem& init, UndoReport& report) {
  for (auto unit = made.units_started.rbegin(); unit != made.units_started.rend(); ++unit) {
    Status stopped = init.Stop(*unit);
    if (stopped.ok()) {
      report.stopped.push_back(*unit);
    } else if (stopped.code() != StatusCode::kNotFound) {
      report.failed.push_back({*unit, fmt::format("could not be stopped: {}; stop it by hand "
                                                  "('systemctl stop {}')",
                                                  stopped.message(), *unit)});
    }
  }
  for (const std::string& unit : made.units_enabled) {
    Status disabled = init.Disable(unit);
    if (disabled.ok()) {
      report.disabled.push_back(unit);
    } else if (disabled.code() != StatusCode::kNotFound) {
      report.failed.push_back({unit, fmt::format("could not be disabled: {}; disable it by hand "
                                                 "('systemctl disable {}')",
                                                 disabled.message(), unit)});
    }
  }
}

void UndoFiles(const MadeByKkadm& made, const UndoScope& scope, util::FileSystem& fs,
               util::TreeRemover& remover, UndoReport& report) {
  FileUndo(made, scope, fs, remover, report).Run();
}

void ReloadUnits(const MadeByKkadm& made, util::InitSystem& init, UndoReport& report) {
  const bool unit_files_went =
      std::any_of(report.files.begin(), report.files.end(),
                  [](const std::string& path) { return path.find("/systemd/") != path.npos; });
  if (!made.HasUnits() || !unit_files_went) return;
  if (Status reloaded = init.DaemonReload(); !reloaded.ok()) {
    report.failed.push_back(
        {"systemd", "could not reload its configuration once kkadm's unit files were removed: " +
                        reloaded.message() + "; run 'systemctl daemon-reload'"});
  }
}

void SayUndone(const UndoReport& report, bool dry_run, util::Printer& out) {
  const std::string_view verb = dry_run ? "Would delete" : "Deleted";
  if (!report.files.empty()) {
    out.Line("reset", fmt::format("{} the files kkadm made: {}", verb, util::GoList(report.files)));
  }
  for (const ComponentDir& component : report.emptied) {
    out.Line("reset", fmt::format("{} contents of {}: {}", verb, component.what, component.path));
  }
  if (!report.dirs.empty()) {
    out.Line("reset",
             fmt::format("{} the directories kkadm made: {}", verb, util::GoList(report.dirs)));
  }
  if (!report.state.empty()) {
    out.Line("reset",
             fmt::format("{} kkadm's record of this node: {}", verb, util::GoList(report.state)));
  }
}

}  // namespace kkadm::phases::journal
