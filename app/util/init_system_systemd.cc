// SystemdInitSystem: systemd's Manager/Unit D-Bus API through sd-bus.
#include "app/util/init_system_systemd.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <systemd/sd-bus.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>

#include "app/util/sd_bus_library.h"

namespace kkadm::util {
namespace {

constexpr const char* kDestination = "org.freedesktop.systemd1";
constexpr const char* kManagerPath = "/org/freedesktop/systemd1";
constexpr const char* kManager = "org.freedesktop.systemd1.Manager";
constexpr const char* kUnit = "org.freedesktop.systemd1.Unit";

// "<what>: <D-Bus error name>: <message>", with a code the caller can act on.
Status FromBus(const std::string& what, const sd_bus_error& e, int r) {
  std::string name = e.name ? e.name : "";
  std::string text = e.message ? e.message : std::strerror(-r);
  std::string message = name.empty() ? fmt::format("{}: {}", what, text)
                                     : fmt::format("{}: {}: {}", what, name, text);
  if (name == "org.freedesktop.systemd1.NoSuchUnit" ||
      name == "org.freedesktop.DBus.Error.FileNotFound") {
    return NotFound(message);
  }
  if (name.empty() || name == "org.freedesktop.DBus.Error.NoReply" ||
      name == "org.freedesktop.DBus.Error.Disconnected" ||
      name == "org.freedesktop.DBus.Error.ServiceUnknown" ||
      name == "org.freedesktop.DBus.Error.NoServer") {
    return Unavailable(message);
  }
  if (name == "org.freedesktop.DBus.Error.InvalidArgs" ||
      name == "org.freedesktop.DBus.Error.UnknownObject") {
    return InvalidArgument(message);
  }
  return FailedPrecondition(message);
}

// What JobRemoved told us about the job we wait for.
struct JobWait {
  std::string path;
  std::string result;
  bool done = false;
};

int OnJobRemoved(sd_bus_message* m, void* userdata, sd_bus_error* /*ret_error*/) {
  auto* wait = static_cast<JobWait*>(userdata);
  std::uint32_t id = 0;
  const char* path = nullptr;
  const char* unit = nullptr;
  const char* result = nullptr;
  if (Sd().message_read(m, "uoss", &id, &path, &unit, &result) < 0) return 0;
  if (!wait->path.empty() && wait->path == path) {
    wait->result = result;
    wait->done = true;
  }
  return 0;
}

bool IsEnabledState(const std::string& state) {
  // The states for which `systemctl is-enabled` exits 0.
  static const std::set<std::string> kEnabled = {"enabled", "enabled-runtime", "static",
                                                 "alias",   "indirect",        "generated"};
  return kEnabled.count(state) > 0;
}

// Dispatches bus messages until JobRemoved for wait.path arrives or `timeout` passes.
Status WaitForJob(sd_bus* bus, const JobWait& wait, std::chrono::milliseconds timeout,
                  const std::string& what, const std::string& unit) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!wait.done) {
    int r = Sd().process(bus, nullptr);
    if (r < 0) return Unavailable(fmt::format("{}: {}", what, std::strerror(-r)));
    if (r > 0) continue;
    auto left = std::chrono::duration_cast<std::chrono::microseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return Unavailable(fmt::format("{}: systemd did not finish job {} within {}s", what,
                                     wait.path, timeout.count() / 1000));
    }
    r = Sd().wait(bus, static_cast<std::uint64_t>(left.count()));
    if (r < 0) return Unavailable(fmt::format("{}: {}", what, std::strerror(-r)));
  }
  if (wait.result != "done") {
    return FailedPrecondition(
        fmt::format("{}: job {} finished with result \"{}\" (see \"systemctl status {}\" and "
                    "\"journalctl -xeu {}\")",
                    what, wait.path, wait.result, unit, unit));
  }
  return Status();
}

}  // namespace

SystemdInitSystem::SystemdInitSystem(std::string bus_address, std::chrono::milliseconds job_timeout)
    : address_(std::move(bus_address)), job_timeout_(job_timeout) {}

SystemdInitSystem::~SystemdInitSystem() {
  if (bus_ != nullptr) Sd().flush_close_unref(bus_);
}

Status SystemdInitSystem::Connect() {
  if (bus_ != nullptr) return Status();
  if (!SdBusLibrary()) return Unavailable(SdBusLibrary().error().message());
  sd_bus* bus = nullptr;
  int r = 0;
  std::string where = address_.empty() ? "the system bus" : address_;
  if (address_.empty()) {
    r = Sd().open_system(&bus);
  } else {
    r = Sd().new_bus(&bus);
    if (r >= 0) r = Sd().set_address(bus, address_.c_str());
    if (r >= 0) r = Sd().set_bus_client(bus, 1);
    if (r >= 0) r = Sd().start(bus);
  }
  if (r < 0) {
    if (bus != nullptr) Sd().unref(bus);
    return Unavailable(fmt::format("connecting to {}: {}", where, std::strerror(-r)));
  }
  spdlog::debug("connected to systemd over {}", where);
  bus_ = bus;
  return Status();
}

// systemd emits JobRemoved only to clients that called Subscribe (`method`), and while any
// client is subscribed it also builds a PropertiesChanged signal for every unit change, which
// slowed each later call of ours by a third: RunJob subscribes only while it waits.
Status SystemdInitSystem::CallSubscription(const char* method) {
  BusError err;
  int r = Sd().call_method(bus_, kDestination, kManagerPath, kManager, method, &err.e, nullptr, "");
  return r < 0 ? FromBus(method, err.e, r) : Status();
}

Status SystemdInitSystem::RunJob(const char* method, const std::string& unit) {
  KKADM_RETURN_IF_ERROR(Connect());
  KKADM_RETURN_IF_ERROR(CallSubscription("Subscribe"));
  Status done = WaitForNewJob(method, unit);
  // The job's outcome is the answer; a failed Unsubscribe only leaves systemd more talkative.
  Status unsubscribed = CallSubscription("Unsubscribe");
  if (!unsubscribed.ok()) spdlog::debug("{}", unsubscribed.message());
  return done;
}

Status SystemdInitSystem::WaitForNewJob(const char* method, const std::string& unit) {
  JobWait wait;
  sd_bus_slot* raw_slot = nullptr;
  // The match is installed before the call so a job that finishes at once is not missed.
  int r = Sd().match_signal(bus_, &raw_slot, kDestination, kManagerPath, kManager, "JobRemoved",
                            OnJobRemoved, &wait);
  if (r < 0) return Unavailable(fmt::format("watching systemd jobs: {}", std::strerror(-r)));
  SlotPtr slot(raw_slot);
  BusError err;
  sd_bus_message* raw_reply = nullptr;
  r = Sd().call_method(bus_, kDestination, kManagerPath, kManager, method, &err.e, &raw_reply, "ss",
                       unit.c_str(), "replace");
  MessagePtr reply(raw_reply);
  if (r < 0) return FromBus(fmt::format("{} {}", method, unit), err.e, r);
  const char* job = nullptr;
  r = Sd().message_read(reply.get(), "o", &job);
  if (r < 0) return Internal(fmt::format("{} {}: bad reply: {}", method, unit, std::strerror(-r)));
  wait.path = job;
  Status waited = WaitForJob(bus_, wait, job_timeout_, fmt::format("{} {}", method, unit), unit);
  spdlog::debug("systemd {} {}: job {} ended: {}", method, unit, wait.path,
                waited.ok() ? wait.result : waited.message());
  return waited;
}

Status SystemdInitSystem::Start(const std::string& unit) { return RunJob("StartUnit", unit); }
Status SystemdInitSystem::Stop(const std::string& unit) { return RunJob("StopUnit", unit); }
Status SystemdInitSystem::Restart(const std::string& unit) { return RunJob("RestartUnit", unit); }

Status SystemdInitSystem::DaemonReload() {
  KKADM_RETURN_IF_ERROR(Connect());
  BusError err;
  int r =
      Sd().call_method(bus_, kDestination, kManagerPath, kManager, "Reload", &err.e, nullptr, "");
  if (r < 0) return FromBus("Reload", err.e, r);
  return Status();
}

Status SystemdInitSystem::Enable(const std::string& unit) {
  KKADM_RETURN_IF_ERROR(Connect());
  BusError err;
  sd_bus_message* raw_reply = nullptr;
  int r = Sd().call_method(bus_, kDestination, kManagerPath, kManager, "EnableUnitFiles", &err.e,
                           &raw_reply, "asbb", 1, unit.c_str(), 0, 1);
  MessagePtr reply(raw_reply);
  if (r < 0) return FromBus("EnableUnitFiles " + unit, err.e, r);
  int carries_install_info = 0;
  if (Sd().message_read(reply.get(), "b", &carries_install_info) >= 0 && !carries_install_info) {
    // Like systemctl, this is not an error: the unit is static or only pulled in by others.
    spdlog::debug("{} has no [Install] section; enabling it changed nothing", unit);
  }
  return Status();
}

Status SystemdInitSystem::ReloadIfStale(const std::string& unit,
                                        const std::vector<std::string>& files) {
  auto stale = StaleReason(unit, files);
  if (!stale) return stale.error();
  if (stale->empty()) return Status();
  spdlog::debug("reloading systemd: {} {}", unit, *stale);
  return DaemonReload();
}

Result<std::string> SystemdInitSystem::StaleReason(const std::string& unit,
                                                   const std::vector<std::string>& files) {
  // LoadUnit reads a unit systemd has not loaded, or found missing before its files were written
  // (systemd retries when the unit directories changed), from disk as it is now.
  auto path = UnitPath("LoadUnit", unit);
  if (!path) return path.error();
  auto load_state = StringProperty(*path, kUnit, "LoadState");
  if (!load_state) return load_state.error();
  if (*load_state != "loaded") return "is " + *load_state;
  BusError err;
  int need_reload = 0;
  int r = Sd().get_property_trivial(bus_, kDestination, path->c_str(), kUnit, "NeedDaemonReload",
                                    &err.e, 'b', &need_reload);
  if (r < 0) return FromBus("reading NeedDaemonReload of " + unit, err.e, r);
  if (need_reload != 0) return std::string("changed on disk");
  auto fragment = StringProperty(*path, kUnit, "FragmentPath");
  if (!fragment) return fragment.error();
  char** raw_drop_ins = nullptr;
  r = Sd().get_property_strv(bus_, kDestination, path->c_str(), kUnit, "DropInPaths", &err.e,
                             &raw_drop_ins);
  if (r < 0) return FromBus("reading DropInPaths of " + unit, err.e, r);
  std::set<std::string> loaded_from = {*fragment};
  for (char** p = raw_drop_ins; p != nullptr && *p != nullptr; ++p) {
    loaded_from.insert(*p);
    std::free(*p);
  }
  std::free(raw_drop_ins);
  for (const auto& file : files) {
    if (loaded_from.count(file) == 0) return "was loaded without " + file;
  }
  return std::string();
}

Status SystemdInitSystem::Disable(const std::string& unit) {
  KKADM_RETURN_IF_ERROR(Connect());
  BusError err;
  int r = Sd().call_method(bus_, kDestination, kManagerPath, kManager, "DisableUnitFiles", &err.e,
                           nullptr, "asb", 1, unit.c_str(), 0);
  if (r < 0) return FromBus("DisableUnitFiles " + unit, err.e, r);
  return DaemonReload();
}

Result<std::string> SystemdInitSystem::UnitPath(const char* method, const std::string& unit) {
  KKADM_RETURN_IF_ERROR(Connect());
  BusError err;
  sd_bus_message* raw_reply = nullptr;
  int r = Sd().call_method(bus_, kDestination, kManagerPath, kManager, method, &err.e, &raw_reply,
                           "s", unit.c_str());
  MessagePtr reply(raw_reply);
  if (r < 0) return FromBus(fmt::format("{} {}", method, unit), err.e, r);
  const char* path = nullptr;
  r = Sd().message_read(reply.get(), "o", &path);
  if (r < 0) return Internal(fmt::format("{} {}: bad reply: {}", method, unit, std::strerror(-r)));
  return std::string(path);
}

Result<std::string> SystemdInitSystem::StringProperty(const std::string& path,
                                                      const char* interface, const char* property) {
  BusError err;
  char* value = nullptr;
  int r = Sd().get_property_string(bus_, kDestination, path.c_str(), interface, property, &err.e,
                                   &value);
  if (r < 0) return FromBus(fmt::format("reading {} of {}", property, path), err.e, r);
  std::string out = value;
  std::free(value);
  return out;
}

Result<bool> SystemdInitSystem::Exists(const std::string& unit) {
  auto path = UnitPath("LoadUnit", unit);
  if (!path) return path.error();
  auto state = StringProperty(*path, kUnit, "LoadState");
  if (!state) return state.error();
  return *state != "not-found";
}

Result<bool> SystemdInitSystem::IsEnabled(const std::string& unit) {
  KKADM_RETURN_IF_ERROR(Connect());
  BusError err;
  sd_bus_message* raw_reply = nullptr;
  int r = Sd().call_method(bus_, kDestination, kManagerPath, kManager, "GetUnitFileState", &err.e,
                           &raw_reply, "s", unit.c_str());
  MessagePtr reply(raw_reply);
  if (r < 0) {
    Status s = FromBus("GetUnitFileState " + unit, err.e, r);
    if (s.code() == StatusCode::kNotFound) return false;
    return s;
  }
  const char* state = nullptr;
  r = Sd().message_read(reply.get(), "s", &state);
  if (r < 0) return Internal("GetUnitFileState " + unit + ": bad reply: " + std::strerror(-r));
  return IsEnabledState(state);
}

Result<bool> SystemdInitSystem::IsActive(const std::string& unit) {
  auto path = UnitPath("GetUnit", unit);
  if (!path) {
    // GetUnit answers NoSuchUnit for a unit systemd has not loaded: it is not running.
    if (path.error().code() == StatusCode::kNotFound) return false;
    return path.error();
  }
  auto state = StringProperty(*path, kUnit, "ActiveState");
  if (!state) return state.error();
  return *state == "active" || *state == "reloading";
}

std::unique_ptr<InitSystem> NewSystemdInitSystem(std::string bus_address) {
  if (bus_address.empty()) {
    const char* env = std::getenv("KKADM_SYSTEM_BUS_ADDRESS");
    if (env != nullptr) bus_address = env;
  }
  return std::make_unique<SystemdInitSystem>(std::move(bus_address));
}

}  // namespace kkadm::util
