// remove-etcd-member: etcd.yaml facts, the member removal, the data directory.
#include "app/phases/etcd/etcd_member_removal.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "app/util/yaml/yaml.h"

namespace kkadm::phases {
namespace {

constexpr const char* kEtcdDataVolume = "etcd-data";

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    if (comma > start) parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return parts;
}

// The value of the last "--name=value" of the etcd command.
std::string Flag(const std::vector<std::string>& command, const std::string& name) {
  const std::string prefix = "--" + name + "=";
  std::string value;
  for (const std::string& arg : command) {
    if (arg.rfind(prefix, 0) == 0) value = arg.substr(prefix.size());
  }
  return value;
}

std::string Parent(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

void AddUnique(std::vector<std::string>& list, const std::string& value) {
  if (!value.empty() && std::find(list.begin(), list.end(), value) == list.end())
    list.push_back(value);
}

// The other members' client URLs, guessed from their --initial-cluster peer URLs (":2380").
void AddPeersAsClients(const std::string& initial_cluster, const std::string& own_peer,
                       std::vector<std::string>& urls) {
  for (const std::string& member : SplitCommas(initial_cluster)) {
    std::string peer = member.substr(member.find('=') + 1);
    constexpr std::string_view kPeerPort = ":2380";
    if (peer == own_peer || peer.size() <= kPeerPort.size() ||
        peer.compare(peer.size() - kPeerPort.size(), kPeerPort.size(), kPeerPort) != 0) {
      continue;
    }
    AddUnique(urls, peer.substr(0, peer.size() - kPeerPort.size()) + ":2379");
  }
}

std::vector<std::string> Command(const nlohmann::json& pod) {
  std::vector<std::string> command;
  const nlohmann::json containers =
      pod.value("spec", nlohmann::json::object()).value("containers", nlohmann::json::array());
  if (!containers.is_array() || containers.empty() || !containers[0].is_object()) return command;
  for (const char* key : {"command", "args"}) {
    for (const auto& arg : containers[0].value(key, nlohmann::json::array())) {
      if (arg.is_string()) command.push_back(arg.get<std::string>());
    }
  }
  return command;
}

std::string DataVolumePath(const nlohmann::json& pod) {
  const nlohmann::json volumes =
      pod.value("spec", nlohmann::json::object()).value("volumes", nlohmann::json::array());
  if (!volumes.is_array()) return "";
  for (const auto& volume : volumes) {
    if (volume.is_object() && volume.value("name", "") == kEtcdDataVolume) {
      const nlohmann::json host_path = volume.value("hostPath", nlohmann::json::object());
      return host_path.is_object() ? host_path.value("path", "") : "";
    }
  }
  return "";
}

}  // namespace

Result<EtcdManifestFacts> ParseEtcdManifest(std::string_view yaml) {
  Result<nlohmann::json> pod = util::yaml::Read(yaml);
  if (!pod) return pod.error();
  if (!pod->is_object()) return InvalidArgument("not a Pod");
  EtcdManifestFacts facts;
  try {
    facts.data_dir = DataVolumePath(*pod);
    std::vector<std::string> command = Command(*pod);
    std::vector<std::string> peers = SplitCommas(Flag(command, "initial-advertise-peer-urls"));
    if (!peers.empty()) facts.peer_url = peers.front();
    for (const char* flag : {"advertise-client-urls", "listen-client-urls"}) {
      for (const std::string& url : SplitCommas(Flag(command, flag)))
        AddUnique(facts.client_urls, url);
    }
    AddPeersAsClients(Flag(command, "initial-cluster"), facts.peer_url, facts.client_urls);
    std::string ca = Flag(command, "trusted-ca-file");
    facts.pki_dir = ca.empty() ? "/etc/kubernetes/pki" : Parent(Parent(ca));
  } catch (const nlohmann::json::exception& e) {
    return InvalidArgument(std::string("unexpected Pod structure: ") + e.what());
  }
  if (facts.data_dir.empty())
    return InvalidArgument("invalid etcd pod manifest: no hostPath volume \"etcd-data\"");
  if (facts.peer_url.empty())
    return InvalidArgument("invalid etcd pod manifest: no --initial-advertise-peer-urls");
  return facts;
}

Result<MemberRemoval> RemoveEtcdMember(util::EtcdClient& client, const std::string& peer_url) {
  Result<std::vector<util::EtcdMember>> members = client.MemberList();
  if (!members) return members.error();
  auto own = std::find_if(members->begin(), members->end(), [&](const util::EtcdMember& m) {
    return std::find(m.peer_urls.begin(), m.peer_urls.end(), peer_url) != m.peer_urls.end();
  });
  if (own == members->end()) return MemberRemoval::kNotAMember;
  if (members->size() == 1) return MemberRemoval::kOnlyMember;
  Status removed = client.MemberRemove(own->id);
  if (removed.code() == StatusCode::kNotFound) return MemberRemoval::kNotAMember;
  if (!removed.ok()) return removed;
  return MemberRemoval::kRemoved;
}

Status RealEtcdMemberRemover::Remove(
    const std::string& peer_url, const std::function<Result<util::EtcdClientConfig>()>& config) {
  Result<util::EtcdClientConfig> client_config = config();
  if (!client_config) return client_config.error();
  Result<MemberRemoval> removal = RemoveEtcdMember(*net_.Etcd(*client_config), peer_url);
  if (!removal) return removal.error();
  switch (*removal) {
    case MemberRemoval::kRemoved:
      spdlog::info("[etcd] Removed etcd member {}", peer_url);
      break;
    case MemberRemoval::kOnlyMember:
      spdlog::info(
          "[etcd] This is the only remaining etcd member in the etcd cluster, skip removing it");
      break;
    case MemberRemoval::kNotAMember:
      spdlog::info("[etcd] No etcd member has peer URL {}", peer_url);
      break;
  }
  return Status();
}

Status DryRunEtcdMemberRemover::Remove(const std::string&,
                                       const std::function<Result<util::EtcdClientConfig>()>&) {
  out_.Line("reset", "Would remove the etcd member on this node from the etcd cluster");
  return Status();
}

}  // namespace kkadm::phases
