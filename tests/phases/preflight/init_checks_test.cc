#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "app/phases/init/preflight_phase.h"
#include "app/phases/preflight/control_plane_checks.h"
#include "tests/phases/preflight/preflight_test_env.h"

namespace kkadm::phases::preflight {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// InitData over a PreflightEnv, with the config as MakeInitData would default it.
struct InitEnv {
  InitEnv() : printer(out) {
    data.host = &env.host;
    data.out = &printer;
    data.cfg.cluster.kubernetes_version = "v1.32.0";
    data.cfg.cluster.etcd.local = config::LocalEtcd{};
    data.cfg.node_registration.name = "node-1";
    data.cfg.node_registration.cri_socket = "unix:///var/run/containerd/containerd.sock";
    data.cfg.local_api_endpoint.advertise_address = "192.0.2.10";
  }
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& check : InitNodeChecks(data)) names.push_back(check->Name());
    return names;
  }

  kkadm::testing::PreflightEnv env;
  std::ostringstream out;
  util::Printer printer;
  InitData data;
};

const std::vector<std::string> kDefaultNames = {
    "NumCPU",
    "Mem",
    "KubernetesVersion",
    "Firewalld",
    "Port-6443",
    "Port-10259",
    "Port-10257",
    "FileAvailable--etc-kubernetes-manifests-kube-apiserver.yaml",
    "FileAvailable--etc-kubernetes-manifests-kube-controller-manager.yaml",
    "FileAvailable--etc-kubernetes-manifests-kube-scheduler.yaml",
    "FileAvailable--etc-kubernetes-manifests-etcd.yaml",
    "HTTPProxy",
    "HTTPProxyCIDR",
    "HTTPProxyCIDR",
    "CRI",
    "Swap",
    "FileExisting-ip",
    "FileExisting-iptables",
    "FileExisting-mount",
    "FileExisting-nsenter",
    "FileExisting-ebtables",
    "FileExisting-ethtool",
    "FileExisting-socat",
    "FileExisting-tc",
    "FileExisting-touch",
    "Hostname",
    "Service-Kubelet",
    "Port-10250",
    "FileContent--proc-sys-net-ipv4-ip_forward",
    "Port-2379",
    "Port-2380",
    "DirAvailable--var-lib-etcd"};

// What the CRI check says of the fake runtime (tests/fakes/fake_container_runtime.h).
const std::string kRuntimeLine =
    "[preflight] Container runtime containerd 1.6.20~ds1 (CRI API v1) at "
    "unix:///var/run/containerd/containerd.sock: network ready\n";
// kubeadm's lines before it pulls the control-plane images (app/phases/images/image_pull_check.h).
const std::string kPullLines =
    "[preflight] Pulling images required for setting up a Kubernetes cluster\n"
    "[preflight] This might take a minute or two, depending on the speed of your internet "
    "connection\n"
    "[preflight] You can also perform this action beforehand using 'kubeadm config images pull'\n";

TEST(PreflightInitChecksTest, DefaultListInKubeadmOrder) {
  InitEnv e;
  EXPECT_EQ(e.Names(), kDefaultNames);
}

TEST(PreflightInitChecksTest, HealthyMachinePassesSilently) {
  InitEnv e;
  Status status = RunInitPreflight(e.data);
  EXPECT_TRUE(status.ok()) << status.message() << "\n" << e.out.str();
  EXPECT_EQ(e.out.str(),
            std::string("[preflight] Running pre-flight checks\n") + kRuntimeLine + kPullLines);
  EXPECT_EQ(e.env.seams.network.runtime.images.size(), 7u);  // kubeadm's images, pulled
}

TEST(PreflightInitChecksTest, RootCheckFailsFastAlone) {
  InitEnv e;
  e.env.machine.euid = 1000;
  e.env.machine.cpus = 1;
  Status status = RunInitPreflight(e.data);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "[preflight] Some fatal errors occurred: IsPrivilegedUser");
  EXPECT_EQ(e.out.str(),
            "[preflight] Running pre-flight checks\n"
            "[preflight] Some fatal errors occurred:\n"
            "\t[ERROR IsPrivilegedUser]: user is not running as root\n"
            "[preflight] If you know what you are doing, you can make a check non-fatal with "
            "`--ignore-preflight-errors=...`\n");
  EXPECT_THAT(e.env.init.calls, IsEmpty());  // nothing after the root check ran
}

TEST(PreflightInitChecksTest, IgnoredRootCheckContinues) {
  InitEnv e;
  e.env.machine.euid = 1000;
  e.data.ignore_preflight_errors = {"isprivilegeduser"};
  EXPECT_TRUE(RunInitPreflight(e.data).ok());
  EXPECT_EQ(e.out.str(),
            std::string("[preflight] Running pre-flight checks\n"
                        "\t[WARNING IsPrivilegedUser]: user is not running as root\n") +
                kRuntimeLine + kPullLines);
}

TEST(PreflightInitChecksTest, BusyPortsAndExistingFilesFail) {
  InitEnv e;
  e.env.machine.busy_ports = {6443, 2379};
  e.env.machine.binaries.erase("socat");
  ASSERT_TRUE(e.env.fs.WriteFile("/etc/kubernetes/manifests/etcd.yaml", "x", 0600).ok());
  ASSERT_TRUE(e.env.fs.WriteFile("/var/lib/etcd/member", "x", 0600).ok());
  Status status = RunInitPreflight(e.data);
  EXPECT_EQ(status.message(),
            "[preflight] Some fatal errors occurred: Port-6443, "
            "FileAvailable--etc-kubernetes-manifests-etcd.yaml, Port-2379, "
            "DirAvailable--var-lib-etcd");
  EXPECT_EQ(e.out.str(),
            std::string("[preflight] Running pre-flight checks\n") + kRuntimeLine +
                "\t[WARNING FileExisting-socat]: socat not found in system path\n"
                "[preflight] Some fatal errors occurred:\n"
                "\t[ERROR Port-6443]: Port 6443 is in use\n"
                "\t[ERROR FileAvailable--etc-kubernetes-manifests-etcd.yaml]: "
                "/etc/kubernetes/manifests/etcd.yaml already exists\n"
                "\t[ERROR Port-2379]: Port 2379 is in use\n"
                "\t[ERROR DirAvailable--var-lib-etcd]: /var/lib/etcd is not empty\n"
                "[preflight] If you know what you are doing, you can make a check non-fatal with "
                "`--ignore-preflight-errors=...`\n");
}

// `kkadm init phase etcd local` and `kubelet-start` by hand, then `kkadm init`: the manifest, the
// ports of its pod, the data directory and the kubelet's port are kkadm's own work (its journal).
TEST(PreflightInitChecksTest, OwnRecordedWorkIsLeftOutAndSaidSo) {
  InitEnv e;
  e.env.machine.busy_ports = {6443, 2379, 2380, 10250};
  ASSERT_TRUE(e.env.fs.WriteFile("/etc/kubernetes/manifests/etcd.yaml", "x", 0600).ok());
  ASSERT_TRUE(e.env.fs.WriteFile("/var/lib/etcd/member", "x", 0600).ok());
  e.data.own_work.files = {"/etc/kubernetes/manifests/etcd.yaml"};
  e.data.own_work.dirs = {"/var/lib/etcd"};
  e.data.own_work.units = {"kubelet.service"};
  e.data.own_work.recorded_in = "/var/lib/kkadm/journal";
  Status status = RunInitPreflight(e.data);
  // 6443 is not: kkadm wrote no API server manifest, so whatever listens there is not its pod.
  EXPECT_EQ(status.message(), "[preflight] Some fatal errors occurred: Port-6443");
  EXPECT_THAT(e.out.str(),
              HasSubstr("[preflight] Leaving out the checks that only kkadm's own earlier work on "
                        "this node fails (recorded in /var/lib/kkadm/journal): "
                        "FileAvailable--etc-kubernetes-manifests-etcd.yaml, Port-10250, "
                        "Port-2379, Port-2380, DirAvailable--var-lib-etcd\n"));
  e.data.own_work.files.insert("/etc/kubernetes/manifests/kube-apiserver.yaml");
  e.out.str("");
  EXPECT_TRUE(RunInitPreflight(e.data).ok()) << e.out.str();
}

TEST(PreflightInitChecksTest, AllIgnoresEveryError) {
  InitEnv e;
  e.env.machine.cpus = 1;
  e.env.machine.unix_sockets.clear();
  e.data.ignore_preflight_errors = {"all"};
  EXPECT_TRUE(RunInitPreflight(e.data).ok());
  EXPECT_THAT(e.out.str(), HasSubstr("\t[WARNING NumCPU]: the number of available CPUs 1"));
  EXPECT_THAT(e.out.str(), HasSubstr("\t[WARNING CRI]: container runtime is not running"));
}

TEST(PreflightInitChecksTest, BindPortAndManifestDirAndEtcdDataDirAreHonoured) {
  InitEnv e;
  e.data.cfg.local_api_endpoint.bind_port = 7443;
  e.data.manifest_dir = "/srv/manifests";
  e.data.cfg.cluster.etcd.local->data_dir = "/data/etcd";
  auto names = e.Names();
  EXPECT_THAT(names, ::testing::Contains("Port-7443"));
  EXPECT_THAT(names, ::testing::Contains("FileAvailable--srv-manifests-etcd.yaml"));
  EXPECT_THAT(names, ::testing::Contains("DirAvailable--data-etcd"));
  EXPECT_THAT(names, ::testing::Not(::testing::Contains("Port-6443")));
}

TEST(PreflightInitChecksTest, ExternalEtcdChecksItsFilesInstead) {
  InitEnv e;
  e.data.cfg.cluster.etcd.local.reset();
  e.data.cfg.cluster.etcd.external =
      config::ExternalEtcd{{"https://10.0.0.5:2379"}, "/etc/etcd/ca.crt", "/etc/etcd/c.crt", ""};
  auto names = e.Names();
  EXPECT_THAT(names, ::testing::Not(::testing::Contains("Port-2379")));
  EXPECT_EQ(std::count(names.begin(), names.end(), "ExternalEtcdClientCertificates"), 2);
}

TEST(PreflightInitChecksTest, ConntrackOnlyBeforeKubernetes132) {
  InitEnv e;
  EXPECT_THAT(e.Names(), ::testing::Not(::testing::Contains("FileExisting-conntrack")));
  e.data.cfg.cluster.kubernetes_version = "v1.31.4";
  auto names = e.Names();
  auto conntrack = std::find(names.begin(), names.end(), "FileExisting-conntrack");
  ASSERT_NE(conntrack, names.end());
  EXPECT_EQ(*(conntrack + 1), "FileExisting-ip");
}

TEST(PreflightInitChecksTest, ForwardingChecksFollowTheAddressFamilies) {
  InitEnv e;
  e.data.cfg.cluster.networking.service_subnet = "fd00:10:96::/108";
  e.data.cfg.local_api_endpoint.advertise_address = "fd00::10";
  auto names = e.Names();
  EXPECT_THAT(names, ::testing::Contains("FileContent--proc-sys-net-ipv6-conf-default-forwarding"));
  EXPECT_THAT(names,
              ::testing::Not(::testing::Contains("FileContent--proc-sys-net-ipv4-ip_forward")));
  e.data.cfg.cluster.networking.pod_subnet = "10.244.0.0/16,fd00:244::/56";
  names = e.Names();
  EXPECT_THAT(names, ::testing::Contains("FileContent--proc-sys-net-ipv4-ip_forward"));
  EXPECT_EQ(std::count(names.begin(), names.end(), "HTTPProxyCIDR"), 3);
}

TEST(PreflightInitChecksTest, DryRunSaysImagesWouldBePulled) {
  InitEnv e;
  e.data.dry_run = true;
  EXPECT_TRUE(RunInitPreflight(e.data).ok());
  EXPECT_EQ(e.out.str(),
            std::string("[preflight] Running pre-flight checks\n") + kRuntimeLine +
                "[preflight] Would pull the required images (like 'kubeadm config images pull')\n");
}

TEST(PreflightPhaseTest, AdapterShapeAndRun) {
  InitEnv e;
  workflow::Phase phase = NewPreflightPhase(e.data);
  EXPECT_EQ(phase.name, "preflight");
  EXPECT_EQ(phase.description, "Run pre-flight checks");
  EXPECT_THAT(phase.inherit_flags,
              ElementsAre("config", "ignore-preflight-errors", "dry-run", "node-name", "cri-socket",
                          "cri-socket-wait", "kubernetes-version", "apiserver-advertise-address",
                          "apiserver-bind-port"));
  ASSERT_TRUE(phase.run);
  EXPECT_FALSE(phase.run_if);
  e.env.machine.cpus = 1;
  Status status = phase.run();
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(e.out.str(), HasSubstr("\t[ERROR NumCPU]: the number of available CPUs 1 is less "
                                     "than the required 2\n"));
}

}  // namespace
}  // namespace kkadm::phases::preflight
