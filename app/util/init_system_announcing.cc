// AnnouncingInitSystem: a line per service change, then the change.
#include "app/util/init_system_announcing.h"

#include <fmt/format.h>

namespace kkadm::util {

std::string ServiceName(const std::string& unit) {
  constexpr std::string_view kSuffix = ".service";
  if (unit.size() > kSuffix.size() &&
      unit.compare(unit.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0) {
    return unit.substr(0, unit.size() - kSuffix.size());
  }
  return unit;
}

void AnnouncingInitSystem::Say(const std::string& doing, const std::string& unit) {
  out_.Line(prefix_, fmt::format("{} the {} service", doing, ServiceName(unit)));
}

Status AnnouncingInitSystem::DaemonReload() {
  out_.Line(prefix_, "Reloading the systemd manager configuration");
  return inner_.DaemonReload();
}

Status AnnouncingInitSystem::Start(const std::string& unit) {
  Say("Starting", unit);
  return inner_.Start(unit);
}

Status AnnouncingInitSystem::Stop(const std::string& unit) {
  Say("Stopping", unit);
  return inner_.Stop(unit);
}

Status AnnouncingInitSystem::Restart(const std::string& unit) {
  Say("Restarting", unit);
  return inner_.Restart(unit);
}

Status AnnouncingInitSystem::Enable(const std::string& unit) {
  Say("Enabling", unit);
  return inner_.Enable(unit);
}

Status AnnouncingInitSystem::Disable(const std::string& unit) {
  Say("Disabling", unit);
  return inner_.Disable(unit);
}

}  // namespace kkadm::util
