// show-join-command phase adapter and kubeadm's success banner.
#include "app/phases/showjoincommand/show_join_command_phase.h"

#include "app/phases/showjoincommand/join_command.h"

namespace kkadm::phases {
namespace {

Status PrintFor(InitData& data, const std::string& token) {
  const std::string key =
      data.certificate_key.empty() ? data.cfg.certificate_key : data.certificate_key;
  JoinCommandInput in{.kubeconfig_path = data.admin_kubeconfig_path,
                      .token = token,
                      .certificate_key = key,
                      .control_plane = true,
                      .skip_token_print = data.skip_token_print,
                      .skip_certificate_key_print = data.skip_certificate_key_print};
  auto control_plane = JoinCommand(data.fs(), in);
  if (!control_plane) return control_plane.error();
  in.control_plane = false;
  auto worker = JoinCommand(data.fs(), in);
  if (!worker) return worker.error();
  data.printer().Raw(InitDoneBanner(data.admin_kubeconfig_path,
                                    !data.cfg.cluster.control_plane_endpoint.empty(),
                                    data.upload_certs, *control_plane, *worker));
  return Status::Ok();
}

}  // namespace

std::string InitDoneBanner(const std::string& admin_kubeconfig_path, bool control_plane_endpoint,
                           bool upload_certs, const std::string& join_control_plane,
                           const std::string& join_worker) {
  std::string out =
      "\nYour Kubernetes control-plane has initialized successfully!\n\n"
      "To start using your cluster, you need to run the following as a regular user:\n\n"
      "  mkdir -p $HOME/.kube\n"
      "  sudo cp -i " + admin_kubeconfig_path + " $HOME/.kube/config\n"
      "  sudo chown $(id -u):$(id -g) $HOME/.kube/config\n\n"
      "Alternatively, if you are the root user, you can run:\n\n"
      "  export KUBECONFIG=" + admin_kubeconfig_path + "\n\n"
      "You should now deploy a pod network to the cluster.\n"
      "Run \"kubectl apply -f [podnetwork].yaml\" with one of the options listed at:\n"
      "  https://kubernetes.io/docs/concepts/cluster-administration/addons/\n\n";
  if (control_plane_endpoint && upload_certs) {
    out += "You can now join any number of control-plane nodes running the following command on "
           "each as root:\n\n  " + join_control_plane + "\n\n"
           "Please note that the certificate-key gives access to cluster sensitive data, keep it "
           "secret!\n"
           "As a safeguard, uploaded-certs will be deleted in two hours; If necessary, you can use\n"
           "\"kkadm init phase upload-certs --upload-certs\" to reload certs afterward.\n\n";
  } else if (control_plane_endpoint) {
    out += "You can now join any number of control-plane nodes by copying certificate "
           "authorities\nand service account keys on each node and then running the following as "
           "root:\n\n  " + join_control_plane + "\n\n";
  }
  return out + "Then you can join any number of worker nodes by running the following on each as "
               "root:\n\n" + join_worker + "\n";
}

workflow::Phase NewShowJoinCommandPhase(InitData& data) {
  workflow::Phase phase;
  phase.name = "show-join-command";
  phase.description = "Show the join command for control-plane and worker node";
  phase.run = [&data]() -> Status {
    for (const auto& token : data.cfg.bootstrap_tokens) {
      KKADM_RETURN_IF_ERROR(PrintFor(data, token.Token()).Wrap("failed to print join command"));
    }
    return Status::Ok();
  };
  phase.dependencies = {"bootstrap-token", "upload-certs"};
  return phase;
}

}  // namespace kkadm::phases
