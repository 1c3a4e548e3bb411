// The real CRI client: the gRPC shared object kkadm carries (proto/cri/grpc_runtime.cc), loaded
// on first use. Its bytes are part of kkadm's read-only data (cmake: generated/cri_blob.cc); they
// are copied to an anonymous memory file (memfd_create) and dlopen'd from /proc/self/fd/N. So
// kkadm stays one file, and only a command that talks to the runtime maps libgrpc++ and the
// libraries behind it; the others never touch the pages that hold the bytes.
#include <dlfcn.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "app/util/cri_dry_run.h"
#include "app/util/network.h"
#include "app/util/shared_library.h"

extern "C" const unsigned char kkadm_cri_so_begin[];
extern "C" const unsigned char kkadm_cri_so_end[];

namespace kkadm::util {
namespace {

using NewRuntime = ContainerRuntime*(const CriClientOptions*);
struct Factory {
  NewRuntime* make = nullptr;
};

Status WriteAll(int fd, const unsigned char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Internal(fmt::format("writing the CRI client: {}", std::strerror(errno)));
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status();
}

// The shared object opened from its memory file; the file descriptor is closed once loaded.
Result<void*> OpenEmbeddedClient() {
  int fd = ::memfd_create("kkadm-cri", MFD_CLOEXEC);
  if (fd < 0) {
    return Internal(fmt::format("loading the CRI client: memfd_create: {}", std::strerror(errno)));
  }
  Status written =
      WriteAll(fd, kkadm_cri_so_begin, static_cast<size_t>(kkadm_cri_so_end - kkadm_cri_so_begin));
  Result<void*> library = written.ok()
                              ? OpenSharedLibrary(fmt::format("/proc/self/fd/{}", fd).c_str())
                              : Result<void*>(written);
  ::close(fd);
  if (!library) {
    return Internal("loading the CRI client (it needs libgrpc++1.51 and libprotobuf-lite32): " +
                    library.error().message());
  }
  return library;
}

// kkadm_cri_new, resolved once for the life of the process.
Result<Factory> CriFactory() {
  static std::once_flag once;
  static Factory factory;
  static Status failure;
  std::call_once(once, [] {
    Result<void*> library = OpenEmbeddedClient();
    failure = library ? LoadSymbol(*library, "kkadm_cri_new", factory.make) : library.error();
  });
  if (!failure.ok()) return failure;
  return factory;
}

}  // namespace

Result<std::string> CriSocketPath(const std::string& endpoint) {
  constexpr std::string_view kUnix = "unix://";
  if (endpoint.rfind(kUnix, 0) == 0) return endpoint.substr(kUnix.size());
  if (!endpoint.empty() && endpoint[0] == '/') return endpoint;
  return InvalidArgument(fmt::format(
      "unsupported CRI endpoint \"{}\" (only unix:// sockets are supported)", endpoint));
}

Result<std::unique_ptr<ContainerRuntime>> RealNetwork::Cri(const CriClientOptions& options) {
  CriClientOptions resolved = options;
  if (resolved.socket_path.empty()) {
    Result<std::string> path = CriSocketPath(options.endpoint);
    if (!path) return path.error();
    resolved.socket_path = *path;
  }
  Result<Factory> factory = CriFactory();
  if (!factory) return factory.error();
  std::unique_ptr<ContainerRuntime> runtime(factory->make(&resolved));
  if (dry_run_ == nullptr) return runtime;
  return std::unique_ptr<ContainerRuntime>(
      std::make_unique<DryRunContainerRuntime>(std::move(runtime), *dry_run_));
}

}  // namespace kkadm::util
