// What changed on the node since a phase recorded its files: each file missing, or no longer the
// content or mode the phase left; and so what of kkadm's recorded work is still as it left it.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "app/phases/journal/journal.h"
#include "app/phases/own_work.h"
#include "app/util/file_system.h"

namespace kkadm::phases::journal {

struct FileDrift {
  enum class Kind { kMissing, kChanged };
  std::string path;
  Kind kind = Kind::kChanged;
};

// The recorded files of `record` that are missing or changed (content or mode), in its order,
// leaving out `rewriting`: files kkadm itself began to rewrite in an attempt that did not finish.
std::vector<FileDrift> FindDrift(const util::FileSystem& fs, const PhaseRecord& record,
                                 const std::set<std::string>& rewriting = {});

// The files the unfinished attempts of `state`'s phases began to write or replace. Such a phase
// runs again and writes them anew; until then a change of them is kkadm's own (kubelet-finalize
// killed after it replaced the kubelet.conf the kubeconfig phase wrote), not someone else's.
std::set<std::string> RewritingFiles(const JournalState& state);

// The drift of a recorded phase's files, as FindDrift finds it (its caller may keep it).
using DriftOf = std::function<const std::vector<FileDrift>&(const PhaseRecord&)>;

// What the journal records `command` ("init", "join") made on the node: the files still as it
// left them (not in `drift_of` their phase's drift), the directories it made that are still
// there, the units it enabled or started. Only that command's: a join on a node init set up
// repeats none of init's work.
OwnWork RecordedWork(const util::FileSystem& fs, const JournalState& state,
                     const std::string& command, const DriftOf& drift_of);

}  // namespace kkadm::phases::journal
