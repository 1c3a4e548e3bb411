// Syntax rules kubeadm's validation uses: IP addresses, CIDRs, DNS-1123 and qualified names,
// host:port.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kkadm::config {

struct IP {
  bool v6 = false;
  std::array<unsigned char, 16> bytes{};  // v4 uses the first 4
  bool Unspecified() const;
};

struct Cidr {
  IP ip;
  int prefix = 0;
  int Bits() const { return ip.v6 ? 128 : 32; }
};

std::optional<IP> ParseIP(const std::string& text);
std::optional<Cidr> ParseCidr(const std::string& text);
// Splits "a,b" at commas (no trimming, as Go's strings.Split).
std::vector<std::string> SplitComma(const std::string& text);

bool IsDNS1123Subdomain(const std::string& name);
bool IsDNS1123Label(const std::string& name);
bool IsWildcardDNS1123Subdomain(const std::string& name);  // "*.example.com"

// The form of a DNS-1123 subdomain, without its 253-character limit (apimachinery's
// dns1123SubdomainFmt): [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*
bool HasDNS1123SubdomainForm(std::string_view name);
// The form of a qualified name's name part, without its 63-character limit (apimachinery's
// qualifiedNameFmt): ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool HasQualifiedNameForm(std::string_view name);

// "host" or "host:port" / "[v6]:port" with host an IP or DNS-1123 subdomain and port 1..65535.
// Returns the reason it is invalid, or nullopt.
std::optional<std::string> HostPortProblem(const std::string& text, bool port_required);

}  // namespace kkadm::config
