// Loading libsystemd's sd-bus functions (sd_bus_library.h).
#include "app/util/sd_bus_library.h"

#include "app/util/shared_library.h"

namespace kkadm::util {
namespace {

Result<SdBusApi> LoadSdBusApi() {
  auto library = OpenSharedLibrary("libsystemd.so.0");
  if (!library) return library.error();
  SdBusApi api;
  for (const Status& loaded :
       {LoadSymbol(*library, "sd_bus_call_method", api.call_method),
        LoadSymbol(*library, "sd_bus_error_free", api.error_free),
        LoadSymbol(*library, "sd_bus_flush_close_unref", api.flush_close_unref),
        LoadSymbol(*library, "sd_bus_get_property_string", api.get_property_string),
        LoadSymbol(*library, "sd_bus_get_property_strv", api.get_property_strv),
        LoadSymbol(*library, "sd_bus_get_property_trivial", api.get_property_trivial),
        LoadSymbol(*library, "sd_bus_match_signal", api.match_signal),
        LoadSymbol(*library, "sd_bus_message_read", api.message_read),
        LoadSymbol(*library, "sd_bus_message_unref", api.message_unref),
        LoadSymbol(*library, "sd_bus_new", api.new_bus),
        LoadSymbol(*library, "sd_bus_open_system", api.open_system),
        LoadSymbol(*library, "sd_bus_process", api.process),
        LoadSymbol(*library, "sd_bus_set_address", api.set_address),
        LoadSymbol(*library, "sd_bus_set_bus_client", api.set_bus_client),
        LoadSymbol(*library, "sd_bus_slot_unref", api.slot_unref),
        LoadSymbol(*library, "sd_bus_start", api.start),
        LoadSymbol(*library, "sd_bus_unref", api.unref),
        LoadSymbol(*library, "sd_bus_wait", api.wait)}) {
    KKADM_RETURN_IF_ERROR(loaded);
  }
  return api;
}

}  // namespace

const Result<SdBusApi>& SdBusLibrary() {
  static const Result<SdBusApi> api = LoadSdBusApi();
  return api;
}

const SdBusApi& Sd() { return *SdBusLibrary(); }

}  // namespace kkadm::util
