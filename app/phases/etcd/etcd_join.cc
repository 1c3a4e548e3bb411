// Adding this node's etcd to the stacked etcd cluster, and checking that cluster first.
#include "app/phases/etcd/etcd_join.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include "app/phases/controlplane/static_pod_input.h"
#include "app/phases/markcontrolplane/mark_control_plane.h"
#include "app/phases/waitcontrolplane/wait.h"
#include "app/util/network.h"

namespace kkadm::phases {
namespace {

constexpr const char* kEtcdAnnotation = "kubeadm.kubernetes.io/etcd.advertise-client-urls";
constexpr std::chrono::milliseconds kMemberJoinPoll{200};

nlohmann::json Items(const Result<nlohmann::json>& list) {
  if (!list || !list->is_object()) return nlohmann::json::array();
  return list->value("items", nlohmann::json::array());
}

std::vector<std::string> EndpointsFromPods(util::KubeClient& client) {
  std::vector<std::string> out;
  for (const auto& pod : Items(client.Get("/api/v1/namespaces/kube-system/pods"))) {
    const nlohmann::json meta = pod.value("metadata", nlohmann::json::object());
    const nlohmann::json labels = meta.value("labels", nlohmann::json::object());
    if (labels.value("component", "") != "etcd" || labels.value("tier", "") != "control-plane")
      continue;
    std::istringstream urls(
        meta.value("annotations", nlohmann::json::object()).value(kEtcdAnnotation, ""));
    for (std::string url; std::getline(urls, url, ',');) {
      if (!url.empty()) out.push_back(url);
    }
  }
  return out;
}

std::vector<std::string> EndpointsFromNodes(const nlohmann::json& nodes) {
  std::vector<std::string> out;
  for (const auto& node : nodes) {
    const nlohmann::json labels =
        node.value("metadata", nlohmann::json::object()).value("labels", nlohmann::json::object());
    if (!labels.contains(kControlPlaneLabel)) continue;
    const nlohmann::json addresses =
        node.value("status", nlohmann::json::object()).value("addresses", nlohmann::json::array());
    for (const auto& address : addresses) {
      if (address.value("type", "") != "InternalIP") continue;
      config::APIEndpoint endpoint;
      endpoint.advertise_address = address.value("address", "");
      out.push_back(EtcdClientURL(endpoint));
      break;
    }
  }
  return out;
}

std::string HexId(uint64_t id) { return fmt::format("{:x}", id); }

std::vector<EtcdMember> InitialCluster(const std::vector<util::EtcdMember>& members, uint64_t id,
                                       const std::string& name) {
  std::vector<EtcdMember> out;
  for (const auto& member : members) {
    if (member.peer_urls.empty()) continue;
    std::string member_name = member.id == id       ? name
                              : member.name.empty() ? HexId(member.id)
                                                    : member.name;
    out.push_back(EtcdMember{member_name, member.peer_urls.front()});
  }
  return out;
}

const util::EtcdMember* FindByPeer(const std::vector<util::EtcdMember>& members,
                                   const std::string& peer_url) {
  for (const auto& member : members) {
    for (const auto& url : member.peer_urls) {
      if (url == peer_url) return &member;
    }
  }
  return nullptr;
}

Result<LearnerAdded> FromList(util::EtcdClient& client, const std::string& name,
                              const std::string& peer_url) {
  auto members = client.MemberList();
  if (!members) return members.error();
  const util::EtcdMember* existing = FindByPeer(*members, peer_url);
  if (existing == nullptr) return NotFound("no etcd member has the peer URL " + peer_url);
  return LearnerAdded{existing->id, existing->is_learner,
                      InitialCluster(*members, existing->id, name)};
}

Result<util::EtcdClient*> EtcdClientOf(util::Host& host, ClusterAccess& cluster,
                                       const config::InitConfiguration& cfg,
                                       std::unique_ptr<util::EtcdClient>& slot) {
  auto client = cluster.AdminClient();
  if (!client) return client.error().Wrap("couldn't create Kubernetes client");
  auto endpoints = EtcdEndpointsFromCluster(**client);
  if (!endpoints) return endpoints.error();
  auto config =
      util::EtcdClientConfigFor(host.fs, cfg.cluster.certificates_dir, std::move(*endpoints));
  if (!config) return config.error();
  // A new learner of a small cluster catches up in a few hundred milliseconds; kubeadm's 500 ms
  // between promotion attempts would be most of a join's time.
  config->retry_interval = std::chrono::milliseconds(100);
  config->retry_timeout = cfg.timeouts.etcd_api_call;
  config->clock = &host.clock;
  slot = host.net.Etcd(std::move(*config));
  return slot.get();
}

// After the promotion: this member's own endpoint answers as a voting member, within `timeout`.
// kubeadm checks 8 times, 5 s apart, each check retrying the members' status for etcdAPICall (the
// "40s" it prints is no bound); kkadm waits etcdAPICall in all, and says so.
Status WaitForMember(util::Clock& clock, util::Printer& out, util::EtcdClient& etcd,
                     const config::APIEndpoint& endpoint, std::chrono::milliseconds timeout,
                     const util::Events& events) {
  out.Line(
      "etcd",
      fmt::format("Waiting for the new etcd member to join the cluster. This can take up to {}",
                  FormatGoDuration(timeout)));
  const std::string url = EtcdClientURL(endpoint);
  const WaitReport report{events, "etcd-member", url};
  auto waited = PollUntilHealthy(
      clock,
      [&] {
        auto status = etcd.EndpointStatus(url);
        if (!status) return status.error();
        return status->is_learner ? Unavailable(url + " is still a learner") : Status::Ok();
      },
      timeout, kMemberJoinPoll, &report);
  return waited.status().Wrap("the new etcd member did not join the cluster");
}

}  // namespace

Result<std::vector<std::string>> EtcdEndpointsFromCluster(util::KubeClient& client) {
  std::vector<std::string> endpoints = EndpointsFromPods(client);
  if (!endpoints.empty()) return endpoints;
  auto nodes = client.Get("/api/v1/nodes");
  if (!nodes) return nodes.error().Wrap("could not retrieve the list of etcd endpoints");
  endpoints = EndpointsFromNodes(Items(nodes));
  if (endpoints.empty()) {
    return NotFound(
        "could not retrieve the list of etcd endpoints: no etcd Pod and no control-plane Node "
        "found");
  }
  return endpoints;
}

Result<LearnerAdded> AddLearner(util::EtcdClient& client, const std::string& name,
                                const std::string& peer_url) {
  auto existing = FromList(client, name, peer_url);
  if (existing || existing.error().code() != StatusCode::kNotFound) return existing;
  spdlog::info("[etcd] Adding etcd member as learner: {}", peer_url);
  auto added = client.MemberAdd({peer_url}, /*is_learner=*/true);
  if (!added && added.error().message().find("Peer URLs already exists") != std::string::npos) {
    return FromList(client, name, peer_url);
  }
  if (!added) return added.error();
  return LearnerAdded{added->added.id, true, InitialCluster(added->members, added->added.id, name)};
}

Status PromoteLearner(util::EtcdClient& client, uint64_t id) {
  Status promoted = client.MemberPromote(id);
  if (promoted.ok() || promoted.code() != StatusCode::kFailedPrecondition) return promoted;
  // "can only promote a learner member": a re-run after the promotion went through.
  auto members = client.MemberList();
  if (!members) return members.error();
  for (const auto& member : *members) {
    if (member.id == id && !member.is_learner) return Status::Ok();
  }
  return promoted;
}

Status JoinLocalEtcd(util::Host& host, util::Printer& out, const LocalEtcdJoin& in,
                     EtcdJoiner& joiner) {
  const config::InitConfiguration& cfg = in.cfg;
  const std::string& data_dir = cfg.cluster.etcd.local->data_dir;
  const StaticPodInput input = StaticPodInputFromConfig(cfg, host.fs, false);
  const std::string peer_url = EtcdPeerURL(cfg.local_api_endpoint);
  // The member is added to etcd's cluster only once its manifest is sure to be written.
  KKADM_RETURN_IF_ERROR(CheckPodPatches(in.patches, kEtcd, [&] {
    return BuildEtcdPod(input, {EtcdMember{input.node_name, peer_url}});
  }));
  KKADM_RETURN_IF_ERROR(host.fs.EnsureDirectory(data_dir, 0700, "control-plane-join")
                            .Wrap("failed to create etcd directory \"" + data_dir + "\""));
  auto added = joiner.AddMember(cfg, input.node_name, peer_url);
  if (!added) return added.error();
  out.Line("etcd", "Creating static Pod manifest for \"etcd\"");
  KKADM_RETURN_IF_ERROR(CreateLocalEtcdManifest(input, added->initial_cluster, host.fs,
                                                in.manifest_dir, PatcherFor(in.patches))
                            .Wrap("error creating local etcd static pod manifest file"));
  return joiner.PromoteAndWait(cfg, *added, peer_url);
}

Status RealEtcdJoiner::CheckHealth(const config::InitConfiguration& cfg) {
  std::unique_ptr<util::EtcdClient> etcd;
  auto client = EtcdClientOf(host_, cluster_, cfg, etcd);
  if (!client) return client.error();
  auto members = (*client)->MemberList();
  if (!members) return members.error().Wrap("etcd cluster is not healthy");
  for (const auto& member : *members) {
    for (const auto& url : member.client_urls) {
      auto status = (*client)->EndpointStatus(url);
      if (!status) return status.error().Wrap("etcd cluster is not healthy: " + url);
    }
  }
  return Status::Ok();
}

Result<LearnerAdded> RealEtcdJoiner::AddMember(const config::InitConfiguration& cfg,
                                               const std::string& name,
                                               const std::string& peer_url) {
  auto client = EtcdClientOf(host_, cluster_, cfg, client_);
  if (!client) return client.error();
  auto added = AddLearner(**client, name, peer_url);
  if (!added) return added.error().Wrap("error adding the etcd member " + peer_url);
  out_.Line("etcd", "Announced new etcd member joining to the existing etcd cluster");
  return added;
}

Status RealEtcdJoiner::PromoteAndWait(const config::InitConfiguration& cfg,
                                      const LearnerAdded& added, const std::string& peer_url) {
  if (client_ == nullptr) {
    auto client = EtcdClientOf(host_, cluster_, cfg, client_);
    if (!client) return client.error();
  }
  if (added.is_learner) {
    KKADM_RETURN_IF_ERROR(
        PromoteLearner(*client_, added.id).Wrap("error promoting the etcd learner " + peer_url));
  }
  return WaitForMember(host_.clock, out_, *client_, cfg.local_api_endpoint,
                       cfg.timeouts.etcd_api_call, events_);
}

Status DryRunEtcdJoiner::CheckHealth(const config::InitConfiguration&) {
  out_.Line("check-etcd", "Would check that the etcd cluster is healthy");
  return Status::Ok();
}

Result<LearnerAdded> DryRunEtcdJoiner::AddMember(const config::InitConfiguration&,
                                                 const std::string& name,
                                                 const std::string& peer_url) {
  out_.Line("etcd", "Would add etcd member: " + peer_url);
  return LearnerAdded{
      .id = 0, .is_learner = false, .initial_cluster = {EtcdMember{name, peer_url}}};
}

Status DryRunEtcdJoiner::PromoteAndWait(const config::InitConfiguration&, const LearnerAdded&,
                                        const std::string&) {
  out_.Line("etcd", "Would wait for the new etcd member to join the cluster");
  return Status::Ok();
}

}  // namespace kkadm::phases
