// Defaults as `config print` shows them, with kubeadm's example values.
#include "app/config/print_defaults.h"

#include "app/config/defaults.h"
#include "app/util/net_rules.h"
#include "app/util/strings.h"

namespace kkadm::config {
namespace {

constexpr const char* kExampleTokenId = "abcdef";
constexpr const char* kExampleTokenSecret = "0123456789abcdef";

class Example final : public util::Machine {
 public:
  explicit Example(const util::Machine* paths = nullptr) : paths_(paths) {}
  unsigned EffectiveUid() const override { return 0; }
  int NumCpus() const override { return 2; }
  std::uint64_t MemoryBytes() const override { return 0; }
  std::string Hostname() const override { return "node"; }
  Status CheckPortFree(int) const override { return Status(); }
  std::optional<std::string> LookPath(const std::string&) const override { return std::nullopt; }
  Result<std::string> ReadSystemFile(const std::string& path) const override {
    return NotFound(path + ": not read when printing defaults");
  }
  Result<std::string> DefaultRouteAddress() const override { return std::string("1.2.3.4"); }
  Status CheckUnixSocket(const std::string& path) const override {
    return NotFound(path + ": the example machine has no sockets");
  }
  std::optional<std::string> Getenv(const std::string&) const override { return std::nullopt; }
  bool PathExists(const std::string& path) const override {
    return paths_ != nullptr && paths_->PathExists(path);
  }

 private:
  const util::Machine* paths_;
};

// The 10th address of the first service CIDR (kubeadm's GetDNSIP).
std::string DnsServiceIP(const std::string& service_subnet) {
  return util::IndexedIpInCidr(util::SplitComma(service_subnet).front(), 10).value_or("");
}

}  // namespace

const util::Machine& ExampleMachine() {
  static const Example machine;
  return machine;
}

std::unique_ptr<util::Machine> ExampleMachine(const util::Machine& paths) {
  return std::make_unique<Example>(&paths);
}

Result<InitConfiguration> InitDefaultsForPrint() {
  InitConfiguration cfg;
  BootstrapToken token;
  token.id = kExampleTokenId;
  token.secret = kExampleTokenSecret;
  token.ttl = std::chrono::hours(24);
  cfg.bootstrap_tokens.push_back(token);
  KKADM_RETURN_IF_ERROR(SetInitDefaults(cfg, ExampleMachine()));
  return cfg;
}

Result<JoinConfiguration> JoinDefaultsForPrint() {
  JoinConfiguration cfg;
  std::string token = std::string(kExampleTokenId) + "." + kExampleTokenSecret;
  cfg.discovery.bootstrap_token = BootstrapTokenDiscovery{
      token, "kube-apiserver:6443", {}, /*unsafe_skip_ca_verification=*/true};
  cfg.discovery.tls_bootstrap_token = token;
  KKADM_RETURN_IF_ERROR(SetJoinDefaults(cfg, ExampleMachine()));
  return cfg;
}

ResetConfiguration ResetDefaultsForPrint() {
  ResetConfiguration cfg;
  SetResetDefaults(cfg);
  return cfg;
}

Result<nlohmann::json> DefaultComponentConfig(const std::string& kind,
                                              const ClusterConfiguration& cluster) {
  if (kind == "KubeletConfiguration") {
    return nlohmann::json{{"apiVersion", "kubelet.config.k8s.io/v1beta1"},
                          {"kind", "KubeletConfiguration"},
                          {"authentication",
                           {{"anonymous", {{"enabled", false}}},
                            {"webhook", {{"enabled", true}}},
                            {"x509", {{"clientCAFile", cluster.certificates_dir + "/ca.crt"}}}}},
                          {"authorization", {{"mode", "Webhook"}}},
                          {"cgroupDriver", "systemd"},
                          {"clusterDNS", {DnsServiceIP(cluster.networking.service_subnet)}},
                          {"clusterDomain", cluster.networking.dns_domain},
                          {"healthzBindAddress", "127.0.0.1"},
                          {"healthzPort", 10248},
                          {"rotateCertificates", true},
                          {"staticPodPath", "/etc/kubernetes/manifests"}};
  }
  if (kind == "KubeProxyConfiguration") {
    return nlohmann::json{
        {"apiVersion", "kubeproxy.config.k8s.io/v1alpha1"},
        {"kind", "KubeProxyConfiguration"},
        {"bindAddress", "0.0.0.0"},
        {"clientConnection", {{"kubeconfig", "/var/lib/kube-proxy/kubeconfig.conf"}}},
        {"clusterCIDR", cluster.networking.pod_subnet}};
  }
  return InvalidArgument("--component-configs: invalid value \"" + kind +
                         "\": must be one of KubeletConfiguration, KubeProxyConfiguration");
}

}  // namespace kkadm::config
