// SAN helpers: IP parsing and printing, DNS-1123 names, dedup, CIDR arithmetic.
#include "app/util/pki/san.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

namespace kkadm::util::pki {
namespace {

constexpr char kV4MappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '\xff', '\xff'};

std::optional<IpBytes> ParseIpv4(std::string_view text) {
  IpBytes out;
  size_t pos = 0;
  for (int part = 0; part < 4; ++part) {
    if (part > 0) {
      if (pos >= text.size() || text[pos] != '.') return std::nullopt;
      ++pos;
    }
    size_t start = pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
    if (pos == start || pos - start > 3) return std::nullopt;
    unsigned value = 0;
    std::from_chars(text.data() + start, text.data() + pos, value);
    if (value > 255) return std::nullopt;
    out.push_back(static_cast<char>(value));
  }
  if (pos != text.size()) return std::nullopt;
  return out;
}

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool IsDns1123Label(std::string_view label) {
  if (label.empty() || label.size() > 63) return false;
  if (!IsLowerAlnum(label.front()) || !IsLowerAlnum(label.back())) return false;
  return std::all_of(label.begin(), label.end(),
                     [](char c) { return IsLowerAlnum(c) || c == '-'; });
}

}  // namespace

std::optional<IpBytes> ParseIp(std::string_view text) {
  if (text.find(':') == std::string_view::npos) return ParseIpv4(text);
  // IPv6, possibly with a dotted IPv4 tail; a zone ("%eth0") is not an IP, as in Go.
  std::string copy(text);
  unsigned char buf[16];
  if (inet_pton(AF_INET6, copy.c_str(), buf) != 1) return std::nullopt;
  IpBytes out(reinterpret_cast<char*>(buf), 16);
  if (out.compare(0, 12, kV4MappedPrefix, 12) == 0) return out.substr(12);
  return out;
}

std::string FormatIp(const IpBytes& ip) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (ip.size() == 4) {
    inet_ntop(AF_INET, ip.data(), buf, sizeof(buf));
  } else if (ip.size() == 16) {
    inet_ntop(AF_INET6, ip.data(), buf, sizeof(buf));
  } else {
    return "?";
  }
  return buf;
}

std::optional<std::string> CanonicalIp(std::string_view text) {
  auto ip = ParseIp(text);
  if (!ip) return std::nullopt;
  return FormatIp(*ip);
}

bool IsDns1123Subdomain(std::string_view name) {
  if (name.empty() || name.size() > 253) return false;
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    std::string_view label = name.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (!IsDns1123Label(label)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool IsWildcardDns1123Subdomain(std::string_view name) {
  return name.size() > 2 && name.substr(0, 2) == "*." && name.size() <= 253 &&
         IsDns1123Subdomain(name.substr(2));
}

std::vector<std::string> AppendSans(AltNames& names, const std::vector<std::string>& sans) {
  std::vector<std::string> skipped;
  for (const auto& san : sans) {
    if (auto ip = CanonicalIp(san)) {
      names.ips.push_back(*ip);
    } else if (IsDns1123Subdomain(san) || IsWildcardDns1123Subdomain(san)) {
      names.dns_names.push_back(san);
    } else {
      skipped.push_back(san);
    }
  }
  return skipped;
}

void RemoveDuplicateAltNames(AltNames& names) {
  std::set<std::string> dns(names.dns_names.begin(), names.dns_names.end());
  names.dns_names.assign(dns.begin(), dns.end());
  std::set<std::string> seen;
  std::vector<std::string> ips;
  for (const auto& ip : names.ips) {
    if (seen.insert(ip).second) ips.push_back(ip);
  }
  names.ips = std::move(ips);
}

Result<std::string> IndexedIpInCidr(std::string_view cidr, unsigned index) {
  auto slash = cidr.find('/');
  if (slash == std::string_view::npos) {
    return InvalidArgument("invalid CIDR address: " + std::string(cidr));
  }
  auto ip = ParseIp(cidr.substr(0, slash));
  std::string_view bits_text = cidr.substr(slash + 1);
  unsigned bits = 0;
  auto [end, ec] = std::from_chars(bits_text.data(), bits_text.data() + bits_text.size(), bits);
  if (!ip || ec != std::errc() || end != bits_text.data() + bits_text.size() || bits_text.empty() ||
      bits > ip->size() * 8) {
    return InvalidArgument("invalid CIDR address: " + std::string(cidr));
  }
  // Network address, then add `index` as a big-endian number, staying inside the prefix.
  IpBytes net = *ip;
  for (size_t i = 0; i < net.size(); ++i) {
    unsigned keep = bits >= (i + 1) * 8 ? 8 : (bits > i * 8 ? bits - i * 8 : 0);
    unsigned char mask = keep == 0 ? 0 : static_cast<unsigned char>(0xff << (8 - keep));
    net[i] = static_cast<char>(static_cast<unsigned char>(net[i]) & mask);
  }
  unsigned host_bits = static_cast<unsigned>(net.size() * 8) - bits;
  if (host_bits < 32 && index >= (1u << host_bits)) {
    return InvalidArgument("can't generate IP with index " + std::to_string(index) +
                           " from subnet. subnet too small. subnet: " + std::string(cidr));
  }
  unsigned carry = index;
  for (size_t i = net.size(); i-- > 0 && carry != 0;) {
    unsigned sum = static_cast<unsigned char>(net[i]) + (carry & 0xff);
    net[i] = static_cast<char>(sum & 0xff);
    carry = (carry >> 8) + (sum >> 8);
  }
  return FormatIp(net);
}

}  // namespace kkadm::util::pki
