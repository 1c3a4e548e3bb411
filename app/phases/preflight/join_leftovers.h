// The files an earlier, unfinished `kkadm join` of this node left behind, so that running join
// again resumes it instead of failing on them (kubeadm would ask for `kubeadm reset` first).
#pragma once

#include <string>
#include <vector>

#include "app/util/file_system.h"
#include "app/util/status.h"

namespace kkadm::phases {

struct JoinLeftovers {
  std::vector<std::string> files;  // node paths of the join files that exist
  std::string ca_pem;              // the CA they all trust (whitespace-trimmed); empty if none
  std::string conflict;            // non-empty when they trust different CAs (not one join's files)
  bool kubelet_identity = false;   // kubelet.conf is there: the kubelet finished its TLS bootstrap

  // True when there are join files and they agree on one CA: a join to resume, once discovery
  // shows that CA is the cluster's.
  bool Resumable() const { return !files.empty() && conflict.empty() && !ca_pem.empty(); }
};

struct JoinFilePaths {
  std::string ca_cert;         // JoinConfiguration.caCertPath (worker joins only; else empty)
  std::string kubelet_conf;    // /etc/kubernetes/kubelet.conf
  std::string bootstrap_conf;  // /etc/kubernetes/bootstrap-kubelet.conf
  std::string admin_conf;      // /etc/kubernetes/admin.conf (control-plane joins only; else empty)
};

// Reads the files that exist among `paths` and the CA each trusts (a kubeconfig's cluster CA, data
// or file). Never fails: an unreadable file counts as a conflict.
JoinLeftovers FindJoinLeftovers(const util::FileSystem& fs, const JoinFilePaths& paths);

// True when the kubeconfig at `path` holds a client certificate whose common name is `user` (e.g.
// "system:node:worker-1"), read through `fs` whether embedded or in a file it names.
bool KubeconfigIdentifiesAs(const util::FileSystem& fs, const std::string& path,
                            const std::string& user);

// Whitespace at both ends removed (kubeadm compares CA data that way).
std::string TrimmedPem(const std::string& pem);

}  // namespace kkadm::phases
