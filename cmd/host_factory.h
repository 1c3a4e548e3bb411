// Builds the host seams a command runs against, from the global flags: the node's FileSystem
// rooted at --rootfs (or a dry-run overlay), systemd over sd-bus (or a dry-run recorder), the
// wall clock; the caller's Machine.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/phases/waitcontrolplane/waiter.h"
#include "app/util/host.h"
#include "app/util/network.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::cmd {

struct HostOptions {
  std::string rootfs;  // "" = "/"
  bool dry_run = false;
  std::string dry_run_name;  // "init" or "join": names the dry-run directory
  // Node directories whose files a dry run shows with their content (the manifest directory).
  std::vector<std::string> shown_dirs;
  // When set, a real run says each service change under this prefix ("[reset] Stopping the
  // kubelet service"), as reset's output does.
  std::string announce_services_as;
};

// The seams of one command run, owned; host() hands out the bundle of references phases use.
class OwnedHost {
 public:
  // What MakeHost builds: the real seams, and for a dry run the ones phases use instead (null
  // when the real one is used).
  struct Parts {
    std::unique_ptr<util::FileSystem> node_fs, dry_run_fs;
    std::unique_ptr<util::InitSystem> real_init, init;
    std::unique_ptr<util::Mounter> real_mounter, dry_run_mounter;
    std::unique_ptr<util::TreeRemover> remover;
    std::unique_ptr<util::Terminal> terminal;  // null: the caller's
    std::string dry_run_dir;
    // A dry run's printer: the container runtime client then only says what it would change.
    util::Printer* dry_run_printer = nullptr;
  };
  OwnedHost(Parts parts, util::Machine& machine, util::Terminal& terminal);
  util::Host& host() { return host_; }
  // Where the API and etcd clients of this host report their retries (-o json, --events).
  void set_events(util::Events events) { network_.set_events(events); }
  // The host directory dry-run writes went to; empty when not a dry run.
  const std::string& dry_run_dir() const { return parts_.dry_run_dir; }

 private:
  Parts parts_;
  util::RealNetwork network_;
  util::Host host_;
};

// `outcome` once the node files written so far are durable (FileSystem::Sync); the sync's error
// when `outcome` is OK. Commands pass their phases' outcome through it; `host` may be null.
Status SyncNodeFiles(OwnedHost* host, Status outcome);

// InvalidArgument when --rootfs is not an existing directory. In dry-run, the overlay directory is
// $KKADM_<NAME>_DRYRUN_DIR if set, else a fresh directory under $TMPDIR (never under the node).
// `machine` and `terminal` (null: the process's own terminal) must outlive the result.
Result<std::unique_ptr<OwnedHost>> MakeHost(const HostOptions& options, util::Machine& machine,
                                            util::Printer& printer,
                                            util::Terminal* terminal = nullptr);

// What init and join, the commands that build a node, both start from: the host rooted at
// `rootfs` (a dry run writes to an overlay named after `command` and shows the files written to
// `manifest_dir`), and the control-plane waiter, real or dry-run.
struct NodeSeams {
  std::unique_ptr<OwnedHost> host;
  std::unique_ptr<phases::Waiter> waiter;
};

Result<NodeSeams> MakeNodeSeams(const std::string& rootfs, bool dry_run, const std::string& command,
                                const std::string& manifest_dir, util::Machine& machine,
                                util::Printer& printer);

}  // namespace kkadm::cmd
