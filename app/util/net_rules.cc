// IP, CIDR, DNS-1123 and host:port rules (see net_rules.h).
#include "app/util/net_rules.h"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>

#include "app/util/ascii.h"

namespace kkadm::util {
namespace {

constexpr std::string_view kV4MappedPrefix("\0\0\0\0\0\0\0\0\0\0\xff\xff", 12);

bool IsV4Mapped(const IpBytes& ip) { return ip.size() == 16 && ip.starts_with(kV4MappedPrefix); }

// Go's dtoi: the decimal number at the front of `s`, taken; nullopt without digits or past 2^24.
std::optional<unsigned> LeadingDecimal(std::string_view& s) {
  unsigned n = 0;
  size_t i = 0;
  for (; i < s.size() && IsAsciiDigit(s[i]); ++i) {
    n = n * 10 + static_cast<unsigned>(s[i] - '0');
    if (n >= 0xFFFFFF) return std::nullopt;
  }
  if (i == 0) return std::nullopt;
  s.remove_prefix(i);
  return n;
}

// The forked Go parseIPv4 of k8s.io/utils/net: four decimal parts, leading zeros allowed.
std::optional<IpBytes> ParseIpv4(std::string_view s) {
  IpBytes out;
  for (int part = 0; part < 4; ++part) {
    if (part > 0 && !(!s.empty() && s.front() == '.')) return std::nullopt;
    if (part > 0) s.remove_prefix(1);
    const std::optional<unsigned> n = LeadingDecimal(s);
    if (!n || *n > 255) return std::nullopt;
    out.push_back(static_cast<char>(*n));
  }
  if (!s.empty()) return std::nullopt;
  return out;
}

// Go's parseIPv4: four decimal parts of one to three digits, without leading zeros.
std::optional<IpBytes> ParseIpv4Strict(std::string_view s) {
  for (size_t start = 0;;) {
    const size_t dot = s.find('.', start);
    const std::string_view part = s.substr(start, dot - start);
    if (part.size() > 1 && part.front() == '0') return std::nullopt;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return ParseIpv4(s);
}

// 16 bytes, IPv4-mapped ones kept as they are.
std::optional<IpBytes> ParseIpv6(std::string_view s) {
  unsigned char bytes[16];
  if (inet_pton(AF_INET6, std::string(s).c_str(), bytes) != 1) return std::nullopt;
  return IpBytes(reinterpret_cast<const char*>(bytes), sizeof bytes);
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool HasDns1123LabelForm(std::string_view label) {
  return !label.empty() && IsLowerAlnum(label.front()) && IsLowerAlnum(label.back()) &&
         AllOf(label, [](char c) { return IsLowerAlnum(c) || c == '-'; });
}

IpBytes Masked(IpBytes ip, int prefix) {
  for (int bit = prefix; bit < static_cast<int>(ip.size()) * 8; ++bit) {
    ip[bit / 8] =
        static_cast<char>(static_cast<unsigned char>(ip[bit / 8]) & ~(0x80u >> (bit % 8)));
  }
  return ip;
}

}  // namespace

std::optional<IpBytes> ParseIp(std::string_view text) {
  // Go's parseIP: the first '.' or ':' decides the family.
  const size_t first = text.find_first_of(".:");
  if (first == std::string_view::npos) return std::nullopt;
  if (text[first] == '.') return ParseIpv4(text);
  std::optional<IpBytes> ip = ParseIpv6(text);
  if (ip && IsV4Mapped(*ip)) return ip->substr(12);
  return ip;
}

std::string FormatIp(const IpBytes& ip) {
  char text[INET6_ADDRSTRLEN] = {};
  if (ip.size() == 4 || IsV4Mapped(ip)) {
    inet_ntop(AF_INET, ip.data() + ip.size() - 4, text, sizeof text);
  } else if (ip.size() == 16) {
    inet_ntop(AF_INET6, ip.data(), text, sizeof text);
  } else {
    return "?";
  }
  return text;
}

std::optional<std::string> CanonicalIp(std::string_view text) {
  auto ip = ParseIp(text);
  if (!ip) return std::nullopt;
  return FormatIp(*ip);
}

bool IsUnspecifiedIp(const IpBytes& ip) {
  return std::all_of(ip.begin(), ip.end(), [](char b) { return b == 0; });
}

bool IsIpv6Address(std::string_view text) {
  const std::optional<IpBytes> ip = ParseIp(text);
  return ip && ip->size() == 16;
}

std::string LocalhostFor(std::string_view address) {
  return IsIpv6Address(address) ? "::1" : "127.0.0.1";
}

bool IsLoopbackIp(const IpBytes& ip) {
  if (ip.size() == 4) return ip[0] == 127;
  if (IsV4Mapped(ip)) return ip[12] == 127;
  return ip == IpBytes(15, '\0') + '\x01';
}

std::optional<IpBytes> ParseIpStrict(std::string_view text) {
  const size_t first = text.find_first_of(".:");
  if (first == std::string_view::npos) return std::nullopt;
  if (text[first] == '.') return ParseIpv4Strict(text);
  // IPv6 text: inet_pton refuses leading zeros in an embedded IPv4 part, as Go does.
  return ParseIp(text);
}

bool Cidr::IsIpv6() const { return ip.size() == 16 && !IsV4Mapped(Masked(ip, prefix)); }

std::optional<Cidr> ParseCidr(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::optional<IpBytes> ip = ParseIpv4(text.substr(0, slash));
  if (!ip) ip = ParseIpv6(text.substr(0, slash));
  std::string_view mask = text.substr(slash + 1);
  const std::optional<unsigned> prefix = LeadingDecimal(mask);
  if (!ip || !prefix || !mask.empty() || *prefix > ip->size() * 8) return std::nullopt;
  return Cidr{*ip, static_cast<int>(*prefix)};
}

std::optional<Cidr> ParseCidrStrict(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::optional<IpBytes> ip = ParseIpv4Strict(text.substr(0, slash));
  if (!ip) ip = ParseIpv6(text.substr(0, slash));
  if (!ip) return std::nullopt;
  return ParseCidr(text);
}

bool CidrContains(const Cidr& cidr, const IpBytes& ip) {
  IpBytes network = Masked(cidr.ip, cidr.prefix);
  int prefix = cidr.prefix;
  // Go compares IPv4-mapped networks as IPv4, on the last 32 bits of their mask.
  if (IsV4Mapped(network)) {
    network = network.substr(12);
    prefix = std::max(prefix - 96, 0);
  }
  const IpBytes address = IsV4Mapped(ip) ? ip.substr(12) : ip;
  return address.size() == network.size() && Masked(address, prefix) == network;
}

Result<std::string> IndexedIpInCidr(std::string_view cidr, unsigned index) {
  const std::optional<Cidr> parsed = ParseCidr(cidr);
  if (!parsed) return InvalidArgument("invalid CIDR address: " + std::string(cidr));
  IpBytes net = Masked(parsed->ip, parsed->prefix);
  const int host_bits = parsed->Bits() - parsed->prefix;
  if (host_bits < 32 && index >= (1u << host_bits)) {
    return InvalidArgument("can't generate IP with index " + std::to_string(index) +
                           " from subnet. subnet too small. subnet: " + std::string(cidr));
  }
  // Add `index` to the network address as a big-endian number.
  unsigned carry = index;
  for (size_t i = net.size(); i-- > 0 && carry != 0;) {
    const unsigned sum = static_cast<unsigned char>(net[i]) + (carry & 0xff);
    net[i] = static_cast<char>(sum & 0xff);
    carry = (carry >> 8) + (sum >> 8);
  }
  return FormatIp(net);
}

bool IsDns1123Label(std::string_view name) {
  return name.size() <= 63 && HasDns1123LabelForm(name);
}

bool IsDns1123Subdomain(std::string_view name) {
  return name.size() <= 253 && HasDns1123SubdomainForm(name);
}

bool IsWildcardDns1123Subdomain(std::string_view name) {
  return name.size() <= 253 && name.starts_with("*.") && HasDns1123SubdomainForm(name.substr(2));
}

bool HasDns1123SubdomainForm(std::string_view name) {
  for (size_t start = 0;;) {
    const size_t dot = name.find('.', start);
    if (!HasDns1123LabelForm(name.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool HasQualifiedNameForm(std::string_view name) {
  return !name.empty() && IsAsciiAlnum(name.front()) && IsAsciiAlnum(name.back()) &&
         AllOf(name, [](char c) { return IsAsciiAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

std::string JoinHostPort(std::string_view host, std::string_view port) {
  if (host.find(':') != std::string_view::npos) {
    return "[" + std::string(host) + "]:" + std::string(port);
  }
  return std::string(host) + ":" + std::string(port);
}

std::string JoinHostPort(std::string_view host, int port) {
  return JoinHostPort(host, std::to_string(port));
}

std::optional<HostPort> SplitHostPort(std::string_view hostport) {
  const size_t colon = hostport.rfind(':');  // the port starts after the last colon
  if (colon == std::string_view::npos) return std::nullopt;
  HostPort out;
  size_t no_open = 0, no_close = 0;  // where a '[' resp. ']' may no longer appear
  if (hostport.front() == '[') {
    const size_t close = hostport.find(']');
    // The ']' must come just before the last ':'.
    if (close == std::string_view::npos || close + 1 != colon) return std::nullopt;
    out.host = hostport.substr(1, close - 1);
    no_open = 1;
    no_close = close + 1;
  } else {
    out.host = hostport.substr(0, colon);
    if (out.host.find(':') != std::string::npos) return std::nullopt;
  }
  if (hostport.find('[', no_open) != std::string_view::npos ||
      hostport.find(']', no_close) != std::string_view::npos) {
    return std::nullopt;
  }
  out.port = hostport.substr(colon + 1);
  return out;
}

bool IsValidPort(std::string_view port) {
  unsigned value = 0;
  const char* end = port.data() + port.size();
  auto [stop, error] = std::from_chars(port.data(), end, value);
  return !port.empty() && IsAsciiDigit(port.front()) && error == std::errc() && stop == end &&
         value >= 1 && value <= 65535;
}

Result<HostPort> ParseHostPort(std::string_view hostport) {
  HostPort hp = SplitHostPort(hostport).value_or(HostPort{std::string(hostport), ""});
  if (!hp.port.empty() && !IsValidPort(hp.port)) {
    return InvalidArgument("hostport " + std::string(hostport) + ": port " + hp.port +
                           " must be a valid number between 1 and 65535, inclusive");
  }
  if (ParseIp(hp.host) || IsDns1123Subdomain(hp.host)) return hp;
  return InvalidArgument("hostport " + std::string(hostport) + ": host '" + hp.host +
                         "' must be a valid IP address or a valid RFC-1123 DNS subdomain");
}

}  // namespace kkadm::util
