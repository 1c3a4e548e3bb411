// SAN helpers: sorting SANs into DNS names and IPs, and dedup (see san.h).
#include "app/util/pki/san.h"

#include <set>

#include "app/util/net_rules.h"

namespace kkadm::util::pki {

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

}  // namespace kkadm::util::pki
