// kubeadm's `--patches DIR`: patch files named target[suffix][+patchtype].{json,yaml}, loaded into
// a PatchSet and applied (last) to static Pod manifests, the KubeletConfiguration and CoreDNS.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/patch_type.h"
#include "app/util/status.h"

namespace kkadm::util::patches {

// The targets kubeadm knows, in its order: etcd, kube-apiserver, kube-controller-manager,
// kube-scheduler, kubeletconfiguration, corednsdeployment.
const std::vector<std::string>& KnownPatchTargets();

struct PatchFileName {
  std::string target;  // a known target
  std::string suffix;  // free text between target and "+type"/extension, e.g. "0" in etcd0.yaml
  PatchType type = PatchType::kStrategic;
};

// Parses a base name such as "kube-apiserver0+json.yaml". The extension must be .json or .yaml
// (kubeadm's list: .yml is not one); no "+type" means strategic. Errors (InvalidArgument, without
// the file name): unsupported extension, unknown target, unknown or missing patch type after "+".
Result<PatchFileName> ParsePatchFileName(std::string_view base_name);

// One patch file as the caller read it. `name` is shown in messages (e.g. "patches/etcd.yaml");
// its last path component is parsed.
struct PatchFile {
  std::string name;
  std::string content;
};

// One patch document: a file may hold several, separated by "---".
struct Patch {
  std::string file;   // PatchFile::name
  int document = 1;   // 1-based position in the file
  int documents = 1;  // documents in the file
  PatchType type = PatchType::kStrategic;
  nlohmann::json body;  // JSON patch: array of operations; merge/strategic: an object
};

struct PatchSet {
  std::map<std::string, std::vector<Patch>> by_target;  // each in application order
  std::vector<std::string> files;    // base names of files holding patches, in order
  std::vector<std::string> ignored;  // base names of files skipped
  std::vector<std::string> notes;    // kubeadm's per-file "[patches] Ignoring ..." lines
};

// Sorts `files` by name (path component by component, as kubeadm walks a directory), parses each
// name and content, and groups the patches by target. An empty file is ignored, as in kubeadm.
// Fails on the first bad file with InvalidArgument "<name>: <what is wrong>", e.g.
// `patches/kube-foo.yaml: unknown patch target "kube-foo"; valid targets are: etcd, ...`,
// `patches/etcd+xml.yaml: unknown patch type "xml"; valid types are: json, merge, strategic`,
// `patches/etcd.yaml: invalid YAML: line 2, column 3: ...`, or a JSON patch that is not a list of
// operations. Pure: the caller reads the files (see patch_dir.h).
// With `skip_unsupported_extensions` (reading a directory, as kubeadm does), a file not ending in
// .json/.yaml is noted and ignored instead of being an error.
struct LoadOptions {
  bool skip_unsupported_extensions = false;
};
Result<PatchSet> LoadPatchSet(const std::vector<PatchFile>& files, LoadOptions options = {});

// kubeadm's lines about reading `path`: `[patches] Reading patches from path "<path>"`, the
// per-file notes, `[patches] Found the following patch files: [a.yaml b.json]` and
// `[patches] Ignored the following files: [...]` (the last two only when not empty).
std::vector<std::string> DescribePatchSet(const PatchSet& set, std::string_view path);

struct PatchedObject {
  nlohmann::json object;
  // One `[patches] Applied patch of type "application/strategic-merge-patch+json" to target
  // "kube-apiserver"` line per patch document applied, for the caller to print.
  std::vector<std::string> messages;
};

// Applies the patches for `target` (a known target) to `object` in order: JSON patches (RFC 6902),
// merge patches (RFC 7386) and strategic merge patches (core/v1 Pod for the control-plane
// targets, apps/v1 Deployment for corednsdeployment, plain maps for kubeletconfiguration).
// No patches for the target: returns `object` unchanged with no messages. On failure returns
// InvalidArgument "<file>: <problem>", e.g. `patches/kube-apiserver+json.yaml: invalid JSON patch:
// operation 1 ("replace" /spec/foo): path not found`.
Result<PatchedObject> ApplyPatches(const PatchSet& set, std::string_view target,
                                   nlohmann::json object);

}  // namespace kkadm::util::patches
