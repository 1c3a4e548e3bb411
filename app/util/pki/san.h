// Subject alternative names as kubeadm computes them: sorting SANs into DNS names and IPs, and
// the AltNames dedup rule. The address and name rules are util's (net_rules.h).
#pragma once

#include <string>
#include <vector>

namespace kkadm::util::pki {

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

}  // namespace kkadm::util::pki
