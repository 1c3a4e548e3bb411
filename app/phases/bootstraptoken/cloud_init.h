// cloud-init user-data that joins a new node with `kkadm join <join-token>`
// (`kkadm token create --print-cloud-init`, docs/cloud-init.md).
#pragma once

#include <chrono>
#include <string>

#include "app/util/status.h"

namespace kkadm::phases {

inline constexpr std::chrono::seconds kDefaultCriSocketWait{300};

struct CloudInitInput {
  std::string join_token;  // "kk1.…"; the user-data holds it, so it is a secret
  std::string cri_socket;  // "unix:///…": the new node's container runtime
  bool control_plane = false;
  std::string expires;  // RFC 3339 expiry of the bootstrap token, "" when it never expires
  std::chrono::seconds cri_socket_wait = kDefaultCriSocketWait;
};

// The shell script the user-data runs (constant text; its arguments are $1 join token,
// $2 CRI socket URL, $3 seconds to wait for the socket). It does nothing when
// /etc/kubernetes/kubelet.conf exists (the node has joined: cloud-init may run runcmd again on an
// instance change), waits for the socket, then runs `kkadm join "$1" --cri-socket "$2"` with
// standard input closed, logging "[kkadm cloud-init] …" lines to cloud-init's output, and exits
// with kkadm's exit code.
std::string CloudInitJoinScript();

// "#cloud-config" user-data (util::yaml): comments naming the role and the expiry, and a
// runcmd entry [sh, -c, <CloudInitJoinScript>, kkadm-join, <token>, <socket>, <seconds>] whose
// arguments cloud-init quotes itself. InvalidArgument when the CRI socket is not "unix://<path>"
// or the token is not a join token.
Result<std::string> CloudInitUserData(const CloudInitInput& in);

}  // namespace kkadm::phases
