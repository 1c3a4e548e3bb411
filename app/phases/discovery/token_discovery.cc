// Token discovery: cluster-info, its JWS signature, the CA pins, the verified re-fetch.
#include "app/phases/discovery/token_discovery.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "app/phases/discovery/cluster_info.h"
#include "app/util/bootstrap_token_syntax.h"
#include "app/util/duration.h"
#include "app/util/jws.h"
#include "app/util/pubkey_pin.h"

namespace kkadm::phases::discovery {
namespace {

constexpr const char* kPrefix = "discovery";

Result<util::BootstrapTokenParts> SplitToken(const std::string& token) {
  auto parts = util::SplitBootstrapToken(token);
  if (!parts) {
    return InvalidArgument("the bootstrap token \"" + token.substr(0, token.find('.')) +
                           ".<redacted>\" must match ^[a-z0-9]{6}\\.[a-z0-9]{16}$");
  }
  return *std::move(parts);
}

std::string TokenInvalidMessage(const std::string& id) {
  return fmt::format(
      "token id \"{}\" is invalid for this cluster or it has expired. Use \"kkadm token create\" "
      "on "
      "the control-plane node to create a new valid token",
      id);
}

// cluster-info as served by one endpoint, with a signature for the token.
struct SignedClusterInfo {
  std::string endpoint;
  ClusterInfo info;
};

// Polls cluster-info on a list of endpoints until one serves a signature for the token, printing
// each new reason to wait once; all polls of one discovery share one deadline.
class ClusterInfoPoller {
 public:
  ClusterInfoPoller(const TokenDiscoveryInput& in, DiscoveryEnv& env, std::string token_id)
      : in_(in), env_(env), id_(std::move(token_id)), deadline_(env.clock.Now() + in.timeout) {}

  Result<SignedClusterInfo> Poll(AnonymousClient& client,
                                 const std::vector<std::string>& endpoints) {
    std::chrono::milliseconds interval = in_.first_interval;
    while (true) {
      bool unsigned_seen = false;
      Status last = Unavailable("no API server endpoint to ask");
      for (const std::string& endpoint : endpoints) {
        auto info = FetchClusterInfo(client, EndpointUrl(endpoint));
        if (!info && info.error().code() == StatusCode::kFailedPrecondition) return info.error();
        if (!info) {
          last = info.error().Wrap("failed to request the cluster-info ConfigMap from \"" +
                                   endpoint + "\"");
          spdlog::debug("[discovery] {}", last.message());
          continue;
        }
        auto signature = info->signatures.find(id_);
        if (signature != info->signatures.end() && !signature->second.empty()) {
          return SignedClusterInfo{endpoint, std::move(*info)};
        }
        unsigned_seen = true;
      }
      const auto now = env_.clock.Now();
      if (now >= deadline_) return unsigned_seen ? NotFound(TokenInvalidMessage(id_)) : last;
      Notice(unsigned_seen ? UnsignedNotice()
                           : "Cannot read the cluster-info ConfigMap yet: " + last.message());
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - now);
      env_.clock.Sleep(std::min(interval, left));
      interval = std::min(interval * 2, in_.max_interval);
    }
  }

 private:
  std::string UnsignedNotice() const {
    return fmt::format(
        "The cluster-info ConfigMap has no JWS signature for token ID \"{}\" yet: the cluster does "
        "not know this token (unknown or expired), or has not signed it yet",
        id_);
  }
  // Each reason is printed once, with how long kkadm keeps trying.
  void Notice(const std::string& reason) {
    if (!noticed_.insert(reason).second) return;
    env_.out.Line(kPrefix, reason + ". Retrying for up to " + util::FormatDuration(in_.timeout));
  }

  const TokenDiscoveryInput& in_;
  DiscoveryEnv& env_;
  std::string id_;
  util::Clock::TimePoint deadline_;
  std::set<std::string> noticed_;
};

// Steps (2) and (3): the JWS signature, then the published cluster.
Result<util::KubeconfigCluster> ValidateSignedInfo(const SignedClusterInfo& found,
                                                   const util::BootstrapTokenParts& token) {
  if (found.info.kubeconfig.empty()) {
    return FailedPrecondition(
        "there is no kubeconfig key in the cluster-info ConfigMap. This API Server isn't set up "
        "for "
        "token bootstrapping, can't connect");
  }
  const std::string& signature = found.info.signatures.at(token.id);
  if (!util::DetachedSignatureMatches(found.info.kubeconfig, signature, token.id, token.secret)) {
    return FailedPrecondition(fmt::format(
        "failed to verify JWS signature of received cluster info object, can't trust this API "
        "Server: the signature for token ID \"{}\" does not match the cluster-info kubeconfig",
        token.id));
  }
  return ClusterOfClusterInfo(found.info.kubeconfig);
}

bool ValidPinFormat(const std::string& pin, std::string& problem) {
  const auto colon = pin.find(':');
  if (colon == std::string::npos || pin.find(':', colon + 1) != std::string::npos) {
    problem = "invalid hash, expected \"format:hex-value\". Known format(s) are: sha256";
    return false;
  }
  std::string format = pin.substr(0, colon);
  std::transform(format.begin(), format.end(), format.begin(), ::tolower);
  if (format != "sha256") {
    problem = fmt::format("unknown hash format \"{}\". Known format(s) are: sha256",
                          pin.substr(0, colon));
    return false;
  }
  const std::string hex = pin.substr(colon + 1);
  if (hex.size() != 64 || !std::all_of(hex.begin(), hex.end(), ::isxdigit)) {
    problem = fmt::format("invalid hash \"{}\", expected a 32 byte SHA-256 hash", pin);
    return false;
  }
  return true;
}

}  // namespace

Status CheckPins(const std::string& ca_pem, const std::vector<std::string>& pins) {
  std::set<std::string> allowed;
  for (const std::string& pin : pins) {
    std::string problem;
    if (!ValidPinFormat(pin, problem))
      return InvalidArgument("invalid discovery token CA certificate hash: " + problem);
    std::string lower = pin;
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    allowed.insert(lower);
  }
  auto found = util::PinsOfPemBundle(ca_pem);
  if (!found)
    return InvalidArgument("failed to parse cluster CA from the cluster-info ConfigMap: " +
                           found.error().message());
  for (const std::string& pin : *found) {
    if (allowed.count(pin)) return Status::Ok();
  }
  return FailedPrecondition(
      fmt::format("none of the public keys \"{}\" are pinned", fmt::join(*found, ":")));
}

Result<VerifiedCluster> DiscoverWithToken(const TokenDiscoveryInput& in, DiscoveryEnv& env) {
  auto token = SplitToken(in.token);
  if (!token) return token.error();
  ClusterInfoPoller poller(in, env, token->id);
  AnonymousClient insecure(env.http, ServerTrust::None(), in.request_timeout);
  auto found = poller.Poll(insecure, in.endpoints);
  if (!found) return found.error();
  spdlog::debug("[discovery] cluster-info from \"{}\" carries a signature for token ID \"{}\"",
                found->endpoint, token->id);
  auto cluster = ValidateSignedInfo(*found, *token);
  if (!cluster) return cluster.error();
  VerifiedCluster out{cluster->server, cluster->certificate_authority_data, found->endpoint, false};
  if (in.ca_cert_hashes.empty()) {
    // Only reachable with unsafeSkipCAVerification: configuration validation requires pins
    // otherwise.
    spdlog::warn("[discovery] no CA pin given: trusting the cluster CA from cluster-info as it is");
    return out;
  }
  KKADM_RETURN_IF_ERROR(CheckPins(out.ca_pem, in.ca_cert_hashes)
                            .Wrap("cluster CA found in cluster-info ConfigMap is invalid"));
  // The CA is now known: the same endpoint again, this time with TLS verified by it.
  AnonymousClient verified(env.http, ServerTrust::CaBundle(out.ca_pem), in.request_timeout);
  auto second = poller.Poll(verified, {found->endpoint});
  if (!second) {
    return second.error().Wrap(
        "requesting the cluster-info ConfigMap again over TLS verified by the pinned CA");
  }
  if (second->info.kubeconfig != found->info.kubeconfig) {
    return FailedPrecondition(
        "the second kubeconfig from the cluster-info ConfigMap (using validated TLS) was different "
        "from the first");
  }
  out.pinned = true;
  return out;
}

}  // namespace kkadm::phases::discovery
