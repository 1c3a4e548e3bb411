// ClusterPhasesTest: InitData for the phases that talk to the API server: a FakeKubeClient, a
// FakeClock, a RecordingInitSystem, a RealFileSystem in a temporary directory, and helpers that
// make a CA with the openssl CLI and an admin.conf around it.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "app/phases/init/init_data.h"
#include "app/phases/waitcontrolplane/waiter.h"
#include "app/util/file_system_real.h"
#include "app/util/kube_apply.h"
#include "app/workflow/phase.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_cluster_access.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_kube_client.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/recording_init_system.h"
#include "tests/fakes/temp_dir.h"
#include "tests/phases/controlplane/pod_fixture.h"

namespace kkadm::testing {

// Runs `openssl` with `args` in `dir`; true on exit 0.
inline bool RunOpenssl(const std::string& dir, const std::string& args) {
  const std::string cmd = "cd '" + dir + "' && openssl " + args + " >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

inline std::string ReadHostFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class ClusterPhasesTest : public ::testing::Test {
 protected:
  ClusterPhasesTest() {
    data_.cfg = DefaultInitConfig();
    data_.cfg.node_registration.cri_socket = "unix:///var/run/containerd/containerd.sock";
    data_.host = &host_;
    data_.out = &printer_;
    access_.admin = &client_;
    data_.access = &access_;
    data_.waiter = &waiter_;
  }

  // Plain GETs (the kubelet's healthz) get `get`'s body with HTTP 200, or its error as the
  // transport's.
  void AnswerGets(std::function<Result<std::string>(const std::string& url)> get) {
    host_seams_.network.http.handler =
        [get = std::move(get)](const FakeHttpServer::Seen& seen) -> Result<util::HttpResponse> {
      Result<std::string> body = get(seen.request.url);
      if (!body) return body.error();
      return util::HttpResponse{200, *body, {}};
    };
  }

  Status RunTree(const workflow::Phase& phase) {
    if (phase.run) KKADM_RETURN_IF_ERROR(phase.run());
    for (const auto& child : phase.children) KKADM_RETURN_IF_ERROR(RunTree(child));
    return Status::Ok();
  }

  // A self-signed CA at <pki>/ca.{crt,key} (node path) made by the openssl CLI; returns the PEM.
  std::string MakeCa(const std::string& node_dir = "/etc/kubernetes/pki",
                     const std::string& base = "ca") {
    const std::string dir = root_.path() + node_dir;
    std::string mk = "mkdir -p '" + dir + "'";
    EXPECT_EQ(std::system(mk.c_str()), 0);
    EXPECT_TRUE(RunOpenssl(dir, "req -x509 -newkey rsa:2048 -nodes -keyout " + base + ".key -out " +
                                    base + ".crt -days 1 -subj /CN=kubernetes"));
    return ReadHostFile(dir + "/" + base + ".crt");
  }

  // admin.conf pointing at `server` with the CA embedded.
  void WriteAdminConf(const std::string& ca_pem,
                      const std::string& server = "https://192.0.2.10:6443") {
    const std::string text =
        "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    certificate-authority-data: " +
        util::Base64Encode(ca_pem) + "\n    server: " + server +
        "\n  name: kubernetes\ncontexts:\n- context:\n    cluster: kubernetes\n    user: "
        "kubernetes-admin\n  name: kubernetes-admin@kubernetes\ncurrent-context: "
        "kubernetes-admin@kubernetes\nusers:\n- name: kubernetes-admin\n  user:\n    "
        "client-certificate-data: Y2VydA==\n    client-key-data: a2V5\n";
    ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/admin.conf", text, 0600).ok());
  }

  TempDir root_;
  util::RealFileSystem fs_{root_.path()};
  RecordingInitSystem init_;
  FakeClock clock_;
  FakeMachine machine_;
  FakeHostSeams host_seams_;
  util::Host host_{host_seams_.Over(fs_, init_, clock_, machine_)};
  std::ostringstream out_;
  util::Printer printer_{out_};
  FakeKubeClient client_;
  FakeInitClusterAccess access_;  // admin.conf's client is client_
  phases::RealWaiter waiter_{clock_, printer_};
  phases::InitData data_;
};

}  // namespace kkadm::testing
