// Pre-flight checks on services: Service-<Name>, Firewalld.
#include "app/phases/preflight/checks_services.h"

#include <fmt/format.h>

#include <cctype>
#include <utility>

namespace kkadm::phases::preflight {
namespace {

std::string NoInitSystemWarning(const Status& status) {
  return "no supported init system detected, skipping checking for services (" + status.message() +
         "); the kubelet-start phase will need systemd";
}

class ServiceCheck final : public Check {
 public:
  explicit ServiceCheck(std::string service) : service_(std::move(service)) {}
  std::string Name() const override {
    std::string title = service_;
    if (!title.empty())
      title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    return "Service-" + title;
  }
  CheckResult Run(const util::Host& host) const override {
    std::string unit = service_ + ".service";
    auto exists = host.init.Exists(unit);
    if (!exists) return {{NoInitSystemWarning(exists.error())}, {}};
    if (!*exists) return {{service_ + " service does not exist"}, {}};
    auto enabled = host.init.IsEnabled(unit);
    if (enabled && *enabled) return {};
    return {{fmt::format("{} service is not enabled, please run 'systemctl enable {}'", service_,
                         unit)},
            {}};
  }

 private:
  std::string service_;
};

class FirewalldCheck final : public Check {
 public:
  explicit FirewalldCheck(std::vector<int> ports) : ports_(std::move(ports)) {}
  std::string Name() const override { return "Firewalld"; }
  CheckResult Run(const util::Host& host) const override {
    auto exists = host.init.Exists("firewalld.service");
    if (!exists) return {{NoInitSystemWarning(exists.error())}, {}};
    if (!*exists) return {};
    auto active = host.init.IsActive("firewalld.service");
    if (!active || !*active) return {};
    // Go prints the []int as "[6443 10250]".
    return {{fmt::format("firewalld is active, please ensure ports [{}] are open or your cluster "
                         "may not function correctly",
                         fmt::join(ports_, " "))},
            {}};
  }

 private:
  std::vector<int> ports_;
};

}  // namespace

std::unique_ptr<Check> NewServiceCheck(std::string service) {
  return std::make_unique<ServiceCheck>(std::move(service));
}
std::unique_ptr<Check> NewFirewalldCheck(std::vector<int> ports) {
  return std::make_unique<FirewalldCheck>(std::move(ports));
}

}  // namespace kkadm::phases::preflight
