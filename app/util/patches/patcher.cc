// Patcher (see patcher.h).
#include "app/util/patches/patcher.h"

#include "app/util/patches/patch_dir.h"

namespace kkadm::util::patches {

Patcher::Patcher(std::string path, PatchSet set, Printer& out)
    : path_(std::move(path)), set_(std::move(set)), out_(&out) {}

bool Patcher::Patches(std::string_view target) const {
  return set_.by_target.count(std::string(target)) != 0;
}

Result<nlohmann::json> Patcher::Apply(std::string_view target, nlohmann::json object) const {
  if (out_ == nullptr) return object;
  if (!*described_) {
    *described_ = true;
    for (const std::string& line : DescribePatchSet(set_, path_)) out_->Raw(line + "\n");
  }
  Result<PatchedObject> patched = ApplyPatches(set_, target, std::move(object));
  if (!patched) return patched.error();
  for (const std::string& line : patched->messages) out_->Raw(line + "\n");
  out_->stream().flush();
  return std::move(patched->object);
}

Status Patcher::Check(std::string_view target, const nlohmann::json& object) const {
  if (!Patches(target)) return Status::Ok();
  return ApplyPatches(set_, target, object).status();
}

Result<Patcher> LoadPatcher(const std::string& dir, Printer& out) {
  if (dir.empty()) return Patcher();
  Result<PatchSet> set = ReadPatchDirectory(dir);
  if (!set) return set.error();
  return Patcher(dir, std::move(*set), out);
}

}  // namespace kkadm::util::patches
