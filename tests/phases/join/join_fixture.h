// JoinPhasesTest: a JoinData over a RealFileSystem rooted in a temporary directory, a FakeMachine,
// a FakeInitSystem with the kubelet unit, a FakeClock, and fake API clients (bootstrap identity,
// admin.conf, the node's own kubelet.conf), with a discovered JoinCluster built from a real CA,
// and the real waiters and etcd joiner over them.
#pragma once

#include <gtest/gtest.h>

#include <sstream>

#include "app/config/defaults.h"
#include "app/phases/discovery/join_cluster.h"
#include "app/phases/discovery/tls_bootstrap.h"
#include "app/phases/etcd/etcd_join.h"
#include "app/phases/join/check_etcd_phase.h"
#include "app/phases/join/control_plane_join_phase.h"
#include "app/phases/join/join_data.h"
#include "app/phases/join/kubelet_start_phase.h"
#include "app/phases/kubelet/kubelet_bootstrap.h"
#include "app/phases/waitcontrolplane/waiter.h"
#include "app/util/file_system_real.h"
#include "app/util/kube_helpers.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_cluster_access.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_http_client.h"
#include "tests/fakes/fake_init_system.h"
#include "tests/fakes/fake_kube_client.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/forwarding_kube_client.h"
#include "tests/fakes/temp_dir.h"
#include "tests/phases/discovery/cluster_fixture.h"

namespace kkadm::testing {

inline nlohmann::json ReadyNode(const std::string& name, bool ready) {
  return {
      {"apiVersion", "v1"},
      {"kind", "Node"},
      {"metadata", {{"name", name}}},
      {"status", {{"conditions", {{{"type", "Ready"}, {"status", ready ? "True" : "False"}}}}}}};
}

class JoinPhasesTest : public ::testing::Test {
 protected:
  JoinPhasesTest() {
    // The container runtime's socket, where the CRI check looks: under the node root.
    machine_.unix_sockets.insert(fs_.HostPath("/var/run/containerd/containerd.sock"));
    init_.units["kubelet.service"] = {.exists = true, .enabled = true, .active = false};
    config::BootstrapTokenDiscovery bt;
    bt.token = fixture_.Token();
    bt.api_server_endpoint = "10.0.0.1:6443";
    bt.unsafe_skip_ca_verification = true;
    data_.cfg.discovery.bootstrap_token = bt;
    data_.cfg.discovery.tls_bootstrap_token = fixture_.Token();
    data_.cfg.node_registration.name = "worker-1";
    EXPECT_TRUE(config::SetJoinDefaults(data_.cfg, machine_).ok());
    data_.host = &host_;
    data_.out = &printer_;
    data_.discovery_endpoints = {"10.0.0.1:6443"};
    BuildCluster();
    access_.cluster = &cluster_;
    access_.bootstrap = &bootstrap_api_;
    access_.admin = &admin_api_;
    access_.local_api = &admin_api_;
    data_.access = &access_;
    // A client from a kubeconfig on the node is the kubelet's own identity (kubelet.conf).
    network().kube = [this](const util::KubeClientConfig&) -> std::unique_ptr<util::KubeClient> {
      return std::make_unique<ForwardingKubeClient>(node_api_);
    };
    // The only plain GET a join makes: the kubelet's healthz.
    network().http.handler =
        [this](const FakeHttpServer::Seen& seen) -> Result<util::HttpResponse> {
      healthz_urls_.push_back(seen.request.url);
      if (!kubelet_healthy_) return Unavailable("connection refused");
      return util::HttpResponse{200, "ok", {}};
    };
    network().etcd = [this](util::EtcdClientConfig config) {
      etcd_configs_.push_back(config);
      return std::make_unique<util::EtcdClient>(std::move(config), etcd_.Factory()({}));
    };
    data_.waiter = &waiter_;
    data_.kubelet_bootstrap = &kubelet_bootstrap_;
    data_.etcd = &etcd_joiner_;
  }

  // The cluster as discovery would have found it: a real CA, the cluster's configuration.
  void BuildCluster() {
    phases::discovery::VerifiedCluster verified{fixture_.server, fixture_.ca_pem, "10.0.0.1:6443",
                                                true};
    cluster_.tls_bootstrap = phases::discovery::TlsBootstrapKubeconfig(verified, fixture_.Token());
    cluster_.ca_pem = fixture_.ca_pem;
    phases::discovery::ClusterState state;
    config::SetClusterDefaults(state.cluster);
    state.cluster.kubernetes_version = "v1.32.0";
    state.kubelet = {{"apiVersion", "kubelet.config.k8s.io/v1beta1"},
                     {"kind", "KubeletConfiguration"},
                     {"cgroupDriver", "systemd"}};
    cluster_.init_cfg = phases::JoinInitConfiguration(data_.cfg, std::move(state));
  }

  // Turns the join into a control-plane join advertising `address`.
  void MakeControlPlane(const std::string& address = "10.0.0.2") {
    data_.cfg.control_plane = config::JoinControlPlane{};
    data_.cfg.control_plane->local_api_endpoint.advertise_address = address;
    data_.cfg.control_plane->local_api_endpoint.bind_port = 6443;
    data_.cfg.node_registration.name = "cp-2";
    cluster_.init_cfg.node_registration = data_.cfg.node_registration;
    cluster_.init_cfg.local_api_endpoint = data_.cfg.control_plane->local_api_endpoint;
    cluster_.init_cfg.cluster.control_plane_endpoint = "cp.example:6443";
  }

  FakeNetwork& network() { return host_seams_.network; }
  std::string Read(const std::string& path) const { return fs_.ReadFile(path).value_or(""); }
  unsigned Mode(const std::string& path) const {
    auto info = fs_.Stat(path);
    return info ? info->mode : 0;
  }

  TempDir root_;
  util::RealFileSystem fs_{root_.path()};
  FakeInitSystem init_;
  FakeClock clock_;
  FakeMachine machine_;
  FakeHostSeams host_seams_;
  util::Host host_{host_seams_.Over(fs_, init_, clock_, machine_)};
  std::ostringstream out_;
  util::Printer printer_{out_};
  ClusterFixture fixture_;
  phases::JoinCluster cluster_;
  phases::JoinData data_;
  FakeKubeClient bootstrap_api_;  // what the bootstrap token may read
  FakeKubeClient admin_api_;      // admin.conf's view of the cluster
  FakeKubeClient node_api_;       // the kubelet's own identity, once bootstrapped
  FakeJoinClusterAccess access_;  // the cluster above and the clients of admin.conf and bootstrap
  FakeHttpServer etcd_;           // etcd's JSON gateway
  std::vector<util::EtcdClientConfig> etcd_configs_;
  bool kubelet_healthy_ = true;
  std::vector<std::string> healthz_urls_;
  phases::RealWaiter waiter_{clock_, printer_};
  phases::RealKubeletBootstrapWaiter kubelet_bootstrap_{host_, printer_};
  phases::RealEtcdJoiner etcd_joiner_{host_, printer_, access_};
};

}  // namespace kkadm::testing
