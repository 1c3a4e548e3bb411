// The internal form of kubeadm's configuration API. v1beta3 and v1beta4 documents are loaded into
// these structs (app/config/load.h), defaulted and validated once; everything after that trusts
// them. Field names follow kubeadm's Go types; comments give kubeadm's defaults.
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/util/pod_spec.h"

namespace kkadm::config {

using Duration = std::chrono::milliseconds;

// One command-line argument of a component, "--name=value". v1beta4 keeps a list (duplicates
// allowed, order kept); v1beta3 maps are converted to a list sorted by name.
using Arg = util::Arg;
using EnvVar = util::EnvVar;
using HostPathMount = util::HostPathMount;

struct ControlPlaneComponent {
  std::vector<Arg> extra_args;
  std::vector<HostPathMount> extra_volumes;
  std::vector<EnvVar> extra_envs;  // v1beta4
};

struct APIServer {
  ControlPlaneComponent component;
  std::vector<std::string> cert_sans;
};

struct LocalEtcd {
  std::string image_repository;  // empty: ClusterConfiguration.imageRepository
  std::string image_tag;         // empty: kkadm's etcd version for kubernetesVersion
  std::string data_dir = "/var/lib/etcd";
  std::vector<Arg> extra_args;
  std::vector<EnvVar> extra_envs;  // v1beta4
  std::vector<std::string> server_cert_sans;
  std::vector<std::string> peer_cert_sans;
};

struct ExternalEtcd {
  std::vector<std::string> endpoints;
  std::string ca_file;
  std::string cert_file;
  std::string key_file;
};

// Exactly one of local/external is set after defaulting (local by default).
struct Etcd {
  std::optional<LocalEtcd> local;
  std::optional<ExternalEtcd> external;
};

struct Networking {
  std::string service_subnet = "10.96.0.0/12";  // may be dual-stack: "a/b,c/d"
  std::string pod_subnet;                       // empty: none
  std::string dns_domain = "cluster.local";
};

struct DNS {
  std::string image_repository;  // empty: <imageRepository>/coredns
  std::string image_tag;         // empty: kkadm's CoreDNS version
  bool disabled = false;         // v1beta4
};

struct Proxy {
  bool disabled = false;  // v1beta4
};

enum class EncryptionAlgorithm { kRsa2048, kRsa3072, kRsa4096, kEcdsaP256, kEcdsaP384 };

struct ClusterConfiguration {
  Etcd etcd;
  Networking networking;
  std::string kubernetes_version;      // "v1.32.0" after defaulting
  std::string control_plane_endpoint;  // "host[:port]", empty if none
  APIServer api_server;
  ControlPlaneComponent controller_manager;
  ControlPlaneComponent scheduler;
  DNS dns;
  Proxy proxy;
  std::string certificates_dir = "/etc/kubernetes/pki";
  std::string image_repository = "registry.k8s.io";
  std::map<std::string, bool> feature_gates;
  std::string cluster_name = "kubernetes";
  EncryptionAlgorithm encryption_algorithm = EncryptionAlgorithm::kRsa2048;
  Duration certificate_validity_period = std::chrono::hours(8760);
  Duration ca_certificate_validity_period = std::chrono::hours(87600);
};

struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule, PreferNoSchedule, NoExecute
  bool operator==(const Taint&) const = default;
};

struct NodeRegistration {
  std::string name;        // lower-cased; defaults to the lower-cased hostname
  std::string cri_socket;  // "unix:///var/run/containerd/containerd.sock" by default
  // nullopt: `taints` absent or null (control-plane nodes get the control-plane taint);
  // an empty vector: `taints: []` (no taint at all).
  std::optional<std::vector<Taint>> taints;
  std::vector<Arg> kubelet_extra_args;
  std::vector<std::string> ignore_preflight_errors;  // lower-cased
  std::string image_pull_policy = "IfNotPresent";
  bool image_pull_serial = true;  // v1beta4
};

struct APIEndpoint {
  std::string advertise_address;  // defaults to the default-route interface's IP
  int bind_port = 6443;
};

struct BootstrapToken {
  std::string id;      // [a-z0-9]{6}
  std::string secret;  // [a-z0-9]{16}; never logged
  std::string description;
  std::optional<Duration> ttl;  // 24h by default; 0 means never expires
  std::optional<std::chrono::system_clock::time_point> expires;  // wins over ttl
  std::vector<std::string> usages = {"signing", "authentication"};
  std::vector<std::string> groups = {"system:bootstrappers:kubeadm:default-node-token"};
  std::string Token() const { return id + "." + secret; }
};

struct Timeouts {
  Duration control_plane_component_health_check = std::chrono::minutes(4);
  Duration kubelet_health_check = std::chrono::minutes(4);
  Duration kubernetes_api_call = std::chrono::minutes(1);
  Duration etcd_api_call = std::chrono::minutes(2);
  Duration tls_bootstrap = std::chrono::minutes(5);
  Duration discovery = std::chrono::minutes(5);
  Duration upgrade_manifests = std::chrono::minutes(5);
};

// Component configuration documents are kept as given (converted to JSON) and passed through;
// null when the file had none.
struct ComponentConfigs {
  nlohmann::json kubelet;     // kubelet.config.k8s.io/v1beta1 KubeletConfiguration
  nlohmann::json kube_proxy;  // kubeproxy.config.k8s.io/v1alpha1 KubeProxyConfiguration
};

struct InitConfiguration {
  std::vector<BootstrapToken> bootstrap_tokens;
  NodeRegistration node_registration;
  APIEndpoint local_api_endpoint;
  std::string certificate_key;  // 64 hex chars, or empty
  std::vector<std::string> skip_phases;
  std::string patches_directory;
  bool dry_run = false;  // v1beta4
  Timeouts timeouts;
  ClusterConfiguration cluster;
  ComponentConfigs component_configs;
};

struct BootstrapTokenDiscovery {
  std::string token;  // id.secret
  std::string api_server_endpoint;
  std::vector<std::string> ca_cert_hashes;  // "sha256:<hex>", lower-case
  bool unsafe_skip_ca_verification = false;
};

struct FileDiscovery {
  std::string kube_config_path;
};

struct Discovery {
  std::optional<BootstrapTokenDiscovery> bootstrap_token;
  std::optional<FileDiscovery> file;
  std::string tls_bootstrap_token;
};

struct JoinControlPlane {
  APIEndpoint local_api_endpoint;
  std::string certificate_key;
};

struct JoinConfiguration {
  NodeRegistration node_registration;
  std::string ca_cert_path = "/etc/kubernetes/pki/ca.crt";
  Discovery discovery;
  std::optional<JoinControlPlane> control_plane;
  std::vector<std::string> skip_phases;
  std::string patches_directory;
  bool dry_run = false;
  Timeouts timeouts;
  ComponentConfigs component_configs;
};

struct ResetConfiguration {
  std::string certificates_dir = "/etc/kubernetes/pki";
  bool cleanup_tmp_dir = false;
  std::string cri_socket;
  bool dry_run = false;
  bool force = false;
  std::vector<std::string> ignore_preflight_errors;
  std::vector<std::string> skip_phases;
  std::vector<std::string> unmount_flags;
  Timeouts timeouts;
};

}  // namespace kkadm::config
