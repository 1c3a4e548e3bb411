// dlopen/dlsym behind shared_library.h.
#include <dlfcn.h>

#include "app/util/shared_library.h"

namespace kkadm::util {

Result<void*> OpenSharedLibrary(const char* soname) {
  // Never closed: function pointers into it live in statics until exit.
  void* library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    return Internal(std::string("cannot load ") + soname + ": " + (why ? why : "unknown error"));
  }
  return library;
}

Status LoadSymbolAddress(void* library, const char* symbol, void** address) {
  dlerror();
  *address = dlsym(library, symbol);
  if (*address == nullptr) {
    const char* why = dlerror();
    return Internal(std::string("cannot find ") + symbol + ": " + (why ? why : "null symbol"));
  }
  return Status::Ok();
}

}  // namespace kkadm::util
