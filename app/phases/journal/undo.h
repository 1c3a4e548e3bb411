// Undo: how `kkadm reset` takes away what the node's journal says kkadm made (the units it started
// or enabled, the files and directories it created) and nothing that was there before it. Every
// change goes through the seams it is given, so with the dry run's it changes nothing and they say
// what would be done. It returns what it removed, what it kept on purpose and why, and what it
// could not remove.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/phases/journal/journal.h"
#include "app/util/file_system.h"
#include "app/util/init_system.h"
#include "app/util/printer.h"
#include "app/util/tree_remover.h"

namespace kkadm::phases::journal {

// What the journal says kkadm made on the node, over every command but reset itself.
struct MadeByKkadm {
  std::vector<std::string> files;             // absent before kkadm wrote them
  std::vector<std::string> dirs;              // absent before kkadm made them, parents first
  std::vector<std::string> replaced;          // there before kkadm, which wrote over them
  std::map<std::string, std::string> sha256;  // a file's content as kkadm last left it
  std::vector<std::string> units_started;     // in the order started
  std::vector<std::string> units_enabled;     // not enabled before kkadm enabled them
  std::vector<std::string> etcd_data_dirs;    // etcd.local.dataDir, as the phases read it

  bool MadeDir(const std::string& path) const;
  bool HasUnits() const { return !units_started.empty() || !units_enabled.empty(); }
};

MadeByKkadm WhatKkadmMade(const JournalState& state);

struct UndoItem {
  std::string path;  // a node path, or a unit
  std::string reason;
};

// A directory that a component kkadm set up fills with state of its own, which the journal does
// not list: the local etcd's data directory, the kubelet's /var/lib/kubelet.
struct ComponentDir {
  std::string path;
  std::string what;  // "the etcd data directory"
};

struct UndoScope {
  // Emptied, as kubeadm's reset empties them, when kkadm created them; otherwise kept as they are.
  std::vector<ComponentDir> components;
  // Not entered at all: a mount is still below it (the caller has said so).
  std::vector<std::string> spared;
  // Files a component kkadm started wrote outside its directory, which the journal does not list:
  // the kubeconfig of the kubelet's TLS bootstrap (/etc/kubernetes/kubelet.conf). Removed, as
  // kubeadm's reset removes them.
  std::vector<std::string> component_files;
};

struct UndoReport {
  std::vector<std::string> stopped, disabled;  // units
  std::vector<std::string> files, dirs;        // removed
  std::vector<ComponentDir> emptied;           // component directories whose contents went
  std::vector<std::string> state;              // kkadm's own state directories, removed
  std::vector<std::string> changed;            // removed, though changed since kkadm wrote them
  std::vector<UndoItem> kept;                  // left on purpose: not kkadm's, or not only
  std::vector<UndoItem> failed;                // could not be undone
};

// Stops the units kkadm started (the last started first) and disables those it enabled. A unit
// that is not there any more is fine. When the journal records no unit, not a single call is
// made: a node root where kkadm never started anything needs no service manager.
void UndoUnits(const MadeByKkadm& made, util::InitSystem& init, UndoReport& report);

// Removes, in this order: the temporary files of writes kkadm began; the files it created (one
// changed since is removed too, and listed); the contents of the component directories it
// created; the directories it created, deepest first, each only when nothing else is left in it;
// then its own state (/run/kkadm, /var/lib/kkadm, last, so that an interrupted reset still has
// the journal to work from) and the directories it created that held only that. Never follows a
// symbolic link: a path below one is listed as failed. Files that were there before kkadm are
// kept and listed. Idempotent: what is gone already is fine.
void UndoFiles(const MadeByKkadm& made, const UndoScope& scope, util::FileSystem& fs,
               util::TreeRemover& remover, UndoReport& report);

// Reloads the service manager once unit files or drop-ins kkadm wrote were removed, so that it
// forgets them; only when the journal records units (otherwise systemd never saw them).
void ReloadUnits(const MadeByKkadm& made, util::InitSystem& init, UndoReport& report);

// "[reset] Deleted the files kkadm made: [...]" and the like for what `report` says went (in a
// dry run: "Would delete ...").
void SayUndone(const UndoReport& report, bool dry_run, util::Printer& out);

}  // namespace kkadm::phases::journal
