// Taking this node's etcd member out of the stacked etcd cluster (kubeadm's reset
// removeEtcdMember): what the node's etcd manifest says, and the removal itself.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/util/etcd_client.h"
#include "app/util/host.h"
#include "app/util/network.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

// What this node's etcd static Pod manifest says about its member.
struct EtcdManifestFacts {
  std::string data_dir;                  // hostPath of the volume "etcd-data"
  std::string peer_url;                  // first of --initial-advertise-peer-urls
  std::vector<std::string> client_urls;  // --advertise-client-urls, --listen-client-urls, then the
                                         // other members of --initial-cluster at port 2379
  std::string pki_dir;                   // two levels above --trusted-ca-file (/etc/kubernetes/pki)
};

// Parses etcd.yaml. InvalidArgument when it is not YAML, or has no etcd-data hostPath volume, or
// no etcd command with --initial-advertise-peer-urls.
Result<EtcdManifestFacts> ParseEtcdManifest(std::string_view yaml);

enum class MemberRemoval {
  kRemoved,     // this node's member was removed from the cluster
  kOnlyMember,  // it is the cluster's only member: nothing to tell anyone (kubeadm skips it too)
  kNotAMember,  // no member has this peer URL (already removed, e.g. by an earlier reset)
};

// Lists the members and removes the one whose peer URLs include `peer_url`, unless it is the only
// member. Idempotent: a member that is gone already is kNotAMember. Errors are the client's.
Result<MemberRemoval> RemoveEtcdMember(util::EtcdClient& client, const std::string& peer_url);

// How remove-etcd-member reaches the etcd cluster. The command builds a RealEtcdMemberRemover, or
// for --dry-run a DryRunEtcdMemberRemover, which reaches nothing.
class EtcdMemberRemover {
 public:
  virtual ~EtcdMemberRemover() = default;
  // Removes the member with `peer_url` through a client for `config()` (RemoveEtcdMember) and
  // logs what came of it; the error when it could not. A dry run says "[reset] Would remove the
  // etcd member on this node from the etcd cluster".
  virtual Status Remove(const std::string& peer_url,
                        const std::function<Result<util::EtcdClientConfig>()>& config) = 0;
};

class RealEtcdMemberRemover final : public EtcdMemberRemover {
 public:
  // The etcd client comes from `net` (tests hand in one over a fake transport).
  explicit RealEtcdMemberRemover(util::Network& net) : net_(net) {}
  Status Remove(const std::string& peer_url,
                const std::function<Result<util::EtcdClientConfig>()>& config) override;

 private:
  util::Network& net_;
};

class DryRunEtcdMemberRemover final : public EtcdMemberRemover {
 public:
  explicit DryRunEtcdMemberRemover(util::Printer& out) : out_(out) {}
  Status Remove(const std::string& peer_url,
                const std::function<Result<util::EtcdClientConfig>()>& config) override;

 private:
  util::Printer& out_;
};

}  // namespace kkadm::phases
