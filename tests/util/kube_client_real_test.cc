// RealKubeClient against tests/util/servers/tls_echo.py on 127.0.0.1 (retries, Status mapping,
// patch content types), and the kubeconfig reader.
#include "app/util/kube_client_real.h"

#include <gtest/gtest.h>

#include "tests/fakes/temp_dir.h"
#include "tests/util/servers/echo_server.h"
#include "tests/util/servers/pki_suite.h"

namespace kkadm::util {
namespace {

using testing::EchoServer;
using testing::TempDir;

nlohmann::json StatusBody(int code, const std::string& reason, const std::string& message) {
  return {{"kind", "Status"},   {"apiVersion", "v1"}, {"status", "Failure"},
          {"message", message}, {"reason", reason},   {"code", code}};
}

nlohmann::json Answer(int status, const nlohmann::json& body) {
  return {{"status", status}, {"body", body.dump()}};
}

class RealKubeClientTest : public testing::PkiSuiteTest<RealKubeClientTest> {
 protected:
  std::unique_ptr<EchoServer> Serve(const std::vector<nlohmann::json>& answers) {
    return std::make_unique<EchoServer>(work_.path(), answers, EchoServer::Mode::kMutualTls, &pki_);
  }
  RealKubeClient Client(const EchoServer& server) {
    KubeClientConfig config;
    config.server = server.url() + "/";
    config.ca_pem = pki_.Pem("ca.crt");
    config.client_cert_pem = pki_.Pem("client.crt");
    config.client_key_pem = pki_.Pem("client.key");
    config.retry_interval = std::chrono::milliseconds(10);
    config.retry_timeout = std::chrono::milliseconds(3000);
    return RealKubeClient(config);
  }

  TempDir work_;
};

const char kPath[] = "/api/v1/namespaces/kube-system/configmaps/kubeadm-config";

TEST_F(RealKubeClientTest, RetriesServiceUnavailableThenSucceeds) {
  auto server = Serve({Answer(503, StatusBody(503, "ServiceUnavailable", "not ready")),
                       Answer(429, StatusBody(429, "TooManyRequests", "slow down")),
                       Answer(200, {{"kind", "ConfigMap"}, {"data", {{"k", "v"}}}})});
  auto got = Client(*server).Get(kPath);
  ASSERT_TRUE(got) << got.error().message();
  EXPECT_EQ((*got)["data"]["k"], "v");
  auto requests = server->Requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[2]["path"], kPath);
  EXPECT_EQ(requests[2]["headers"]["accept"], "application/json");
  EXPECT_EQ(requests[2]["client_cn"], "kkadm-test-client");
}

class ApiRetrySink final : public EventSink {
 public:
  std::vector<nlohmann::json> events;
  void Emit(std::string_view kind, nlohmann::json fields,
            const std::vector<std::string>&) override {
    fields["kind"] = std::string(kind);
    events.push_back(std::move(fields));
  }
};

TEST_F(RealKubeClientTest, EachRetryIsAnEventWithTheRequestAndTheAnswer) {
  auto server = Serve({Answer(503, StatusBody(503, "ServiceUnavailable", "not ready")),
                       Answer(200, {{"kind", "ConfigMap"}})});
  ApiRetrySink sink;
  KubeClientConfig config;
  config.server = server->url();
  config.ca_pem = pki_.Pem("ca.crt");
  config.client_cert_pem = pki_.Pem("client.crt");
  config.client_key_pem = pki_.Pem("client.key");
  config.retry_interval = std::chrono::milliseconds(10);
  config.events = Events(&sink);
  ASSERT_TRUE(RealKubeClient(config).Get(kPath));
  ASSERT_EQ(sink.events.size(), 1u);
  EXPECT_EQ(sink.events[0]["kind"], "Retry");
  EXPECT_EQ(sink.events[0]["what"], "kubernetes-api");
  EXPECT_EQ(sink.events[0]["attempt"], 1);
  EXPECT_EQ(sink.events[0]["reason"], std::string("GET ") + kPath + ": not ready");
  EXPECT_EQ(sink.events[0]["delaySeconds"], 0.01);
}

TEST_F(RealKubeClientTest, GivesUpOnPersistent5xxWithUnavailable) {
  auto server = Serve({Answer(500, StatusBody(500, "InternalError", "etcd is down"))});
  KubeClientConfig config;
  config.server = server->url();
  config.ca_pem = pki_.Pem("ca.crt");
  config.client_cert_pem = pki_.Pem("client.crt");
  config.client_key_pem = pki_.Pem("client.key");
  config.retry_interval = std::chrono::milliseconds(10);
  config.retry_timeout = std::chrono::milliseconds(200);
  auto got = RealKubeClient(config).Get(kPath);
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().code(), StatusCode::kUnavailable);
  EXPECT_NE(got.error().message().find("etcd is down"), std::string::npos);
  EXPECT_GE(server->Requests().size(), 2u);
}

TEST_F(RealKubeClientTest, NotFoundIsNotRetriedAndCarriesTheMessage) {
  auto server =
      Serve({Answer(404, StatusBody(404, "NotFound", "configmaps \"kubeadm-config\" not found"))});
  auto got = Client(*server).Get(kPath);
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().code(), StatusCode::kNotFound);
  EXPECT_EQ(got.error().message(), "configmaps \"kubeadm-config\" not found");
  EXPECT_EQ(server->Requests().size(), 1u);
}

TEST_F(RealKubeClientTest, ConflictReasonsMapToAlreadyExistsAndAborted) {
  auto server =
      Serve({Answer(409, StatusBody(409, "AlreadyExists", "configmaps \"x\" already exists")),
             Answer(409, StatusBody(409, "Conflict", "the object has been modified"))});
  auto client = Client(*server);
  auto created =
      client.Create("/api/v1/namespaces/kube-system/configmaps", {{"kind", "ConfigMap"}});
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(created.error().message(), "configmaps \"x\" already exists");
  auto updated = client.Update(kPath, {{"kind", "ConfigMap"}});
  ASSERT_FALSE(updated);
  EXPECT_EQ(updated.error().code(), StatusCode::kAborted);
  auto requests = server->Requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0]["method"], "POST");
  EXPECT_EQ(requests[0]["headers"]["content-type"], "application/json");
  EXPECT_EQ(nlohmann::json::parse(requests[0]["body"].get<std::string>())["kind"], "ConfigMap");
  EXPECT_EQ(requests[1]["method"], "PUT");
}

TEST_F(RealKubeClientTest, ForbiddenAndUnauthorized) {
  auto server = Serve({Answer(403, StatusBody(403, "Forbidden", "nodes is forbidden")),
                       {{"status", 401}, {"body", "Unauthorized"}}});
  auto client = Client(*server);
  auto forbidden = client.Delete("/api/v1/nodes/n1");
  EXPECT_EQ(forbidden.code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(forbidden.message(), "nodes is forbidden");
  auto unauthorized = client.GetRaw("/readyz");
  ASSERT_FALSE(unauthorized);
  EXPECT_EQ(unauthorized.error().code(), StatusCode::kUnauthenticated);
  EXPECT_EQ(server->Requests().size(), 2u);
}

TEST_F(RealKubeClientTest, PatchContentTypes) {
  auto server = Serve({{{"status", 200}, {"body", "{}"}}});
  auto client = Client(*server);
  ASSERT_TRUE(client.Patch("/api/v1/nodes/n1", PatchType::kJson, nlohmann::json::array()));
  ASSERT_TRUE(client.Patch("/api/v1/nodes/n1", PatchType::kMerge, nlohmann::json::object()));
  ASSERT_TRUE(client.Patch("/api/v1/nodes/n1", PatchType::kStrategic, nlohmann::json::object()));
  auto requests = server->Requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0]["headers"]["content-type"], "application/json-patch+json");
  EXPECT_EQ(requests[1]["headers"]["content-type"], "application/merge-patch+json");
  EXPECT_EQ(requests[2]["headers"]["content-type"], "application/strategic-merge-patch+json");
  EXPECT_EQ(requests[2]["method"], "PATCH");
}

TEST_F(RealKubeClientTest, GetRawReturnsTheBody) {
  auto server = Serve({{{"status", 200}, {"body", "ok"}}});
  auto got = Client(*server).GetRaw("/livez");
  ASSERT_TRUE(got) << got.error().message();
  EXPECT_EQ(*got, "ok");
}

TEST_F(RealKubeClientTest, NonJsonAnswerIsAnError) {
  auto server = Serve({{{"status", 200}, {"body", "<html>"}}});
  auto got = Client(*server).Get(kPath);
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().code(), StatusCode::kInternal);
}

TEST(StatusFromApiResponseTest, MapsCodes) {
  EXPECT_EQ(StatusFromApiResponse(422, StatusBody(422, "Invalid", "bad").dump()).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(StatusFromApiResponse(400, "").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(StatusFromApiResponse(503, "").code(), StatusCode::kUnavailable);
  EXPECT_EQ(StatusFromApiResponse(405, "nope").message(), "the server answered HTTP 405: nope");
  EXPECT_EQ(StatusFromApiResponse(409, "{\"kind\":\"Status\",\"reason\":5}").code(),
            StatusCode::kAborted);
}

const char kKubeconfig[] = R"(apiVersion: v1
kind: Config
clusters:
- name: kubernetes
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority-data: Q0EgUEVN
- name: other
  cluster:
    server: https://10.0.0.2:6443
    certificate-authority: /etc/kubernetes/pki/ca.crt
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    client-certificate-data: Q0VSVA==
    client-key-data: S0VZ
- name: files
  user:
    client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem
    client-key: /var/lib/kubelet/pki/kubelet-client-current.pem
- name: bootstrap
  user:
    token: abcdef.0123456789abcdef
contexts:
- name: admin@kubernetes
  context: {cluster: kubernetes, user: admin}
- name: files@other
  context: {cluster: other, user: files}
- name: bootstrap
  context: {cluster: kubernetes, user: bootstrap}
current-context: admin@kubernetes
)";

TEST(KubeClientConfigFromKubeconfigTest, CurrentContextWithEmbeddedData) {
  auto config = KubeClientConfigFromKubeconfig(kKubeconfig, "");
  ASSERT_TRUE(config) << config.error().message();
  EXPECT_EQ(config->server, "https://10.0.0.1:6443");
  EXPECT_EQ(config->ca_pem, "CA PEM");
  EXPECT_EQ(config->client_cert_pem, "CERT");
  EXPECT_EQ(config->client_key_pem, "KEY");
  EXPECT_TRUE(config->token.empty());
  EXPECT_FALSE(config->insecure_skip_tls_verify);
}

TEST(KubeClientConfigFromKubeconfigTest, NamedContextWithFileReferences) {
  auto config = KubeClientConfigFromKubeconfig(kKubeconfig, "files@other");
  ASSERT_TRUE(config) << config.error().message();
  EXPECT_EQ(config->server, "https://10.0.0.2:6443");
  EXPECT_EQ(config->ca_file, "/etc/kubernetes/pki/ca.crt");
  EXPECT_EQ(config->client_cert_file, "/var/lib/kubelet/pki/kubelet-client-current.pem");
  EXPECT_EQ(config->client_key_file, "/var/lib/kubelet/pki/kubelet-client-current.pem");
  EXPECT_TRUE(config->ca_pem.empty());
  EXPECT_TRUE(config->insecure_skip_tls_verify);
}

TEST(KubeClientConfigFromKubeconfigTest, Token) {
  auto config = KubeClientConfigFromKubeconfig(kKubeconfig, "bootstrap");
  ASSERT_TRUE(config) << config.error().message();
  EXPECT_EQ(config->token, "abcdef.0123456789abcdef");
}

TEST(KubeClientConfigFromKubeconfigTest, Errors) {
  EXPECT_EQ(KubeClientConfigFromKubeconfig(kKubeconfig, "nope").error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(KubeClientConfigFromKubeconfig("a: [", "").error().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(KubeClientConfigFromKubeconfig("clusters: []", "").error().code(),
            StatusCode::kInvalidArgument);
  std::string bad = kKubeconfig;
  bad.replace(bad.find("Q0VSVA=="), 8, "Q0V*VA==");
  EXPECT_EQ(KubeClientConfigFromKubeconfig(bad, "").error().code(), StatusCode::kInvalidArgument);
}

// The client reads kubeconfigs with the one reader (DecodeKubeconfig), whose base64 is client-go's
// StdEncoding: unpadded data, which the client's own decoder used to accept, is refused.
TEST(KubeClientConfigFromKubeconfigTest, Base64AsClientGo) {
  std::string unpadded = kKubeconfig;
  unpadded.replace(unpadded.find("Q0VSVA=="), 8, "Q0VSVA");
  auto config = KubeClientConfigFromKubeconfig(unpadded, "");
  ASSERT_FALSE(config.has_value());
  EXPECT_EQ(config.error().code(), StatusCode::kInvalidArgument);
  std::string wrapped = kKubeconfig;  // line breaks inside the data are ignored, as in Go
  wrapped.replace(wrapped.find("Q0VSVA=="), 8, "\"Q0VS\\nVA==\"");
  auto ok = KubeClientConfigFromKubeconfig(wrapped, "");
  ASSERT_TRUE(ok.has_value()) << ok.error().message();
  EXPECT_EQ(ok->client_cert_pem, "CERT");
}

}  // namespace
}  // namespace kkadm::util
