// The `remove-etcd-member` phase of `kkadm reset`: this node's etcd member and data directory,
// found from the cluster's configuration or the node's etcd manifest.
#include "app/phases/reset/remove_etcd_member_phase.h"

#include <spdlog/spdlog.h>

#include <optional>

#include "app/phases/etcd/etcd_member_removal.h"

namespace kkadm::phases {
namespace reset {
constexpr const char* kDefaultDataDir = "/var/lib/etcd";
namespace {

Result<util::EtcdClientConfig> ClientConfig(ResetData& data, const EtcdManifestFacts& facts) {
  const std::string pki = data.cluster ? data.cluster->certificates_dir : facts.pki_dir;
  Result<util::EtcdClientConfig> config =
      util::EtcdClientConfigFor(data.fs(), pki, facts.client_urls);
  if (!config) return config.error();
  // A node whose etcd is gone must not hold reset up: a few seconds, not kubeadm's 2 minutes.
  config->request_timeout = std::chrono::seconds(3);
  config->retry_timeout = std::chrono::seconds(5);
  config->retry_interval = std::chrono::milliseconds(250);
  config->clock = &data.host->clock;
  return config;
}

void RemoveMember(ResetData& data, const EtcdManifestFacts& facts) {
  Status removed = data.etcd->Remove(facts.peer_url, [&] { return ClientConfig(data, facts); });
  if (removed.ok()) return;
  spdlog::warn(
      "[reset] Failed to remove etcd member: {}, please manually remove this etcd member using "
      "etcdctl",
      removed.message());
  data.LeaveBehind("etcd member " + facts.peer_url,
                   "not removed from the etcd cluster: " + removed.message() +
                       "; remove it with 'etcdctl member remove'");
}

void CleanDataDir(ResetData& data, const std::string& dir) {
  data.etcd_data_dir = dir;
  // The remover says it ("[reset] Deleted contents of ...", or "Would delete contents of ...").
  for (const auto& f : data.host->remover.CleanDirectoryOf("the etcd data directory", dir)) {
    data.LeaveBehind(f.path, f.reason);
  }
}

void AssumeExternalEtcd(ResetData& data) {
  data.printer().Line("reset", "No etcd config found. Assuming external etcd");
  data.printer().Line("reset", "Please, manually reset etcd to prevent further issues");
}

}  // namespace

Status RunRemoveEtcdMember(ResetData& data) {
  spdlog::debug("[reset] Checking for etcd config");
  if (data.cluster && data.cluster->etcd.external) {
    AssumeExternalEtcd(data);
    return Status();
  }
  const std::string manifest = data.manifest_dir + "/etcd.yaml";
  Result<std::string> text = data.fs().ReadFile(manifest);
  std::optional<EtcdManifestFacts> facts;
  if (text || text.error().code() != StatusCode::kNotFound) {
    Result<EtcdManifestFacts> parsed =
        text ? ParseEtcdManifest(*text) : Result<EtcdManifestFacts>(text.error());
    if (!parsed) {
      AssumeExternalEtcd(data);
      data.LeaveBehind(manifest, "is not an etcd static Pod kkadm can read (" +
                                     parsed.error().message() +
                                     "); etcd's member and data directory were left alone");
      return Status();
    }
    facts = std::move(*parsed);
  }
  std::string data_dir = kDefaultDataDir;
  if (data.cluster && data.cluster->etcd.local) {
    data_dir = data.cluster->etcd.local->data_dir;
  } else {
    spdlog::warn("[reset] No kubeadm config, using etcd pod spec to get data directory");
    if (facts) data_dir = facts->data_dir;
  }
  if (facts && data.made && data.made->units_started.empty()) {
    // The journal's word: no kubelet of kkadm's ran the etcd Pod, so it added no member.
    data.printer().Line("reset",
                        "kkadm started no service on this node, so no etcd of its making ran: no "
                        "etcd member to remove");
  } else if (facts) {
    RemoveMember(data, *facts);
  }
  if (!data.made) {
    CleanDataDir(data, data_dir);
  } else {
    // kkadm's journal: etcd's data goes with a data directory kkadm made (cleanup-node keeps one
    // that was there before, and says so).
    data.etcd_data_dir = data_dir;
    if (data.made->MadeDir(data_dir)) CleanDataDir(data, data_dir);
  }
  return Status();
}

}  // namespace reset

workflow::Phase NewRemoveEtcdMemberPhase(ResetData& data) {
  workflow::Phase phase;
  phase.name = "remove-etcd-member";
  phase.description = "Remove a local etcd member.";
  phase.long_description = "Remove a local etcd member for a control plane node.";
  phase.run = [&data] { return reset::RunRemoveEtcdMember(data); };
  phase.inherit_flags = {"config", "kubeconfig", "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
