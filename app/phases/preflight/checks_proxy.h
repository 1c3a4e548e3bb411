// Pre-flight checks that warn when HTTPS traffic to the cluster would go through a proxy
// (HTTPS_PROXY / NO_PROXY, read through util::Machine::Getenv).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/phases/preflight/check.h"
#include "app/util/machine.h"

namespace kkadm::phases::preflight {

// "HTTPProxy": warning when https://<host> would be fetched through a proxy.
std::unique_ptr<Check> NewHttpProxyCheck(std::string host);
// "HTTPProxyCIDR": warning when the first address of `cidr` would be reached through a proxy;
// an unparsable CIDR is an error, an empty one passes.
std::unique_ptr<Check> NewHttpProxyCidrCheck(std::string cidr);

// The proxy URL Go's http.ProxyFromEnvironment would use for an https request to `host`
// (hostname or IP, no brackets) on `port`, with any password redacted; nullopt for a direct
// connection.
std::optional<std::string> HttpsProxyFor(const util::Machine& machine, const std::string& host,
                                         const std::string& port);

}  // namespace kkadm::phases::preflight
