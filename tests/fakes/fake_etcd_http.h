// FakeEtcdHttp: an HttpClient answering etcd's v3 JSON gateway for member list and member remove
// from an in-memory member list, so util::EtcdClient runs unchanged in tests. Other paths get 404.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/util/http_client.h"

namespace kkadm::testing {

struct FakeEtcdCluster {
  struct Member {
    uint64_t id;
    std::string name;
    std::string peer_url;
  };
  std::vector<Member> members;
  bool down = false;               // every request fails as if nothing listened
  std::string remove_error;        // when set, member remove answers this gRPC error (code 9)
  std::vector<std::string> calls;  // "POST <url>" in order
};

class FakeEtcdHttp final : public util::HttpClient {
 public:
  explicit FakeEtcdHttp(FakeEtcdCluster& cluster) : cluster_(cluster) {}

  Result<util::HttpResponse> Do(const util::HttpRequest& request) override {
    cluster_.calls.push_back(request.method + " " + request.url);
    if (cluster_.down)
      return Unavailable("Failed to connect to " + request.url + ": Connection refused");
    const nlohmann::json body = nlohmann::json::parse(request.body, nullptr, false);
    if (Ends(request.url, "/v3/cluster/member/list")) return Answer(200, List());
    if (Ends(request.url, "/v3/cluster/member/remove")) return Remove(body.value("ID", ""));
    return Answer(404, {{"error", "Not Found"}, {"code", 5}, {"message", "Not Found"}});
  }

 private:
  static bool Ends(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  }
  static util::HttpResponse Answer(long status, const nlohmann::json& body) {
    util::HttpResponse response;
    response.status = status;
    response.body = body.dump();
    return response;
  }
  nlohmann::json List() const {
    nlohmann::json members = nlohmann::json::array();
    for (const auto& m : cluster_.members) {
      members.push_back(
          {{"ID", std::to_string(m.id)}, {"name", m.name}, {"peerURLs", {m.peer_url}}});
    }
    return {{"header", {{"cluster_id", "1"}}}, {"members", members}};
  }
  Result<util::HttpResponse> Remove(const std::string& id) {
    if (!cluster_.remove_error.empty()) {
      return Answer(
          400, {{"error", cluster_.remove_error}, {"code", 9}, {"message", cluster_.remove_error}});
    }
    for (auto it = cluster_.members.begin(); it != cluster_.members.end(); ++it) {
      if (std::to_string(it->id) == id) {
        cluster_.members.erase(it);
        return Answer(200, {{"header", {{"cluster_id", "1"}}}, {"members", List()["members"]}});
      }
    }
    return Answer(404, {{"error", "etcdserver: member not found"},
                        {"code", 5},
                        {"message", "etcdserver: member not found"}});
  }

  FakeEtcdCluster& cluster_;
};

}  // namespace kkadm::testing
