// EtcdClient: etcd's v3 cluster and maintenance API through its JSON gateway (POST /v3/...) over
// mutual TLS, as kubeadm uses it: member list/add/promote/remove, endpoint status and health.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/util/clock.h"
#include "app/util/events.h"
#include "app/util/file_system.h"
#include "app/util/http_client.h"
#include "app/util/status.h"

namespace kkadm::util {

struct EtcdClientConfig {
  std::vector<std::string> endpoints;  // "https://10.0.0.1:2379"; tried in order
  std::string ca_pem;
  std::string client_cert_pem;
  std::string client_key_pem;  // never logged
  std::chrono::milliseconds request_timeout{10000};
  std::chrono::milliseconds retry_timeout{120000};  // kubeadm: etcd API 2 m
  std::chrono::milliseconds retry_interval{500};    // kubeadm: 500 ms
  Clock* clock = nullptr;                           // nullptr: RealClock()
  Events events;  // where each retry is told (what: etcd-api); none by default
};

// `endpoints` with the TLS material kubeadm's etcd client uses: <cert_dir>/etcd/ca.crt and
// <cert_dir>/apiserver-etcd-client.{crt,key}, read through `fs`; the other fields are defaults.
Result<EtcdClientConfig> EtcdClientConfigFor(const FileSystem& fs, const std::string& cert_dir,
                                             std::vector<std::string> endpoints);

struct EtcdMember {
  uint64_t id = 0;
  std::string name;  // empty for a member added but not started yet
  std::vector<std::string> peer_urls;
  std::vector<std::string> client_urls;
  bool is_learner = false;
};

struct EtcdMemberAddResult {
  EtcdMember added;
  std::vector<EtcdMember> members;  // the cluster after the add, the new member included
};

struct EtcdEndpointStatus {
  std::string version;
  uint64_t member_id = 0;
  uint64_t leader = 0;
  uint64_t db_size = 0;
  uint64_t raft_index = 0;
  uint64_t raft_term = 0;
  bool is_learner = false;
  std::vector<std::string> errors;
};

class EtcdClient {
 public:
  // `http` defaults to NewHttpClient with the config's TLS material.
  explicit EtcdClient(EtcdClientConfig config, std::unique_ptr<HttpClient> http = nullptr);

  // Every call below tries the endpoints in order and retries, every retry_interval until
  // retry_timeout, while no endpoint answers or etcd answers "unhealthy cluster" (gRPC code 14) or
  // "can only promote a learner member which is in sync with leader". Other etcd errors map by
  // gRPC code (5 kNotFound, 6 kAlreadyExists, 3 kInvalidArgument, 9 kFailedPrecondition, ...)
  // with etcd's message ("etcdserver: member not found").
  Result<std::vector<EtcdMember>> MemberList();
  Result<EtcdMemberAddResult> MemberAdd(const std::vector<std::string>& peer_urls, bool is_learner);
  Status MemberPromote(uint64_t id);
  Status MemberRemove(uint64_t id);

  // One endpoint, no retries: /v3/maintenance/status, and GET /health ({"health":"true"} is OK).
  Result<EtcdEndpointStatus> EndpointStatus(const std::string& endpoint);
  Status EndpointHealth(const std::string& endpoint);

 private:
  Result<nlohmann::json> Call(const std::string& path, const nlohmann::json& body);
  Result<nlohmann::json> CallOnce(const std::string& endpoint, const std::string& path,
                                  const nlohmann::json& body);

  EtcdClientConfig config_;
  Clock* clock_;
  std::unique_ptr<HttpClient> http_;
};

// Parses a gateway member object ({"ID":"123","name":..,"peerURLs":[..],"isLearner":true}).
Result<EtcdMember> EtcdMemberFromJson(const nlohmann::json& member);

}  // namespace kkadm::util
