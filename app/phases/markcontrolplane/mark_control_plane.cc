// Control-plane labels and taints (see mark_control_plane.h).
#include "app/phases/markcontrolplane/mark_control_plane.h"

#include "app/util/kube_apply.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

json TaintJson(const config::Taint& t) {
  json out = {{"key", t.key}, {"effect", t.effect}};
  if (!t.value.empty()) out["value"] = t.value;
  return out;
}

std::string Bracketed(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : " ") + s;
  return "[" + out + "]";
}

json MergedTaints(const std::vector<config::Taint>& taints, const json& node) {
  json out = json::array();
  for (const auto& t : taints) out.push_back(TaintJson(t));
  const json existing = node.value("/spec/taints"_json_pointer, json::array());
  for (const auto& old : existing) {
    bool matched = false;
    for (const auto& t : taints) {
      matched |= old.value("key", "") == t.key && old.value("effect", "") == t.effect;
    }
    if (!matched) out.push_back(old);
  }
  return out;
}

}  // namespace

std::vector<config::Taint> ControlPlaneTaints(
    const std::optional<std::vector<config::Taint>>& taints) {
  if (taints) return *taints;
  return {config::Taint{kControlPlaneLabel, "", "NoSchedule"}};
}

std::string TaintString(const config::Taint& taint) {
  return taint.key + (taint.value.empty() ? "" : "=" + taint.value) + ":" + taint.effect;
}

Status MarkControlPlane(util::KubeClient& client, util::Clock& clock, util::Printer& out,
                        const std::string& node_name, const std::vector<config::Taint>& taints,
                        std::chrono::milliseconds timeout) {
  out.Line("mark-control-plane",
           "Marking the node " + node_name + " as control-plane by adding the labels: " +
               Bracketed({kControlPlaneLabel, kExcludeFromLoadBalancersLabel}));
  if (!taints.empty()) {
    std::vector<std::string> strs;
    for (const auto& t : taints) strs.push_back(TaintString(t));
    out.Line("mark-control-plane", "Marking the node " + node_name +
                                       " as control-plane by adding the taints " + Bracketed(strs));
  }
  const std::string path = "/api/v1/nodes/" + node_name;
  return util::RetryFor(
             clock, timeout, std::chrono::milliseconds(500),
             [&]() -> Status {
               auto node = client.Get(path);
               if (!node) return node.error();
               const json patch = {
                   {"metadata",
                    {{"labels", {{kControlPlaneLabel, ""}, {kExcludeFromLoadBalancersLabel, ""}}}}},
                   {"spec", {{"taints", MergedTaints(taints, *node)}}}};
               return client.Patch(path, util::PatchType::kStrategic, patch).status();
             })
      .Wrap("error patching node \"" + node_name + "\" through apiserver");
}

}  // namespace kkadm::phases
