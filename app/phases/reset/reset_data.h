// ResetData: what the `kkadm reset` phases read, and the list of what they could not clean up.
// Built once by MakeResetData (cmd/reset.cc) after flags are parsed; trusted from then on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/phases/journal/undo.h"
#include "app/phases/node_context.h"

namespace kkadm::phases {

class EtcdMemberRemover;

// One thing reset could not undo: a node path (or a service or etcd member) and why.
struct LeftBehind {
  std::string what;
  std::string reason;
};

struct ResetData : NodeContext {
  config::ResetConfiguration cfg;  // --config and flags, defaulted and validated
  // The cluster's ClusterConfiguration from the kubeadm-config ConfigMap, when it could be read.
  std::optional<config::ClusterConfiguration> cluster;

  // How remove-etcd-member changes etcd: the real remover, or the dry run's (set by the command).
  EtcdMemberRemover* etcd = nullptr;

  // Ask before changing anything: not with --force, nor in a dry run, which changes nothing.
  bool confirm = true;
  bool cleanup_cni = false;                      // kkadm's --cleanup-cni: also empty /etc/cni/net.d
  std::string cert_dir = "/etc/kubernetes/pki";  // the directory cleanup-node empties
  std::string cni_dir = "/etc/cni/net.d";

  // The data directory remove-etcd-member emptied while etcd still ran; cleanup-node empties it
  // again once the kubelet (and with it the static Pods) is stopped, in case etcd wrote to it or
  // was restarted in between. Empty when there was none.
  std::string etcd_data_dir;

  // What kkadm's journal says it made on this node: set when the node has kkadm's state
  // directory (/var/lib/kkadm). Reset then undoes exactly that (journal/undo.h); unset, it resets
  // as kubeadm does.
  std::optional<journal::MadeByKkadm> made;

  // Left on purpose, with why (not kkadm's, or not only), and files removed although changed
  // since kkadm wrote them: listed at the end; they do not make the reset incomplete.
  std::vector<LeftBehind> kept;
  std::vector<std::string> removed_changed;

  // Everything a phase could not remove, unmount, stop or deregister, in the order met. The
  // command prints it at the end and exits 1 when it is not empty.
  std::vector<LeftBehind> left_behind;

  // Adds an item unless the same item is listed already (a second pass over a directory meets
  // the same immutable file again).
  void LeaveBehind(std::string what, std::string reason) {
    for (const LeftBehind& item : left_behind) {
      if (item.what == what && item.reason == reason) return;
    }
    left_behind.push_back({std::move(what), std::move(reason)});
  }
};

}  // namespace kkadm::phases
