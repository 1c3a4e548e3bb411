// HttpClient against tests/util/servers/tls_echo.py on 127.0.0.1: TLS verification, client
// certificates, bearer tokens, timeouts and plain HTTP.
#include "app/util/http_client.h"

#include <gtest/gtest.h>

#include "tests/fakes/temp_dir.h"
#include "tests/util/servers/echo_server.h"
#include "tests/util/servers/pki_suite.h"

namespace kkadm::util {
namespace {

using testing::EchoServer;
using testing::TempDir;
using testing::TestPki;

class HttpClientTest : public testing::PkiSuiteTest<HttpClientTest> {
 protected:
  static void SetUpTestSuite() {
    if (!MakePki()) return;
    ASSERT_TRUE(other_pki_.Create(dir_->path() + "/other"));
    suite_set_up_ = true;
  }

  HttpClientOptions Verified() const {
    HttpClientOptions options;
    options.ca_pem = pki_.Pem("ca.crt");
    return options;
  }
  std::vector<nlohmann::json> Ok(const std::string& body) const {
    return {{{"status", 200}, {"body", body}}};
  }

  inline static TestPki other_pki_;
  TempDir work_;
};

TEST_F(HttpClientTest, VerifiedTlsReturnsStatusBodyAndHeaders) {
  EchoServer server(work_.path(), {{{"status", 201}, {"body", "{\"a\":1}"}}},
                    EchoServer::Mode::kTls, &pki_);
  auto client = NewHttpClient(Verified());
  auto response = client->Get(server.url() + "/x?y=1");
  ASSERT_TRUE(response) << response.error().message();
  EXPECT_EQ(response->status, 201);
  EXPECT_EQ(response->body, "{\"a\":1}");
  EXPECT_EQ(response->headers["content-type"], "application/json");
  ASSERT_EQ(server.Requests().size(), 1u);
  EXPECT_EQ(server.Requests()[0]["path"], "/x?y=1");
}

// A server cannot make kkadm hold an endless body: past the limit the transfer ends.
TEST_F(HttpClientTest, ResponseBodyIsBounded) {
  EchoServer server(work_.path(), {Ok(std::string(2000, 'x'))[0], Ok(std::string(1000, 'y'))[0]},
                    EchoServer::Mode::kTls, &pki_);
  HttpClientOptions options = Verified();
  options.max_response_bytes = 1000;
  auto client = NewHttpClient(options);
  auto response = client->Get(server.url() + "/big");
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().code(), StatusCode::kUnavailable);
  EXPECT_EQ(response.error().message(),
            "GET " + server.url() + "/big: the response is over the limit of 1000 bytes");
  response = client->Get(server.url() + "/fits");
  ASSERT_TRUE(response.has_value()) << response.error().message();
  EXPECT_EQ(response->body.size(), 1000u);
}

// DoStreaming hands the body over as it arrives, past max_response_bytes (an etcd snapshot), and
// a piece the sink refuses ends the transfer with the sink's error.
TEST_F(HttpClientTest, StreamingHandsOverPiecesAndStopsOnRefusal) {
  const std::string big(300000, 'z');
  EchoServer server(work_.path(), {Ok(big)[0]}, EchoServer::Mode::kTls, &pki_);
  HttpClientOptions options = Verified();
  options.max_response_bytes = 1000;
  auto client = NewHttpClient(options);
  HttpRequest request;
  request.url = server.url() + "/stream";
  std::string got;
  int pieces = 0;
  auto response = client->DoStreaming(request, [&](std::string_view piece) {
    got.append(piece);
    ++pieces;
    return Status();
  });
  ASSERT_TRUE(response) << response.error().message();
  EXPECT_EQ(response->status, 200);
  EXPECT_TRUE(response->body.empty());
  EXPECT_EQ(got, big);
  EXPECT_GT(pieces, 1);
  response =
      client->DoStreaming(request, [](std::string_view) { return Unavailable("disk full"); });
  ASSERT_FALSE(response);
  EXPECT_EQ(response.error().message(), "disk full");
}

TEST_F(HttpClientTest, WrongCaIsRefused) {
  EchoServer server(work_.path(), Ok("{}"), EchoServer::Mode::kTls, &pki_);
  HttpClientOptions options;
  options.ca_pem = other_pki_.Pem("ca.crt");
  auto response = NewHttpClient(options)->Get(server.url() + "/");
  ASSERT_FALSE(response);
  EXPECT_EQ(response.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(response.error().message().find("certificate"), std::string::npos)
      << response.error().message();
  EXPECT_NE(response.error().message().find(server.url()), std::string::npos);
}

TEST_F(HttpClientTest, InsecureSkipsVerification) {
  EchoServer server(work_.path(), Ok("ok"), EchoServer::Mode::kTls, &pki_);
  HttpClientOptions options;
  options.insecure_skip_tls_verify = true;
  auto response = NewHttpClient(options)->Get(server.url() + "/");
  ASSERT_TRUE(response) << response.error().message();
  EXPECT_EQ(response->body, "ok");
}

TEST_F(HttpClientTest, ClientCertificateIsPresented) {
  EchoServer server(work_.path(), Ok("{}"), EchoServer::Mode::kMutualTls, &pki_);
  HttpClientOptions options = Verified();
  options.client_cert_pem = pki_.Pem("client.crt");
  options.client_key_pem = pki_.Pem("client.key");
  auto response = NewHttpClient(options)->Get(server.url() + "/");
  ASSERT_TRUE(response) << response.error().message();
  ASSERT_EQ(server.Requests().size(), 1u);
  EXPECT_EQ(server.Requests()[0]["client_cn"], "kkadm-test-client");
}

TEST_F(HttpClientTest, MissingClientCertificateFailsAgainstMutualTls) {
  EchoServer server(work_.path(), Ok("{}"), EchoServer::Mode::kMutualTls, &pki_);
  auto response = NewHttpClient(Verified())->Get(server.url() + "/");
  ASSERT_FALSE(response);
  EXPECT_EQ(response.error().code(), StatusCode::kUnavailable);
  EXPECT_TRUE(server.Requests().empty());
}

TEST_F(HttpClientTest, SendsBearerTokenMethodBodyAndContentType) {
  EchoServer server(work_.path(), Ok("{}"), EchoServer::Mode::kTls, &pki_);
  HttpClientOptions options = Verified();
  options.bearer_token = "abcdef.0123456789abcdef";
  HttpRequest request;
  request.method = "PATCH";
  request.url = server.url() + "/api/v1/nodes/n1";
  request.body = R"({"metadata":{}})";
  request.content_type = "application/merge-patch+json";
  request.headers["Accept"] = "application/json";
  auto response = NewHttpClient(options)->Do(request);
  ASSERT_TRUE(response) << response.error().message();
  auto seen = server.Requests().at(0);
  EXPECT_EQ(seen["method"], "PATCH");
  EXPECT_EQ(seen["body"], R"({"metadata":{}})");
  EXPECT_EQ(seen["headers"]["authorization"], "Bearer abcdef.0123456789abcdef");
  EXPECT_EQ(seen["headers"]["content-type"], "application/merge-patch+json");
  EXPECT_EQ(seen["headers"]["accept"], "application/json");
}

TEST_F(HttpClientTest, TimeoutIsHonoured) {
  EchoServer server(work_.path(), {{{"status", 200}, {"body", "{}"}, {"delay", 3}}},
                    EchoServer::Mode::kTls, &pki_);
  HttpClientOptions options = Verified();
  options.request_timeout = std::chrono::milliseconds(300);
  auto start = std::chrono::steady_clock::now();
  auto response = NewHttpClient(options)->Get(server.url() + "/slow");
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(response);
  EXPECT_EQ(response.error().code(), StatusCode::kUnavailable);
  EXPECT_LT(elapsed, std::chrono::milliseconds(2000));
}

TEST_F(HttpClientTest, PlainHttpGet) {
  EchoServer server(work_.path(), Ok("ok"), EchoServer::Mode::kPlain);
  auto response = NewHttpClient({})->Get(server.url() + "/healthz");
  ASSERT_TRUE(response) << response.error().message();
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "ok");
}

TEST_F(HttpClientTest, ConnectionRefusedIsUnavailable) {
  int port = testing::FreePort();
  auto response = NewHttpClient({})->Get("http://127.0.0.1:" + std::to_string(port) + "/");
  ASSERT_FALSE(response);
  EXPECT_EQ(response.error().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace kkadm::util
