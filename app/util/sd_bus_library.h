// libsystemd's sd-bus, loaded on first use rather than linked (shared_library.h says why), and
// owners of the sd-bus objects SystemdInitSystem holds. Only init_system_systemd.cc uses it.
#pragma once

#include <systemd/sd-bus.h>

#include <memory>

#include "app/util/status.h"

namespace kkadm::util {

// The sd-bus functions kkadm calls, typed by <systemd/sd-bus.h>.
struct SdBusApi {
  decltype(&::sd_bus_call_method) call_method = nullptr;
  decltype(&::sd_bus_error_free) error_free = nullptr;
  decltype(&::sd_bus_flush_close_unref) flush_close_unref = nullptr;
  decltype(&::sd_bus_get_property_string) get_property_string = nullptr;
  decltype(&::sd_bus_get_property_strv) get_property_strv = nullptr;
  decltype(&::sd_bus_get_property_trivial) get_property_trivial = nullptr;
  decltype(&::sd_bus_match_signal) match_signal = nullptr;
  decltype(&::sd_bus_message_read) message_read = nullptr;
  decltype(&::sd_bus_message_unref) message_unref = nullptr;
  decltype(&::sd_bus_new) new_bus = nullptr;
  decltype(&::sd_bus_open_system) open_system = nullptr;
  decltype(&::sd_bus_process) process = nullptr;
  decltype(&::sd_bus_set_address) set_address = nullptr;
  decltype(&::sd_bus_set_bus_client) set_bus_client = nullptr;
  decltype(&::sd_bus_slot_unref) slot_unref = nullptr;
  decltype(&::sd_bus_start) start = nullptr;
  decltype(&::sd_bus_unref) unref = nullptr;
  decltype(&::sd_bus_wait) wait = nullptr;
};

// The loaded library, or why it could not be loaded (once per process).
const Result<SdBusApi>& SdBusLibrary();

// sd-bus, for code that runs only once SdBusLibrary() succeeded.
const SdBusApi& Sd();

// Owns an sd_bus_error and frees it when done.
struct BusError {
  sd_bus_error e{};
  ~BusError() { Sd().error_free(&e); }
};

struct MessageUnref {
  void operator()(sd_bus_message* m) const { Sd().message_unref(m); }
};
using MessagePtr = std::unique_ptr<sd_bus_message, MessageUnref>;

struct SlotUnref {
  void operator()(sd_bus_slot* s) const { Sd().slot_unref(s); }
};
using SlotPtr = std::unique_ptr<sd_bus_slot, SlotUnref>;

}  // namespace kkadm::util
