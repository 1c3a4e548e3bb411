// IP/CIDR/DNS/host:port syntax checks (pure functions, no network).
#include "app/config/net_rules.h"

#include <arpa/inet.h>

#include <algorithm>

#include "app/util/ascii.h"

namespace kkadm::config {
namespace {

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool HasDNS1123LabelForm(std::string_view label) {
  return !label.empty() && util::IsLowerAlnum(label.front()) && util::IsLowerAlnum(label.back()) &&
         util::AllOf(label, [](char c) { return util::IsLowerAlnum(c) || c == '-'; });
}

}  // namespace

bool IP::Unspecified() const {
  size_t n = v6 ? 16 : 4;
  return std::all_of(bytes.begin(), bytes.begin() + n, [](unsigned char b) { return b == 0; });
}

std::optional<IP> ParseIP(const std::string& text) {
  IP ip;
  if (inet_pton(AF_INET, text.c_str(), ip.bytes.data()) == 1) return ip;
  ip.v6 = true;
  if (text.find(':') != std::string::npos && inet_pton(AF_INET6, text.c_str(), ip.bytes.data()) == 1) return ip;
  return std::nullopt;
}

std::optional<Cidr> ParseCidr(const std::string& text) {
  size_t slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  auto ip = ParseIP(text.substr(0, slash));
  std::string prefix = text.substr(slash + 1);
  if (!ip || prefix.empty() || prefix.size() > 3 ||
      !std::all_of(prefix.begin(), prefix.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  Cidr cidr{*ip, std::stoi(prefix)};
  if (cidr.prefix > cidr.Bits()) return std::nullopt;
  return cidr;
}

std::vector<std::string> SplitComma(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

bool IsDNS1123Label(const std::string& name) {
  return name.size() <= 63 && HasDNS1123LabelForm(name);
}

bool IsDNS1123Subdomain(const std::string& name) {
  return name.size() <= 253 && HasDNS1123SubdomainForm(name);
}

bool HasDNS1123SubdomainForm(std::string_view name) {
  for (size_t start = 0;;) {
    const size_t dot = name.find('.', start);
    if (!HasDNS1123LabelForm(name.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool HasQualifiedNameForm(std::string_view name) {
  return !name.empty() && util::IsAsciiAlnum(name.front()) && util::IsAsciiAlnum(name.back()) &&
         util::AllOf(name, [](char c) {
           return util::IsAsciiAlnum(c) || c == '-' || c == '_' || c == '.';
         });
}

bool IsWildcardDNS1123Subdomain(const std::string& name) {
  return name.size() > 2 && name.rfind("*.", 0) == 0 && IsDNS1123Subdomain(name.substr(2));
}

std::optional<std::string> HostPortProblem(const std::string& text, bool port_required) {
  std::string host = text;
  std::string port;
  if (!text.empty() && text[0] == '[') {
    size_t close = text.find(']');
    if (close == std::string::npos) return "missing ']' in address";
    host = text.substr(1, close - 1);
    if (close + 1 < text.size()) {
      if (text[close + 1] != ':') return "expected ':' after ']'";
      port = text.substr(close + 2);
    }
    if (port.empty() && close + 1 < text.size()) return "missing port";
  } else if (std::count(text.begin(), text.end(), ':') == 1) {
    host = text.substr(0, text.find(':'));
    port = text.substr(text.find(':') + 1);
    if (port.empty()) return "missing port";
  }
  if (port_required && port.empty()) return "must be in the form host:port";
  if (!ParseIP(host) && !IsDNS1123Subdomain(host)) return "host must be a valid IP address or DNS-1123 subdomain";
  if (!port.empty()) {
    if (port.size() > 5 || !std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return "port must be a number between 1 and 65535";
    }
    int p = std::stoi(port);
    if (p < 1 || p > 65535) return "port must be a number between 1 and 65535";
  }
  return std::nullopt;
}

}  // namespace kkadm::config
