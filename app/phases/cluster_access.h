// ClusterAccess: how a command's phases reach the cluster's API. Each client is made on first use
// and kept for the run; a client that could not be made is tried again on the next call (join's
// admin.conf exists only once control-plane-prepare wrote it). The command owns the access and
// every client it hands out. Init's and join's extend it with what only they reach.
#pragma once

#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::phases {

class ClusterAccess {
 public:
  virtual ~ClusterAccess() = default;
  // A client with admin.conf's identity, or in a dry run one that says what it would send.
  virtual Result<util::KubeClient*> AdminClient() = 0;
};

}  // namespace kkadm::phases
