// Patcher: one command's --patches directory (kubeadm's PatchManager), read once before any phase
// runs and applied to each object just before it is written.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "app/util/patches/patch_set.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::util::patches {

class Patcher {
 public:
  // No patches: Apply returns every object as it is and prints nothing.
  Patcher() = default;
  // The patches read from `path`; kubeadm's lines go to `out`, which must outlive the Patcher.
  Patcher(std::string path, PatchSet set, Printer& out);

  // Applies the patches of `target` (a known target, patch_set.h) in order. With a directory, the
  // first call prints kubeadm's "[patches] Reading patches from path ..." lines, as kubeadm's
  // first use of its PatchManager does, whether or not `target` has patches; each patch applied
  // prints "[patches] Applied patch of
  // type "<media type>" to target "<target>"". Errors: ApplyPatches's, naming the patch file.
  Result<nlohmann::json> Apply(std::string_view target, nlohmann::json object) const;

  // Whether `target` has any patch.
  bool Patches(std::string_view target) const;

  // Applies the patches of `target` to `object` without printing or keeping the result: a phase
  // checks before anything is written that its patches will apply. Errors: as Apply.
  Status Check(std::string_view target, const nlohmann::json& object) const;

 private:
  std::string path_;
  PatchSet set_;
  Printer* out_ = nullptr;
  // Shared so that copies of a Patcher print the "Reading patches" lines once between them.
  std::shared_ptr<bool> described_ = std::make_shared<bool>(false);
};

// The Patcher for a command: no patches when `dir` is empty, else ReadPatchDirectory(dir) (a host
// path, like --config). Errors name the directory or the file at fault: a missing directory, an
// unknown target, an unknown patch type, a patch that does not parse.
Result<Patcher> LoadPatcher(const std::string& dir, Printer& out);

}  // namespace kkadm::util::patches
