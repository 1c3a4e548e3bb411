// show-join-command phase adapter and kubeadm's success banner.
#include "app/phases/init/show_join_command_phase.h"

#include "app/phases/showjoincommand/join_command.h"

namespace kkadm::phases {
namespace {

std::string WithKubeadmForm(const std::string& indent, const std::string& one_argument,
                            const std::string& kubeadm_form) {
  return indent + one_argument + "\n\nor, with kubeadm's flags:\n\n" + indent + kubeadm_form +
         "\n\n";
}

// "kkadm join <token>" for a control-plane node; the token carries the certificate key unless it
// is withheld or there is none (then --control-plane says what the token cannot).
Result<std::string> ControlPlaneOneArgument(InitData& data, const JoinTokenInput& in,
                                            const std::string& worker_token) {
  if (in.certificate_key.empty()) return "kkadm join " + worker_token + " --control-plane";
  if (data.skip_certificate_key_print) {
    return "kkadm join " + worker_token + " --control-plane --certificate-key " + kValueWithheld;
  }
  if (data.skip_token_print) return std::string("kkadm join ") + kValueWithheld;
  auto token = EncodedJoinToken(data.fs(), in);
  if (!token) return token.error();
  return "kkadm join " + *token;
}

// The join commands as results for machines (a JoinCommand event per role): the token, the
// certificate key and the commands that carry them are secret fields.
void EmitJoinCommands(const InitData& data, const config::BootstrapToken& token,
                      const std::string& certificate_key, const JoinCommands& join) {
  const std::string shown_token = data.skip_token_print ? kValueWithheld : token.Token();
  nlohmann::json worker = {{"role", "worker"},
                           {"joinCommand", join.worker},
                           {"kubeadmJoinCommand", SingleLineJoinCommand(join.worker_kubeadm)},
                           {"tokenId", token.id},
                           {"token", shown_token}};
  const std::vector<std::string> secrets = {"joinCommand", "kubeadmJoinCommand", "token",
                                            "certificateKey"};
  data.events.Emit("JoinCommand", worker, secrets);
  if (data.cfg.cluster.control_plane_endpoint.empty()) return;
  nlohmann::json control_plane = std::move(worker);
  control_plane["role"] = "control-plane";
  control_plane["joinCommand"] = join.control_plane;
  control_plane["kubeadmJoinCommand"] = SingleLineJoinCommand(join.control_plane_kubeadm);
  if (!certificate_key.empty()) {
    control_plane["certificateKey"] =
        data.skip_certificate_key_print ? kValueWithheld : certificate_key;
  }
  data.events.Emit("JoinCommand", control_plane, secrets);
}

std::string UploadedCertificateKey(const InitData& data) {
  if (!data.upload_certs) return "";
  return data.certificate_key.empty() ? data.cfg.certificate_key : data.certificate_key;
}

}  // namespace

Result<JoinCommands> InitJoinCommands(InitData& data, const std::string& token) {
  const std::string key = UploadedCertificateKey(data);
  JoinCommandInput in{.kubeconfig_path = data.admin_kubeconfig_path,
                      .token = token,
                      .certificate_key = key,
                      .control_plane = true,
                      .skip_token_print = data.skip_token_print,
                      .skip_certificate_key_print = data.skip_certificate_key_print};
  JoinCommands out;
  auto control_plane = JoinCommand(data.fs(), in);
  if (!control_plane) return control_plane.error();
  out.control_plane_kubeadm = *control_plane;
  in.control_plane = false;
  auto worker = JoinCommand(data.fs(), in);
  if (!worker) return worker.error();
  out.worker_kubeadm = *worker;

  JoinTokenInput token_in{.kubeconfig_path = data.admin_kubeconfig_path,
                          .control_plane_endpoint = data.cfg.cluster.control_plane_endpoint,
                          .token = token,
                          .certificate_key = ""};
  auto worker_token = EncodedJoinToken(data.fs(), token_in);
  if (!worker_token) return worker_token.error();
  const std::string shown = data.skip_token_print ? kValueWithheld : *worker_token;
  out.worker = "kkadm join " + shown;
  token_in.certificate_key = key;
  auto control_plane_one = ControlPlaneOneArgument(data, token_in, shown);
  if (!control_plane_one) return control_plane_one.error();
  out.control_plane = *control_plane_one;
  return out;
}

std::string InitDoneBanner(const std::string& admin_kubeconfig_path, bool control_plane_endpoint,
                           bool upload_certs, const JoinCommands& join) {
  std::string out =
      "\nYour Kubernetes control-plane has initialized successfully!\n\n"
      "To start using your cluster, you need to run the following as a regular user:\n\n"
      "  mkdir -p $HOME/.kube\n"
      "  sudo cp -i " +
      admin_kubeconfig_path +
      " $HOME/.kube/config\n"
      "  sudo chown $(id -u):$(id -g) $HOME/.kube/config\n\n"
      "Alternatively, if you are the root user, you can run:\n\n"
      "  export KUBECONFIG=" +
      admin_kubeconfig_path +
      "\n\n"
      "You should now deploy a pod network to the cluster.\n"
      "Run \"kubectl apply -f [podnetwork].yaml\" with one of the options listed at:\n"
      "  https://kubernetes.io/docs/concepts/cluster-administration/addons/\n\n";
  const std::string control_plane =
      WithKubeadmForm("  ", join.control_plane, join.control_plane_kubeadm);
  if (control_plane_endpoint && upload_certs) {
    out +=
        "You can now join any number of control-plane nodes running the following command on "
        "each as root:\n\n" +
        control_plane +
        "Please note that the certificate-key gives access to cluster sensitive data, keep it "
        "secret!\n"
        "As a safeguard, uploaded-certs will be deleted in two hours; If necessary, you can use\n"
        "\"kkadm init phase upload-certs --upload-certs\" to reload certs afterward.\n\n";
  } else if (control_plane_endpoint) {
    out +=
        "You can now join any number of control-plane nodes by copying certificate "
        "authorities\nand service account keys on each node and then running the following as "
        "root:\n\n" +
        control_plane;
  }
  std::string worker = WithKubeadmForm("", join.worker, join.worker_kubeadm);
  worker.pop_back();  // kubeadm's banner ends with the command's own line
  return out +
         "Then you can join any number of worker nodes by running the following on each as "
         "root:\n\n" +
         worker;
}

workflow::Phase NewShowJoinCommandPhase(InitData& data) {
  workflow::Phase phase;
  phase.name = "show-join-command";
  phase.description = "Show the join command for control-plane and worker node";
  phase.run = [&data]() -> Status {
    for (const auto& token : data.cfg.bootstrap_tokens) {
      auto join = InitJoinCommands(data, token.Token());
      if (!join) return join.error().Wrap("failed to print join command");
      data.printer().Raw(InitDoneBanner(data.admin_kubeconfig_path,
                                        !data.cfg.cluster.control_plane_endpoint.empty(),
                                        data.upload_certs, *join));
      EmitJoinCommands(data, token, UploadedCertificateKey(data), *join);
    }
    return Status::Ok();
  };
  phase.dependencies = {"bootstrap-token", "upload-certs"};
  return phase;
}

}  // namespace kkadm::phases
