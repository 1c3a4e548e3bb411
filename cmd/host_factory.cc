// The production seams, chosen once from the flags.
#include "cmd/host_factory.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "app/phases/journal/journal.h"
#include "app/util/file_system_dry_run.h"
#include "app/util/file_system_real.h"
#include "app/util/init_system_announcing.h"
#include "app/util/init_system_dry_run.h"
#include "app/util/init_system_systemd.h"
#include "app/util/mounter_real.h"
#include "app/util/terminal_real.h"
#include "app/util/tree_remover_real.h"

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

OwnedHost::OwnedHost(Parts parts, util::Machine& machine, util::Terminal& terminal)
    : parts_(std::move(parts)),
      network_(parts_.dry_run_printer),
      host_{parts_.dry_run_fs ? *parts_.dry_run_fs : *parts_.node_fs,
            parts_.init ? *parts_.init : *parts_.real_init,
            util::RealClock(),
            machine,
            parts_.dry_run_mounter ? *parts_.dry_run_mounter : *parts_.real_mounter,
            *parts_.remover,
            parts_.terminal ? *parts_.terminal : terminal,
            network_} {}

Status SyncNodeFiles(OwnedHost* host, Status outcome) {
  if (host == nullptr) return outcome;
  Status synced = host->host().fs.Sync();
  return outcome.ok() ? synced : outcome;
}

Result<std::unique_ptr<OwnedHost>> MakeHost(const HostOptions& options, util::Machine& machine,
                                            util::Printer& printer, util::Terminal* terminal) {
  KKADM_RETURN_IF_ERROR(CheckRootfs(options.rootfs));
  OwnedHost::Parts parts;
  parts.real_init = util::NewSystemdInitSystem("");
  parts.real_mounter = std::make_unique<util::RealMounter>(options.rootfs, printer);
  if (terminal == nullptr) parts.terminal = std::make_unique<util::RealTerminal>();
  if (!options.dry_run) {
    parts.node_fs = std::make_unique<util::RealFileSystem>(options.rootfs,
                                                           util::RealFileSystem::Writes::kBehind);
    if (!options.announce_services_as.empty()) {
      parts.init = std::make_unique<util::AnnouncingInitSystem>(*parts.real_init, printer,
                                                                options.announce_services_as);
    }
    parts.remover = std::make_unique<util::RealTreeRemover>(options.rootfs, printer);
  } else {
    parts.node_fs = std::make_unique<util::RealFileSystem>(options.rootfs);
    Result<std::string> dir = MakeDryRunDir(options.dry_run_name);
    if (!dir) return dir.error();
    parts.dry_run_dir = *dir;
    // kkadm's own records of the run are kept in the overlay too, without a word.
    parts.dry_run_fs = std::make_unique<util::DryRunFileSystem>(
        *parts.node_fs, *dir, printer, options.shown_dirs,
        std::vector<std::string>{phases::journal::kStateDir, phases::journal::kRunDir});
    parts.init = std::make_unique<util::DryRunInitSystem>(printer, parts.real_init.get());
    parts.dry_run_mounter = std::make_unique<util::DryRunMounter>(*parts.real_mounter, printer);
    parts.remover = std::make_unique<util::DryRunTreeRemover>(printer);
    parts.dry_run_printer = &printer;
  }
  util::Terminal& user = terminal != nullptr ? *terminal : *parts.terminal;
  return std::make_unique<OwnedHost>(std::move(parts), machine, user);
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
