// kubeadm's token discovery (its discovery/token): find the cluster's API server and CA from the
// anonymous cluster-info ConfigMap, trusting it only once the bootstrap token's JWS signature and
// the CA pins check out. No credential is sent by anything here.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "app/phases/discovery/anonymous_client.h"
#include "app/util/clock.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases::discovery {

// What discovery vouches for: where the API server is and which CA bundle to trust for it.
struct VerifiedCluster {
  std::string server;    // the cluster-info kubeconfig's server, "https://host:port"
  std::string ca_pem;    // the cluster's CA bundle
  std::string endpoint;  // the endpoint that answered ("host:port"); empty for file discovery
  bool pinned = false;   // false only when the CA was trusted without pins (unsafe skip)
};

struct TokenDiscoveryInput {
  std::vector<std::string> endpoints;       // "host:port", tried in order
  std::string token;                        // "<id>.<secret>"; the secret never leaves this process
  std::vector<std::string> ca_cert_hashes;  // "sha256:<hex>"
  bool unsafe_skip_ca_verification = false;
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};  // kubeadm's discovery timeout
  // Polling for cluster-info and its signature: every first_interval at first, doubling up to
  // max_interval (kubeadm polls every 5 s; a join that finds the signature at once stays fast).
  std::chrono::milliseconds first_interval{200};
  std::chrono::milliseconds max_interval{2000};
  std::chrono::milliseconds request_timeout{10000};
};

struct DiscoveryEnv {
  HttpClientFactory http;
  util::Clock& clock;
  util::Printer& out;
};

// kubeadm's RetrieveValidatedConfigInfo: (1) anonymous GETs of cluster-info without any server
// check, every endpoint in order, polling until one serves a "jws-kubeconfig-<id>" signature or
// the timeout passes (each new reason for waiting is printed once); (2) the signature must be the
// detached JWS of the served kubeconfig under the token; (3) the kubeconfig must hold a cluster;
// (4) unless unsafe_skip_ca_verification, one certificate of its CA must match a pin; (5)
// cluster-info is fetched again over TLS verified by that CA and must be byte-identical.
// Errors (kubeadm's texts): the token id "is invalid for this cluster or it has expired"; the
// signature does not match (naming the token id); "cluster CA found in cluster-info ConfigMap is
// invalid: none of the public keys "sha256:..." are pinned"; "the second kubeconfig from the
// cluster-info ConfigMap (using validated TLS) was different from the first"; the last request
// error when no endpoint answered in time.
Result<VerifiedCluster> DiscoverWithToken(const TokenDiscoveryInput& in, DiscoveryEnv& env);

// kubeadm's pubkeypin check: OK when a certificate of `ca_pem` has one of the pins, else
// FailedPrecondition "none of the public keys "<pin>:<pin>" are pinned"; InvalidArgument when
// `ca_pem` holds no certificate or a pin is not "sha256:<64 hex>".
Status CheckPins(const std::string& ca_pem, const std::vector<std::string>& pins);

}  // namespace kkadm::phases::discovery
