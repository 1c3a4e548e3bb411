#include "app/util/join_token.h"

#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <string>

#include "app/util/jws.h"

namespace kkadm::util {
namespace {

const std::string kPin = "sha256:" + std::string(64, 'a');
const std::string kKey = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

JoinToken WorkerToken() {
  JoinToken token;
  token.endpoints = {"10.123.0.1:6443"};
  token.bootstrap_token = "abcdef.0123456789abcdef";
  token.ca_cert_hashes = {kPin};
  return token;
}

std::string Encode(const JoinToken& token) {
  auto text = EncodeJoinToken(token);
  EXPECT_TRUE(text.has_value()) << text.status().message();
  return text.value_or("");
}

TEST(JoinToken, RoundTripsEveryField) {
  JoinToken token = WorkerToken();
  token.endpoints.push_back("[fd00::1]:6443");
  token.endpoints.push_back("cp.example.com:443");
  token.ca_cert_hashes.push_back("sha256:" + std::string(64, '0'));
  token.certificate_key = kKey;
  auto decoded = DecodeJoinToken(Encode(token));
  ASSERT_TRUE(decoded.has_value()) << decoded.status().message();
  EXPECT_EQ(decoded->endpoints, token.endpoints);
  EXPECT_EQ(decoded->bootstrap_token, token.bootstrap_token);
  EXPECT_EQ(decoded->ca_cert_hashes, token.ca_cert_hashes);
  EXPECT_EQ(decoded->certificate_key, kKey);
}

TEST(JoinToken, UsesOnlyCharactersThatNeedNoShellQuoting) {
  JoinToken token = WorkerToken();
  token.certificate_key = kKey;
  const std::string text = Encode(token);
  EXPECT_TRUE(LooksLikeJoinToken(text));
  EXPECT_EQ(
      text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"),
      std::string::npos)
      << text;
  EXPECT_NE(text.front(), '-');
}

TEST(JoinToken, UpperCasePinsAreStoredLowerCase) {
  JoinToken token = WorkerToken();
  token.ca_cert_hashes = {"sha256:" + std::string(64, 'A')};
  auto decoded = DecodeJoinToken(Encode(token));
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->ca_cert_hashes[0], kPin);
}

TEST(JoinToken, EveryTruncationIsRejected) {
  const std::string text = Encode(WorkerToken());
  for (size_t size = 0; size < text.size(); ++size) {
    EXPECT_FALSE(DecodeJoinToken(text.substr(0, size)).has_value()) << "size " << size;
  }
}

TEST(JoinToken, EverySingleCharacterTypoIsRejected) {
  const std::string text = Encode(WorkerToken());
  const std::string alphabet = "Ab9-_x";
  for (size_t at = 0; at < text.size(); ++at) {
    for (char c : alphabet) {
      if (text[at] == c) continue;
      std::string typo = text;
      typo[at] = c;
      EXPECT_FALSE(DecodeJoinToken(typo).has_value()) << "position " << at << " -> " << c;
    }
  }
}

TEST(JoinToken, ErrorsNeverEchoTheSecret) {
  std::string text = Encode(WorkerToken());
  text.back() = text.back() == 'A' ? 'B' : 'A';
  auto decoded = DecodeJoinToken(text);
  ASSERT_FALSE(decoded.has_value());
  EXPECT_NE(decoded.status().message().find("checksum mismatch"), std::string::npos);
  EXPECT_EQ(decoded.status().message().find(text), std::string::npos);
}

TEST(JoinToken, RejectsOtherShapesClearly) {
  auto bare = DecodeJoinToken("abcdef.0123456789abcdef");
  ASSERT_FALSE(bare.has_value());
  EXPECT_NE(bare.status().message().find("does not start with \"kk1.\""), std::string::npos);
  EXPECT_FALSE(DecodeJoinToken("kk1.").has_value());
  EXPECT_FALSE(DecodeJoinToken("kk1.a+b/c===").has_value());
}

// The checksum is no signature: a crafted token's endpoint reaches the message escaped.
TEST(JoinToken, CraftedEndpointsAreEscapedInMessages) {
  const std::string endpoint = "\x1b]0;pwned\x07\nhost";
  std::string fields = std::string("\x01") + static_cast<char>(endpoint.size()) + endpoint;
  std::string input = "kk1." + fields;
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(input.data()), input.size(), digest);
  const std::string token =
      "kk1." + Base64UrlEncode(fields + std::string(reinterpret_cast<char*>(digest), 4));
  EXPECT_EQ(DecodeJoinToken(token).status().ToString(),
            "invalid join token: endpoint \"\\x1b]0;pwned\\x07\\nhost\" has non-printable "
            "characters");
  EXPECT_EQ(DecodeJoinToken("kk1." + std::string(5000, 'A')).status().ToString(),
            "invalid join token: it is longer than 4096 characters");
}

TEST(JoinToken, EncodingRefusesMalformedFields) {
  JoinToken no_endpoint = WorkerToken();
  no_endpoint.endpoints.clear();
  EXPECT_FALSE(EncodeJoinToken(no_endpoint).has_value());
  JoinToken no_port = WorkerToken();
  no_port.endpoints = {"10.0.0.1"};
  EXPECT_FALSE(EncodeJoinToken(no_port).has_value());
  JoinToken bad_token = WorkerToken();
  bad_token.bootstrap_token = "ABCDEF.0123456789abcdef";
  EXPECT_FALSE(EncodeJoinToken(bad_token).has_value());
  JoinToken bad_pin = WorkerToken();
  bad_pin.ca_cert_hashes = {"md5:" + std::string(64, 'a')};
  EXPECT_FALSE(EncodeJoinToken(bad_pin).has_value());
  JoinToken short_key = WorkerToken();
  short_key.certificate_key = "abcd";
  EXPECT_FALSE(EncodeJoinToken(short_key).has_value());
}

TEST(JoinToken, DecodesTheExampleOfTheDocs) {
  // docs/join-token.md; written independently of this codec, with Python's hashlib and base64.
  auto decoded = DecodeJoinToken(
      "kk1."
      "AQ8xMC4xMjMuMC4xOjY0NDMCF2FiY2RlZi4wMTIzNDU2Nzg5YWJjZGVmAyCqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"
      "qqqqqqqqqn54SI8");
  ASSERT_TRUE(decoded.has_value()) << decoded.status().message();
  EXPECT_EQ(decoded->endpoints, std::vector<std::string>{"10.123.0.1:6443"});
  EXPECT_EQ(decoded->bootstrap_token, "abcdef.0123456789abcdef");
  EXPECT_EQ(decoded->ca_cert_hashes, std::vector<std::string>{kPin});
  EXPECT_EQ(decoded->certificate_key, "");
  EXPECT_EQ(Encode(*decoded).size(), 111u);
}

TEST(JoinToken, RedactionHidesSecretsOnly) {
  JoinToken token = WorkerToken();
  token.certificate_key = kKey;
  JoinToken redacted = RedactedJoinToken(token);
  EXPECT_EQ(redacted.bootstrap_token, "abcdef.<redacted>");
  EXPECT_EQ(redacted.certificate_key, "<redacted>");
  EXPECT_EQ(redacted.endpoints, token.endpoints);
  EXPECT_EQ(redacted.ca_cert_hashes, token.ca_cert_hashes);
}

}  // namespace
}  // namespace kkadm::util
