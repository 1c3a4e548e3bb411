// Bootstrap token Secrets, their RBAC and cluster-info (see bootstrap_token.h).
#include "app/phases/bootstraptoken/bootstrap_token.h"

#include "app/phases/bootstraptoken/token.h"
#include "app/util/kube_apply.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

json Group(const std::string& name) { return json::array({util::RbacSubject("Group", name)}); }

}  // namespace

Status UpdateOrCreateTokens(util::KubeClient& client, bool fail_if_exists,
                            const std::vector<config::BootstrapToken>& tokens,
                            std::chrono::system_clock::time_point now) {
  for (const auto& token : tokens) {
    const std::string path = std::string("/api/v1/namespaces/kube-system/secrets/") +
                             kBootstrapTokenSecretPrefix + token.id;
    auto existing = client.Get(path);
    if (existing && fail_if_exists) {
      return AlreadyExists("a token with id \"" + token.id + "\" already exists");
    }
    if (!existing && existing.error().code() != StatusCode::kNotFound) return existing.error();
    Status status = util::CreateOrUpdate(client, BootstrapTokenSecret(token, now));
    if (!status.ok())
      return status.Wrap("failed to create or update bootstrap token with name " +
                         std::string(kBootstrapTokenSecretPrefix) + token.id);
  }
  return Status::Ok();
}

Status CreateBootstrapTokenRbac(util::KubeClient& client, util::Printer& out) {
  const json get_nodes = json::array({util::PolicyRule({"get"}, {""}, {"nodes"})});
  KKADM_RETURN_IF_ERROR(
      util::CreateOrUpdate(client, util::ClusterRole("kubeadm:get-nodes", get_nodes)));
  KKADM_RETURN_IF_ERROR(util::CreateOrUpdate(
      client, util::ClusterRoleBinding("kubeadm:get-nodes", "kubeadm:get-nodes",
                                       Group(util::kNodeBootstrapTokenGroup))));
  out.Line("bootstrap-token", "Configured RBAC rules to allow Node Bootstrap tokens to get nodes");
  KKADM_RETURN_IF_ERROR(util::CreateOrUpdate(
      client, util::ClusterRoleBinding("kubeadm:kubelet-bootstrap", "system:node-bootstrapper",
                                       Group(util::kNodeBootstrapTokenGroup))));
  out.Line("bootstrap-token",
           "Configured RBAC rules to allow Node Bootstrap tokens to post CSRs in order for nodes "
           "to get long term certificate credentials");
  KKADM_RETURN_IF_ERROR(util::CreateOrUpdate(
      client,
      util::ClusterRoleBinding("kubeadm:node-autoapprove-bootstrap",
                               "system:certificates.k8s.io:certificatesigningrequests:nodeclient",
                               Group(util::kNodeBootstrapTokenGroup))));
  out.Line("bootstrap-token",
           "Configured RBAC rules to allow the csrapprover controller automatically approve CSRs "
           "from a Node Bootstrap Token");
  KKADM_RETURN_IF_ERROR(util::CreateOrUpdate(
      client, util::ClusterRoleBinding(
                  "kubeadm:node-autoapprove-certificate-rotation",
                  "system:certificates.k8s.io:certificatesigningrequests:selfnodeclient",
                  Group(util::kNodesGroup))));
  out.Line("bootstrap-token",
           "Configured RBAC rules to allow certificate rotation for all node client certificates "
           "in the cluster");
  return Status::Ok();
}

std::string ClusterInfoKubeconfig(const util::KubeconfigCluster& cluster) {
  json doc = {
      {"apiVersion", "v1"},
      {"kind", "Config"},
      {"clusters", json::array({{{"name", ""},
                                 {"cluster",
                                  {{"server", cluster.server},
                                   {"certificate-authority-data",
                                    util::Base64Encode(cluster.certificate_authority_data)}}}}})},
      {"contexts", nullptr},
      {"current-context", ""},
      {"preferences", json::object()},
      {"users", nullptr}};
  return util::yaml::Emit(doc);
}

Status CreateClusterInfo(util::KubeClient& client, const util::FileSystem& fs,
                         const std::string& admin_kubeconfig_path, util::Printer& out) {
  out.Line("bootstrap-token",
           "Creating the \"cluster-info\" ConfigMap in the \"kube-public\" namespace");
  auto cluster = util::ReadCurrentCluster(fs, admin_kubeconfig_path);
  if (!cluster) return cluster.error().Wrap("failed to load admin kubeconfig");
  KKADM_RETURN_IF_ERROR(util::CreateOrRetain(
      client, util::ConfigMap(util::kKubePublic, "cluster-info",
                              {{"kubeconfig", ClusterInfoKubeconfig(*cluster)}})));
  const std::string name = "kubeadm:bootstrap-signer-clusterinfo";
  KKADM_RETURN_IF_ERROR(util::CreateOrUpdate(
      client, util::Role(util::kKubePublic, name,
                         json::array({util::PolicyRule({"get"}, {""}, {"configmaps"},
                                                       {"cluster-info"})}))));
  return util::CreateOrUpdate(
      client, util::RoleBinding(util::kKubePublic, name, name,
                                json::array({util::RbacSubject("User", "system:anonymous")})));
}

Status EnsureAdminClusterRoleBinding(util::KubeClient& client) {
  return util::CreateOrRetain(client,
                              util::ClusterRoleBinding("kubeadm:cluster-admins", "cluster-admin",
                                                       Group("kubeadm:cluster-admins")));
}

}  // namespace kkadm::phases
