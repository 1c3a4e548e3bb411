// The production seams, chosen once from the flags.
#include "cmd/host_factory.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "app/util/file_system_dry_run.h"
#include "app/util/file_system_real.h"
#include "app/util/init_system_announcing.h"
#include "app/util/init_system_dry_run.h"
#include "app/util/init_system_systemd.h"

namespace kkadm::cmd {
namespace {

Status CheckRootfs(const std::string& rootfs) {
  if (rootfs.empty()) return Status();
  struct stat st {};
  if (::stat(rootfs.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return InvalidArgument(
        fmt::format("invalid --rootfs \"{}\": not an existing directory", rootfs));
  }
  return Status();
}

Result<std::string> MakeDryRunDir(const std::string& name) {
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  if (const char* dir = std::getenv(fmt::format("KKADM_{}_DRYRUN_DIR", upper).c_str());
      dir && *dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
      return FailedPrecondition(
          fmt::format("creating dry-run directory {}: {}", dir, ec.message()));
    return std::string(dir);
  }
  std::string pattern =
      (std::filesystem::temp_directory_path() / fmt::format("kkadm-{}-dryrun-XXXXXX", name))
          .string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return FailedPrecondition(
        fmt::format("creating dry-run directory {}: {}", pattern, std::strerror(errno)));
  }
  return pattern;
}

}  // namespace

OwnedHost::OwnedHost(std::unique_ptr<util::FileSystem> node_fs,
                     std::unique_ptr<util::FileSystem> fs,
                     std::unique_ptr<util::InitSystem> real_init,
                     std::unique_ptr<util::InitSystem> init, util::Machine& machine,
                     std::string dry_run_dir)
    : node_fs_(std::move(node_fs)),
      fs_(std::move(fs)),
      real_init_(std::move(real_init)),
      init_(std::move(init)),
      dry_run_dir_(std::move(dry_run_dir)),
      host_{fs_ ? *fs_ : *node_fs_, init_ ? *init_ : *real_init_, util::RealClock(), machine} {}

Status SyncNodeFiles(OwnedHost* host, Status outcome) {
  if (host == nullptr) return outcome;
  Status synced = host->host().fs.Sync();
  return outcome.ok() ? synced : outcome;
}

Result<std::unique_ptr<OwnedHost>> MakeHost(const HostOptions& options, util::Machine& machine,
                                            util::Printer& printer) {
  KKADM_RETURN_IF_ERROR(CheckRootfs(options.rootfs));
  auto real_init = util::NewSystemdInitSystem("");
  if (!options.dry_run) {
    auto node_fs = std::make_unique<util::RealFileSystem>(options.rootfs,
                                                          util::RealFileSystem::Writes::kBehind);
    std::unique_ptr<util::InitSystem> announcing;
    if (!options.announce_services_as.empty()) {
      announcing = std::make_unique<util::AnnouncingInitSystem>(*real_init, printer,
                                                                options.announce_services_as);
    }
    return std::make_unique<OwnedHost>(std::move(node_fs), nullptr, std::move(real_init),
                                       std::move(announcing), machine, "");
  }
  auto node_fs = std::make_unique<util::RealFileSystem>(options.rootfs);
  Result<std::string> dir = MakeDryRunDir(options.dry_run_name);
  if (!dir) return dir.error();
  auto fs = std::make_unique<util::DryRunFileSystem>(*node_fs, *dir, printer, options.shown_dirs);
  auto init = std::make_unique<util::DryRunInitSystem>(printer, real_init.get());
  return std::make_unique<OwnedHost>(std::move(node_fs), std::move(fs), std::move(real_init),
                                     std::move(init), machine, *dir);
}

Result<NodeSeams> MakeNodeSeams(const std::string& rootfs, bool dry_run, const std::string& command,
                                const std::string& manifest_dir, util::Machine& machine,
                                util::Printer& printer) {
  HostOptions options;
  options.rootfs = rootfs;
  options.dry_run = dry_run;
  options.dry_run_name = command;
  options.shown_dirs = {manifest_dir};
  Result<std::unique_ptr<OwnedHost>> host = MakeHost(options, machine, printer);
  if (!host) return host.error();
  NodeSeams seams;
  seams.host = std::move(*host);
  if (dry_run) {
    seams.waiter = std::make_unique<phases::DryRunWaiter>(printer);
  } else {
    seams.waiter = std::make_unique<phases::RealWaiter>(seams.host->host().clock, printer);
  }
  return seams;
}

}  // namespace kkadm::cmd
