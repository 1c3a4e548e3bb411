// cloud-init user-data for a joining node (see cloud_init.h).
#include "app/phases/bootstraptoken/cloud_init.h"

#include <nlohmann/json.hpp>

#include "app/util/join_token.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::phases {
namespace {

constexpr std::string_view kUnixScheme = "unix://";

Status CheckInput(const CloudInitInput& in) {
  if (in.cri_socket.rfind(kUnixScheme, 0) != 0 || in.cri_socket.size() <= kUnixScheme.size() ||
      in.cri_socket[kUnixScheme.size()] != '/') {
    return InvalidArgument("--cri-socket: invalid value \"" + in.cri_socket +
                           "\": the user-data waits for a unix socket, \"unix:///<path>\"");
  }
  if (!util::LooksLikeJoinToken(in.join_token))
    return InvalidArgument("the user-data needs a join token");
  if (in.cri_socket_wait.count() <= 0)
    return InvalidArgument("the CRI socket wait must be positive");
  return Status::Ok();
}

}  // namespace

std::string CloudInitJoinScript() {
  return R"(set -u
log() { echo "[kkadm cloud-init] $*"; }
token=$1 socket_url=$2 wait_seconds=$3
if [ -f /etc/kubernetes/kubelet.conf ]; then
  log "this node has already joined (/etc/kubernetes/kubelet.conf exists): nothing to do"
  exit 0
fi
if ! command -v kkadm >/dev/null 2>&1; then
  log "kkadm is not installed (not on PATH $PATH): cannot join"
  exit 1
fi
socket=${socket_url#unix://}
log "waiting up to $wait_seconds s for the container runtime socket $socket"
waited=0
until [ -S "$socket" ]; do
  if [ "$waited" -ge "$wait_seconds" ]; then
    log "the container runtime socket $socket did not appear within $wait_seconds s"
    log "is the container runtime installed and started?"
    exit 1
  fi
  sleep 1
  waited=$((waited + 1))
done
log "the container runtime socket is ready after $waited s; running kkadm join"
rc=0
kkadm join "$token" --cri-socket "$socket_url" </dev/null || rc=$?
if [ "$rc" -eq 0 ]; then
  log "kkadm join succeeded"
else
  log "kkadm join failed with exit code $rc"
fi
exit "$rc"
)";
}

Result<std::string> CloudInitUserData(const CloudInitInput& in) {
  KKADM_RETURN_IF_ERROR(CheckInput(in));
  const nlohmann::json command = {"sh",
                                  "-c",
                                  CloudInitJoinScript(),
                                  "kkadm-join",
                                  in.join_token,
                                  in.cri_socket,
                                  std::to_string(in.cri_socket_wait.count())};
  const nlohmann::json user_data = {{"runcmd", nlohmann::json::array({command})}};
  const std::string role = in.control_plane ? "control-plane" : "worker";
  const std::string expiry =
      in.expires.empty() ? std::string("never expires") : "expires at " + in.expires;
  return "#cloud-config\n# kkadm join: a " + role +
         " node. This user-data holds a join token: keep it secret.\n# The bootstrap token " +
         expiry + ".\n" + util::yaml::Emit(user_data);
}

}  // namespace kkadm::phases
