// The flags of `kkadm init` (kubeadm's names, defaults and help), registered once so the main
// command and the phase subcommands that inherit them bind the same storage.
#include <CLI/CLI.hpp>

#include "cmd/init_options.h"

namespace kkadm::cmd {
namespace {

using Scope = workflow::FlagSet::Scope;

// A string flag stored in an optional: set only when the user gives it.
void StringFlag(workflow::FlagSet& flags, const std::string& name, std::optional<std::string>& target,
                const std::string& help) {
  flags.Register(name, [name, &target, help](CLI::App& app) {
    return app.add_option_function<std::string>(
        "--" + name, [&target](const std::string& value) { target = value; }, help);
  });
}

void ListFlag(workflow::FlagSet& flags, const std::string& name,
              std::optional<std::vector<std::string>>& target, const std::string& help) {
  flags.Register(name, [name, &target, help](CLI::App& app) {
    return app
        .add_option_function<std::vector<std::string>>(
            "--" + name, [&target](const std::vector<std::string>& value) { target = value; }, help)
        ->delimiter(',');
  });
}

void BoolFlag(workflow::FlagSet& flags, const std::string& name, bool& target, const std::string& help,
              Scope scope = Scope::kCommandAndPhases) {
  flags.Register(name, [name, &target, help](CLI::App& app) { return app.add_flag("--" + name, target, help); },
                 scope);
}

}  // namespace

void RegisterInitFlags(workflow::FlagSet& flags, InitOptions& o) {
  config::InitFlags& f = o.flags;
  flags.Register("config", [&o](CLI::App& app) {
    return app.add_option("--config", o.config_path, "Path to a kubeadm configuration file.");
  });
  StringFlag(flags, "apiserver-advertise-address", f.apiserver_advertise_address,
             "The IP address the API Server will advertise it's listening on. If not set the default network interface will be used.");
  flags.Register("apiserver-bind-port", [&f](CLI::App& app) {
    return app
        .add_option_function<int>(
               "--apiserver-bind-port", [&f](const int& port) { f.apiserver_bind_port = port; },
               "Port for the API Server to bind to. (default 6443)")
        ->check(CLI::Range(1, 65535));
  });
  StringFlag(flags, "node-name", f.node_name, "Specify the node name.");
  StringFlag(flags, "certificate-key", f.certificate_key,
             "Key used to encrypt the control-plane certificates in the kubeadm-certs Secret. The certificate key is a hex encoded string that is an AES key of size 32 bytes.");
  StringFlag(flags, "cri-socket", f.cri_socket,
             "Path to the CRI socket to connect. If empty kkadm will try to auto-detect this value; use this option only if you have more than one CRI installed or if you have non-standard CRI socket.");
  StringFlag(flags, "service-cidr", f.service_cidr, "Use alternative range of IP address for service VIPs. (default \"10.96.0.0/12\")");
  StringFlag(flags, "pod-network-cidr", f.pod_network_cidr,
             "Specify range of IP addresses for the pod network. If set, the control plane will automatically allocate CIDRs for every node.");
  StringFlag(flags, "service-dns-domain", f.service_dns_domain,
             "Use alternative domain for services, e.g. \"myorg.internal\". (default \"cluster.local\")");
  StringFlag(flags, "control-plane-endpoint", f.control_plane_endpoint,
             "Specify a stable IP address or DNS name for the control plane.");
  StringFlag(flags, "kubernetes-version", f.kubernetes_version,
             "Choose a specific Kubernetes version for the control plane. (default \"stable-1\")");
  StringFlag(flags, "cert-dir", f.cert_dir, "The path where to save and store the certificates. (default \"/etc/kubernetes/pki\")");
  ListFlag(flags, "apiserver-cert-extra-sans", f.apiserver_cert_extra_sans,
           "Optional extra Subject Alternative Names (SANs) to use for the API Server serving certificate. Can be both IP addresses and DNS names.");
  StringFlag(flags, "feature-gates", f.feature_gates,
             "A set of key=value pairs that describe feature gates for various features.");
  StringFlag(flags, "token", f.token,
             "The token to use for establishing bidirectional trust between nodes and control-plane nodes. The format is [a-z0-9]{6}\\.[a-z0-9]{16} - e.g. abcdef.0123456789abcdef");
  StringFlag(flags, "token-ttl", f.token_ttl,
             "The duration before the token is automatically deleted (e.g. 1s, 2m, 3h). If set to '0', the token will never expire (default 24h0m0s)");
  StringFlag(flags, "image-repository", f.image_repository,
             "Choose a container registry to pull control plane images from (default \"registry.k8s.io\")");
  StringFlag(flags, "patches", f.patches,
             "Path to a directory that contains files named \"target[suffix][+patchtype].extension\". \"target\" can be one of \"kube-apiserver\", \"kube-controller-manager\", \"kube-scheduler\", \"etcd\", \"kubeletconfiguration\".");
  ListFlag(flags, "ignore-preflight-errors", f.ignore_preflight_errors,
           "A list of checks whose errors will be shown as warnings. Example: 'IsPrivilegedUser,Swap'. Value 'all' ignores errors from all checks.");
  flags.Register("dry-run", [&f](CLI::App& app) {
    return app.add_flag_function(
        "--dry-run", [&f](std::int64_t count) { f.dry_run = count > 0; },
        "Don't apply any changes; just output what would be done.");
  });
  BoolFlag(flags, "upload-certs", o.upload_certs, "Upload control-plane certificates to the kubeadm-certs Secret.");
  BoolFlag(flags, "skip-token-print", o.skip_token_print, "Skip printing of the default bootstrap token generated by 'kkadm init'.");
  BoolFlag(flags, "skip-certificate-key-print", o.skip_certificate_key_print,
           "Don't print the key used to encrypt the control-plane certificates.");
  flags.Register(
      "kubeconfig-dir",
      [&o](CLI::App& app) {
        return app.add_option("--kubeconfig-dir", o.kubeconfig_dir, "The path where to save the kubeconfig file.")
            ->capture_default_str();
      },
      Scope::kPhasesOnly);
  flags.Register(
      "kubeconfig",
      [&o](CLI::App& app) {
        return app.add_option("--kubeconfig", o.kubeconfig_path,
                              "The kubeconfig file to use when talking to the cluster.")
            ->capture_default_str();
      },
      Scope::kPhasesOnly);
}

}  // namespace kkadm::cmd
