// The real CRI client: the gRPC shared object kkadm carries (proto/cri/grpc_runtime.cc), loaded
// on first use. Its bytes are the section .kkadm_cri of kkadm's own file (cmake: generated/
// cri_blob.cc), a section that is not loaded: it lies past every mapped segment, so no run maps
// it (kept in .rodata, the page cache's large folios dragged 190 KB of it into every run's
// memory). On first use they are read from /proc/self/exe into an anonymous memory file
// (memfd_create) and dlopen'd from /proc/self/fd/N. kkadm stays one file, and only a command that
// talks to the runtime maps libgrpc++ and the libraries behind it.
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "app/util/cri_dry_run.h"
#include "app/util/network.h"
#include "app/util/shared_library.h"

// Defined beside the section (cmake/cri_client.cmake): referring to it links the section in.
extern "C" const char kkadm_cri_embedded;

namespace kkadm::util {
namespace {

using NewRuntime = ContainerRuntime*(const CriClientOptions*);
struct Factory {
  NewRuntime* make = nullptr;
};

constexpr const char* kSection = ".kkadm_cri";

Status ReadAt(int fd, void* into, size_t size, off_t offset) {
  auto* out = static_cast<char*>(into);
  while (size > 0) {
    ssize_t n = ::pread(fd, out, size, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Internal("reading kkadm's CRI client section: short read");
    out += n;
    size -= static_cast<size_t>(n);
    offset += n;
  }
  return Status();
}

Status WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Internal(fmt::format("writing the CRI client: {}", std::strerror(errno)));
    data += n;
    size -= static_cast<size_t>(n);
  }
  return Status();
}

// Where kSection lies in the ELF file `exe`: its offset and size.
Result<std::pair<off_t, size_t>> FindSection(int exe) {
  Elf64_Ehdr header{};
  KKADM_RETURN_IF_ERROR(ReadAt(exe, &header, sizeof header, 0));
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_shentsize != sizeof(Elf64_Shdr)) {
    return Internal("kkadm's own file is not the ELF file it expects");
  }
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  KKADM_RETURN_IF_ERROR(ReadAt(exe, sections.data(), sections.size() * sizeof(Elf64_Shdr),
                               static_cast<off_t>(header.e_shoff)));
  if (header.e_shstrndx >= sections.size()) return Internal("kkadm's section names are missing");
  const Elf64_Shdr& names = sections[header.e_shstrndx];
  std::string table(names.sh_size, '\0');
  KKADM_RETURN_IF_ERROR(
      ReadAt(exe, table.data(), table.size(), static_cast<off_t>(names.sh_offset)));
  for (const Elf64_Shdr& section : sections) {
    if (section.sh_name < table.size() &&
        table.c_str() + section.sh_name == std::string(kSection)) {
      return std::pair<off_t, size_t>(static_cast<off_t>(section.sh_offset), section.sh_size);
    }
  }
  return Internal("kkadm's file has no CRI client section (was it built without it?)");
}

// Copies the embedded shared object into the memory file `to`.
Status CopyEmbeddedClient(int to) {
  if (kkadm_cri_embedded != 1) return Internal("kkadm was built without its CRI client");
  int exe = ::open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (exe < 0) return Internal(fmt::format("opening /proc/self/exe: {}", std::strerror(errno)));
  Result<std::pair<off_t, size_t>> where = FindSection(exe);
  Status copied = where.status();
  std::vector<char> chunk(1 << 16);
  for (size_t done = 0; copied.ok() && where && done < where->second; done += chunk.size()) {
    const size_t n = std::min(chunk.size(), where->second - done);
    copied = ReadAt(exe, chunk.data(), n, where->first + static_cast<off_t>(done));
    if (copied.ok()) copied = WriteAll(to, chunk.data(), n);
  }
  ::close(exe);
  return copied;
}

// The shared object opened from its memory file; the file descriptor is closed once loaded.
Result<void*> OpenEmbeddedClient() {
  int fd = ::memfd_create("kkadm-cri", MFD_CLOEXEC);
  if (fd < 0) {
    return Internal(fmt::format("loading the CRI client: memfd_create: {}", std::strerror(errno)));
  }
  Status written = CopyEmbeddedClient(fd);
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
