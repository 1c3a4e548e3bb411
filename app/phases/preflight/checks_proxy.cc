// HTTPProxy and HTTPProxyCIDR: Go's proxy-from-environment rules (golang.org/x/net/http/httpproxy)
// applied to the API server's address and to the service and pod subnets.
#include "app/phases/preflight/checks_proxy.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <utility>

#include "app/util/ascii.h"

namespace kkadm::phases::preflight {
namespace {

// An IP address in 16-byte form; IPv4 is kept IPv4-mapped, as Go's net.IP does.
struct Ip {
  std::array<std::uint8_t, 16> bytes{};
  bool v4 = false;
};

std::optional<Ip> ParseIp(const std::string& text) {
  Ip ip;
  in_addr v4{};
  if (::inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    ip.v4 = true;
    ip.bytes[10] = ip.bytes[11] = 0xff;
    std::memcpy(&ip.bytes[12], &v4, 4);
    return ip;
  }
  if (::inet_pton(AF_INET6, text.c_str(), ip.bytes.data()) == 1) return ip;
  return std::nullopt;
}

std::string IpString(const Ip& ip) {
  char text[INET6_ADDRSTRLEN] = {};
  if (ip.v4) {
    ::inet_ntop(AF_INET, &ip.bytes[12], text, sizeof(text));
  } else {
    ::inet_ntop(AF_INET6, ip.bytes.data(), text, sizeof(text));
  }
  return text;
}

struct Cidr {
  Ip network;    // masked
  int bits = 0;  // over the 16-byte form
};

std::optional<Cidr> ParseCidr(const std::string& text) {
  auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  auto ip = ParseIp(text.substr(0, slash));
  std::string len = text.substr(slash + 1);
  if (!ip || len.empty() || len.size() > 3 ||
      !std::all_of(len.begin(), len.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return std::nullopt;
  }
  int prefix = std::stoi(len);
  if (prefix > (ip->v4 ? 32 : 128)) return std::nullopt;
  Cidr cidr{*ip, prefix + (ip->v4 ? 96 : 0)};
  for (int bit = cidr.bits; bit < 128; ++bit) {
    cidr.network.bytes[bit / 8] &= static_cast<std::uint8_t>(~(0x80 >> (bit % 8)));
  }
  return cidr;
}

bool Contains(const Cidr& cidr, const Ip& ip) {
  if (cidr.network.v4 != ip.v4) return false;
  for (int bit = 0; bit < cidr.bits; ++bit) {
    int mask = 0x80 >> (bit % 8);
    if ((cidr.network.bytes[bit / 8] & mask) != (ip.bytes[bit / 8] & mask)) return false;
  }
  return true;
}

bool IsLoopback(const Ip& ip) {
  if (ip.v4) return ip.bytes[12] == 127;
  Ip one;
  one.bytes[15] = 1;
  return ip.bytes == one.bytes;
}

std::string EnvAny(const util::Machine& machine, const char* upper, const char* lower) {
  for (const char* name : {upper, lower}) {
    auto value = machine.Getenv(name);
    if (value && !value->empty()) return *value;
  }
  return "";
}

// Splits "host:port" / "[v6]:port"; false when there is no port part.
bool SplitHostPort(const std::string& entry, std::string& host, std::string& port) {
  if (!entry.empty() && entry.front() == '[') {
    auto close = entry.find("]:");
    if (close == std::string::npos) return false;
    host = entry.substr(1, close - 1);
    port = entry.substr(close + 2);
    return true;
  }
  auto colon = entry.rfind(':');
  if (colon == std::string::npos || entry.find(':') != colon) return false;
  host = entry.substr(0, colon);
  port = entry.substr(colon + 1);
  return true;
}

// One NO_PROXY entry against the request's host; true means "connect directly".
bool NoProxyMatches(std::string entry, const std::string& host, const std::optional<Ip>& ip,
                    const std::string& port) {
  if (entry == "*") return true;
  if (auto cidr = ParseCidr(entry)) return ip && Contains(*cidr, *ip);
  std::string entry_host = entry, entry_port;
  if (SplitHostPort(entry, entry_host, entry_port) && entry_host.empty()) return false;
  bool port_ok = entry_port.empty() || entry_port == port;
  if (auto entry_ip = ParseIp(entry_host)) return ip && entry_ip->bytes == ip->bytes && port_ok;
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
    auto cidr = ParseCidr(cidr_);
    if (!cidr) {
      return {{},
              {fmt::format("error parsing CIDR \"{}\": invalid CIDR address: {}", cidr_, cidr_)}};
    }
    Ip first = cidr->network;
    for (int i = 15; i >= 0 && ++first.bytes[i] == 0; --i) {
    }
    auto proxy = HttpsProxyFor(host.machine, IpString(first), "1234");
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
  auto ip = ParseIp(name);
  if (name == "localhost" || (ip && IsLoopback(*ip))) return std::nullopt;
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
