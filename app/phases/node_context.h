// NodeContext: what every command that changes a node hands its phases, whatever the command:
// the host seams, the printer, the node's paths, the patches and the preflight errors to ignore.
// The data of init, join and reset (and of upgrade, to come) extends it.
#pragma once

#include <chrono>
#include <set>
#include <string>

#include "app/phases/own_work.h"
#include "app/util/events.h"
#include "app/util/host.h"
#include "app/util/patches/patcher.h"
#include "app/util/printer.h"

namespace kkadm::phases {

struct NodeContext {
  // Set by the command before any phase runs; never null while phases run. Real seams, or for a
  // dry run ones that change nothing and say what they would do.
  util::Host* host = nullptr;
  util::Printer* out = nullptr;
  // Progress for machines (-o json, --events): preflight results, waits, the join command.
  // Emitting does nothing when the user asked for none.
  util::Events events;

  // The dry run's seams say what would happen; phases read this only where a dry run must not
  // even ask (kubeadm's "Would pull the required images": a pull has no dry-run twin).
  bool dry_run = false;

  // Node paths (kubeadm's constants). In a dry run the FileSystem diverts writes, so these keep
  // their real values.
  std::string kubeconfig_dir = "/etc/kubernetes";
  std::string manifest_dir = "/etc/kubernetes/manifests";
  std::string kubelet_dir = "/var/lib/kubelet";

  // Lower-cased check names from --ignore-preflight-errors and the config, or {"all"}.
  std::set<std::string> ignore_preflight_errors;
  // How long the CRI pre-flight check waits for the runtime's socket (--cri-socket-wait).
  std::chrono::milliseconds cri_socket_wait = std::chrono::seconds(10);
  // kkadm's earlier work on this node as its journal records it: pre-flight does not count it.
  // Set by the command before any phase runs; empty on a node without a journal.
  OwnWork own_work;
  // The --patches or patches.directory patches, read before any phase runs (none by default).
  util::patches::Patcher patches;

  util::FileSystem& fs() { return host->fs; }
  util::Printer& printer() { return *out; }
};

}  // namespace kkadm::phases
