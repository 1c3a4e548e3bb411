// Patcher (see patcher.h).
#include "app/util/patches/patcher.h"

#include "app/util/crypto.h"
#include "app/util/patches/patch_dir.h"

namespace kkadm::util::patches {

Patcher::Patcher(std::string dir, Printer& out) : dir_(std::move(dir)), out_(&out) {}

Patcher::Patcher(std::string dir, PatchSet set, Printer& out) : Patcher(std::move(dir), out) {
  state_->set = std::move(set);
}

Result<const PatchSet*> Patcher::Set() const {
  if (!state_->set) state_->set = ReadPatchDirectory(dir_);
  if (!state_->set->has_value()) return state_->set->error();
  return &state_->set->value();
}

Result<nlohmann::json> Patcher::Apply(std::string_view target, nlohmann::json object) const {
  if (out_ == nullptr) return object;
  Result<const PatchSet*> set = Set();
  if (!set) return set.error();
  if (!state_->described) {
    state_->described = true;
    for (const std::string& line : DescribePatchSet(**set, dir_)) out_->Raw(line + "\n");
  }
  Result<PatchedObject> patched = ApplyPatches(**set, target, std::move(object));
  if (!patched) return patched.error();
  for (const std::string& line : patched->messages) out_->Raw(line + "\n");
  out_->stream().flush();
  return std::move(patched->object);
}

Status Patcher::Check(std::string_view target,
                      const std::function<Result<nlohmann::json>()>& build) const {
  if (out_ == nullptr) return Status::Ok();
  Result<const PatchSet*> set = Set();
  if (!set) return set.error();
  if ((*set)->by_target.count(std::string(target)) == 0) return Status::Ok();
  Result<nlohmann::json> object = build();
  if (!object) return object.error();
  return ApplyPatches(**set, target, std::move(*object)).status();
}

std::map<std::string, std::string> Patcher::Fingerprints() const {
  std::map<std::string, std::string> fingerprints;
  if (out_ == nullptr) return fingerprints;
  Result<const PatchSet*> set = Set();
  if (!set) {
    for (const std::string& target : KnownPatchTargets()) {
      // The error may quote a patch (a value of an argument, an environment variable): only its
      // hash is kept.
      fingerprints[target] = "unreadable:sha256:" + Sha256Hex(set.error().message());
    }
    return fingerprints;
  }
  for (const auto& [target, patches] : (*set)->by_target) {
    nlohmann::json canonical = nlohmann::json::array();
    for (const Patch& patch : patches) {
      canonical.push_back({static_cast<int>(patch.type), patch.body});
    }
    fingerprints[target] = "sha256:" + Sha256Hex(canonical.dump());
  }
  return fingerprints;
}

}  // namespace kkadm::util::patches
