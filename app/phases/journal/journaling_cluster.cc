// JournalingKubeClient and JournalingEtcdJoiner: each change passed on, then recorded.
#include "app/phases/journal/journaling_cluster.h"

#include <fmt/format.h>

namespace kkadm::phases::journal {
namespace {

// A change the cluster accepted is recorded; a journal that cannot be written fails the phase, as
// for a file.
template <typename T>
Result<T> Recorded(Result<T> outcome, Journal& journal, const char* verb, const std::string& path) {
  if (!outcome) return outcome;
  KKADM_RETURN_IF_ERROR(journal.ObjectChanged(verb, path));
  return outcome;
}

}  // namespace

Result<nlohmann::json> JournalingKubeClient::Create(const std::string& collection,
                                                    const nlohmann::json& object) {
  Result<nlohmann::json> created = api_->Create(collection, object);
  if (!created) return created;
  const nlohmann::json metadata = created->value("metadata", nlohmann::json::object());
  const std::string name = metadata.is_object() ? metadata.value("name", "") : "";
  return Recorded(std::move(created), journal_, "create", collection + "/" + name);
}

Result<nlohmann::json> JournalingKubeClient::Update(const std::string& path,
                                                    const nlohmann::json& object) {
  return Recorded(api_->Update(path, object), journal_, "update", path);
}

Result<nlohmann::json> JournalingKubeClient::Patch(const std::string& path, util::PatchType type,
                                                   const nlohmann::json& patch) {
  return Recorded(api_->Patch(path, type, patch), journal_, "patch", path);
}

Status JournalingKubeClient::Delete(const std::string& path) {
  KKADM_RETURN_IF_ERROR(api_->Delete(path));
  return journal_.ObjectChanged("delete", path);
}

Result<LearnerAdded> JournalingEtcdJoiner::AddMember(const config::InitConfiguration& cfg,
                                                     const std::string& name,
                                                     const std::string& peer_url) {
  Result<LearnerAdded> added = etcd_.AddMember(cfg, name, peer_url);
  if (!added || added->id == 0) return added;  // a dry run's: no member was added
  KKADM_RETURN_IF_ERROR(
      journal_.EtcdMemberWasAdded(EtcdMemberAdded{fmt::format("{:x}", added->id), name, peer_url}));
  return added;
}

}  // namespace kkadm::phases::journal
