// The patch metadata table: facts from the `patchStrategy`/`patchMergeKey` tags of
// k8s.io/api core/v1 (Pod, PodSpec, Container, ObjectMeta, PodStatus) and apps/v1 (Deployment).
#include "app/util/patches/patch_schema.h"

#include <map>

namespace kkadm::util::patches {
namespace {

using FieldTable = std::map<std::string, FieldPatchMeta, std::less<>>;
using TypeTable = std::map<std::string, FieldTable, std::less<>>;

FieldPatchMeta Struct(std::string type) {
  FieldPatchMeta meta;
  meta.type = std::move(type);
  return meta;
}

FieldPatchMeta MergeList(std::string key, std::string type = "") {
  FieldPatchMeta meta;
  meta.merge = true;
  meta.merge_key = std::move(key);
  meta.type = std::move(type);
  return meta;
}

FieldPatchMeta MergeScalars() {
  FieldPatchMeta meta;
  meta.merge = true;
  return meta;
}

const TypeTable& Types() {
  static const TypeTable kTypes = {
      {"Pod",
       {{"metadata", Struct("ObjectMeta")},
        {"spec", Struct("PodSpec")},
        {"status", Struct("PodStatus")}}},
      {"Deployment",
       {{"metadata", Struct("ObjectMeta")},
        {"spec", Struct("DeploymentSpec")},
        {"status", Struct("DeploymentStatus")}}},
      {"DeploymentSpec", {{"template", Struct("PodTemplateSpec")}}},
      {"DeploymentStatus", {{"conditions", MergeList("type")}}},
      {"PodTemplateSpec", {{"metadata", Struct("ObjectMeta")}, {"spec", Struct("PodSpec")}}},
      {"ObjectMeta", {{"finalizers", MergeScalars()}, {"ownerReferences", MergeList("uid")}}},
      {"PodSpec",
       {{"volumes", MergeList("name")},
        {"initContainers", MergeList("name", "Container")},
        {"containers", MergeList("name", "Container")},
        {"ephemeralContainers", MergeList("name", "Container")},
        {"imagePullSecrets", MergeList("name")},
        {"hostAliases", MergeList("ip")},
        {"topologySpreadConstraints", MergeList("topologyKey")},
        {"resourceClaims", MergeList("name")},
        {"schedulingGates", MergeList("name")}}},
      {"Container",
       {{"ports", MergeList("containerPort")},
        {"env", MergeList("name")},
        {"volumeMounts", MergeList("mountPath")},
        {"volumeDevices", MergeList("devicePath")}}},
      {"PodStatus",
       {{"conditions", MergeList("type")},
        {"podIPs", MergeList("ip")},
        {"hostIPs", MergeList("ip")}}},
  };
  return kTypes;
}

}  // namespace

FieldPatchMeta LookupFieldPatchMeta(std::string_view type, std::string_view field) {
  auto t = Types().find(type);
  if (t == Types().end()) return {};
  auto f = t->second.find(field);
  if (f == t->second.end()) return {};
  return f->second;
}

}  // namespace kkadm::util::patches
