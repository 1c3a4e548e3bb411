// Libraries kkadm loads only when a command first needs them.
//
// libcurl (with ~35 libraries behind it: GnuTLS, Kerberos, LDAP, ...) and libsystemd serve only the
// commands that talk HTTP or D-Bus. Linked normally, every run — `kkadm version`, `init phase
// certs` — would map and relocate all of them: about 9 MB of resident memory and several
// milliseconds before main(). Loading them with dlopen on first use, as systemd itself does for its
// optional libraries, keeps those costs where they are needed. The headers still give every
// function's exact type, so a binding cannot disagree with the library's declaration.
#pragma once

#include <string>

#include "app/util/status.h"

namespace kkadm::util {

// The library `soname` (e.g. "libcurl.so.4"), opened once for the life of the process.
// Internal error naming the library and dlerror() when it cannot be loaded.
Result<void*> OpenSharedLibrary(const char* soname);

// Resolves `symbol` in `library` into `function`. Internal error naming the symbol when missing.
Status LoadSymbolAddress(void* library, const char* symbol, void** address);

template <typename Function>
Status LoadSymbol(void* library, const char* symbol, Function*& function) {
  void* address = nullptr;
  KKADM_RETURN_IF_ERROR(LoadSymbolAddress(library, symbol, &address));
  // POSIX guarantees a data pointer from dlsym converts to the function's type.
  function = reinterpret_cast<Function*>(address);
  return Status::Ok();
}

}  // namespace kkadm::util
