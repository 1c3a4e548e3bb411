// Subject alternative names as kubeadm computes them: IP text handling (Go's net.ParseIP and
// IP.String), DNS-1123 validation, the AltNames dedup rule, and the n-th address of a CIDR.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util::pki {

// An IP address as raw bytes: 4 for IPv4 (also for IPv4-mapped IPv6 text), 16 for IPv6.
using IpBytes = std::string;

// Parses "10.0.0.1", "010.0.0.1" (leading zeros accepted, as netutils.ParseIPSloppy does),
// "fd00::1" or "::ffff:10.0.0.1"; nullopt when the text is not an IP address.
std::optional<IpBytes> ParseIp(std::string_view text);

// Go's IP.String(): dotted quad for IPv4, RFC 5952 text for IPv6.
std::string FormatIp(const IpBytes& ip);

// Canonical text of an IP literal ("010.0.0.1" -> "10.0.0.1"); nullopt when not an IP.
std::optional<std::string> CanonicalIp(std::string_view text);

// Kubernetes' IsDNS1123Subdomain: at most 253 characters, lower-case alphanumerics, '-' and
// '.', every label starting and ending alphanumeric.
bool IsDns1123Subdomain(std::string_view name);
// Kubernetes' IsWildcardDNS1123Subdomain: "*." followed by a DNS-1123 subdomain.
bool IsWildcardDns1123Subdomain(std::string_view name);

struct AltNames {
  std::vector<std::string> dns_names;
  std::vector<std::string> ips;  // canonical text
};

// Adds each of `sans`: an IP to ips, a DNS-1123 (or wildcard) name to dns_names; anything else is
// skipped and returned, so the caller can warn about it.
std::vector<std::string> AppendSans(AltNames& names, const std::vector<std::string>& sans);

// kubeadm's RemoveDuplicateAltNames: DNS names deduplicated and sorted; IPs deduplicated in
// first-seen order.
void RemoveDuplicateAltNames(AltNames& names);

// The address `index` places after the network address of `cidr` ("10.96.0.0/12", 1 ->
// "10.96.0.1"). InvalidArgument for a malformed CIDR or an index outside the range.
Result<std::string> IndexedIpInCidr(std::string_view cidr, unsigned index);

}  // namespace kkadm::util::pki
