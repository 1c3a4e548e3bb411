// Syntax rules of network addresses and names, as kubeadm's validation, certificates and clients
// apply them (Go's net, k8s.io/utils/net, apimachinery's validation): IP addresses, CIDRs,
// DNS-1123 and qualified names, host:port. kkadm's one home of these rules; pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util {

// An IP address as Go keeps one after To4: 4 bytes for IPv4 (also for IPv4-mapped IPv6 text such
// as "::ffff:10.0.0.1"), 16 for IPv6.
using IpBytes = std::string;

// netutils.ParseIPSloppy: "10.0.0.1", "010.0.0.1" (leading zeros read as decimal), "fd00::1",
// "::ffff:10.0.0.1"; nullopt when the text is not an IP address (a zone such as "%eth0" is not).
std::optional<IpBytes> ParseIp(std::string_view text);
// Go's IP.String(): dotted quad for IPv4 (IPv4-mapped included), RFC 5952 text for IPv6.
std::string FormatIp(const IpBytes& ip);
// The canonical text of an IP literal ("010.0.0.1" -> "10.0.0.1"); nullopt when not an IP.
std::optional<std::string> CanonicalIp(std::string_view text);
// Go's IP.IsUnspecified: 0.0.0.0 or ::.
bool IsUnspecifiedIp(const IpBytes& ip);
// netutils.IsIPv6String: an IP address (ParseIp) that is not IPv4, nor IPv4-mapped.
bool IsIpv6Address(std::string_view text);
// The loopback address of `address`'s family, where kubeadm's local etcd listens: "::1" for an
// IPv6 address (IsIpv6Address), else "127.0.0.1".
std::string LocalhostFor(std::string_view address);
// Go's IP.IsLoopback: 127.0.0.0/8 or ::1.
bool IsLoopbackIp(const IpBytes& ip);
// Go's net.ParseIP, stricter than ParseIp: an IPv4 part with a leading zero ("010.0.0.1") is
// refused. Go's proxy rules (golang.org/x/net/http/httpproxy) read addresses this way.
std::optional<IpBytes> ParseIpStrict(std::string_view text);

// "<ip>/<prefix>" as netutils.ParseCIDRSloppy reads it.
struct Cidr {
  IpBytes ip;  // as written, not masked: 16 bytes whenever the address is IPv6 text
  int prefix = 0;
  int Bits() const { return static_cast<int>(ip.size()) * 8; }
  // netutils.IsIPv6CIDR: the masked network is IPv6 and not IPv4-mapped.
  bool IsIpv6() const;
};
std::optional<Cidr> ParseCidr(std::string_view text);
// Go's net.ParseCIDR: the address as ParseIpStrict reads it.
std::optional<Cidr> ParseCidrStrict(std::string_view text);
// Go's IPNet.Contains for the network ParseCidr*(text) gives: an IPv4 address matches an IPv4
// network (or an IPv4-mapped one, on the mask's last 32 bits), an IPv6 address an IPv6 network.
bool CidrContains(const Cidr& cidr, const IpBytes& ip);

// The address `index` places after the network address of `cidr` ("10.96.0.0/12", 1 ->
// "10.96.0.1"; netutils.GetIndexedIP). InvalidArgument for a malformed CIDR or an index outside it.
Result<std::string> IndexedIpInCidr(std::string_view cidr, unsigned index);

// apimachinery's IsDNS1123Label: at most 63 of [a-z0-9-], alphanumeric at both ends.
bool IsDns1123Label(std::string_view name);
// apimachinery's IsDNS1123Subdomain: at most 253 characters of dot-separated labels of the label
// form; a label alone may be longer than 63 characters, as in Kubernetes.
bool IsDns1123Subdomain(std::string_view name);
// apimachinery's IsWildcardDNS1123Subdomain: "*." then a subdomain, at most 253 characters in all.
bool IsWildcardDns1123Subdomain(std::string_view name);
// The form of a DNS-1123 subdomain, without its length limit (apimachinery's dns1123SubdomainFmt):
// [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*
bool HasDns1123SubdomainForm(std::string_view name);
// The form of a qualified name's name part, without its 63-character limit (apimachinery's
// qualifiedNameFmt): ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool HasQualifiedNameForm(std::string_view name);

struct HostPort {
  std::string host;  // without brackets
  std::string port;  // empty when none was given
};

// Go's net.JoinHostPort: "host:port", the host bracketed when it holds a colon (IPv6).
std::string JoinHostPort(std::string_view host, std::string_view port);
std::string JoinHostPort(std::string_view host, int port);
// Go's net.SplitHostPort: "host:port", "[host]:port" (the port may be empty); nullopt where Go
// fails (no port, too many colons, stray brackets).
std::optional<HostPort> SplitHostPort(std::string_view hostport);
// kubeadm's ParsePort: a decimal number from 1 to 65535 (leading zeros allowed, no sign).
bool IsValidPort(std::string_view port);
// kubeadm's ParseHostPort: SplitHostPort, else the whole text is the host; the port, if any, must
// be valid and the host an IP (sloppy) or a DNS-1123 subdomain. InvalidArgument otherwise, with
// kubeadm's message.
Result<HostPort> ParseHostPort(std::string_view hostport);

}  // namespace kkadm::util
