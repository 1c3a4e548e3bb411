// kubeadm's validation of defaulted configurations (ValidateInitConfiguration and friends). Every
// function returns OK or the first problem as InvalidArgument with one line
// "<origin>: <field path>: invalid value "<value>": <reason>"; soft problems go to `warnings`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/util/machine.h"
#include "app/util/status.h"

namespace kkadm::config {

// Keeps the first error of a validation pass, worded with the document's origin.
class Checker {
 public:
  Checker(std::string origin, std::vector<std::string>& warnings)
      : origin_(std::move(origin)), warnings_(warnings) {}
  void Fail(const std::string& path, const std::string& value, const std::string& reason);
  void Warn(const std::string& path, const std::string& message);
  bool ok() const { return status_.ok(); }
  Status status() const { return status_; }

 private:
  std::string origin_;
  std::vector<std::string>& warnings_;
  Status status_;
};

// The origins name the documents the fields came from (see load.h: LoadedDocuments).
Status ValidateClusterConfiguration(const ClusterConfiguration& cfg, const std::string& origin,
                                    std::vector<std::string>& warnings);
Status ValidateInitConfiguration(const InitConfiguration& cfg, const std::string& init_origin,
                                 const std::string& cluster_origin,
                                 std::vector<std::string>& warnings);
// `machine` tells whether a discovery file exists.
Status ValidateJoinConfiguration(const JoinConfiguration& cfg, const std::string& origin,
                                 const util::Machine& machine, std::vector<std::string>& warnings);
Status ValidateResetConfiguration(const ResetConfiguration& cfg, const std::string& origin,
                                  std::vector<std::string>& warnings);

// Shared checks (validate_node.cc), usable with any Checker.
void ValidateNodeRegistration(const NodeRegistration& node, const std::string& path,
                              Checker& check);
void ValidateAPIEndpoint(const APIEndpoint& endpoint, const std::string& path, Checker& check);
void ValidateIgnorePreflightErrors(const std::vector<std::string>& names, const std::string& path,
                                   Checker& check);
void ValidateCertificateKey(const std::string& key, const std::string& path, Checker& check);
void ValidateAbsolutePath(const std::string& value, const std::string& path, Checker& check);
// A directory kkadm fills and owns (certificatesDir, etcd.local.dataDir): absolute, without ".."
// (it would leave the node root, or the directory meant) and not "/" (its mode would be changed).
void ValidateNodeDirectory(const std::string& value, const std::string& path, Checker& check);
void ValidateCriSocket(const std::string& socket, const std::string& path, Checker& check);
// The token syntax "id.secret"; the message shows only the id part.
void ValidateTokenSyntax(const std::string& token, const std::string& path, Checker& check);
// Why `text` is not an endpoint, in kkadm's words, or nullopt when it is one: kubeadm's
// ParseHostPort rules (util::ParseHostPort: "host", "host:port" or "[v6]:port", the host an IP or
// a DNS-1123 subdomain, the port 1..65535); with port_required it must also split as Go's
// net.SplitHostPort splits "host:port".
std::optional<std::string> HostPortProblem(const std::string& text, bool port_required);

}  // namespace kkadm::config
