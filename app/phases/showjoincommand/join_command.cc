// Join command text (see join_command.h).
#include "app/phases/showjoincommand/join_command.h"

#include "app/phases/bootstraptoken/bootstrap_token.h"
#include "app/util/kube_apply.h"
#include "app/util/pubkey_pin.h"

namespace kkadm::phases {

Result<std::string> JoinCommand(const util::FileSystem& fs, const JoinCommandInput& in) {
  auto cluster = CurrentCluster(fs, in.kubeconfig_path);
  if (!cluster) return cluster.error().Wrap("failed to load admin kubeconfig");
  auto ca = util::Base64Decode(cluster->ca_data);
  if (!ca) return ca.error().Wrap("failed to parse the CA of admin kubeconfig");
  auto pins = util::PinsOfPemBundle(*ca);
  if (!pins) return pins.error().Wrap("failed to parse the CA of admin kubeconfig");
  std::string host_port = cluster->server;
  for (size_t at = host_port.find("https://"); at != std::string::npos;
       at = host_port.find("https://")) {
    host_port.erase(at, 8);
  }
  const std::string withheld = "<value withheld>";
  std::string out = "kkadm join " + host_port + " --token " +
                    (in.skip_token_print ? withheld : in.token) + " \\\n\t";
  for (const auto& pin : *pins) out += "--discovery-token-ca-cert-hash " + pin + " ";
  if (in.control_plane) {
    out += "\\\n\t--control-plane ";
    if (!in.certificate_key.empty()) {
      out += "--certificate-key " + (in.skip_certificate_key_print ? withheld : in.certificate_key);
    }
  }
  return out;
}

}  // namespace kkadm::phases
