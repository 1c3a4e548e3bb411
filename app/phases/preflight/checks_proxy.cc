// HTTPProxy and HTTPProxyCIDR: Go's proxy-from-environment rules (golang.org/x/net/http/httpproxy)
// applied to the API server's address and to the service and pod subnets.
#include "app/phases/preflight/checks_proxy.h"

#include <fmt/format.h>

#include <sstream>
#include <utility>

#include "app/util/ascii.h"
#include "app/util/net_rules.h"

namespace kkadm::phases::preflight {
namespace {

std::string EnvAny(const util::Machine& machine, const char* upper, const char* lower) {
  for (const char* name : {upper, lower}) {
    auto value = machine.Getenv(name);
    if (value && !value->empty()) return *value;
  }
  return "";
}

// One NO_PROXY entry against the request's host; true means "connect directly". As Go's
// httpproxy: "*", a CIDR, an IP (with an optional port) or a domain suffix (with an optional port),
// the addresses read strictly (net.ParseIP, net.ParseCIDR).
bool NoProxyMatches(const std::string& entry, const std::string& host,
                    const std::optional<util::IpBytes>& ip, const std::string& port) {
  if (entry == "*") return true;
  if (auto cidr = util::ParseCidrStrict(entry)) return ip && util::CidrContains(*cidr, *ip);
  util::HostPort entry_hp = util::SplitHostPort(entry).value_or(util::HostPort{entry, ""});
  std::string& entry_host = entry_hp.host;
  if (entry_host.empty()) return false;  // ":80": malformed, ignored
  bool port_ok = entry_hp.port.empty() || entry_hp.port == port;
  if (auto entry_ip = util::ParseIpStrict(entry_host)) return ip && *entry_ip == *ip && port_ok;
  if (entry_host.rfind("*.", 0) == 0) entry_host = entry_host.substr(1);
  bool match_host = entry_host.front() != '.';
  if (match_host) entry_host = "." + entry_host;
  bool suffix = host.size() >= entry_host.size() &&
                host.compare(host.size() - entry_host.size(), entry_host.size(), entry_host) == 0;
  return (suffix || (match_host && host == entry_host.substr(1))) && port_ok;
}

// The proxy URL as Go prints it: "http://" added when there is no scheme, password hidden.
std::string ProxyUrl(const std::string& value) {
  auto scheme_end = value.find("://");
  std::string url =
      scheme_end == std::string::npos || scheme_end + 3 == value.size() ? "http://" + value : value;
  std::size_t auth_start = url.find("://") + 3;
  std::size_t at = url.find('@', auth_start);
  std::size_t slash = url.find('/', auth_start);
  if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
    std::size_t colon = url.find(':', auth_start);
    if (colon != std::string::npos && colon < at) url.replace(colon + 1, at - colon - 1, "xxxxx");
  }
  return url;
}

class HttpProxyCheck final : public Check {
 public:
  explicit HttpProxyCheck(std::string host) : host_(std::move(host)) {}
  std::string Name() const override { return "HTTPProxy"; }
  CheckResult Run(const util::Host& host) const override {
    if (host_.empty()) return {};
    bool v6 = host_.find(':') != std::string::npos;
    std::string port = v6 ? "1234" : "443";  // kubeadm adds :1234 to IPv6 hosts only
    auto proxy = HttpsProxyFor(host.machine, host_, port);
    if (!proxy) return {};
    std::string url = v6 ? "https://[" + host_ + "]:1234" : "https://" + host_;
    return {{fmt::format("Connection to \"{}\" uses proxy \"{}\". If that is not intended, adjust "
                         "your proxy settings",
                         url, *proxy)},
            {}};
  }

 private:
  std::string host_;
};

class HttpProxyCidrCheck final : public Check {
 public:
  explicit HttpProxyCidrCheck(std::string cidr) : cidr_(std::move(cidr)) {}
  std::string Name() const override { return "HTTPProxyCIDR"; }
  CheckResult Run(const util::Host& host) const override {
    if (cidr_.empty()) return {};
    // kubeadm reads the CIDR sloppily (netutils.ParseCIDRSloppy) and asks about its first address
    // (netutils.GetIndexedIP), which Go's proxy rules then read strictly.
    if (!util::ParseCidr(cidr_)) {
      return {{},
              {fmt::format("error parsing CIDR \"{}\": invalid CIDR address: {}", cidr_, cidr_)}};
    }
    auto first = util::IndexedIpInCidr(cidr_, 1);
    if (!first) {
      return {{},
              {fmt::format("unable to get first IP address from the given CIDR ({}): {}", cidr_,
                           first.error().message())}};
    }
    auto proxy = HttpsProxyFor(host.machine, *first, "1234");
    if (!proxy) return {};
    return {{fmt::format("connection to \"{}\" uses proxy \"{}\". This may lead to malfunctional "
                         "cluster setup. Make sure that Pod and Services IP ranges specified "
                         "correctly as exceptions in proxy configuration",
                         cidr_, *proxy)},
            {}};
  }

 private:
  std::string cidr_;
};

}  // namespace

std::optional<std::string> HttpsProxyFor(const util::Machine& machine, const std::string& host,
                                         const std::string& port) {
  std::string proxy = EnvAny(machine, "HTTPS_PROXY", "https_proxy");
  if (proxy.empty()) return std::nullopt;
  std::string name = util::AsciiToLower(util::TrimSpace(host));
  auto ip = util::ParseIpStrict(name);
  if (name == "localhost" || (ip && util::IsLoopbackIp(*ip))) return std::nullopt;
  std::istringstream entries(EnvAny(machine, "NO_PROXY", "no_proxy"));
  for (std::string entry; std::getline(entries, entry, ',');) {
    entry = util::AsciiToLower(util::TrimSpace(entry));
    if (!entry.empty() && NoProxyMatches(entry, name, ip, port)) return std::nullopt;
  }
  return ProxyUrl(proxy);
}

std::unique_ptr<Check> NewHttpProxyCheck(std::string host) {
  return std::make_unique<HttpProxyCheck>(std::move(host));
}
std::unique_ptr<Check> NewHttpProxyCidrCheck(std::string cidr) {
  return std::make_unique<HttpProxyCidrCheck>(std::move(cidr));
}

}  // namespace kkadm::phases::preflight
