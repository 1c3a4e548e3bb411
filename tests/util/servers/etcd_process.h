// The command line of a real etcd serving a new one-member cluster over mutual TLS, for the tests
// that run etcd (util::EtcdClient's, and control-plane-join/etcd's).
#pragma once

#include <string>
#include <vector>

namespace kkadm::testing {

struct EtcdTestMember {
  std::string name;
  std::string data_dir;
  std::string client_url;   // https://host:port
  std::string peer_url;     // https://host:port
  std::string metrics_url;  // http://host:port
  std::string pki_dir;      // holding ca.crt, server.crt, server.key, peer.crt, peer.key
};

// Client and peer certificates required and checked against pki_dir's ca.crt; logs on stderr.
inline std::vector<std::string> MutualTlsEtcdArgv(const EtcdTestMember& m) {
  const std::string pki = m.pki_dir + "/";
  return {"etcd",
          "--name",
          m.name,
          "--data-dir",
          m.data_dir,
          "--listen-client-urls",
          m.client_url,
          "--advertise-client-urls",
          m.client_url,
          "--listen-peer-urls",
          m.peer_url,
          "--initial-advertise-peer-urls",
          m.peer_url,
          "--initial-cluster",
          m.name + "=" + m.peer_url,
          "--initial-cluster-state",
          "new",
          "--cert-file",
          pki + "server.crt",
          "--key-file",
          pki + "server.key",
          "--trusted-ca-file",
          pki + "ca.crt",
          "--client-cert-auth",
          "--peer-cert-file",
          pki + "peer.crt",
          "--peer-key-file",
          pki + "peer.key",
          "--peer-trusted-ca-file",
          pki + "ca.crt",
          "--peer-client-cert-auth",
          "--listen-metrics-urls",
          m.metrics_url,
          "--logger",
          "zap",
          "--log-outputs",
          "stderr"};
}

}  // namespace kkadm::testing
