// Patcher: one command's --patches directory (kubeadm's PatchManager), read when a phase that
// patches first needs it and applied to each object just before it is written.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "app/util/patches/patch_set.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::util::patches {

class Patcher {
 public:
  // No patches: Apply returns every object as it is, Check finds nothing, nothing is printed.
  Patcher() = default;
  // The patches of the host directory `dir` (user input, like --config), read on first use, as
  // kubeadm reads its directory only in a phase that patches: a command whose phases patch nothing
  // never reads it. kubeadm's lines go to `out`, which must outlive the Patcher.
  Patcher(std::string dir, Printer& out);
  // Patches already read from `dir`.
  Patcher(std::string dir, PatchSet set, Printer& out);

  // Applies the patches of `target` (a known target, patch_set.h) in order. With a directory, the
  // first call prints kubeadm's "[patches] Reading patches from path ..." lines, as kubeadm's
  // first use of its PatchManager does, whether or not `target` has patches; each patch applied
  // prints "[patches] Applied patch of type "<media type>" to target "<target>"". Errors: the
  // directory's (ReadPatchDirectory: a missing directory, an unknown target or patch type, a patch
  // that does not parse), or ApplyPatches's, each naming the directory or file at fault.
  Result<nlohmann::json> Apply(std::string_view target, nlohmann::json object) const;

  // Checks, printing nothing and keeping nothing, that the patches of `target` apply to the object
  // `build` makes: a phase runs this before any file of its command is written. `build` is called
  // only when `target` has patches. Errors: Apply's, and `build`'s.
  Status Check(std::string_view target, const std::function<Result<nlohmann::json>()>& build) const;

  // What the patches of each target that has any say, for the journal's record of a phase's
  // inputs: target -> "sha256:<hex>" of their types and bodies in order. None without a
  // directory. A directory that cannot be read counts as a change of every target: its error's
  // hash (the phase that patches reports the error) stands for each.
  std::map<std::string, std::string> Fingerprints() const;

 private:
  // Shared by copies of a Patcher, so that the directory is read and described once between them.
  struct State {
    std::optional<Result<PatchSet>> set;  // empty until first use
    bool described = false;
  };
  Result<const PatchSet*> Set() const;

  std::string dir_;
  Printer* out_ = nullptr;
  std::shared_ptr<State> state_ = std::make_shared<State>();
};

}  // namespace kkadm::util::patches
