// The local etcd static Pod (kubeadm 1.32's phases/etcd/local.go). Its flags are those of kubeadm
// 1.29-1.32, which etcd 3.4 and 3.5 both accept; its probes follow the etcd that will run.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "app/phases/controlplane/static_pod_input.h"

namespace kkadm::phases {

inline constexpr int kEtcdClientPort = 2379;
inline constexpr int kEtcdPeerPort = 2380;
inline constexpr int kEtcdMetricsPort = 2381;

// A member of the cluster a joining etcd becomes part of.
struct EtcdMember {
  std::string name;
  std::string peer_url;
};

// Whether the etcd of an image tag ("3.5.16-0", "v3.4.23") serves /livez and /readyz, which etcd
// added in 3.5.11 and backported to 3.4.29. The Pod probes those, as kubeadm 1.31+ does, unless
// the tag names an older etcd: then it gets kubeadm 1.30's /health probes, since an older etcd
// answers 404 to /livez and the kubelet would restart it forever. A tag that is not a version
// ("latest") gets kubeadm's probes.
bool EtcdServesLivezReadyz(std::string_view image_tag);

// https://<advertise address>:2379 (IPv6 in brackets).
std::string EtcdClientURL(const config::APIEndpoint& endpoint);
// https://<advertise address>:2380.
std::string EtcdPeerURL(const config::APIEndpoint& endpoint);

// "etcd" and its sorted flags. An empty `initial_cluster` starts a new single-member cluster;
// otherwise it lists every member (the joining one included) and sets
// initial-cluster-state=existing.
std::vector<std::string> EtcdCommand(const StaticPodInput& input,
                                     const std::vector<EtcdMember>& initial_cluster);

// The etcd Pod for a cluster with local etcd (precondition: cluster->etcd.local is set).
Result<nlohmann::json> BuildEtcdPod(const StaticPodInput& input,
                                    const std::vector<EtcdMember>& initial_cluster);

// Builds the Pod, runs `patcher` on it (target "etcd") and writes <manifest_dir>/etcd.yaml (0600,
// dir 0700). FailedPrecondition with external etcd. Rewrites an existing file, as kubeadm does.
Status CreateLocalEtcdManifest(const StaticPodInput& input,
                               const std::vector<EtcdMember>& initial_cluster, util::FileSystem& fs,
                               const std::string& manifest_dir, const ManifestPatcher& patcher);

}  // namespace kkadm::phases
