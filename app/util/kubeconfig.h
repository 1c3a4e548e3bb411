// Kubeconfig: client-go's v1 Config (clusters, users, contexts, current-context), written as
// `clientcmd.Write` writes it and read back with yaml-cpp: kkadm's one kubeconfig reader; and the
// one base64 (OpenSSL EVP) the *-data fields, Secrets and ConfigMaps use.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util {

struct KubeconfigCluster {
  std::string name;
  std::string server;                      // "https://10.0.0.1:6443"
  std::string certificate_authority_data;  // PEM bytes (base64 only in the file)
  std::string certificate_authority;       // a file path, when the CA is not embedded
  bool insecure_skip_tls_verify = false;
};

struct KubeconfigUser {
  std::string name;
  std::string client_certificate_data;  // PEM bytes
  std::string client_key_data;          // PEM bytes; a secret
  std::string client_certificate;       // a file path
  std::string client_key;               // a file path
  std::string token;                    // a secret
};

struct KubeconfigContext {
  std::string name;
  std::string cluster;
  std::string user;
  std::string namespace_name;
};

struct Kubeconfig {
  std::vector<KubeconfigCluster> clusters;
  std::vector<KubeconfigUser> users;
  std::vector<KubeconfigContext> contexts;
  std::string current_context;

  // The entries the current context points at; nullptr when missing.
  const KubeconfigContext* CurrentContext() const;
  const KubeconfigCluster* CurrentCluster() const;
  const KubeconfigUser* CurrentUser() const;
};

// One cluster `cluster_name` at `server` with `ca_pem`, one user `user_name`, and the context
// "<user>@<cluster>" made current: kubeadm's CreateBasic.
Kubeconfig NewKubeconfig(const std::string& server, const std::string& cluster_name,
                         const std::string& user_name, const std::string& ca_pem);
Kubeconfig NewKubeconfigWithClientCert(const std::string& server, const std::string& cluster_name,
                                       const std::string& user_name, const std::string& ca_pem,
                                       const std::string& key_pem, const std::string& cert_pem);
Kubeconfig NewKubeconfigWithToken(const std::string& server, const std::string& cluster_name,
                                  const std::string& user_name, const std::string& ca_pem,
                                  const std::string& token);

// YAML exactly as client-go writes it (keys sorted, sequences not indented, preferences: {}).
std::string EncodeKubeconfig(const Kubeconfig& config);
// Parses a kubeconfig (YAML or JSON); InvalidArgument for YAML errors, wrong shapes or bad base64
// (as client-go's StdEncoding: padding required, whitespace ignored).
Result<Kubeconfig> DecodeKubeconfig(std::string_view yaml);

class FileSystem;

// The current context's cluster of the kubeconfig at `path`, read through `fs`, with a CA file
// (certificate-authority) read into certificate_authority_data, as client-go's FlattenConfig does.
// Errors: the file system's when a file cannot be read; DecodeKubeconfig's; InvalidArgument when
// no cluster belongs to the current context.
Result<KubeconfigCluster> ReadCurrentCluster(const FileSystem& fs, const std::string& path);

// Standard base64 with padding, no line breaks.
std::string Base64Encode(std::string_view data);
// Standard base64; whitespace is ignored. InvalidArgument for anything else that is not base64.
Result<std::string> Base64Decode(std::string_view text);

// "https://host:port", with the host bracketed when it is IPv6.
std::string FormatServerUrl(const std::string& host, const std::string& port);

}  // namespace kkadm::util
