// Tests for AES-256-GCM sealing, HS256 detached JWS and SPKI pins, cross-checked with the openssl
// CLI and Python's cryptography package where available.
#include "app/util/crypto.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "app/util/jws.h"
#include "app/util/kube_apply.h"
#include "app/util/pubkey_pin.h"
#include "tests/fakes/temp_dir.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::util {
namespace {

std::string Capture(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return out;
  char buf[512];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  pclose(p);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

TEST(CryptoTest, SealOpensAndDetectsTampering) {
  auto key = DecodeCertificateKey(*CreateCertificateKey());
  ASSERT_TRUE(key.has_value());
  ASSERT_EQ(key->size(), 32u);
  const std::string plain = "-----BEGIN CERTIFICATE-----\nabc\n";
  auto sealed = EncryptBytes(plain, *key);
  ASSERT_TRUE(sealed.has_value());
  EXPECT_EQ(sealed->size(), 12 + plain.size() + 16);
  EXPECT_EQ(*DecryptBytes(*sealed, *key), plain);
  EXPECT_NE(*EncryptBytes(plain, *key), *sealed);  // fresh nonce each time
  std::string tampered = *sealed;
  tampered[14] ^= 1;
  EXPECT_FALSE(DecryptBytes(tampered, *key).has_value());
  EXPECT_FALSE(DecryptBytes("short", *key).has_value());
}

TEST(CryptoTest, DecodeCertificateKeyValidates) {
  EXPECT_FALSE(DecodeCertificateKey("abc").has_value());
  EXPECT_FALSE(DecodeCertificateKey(std::string(64, 'g')).has_value());
  EXPECT_EQ(HexEncode(*DecodeCertificateKey(std::string(64, 'F'))), std::string(64, 'f'));
}

// Python's cryptography AESGCM (the same construction as Go's crypto/cipher GCM) opens our data.
TEST(CryptoTest, PythonAesGcmOpensOurCiphertext) {
  if (Capture("python3 -c 'import cryptography' 2>&1 && echo yes").find("yes") ==
      std::string::npos) {
    GTEST_SKIP() << "python3 cryptography not available";
  }
  const std::string hex_key = *CreateCertificateKey();
  auto sealed = EncryptBytes("kkadm-secret-payload", *DecodeCertificateKey(hex_key));
  const std::string script =
      "from cryptography.hazmat.primitives.ciphers.aead import AESGCM; import binascii,sys; "
      "k=binascii.unhexlify('" +
      hex_key + "'); d=binascii.unhexlify('" + HexEncode(*sealed) +
      "'); sys.stdout.write(AESGCM(k).decrypt(d[:12], d[12:], None).decode())";
  EXPECT_EQ(Capture("python3 -c \"" + script + "\""), "kkadm-secret-payload");
}

TEST(JwsTest, MatchesOpensslHmac) {
  const std::string content = "apiVersion: v1\nkind: Config\n";
  auto sig = ComputeDetachedSignature(content, "abcdef", "0123456789abcdef");
  ASSERT_TRUE(sig.has_value());
  const std::string header = Base64UrlEncode("{\"alg\":\"HS256\",\"kid\":\"abcdef\"}");
  ASSERT_EQ(sig->substr(0, header.size() + 2), header + "..");
  const std::string input = header + "." + Base64UrlEncode(content);
  std::string mac_b64 =
      Capture("printf '%s' '" + input +
              "' | openssl dgst -sha256 -hmac 0123456789abcdef -binary | openssl base64 -A");
  std::string mac_url;
  for (char c : mac_b64) {
    if (c == '=') break;
    mac_url.push_back(c == '+' ? '-' : c == '/' ? '_' : c);
  }
  EXPECT_EQ(sig->substr(header.size() + 2), mac_url);
  EXPECT_TRUE(DetachedSignatureMatches(content, *sig, "abcdef", "0123456789abcdef"));
  EXPECT_FALSE(DetachedSignatureMatches(content + " ", *sig, "abcdef", "0123456789abcdef"));
  EXPECT_FALSE(DetachedSignatureMatches(content, *sig, "abcdef", "0123456789abcdee"));
}

TEST(PubkeyPinTest, MatchesOpensslSpkiDigest) {
  kkadm::testing::TempDir dir;
  ASSERT_TRUE(kkadm::testing::RunOpenssl(
      dir.path(),
      "req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 1 -subj /CN=ca"));
  const std::string expected =
      Capture("cd '" + dir.path() +
              "' && openssl x509 -in ca.crt -pubkey -noout | openssl pkey "
              "-pubin -outform der | openssl dgst -sha256 -r | cut -d' ' -f1");
  const std::string pem = kkadm::testing::ReadHostFile(dir.path() + "/ca.crt");
  auto pin = PinOfPemCertificate(pem);
  ASSERT_TRUE(pin.has_value());
  EXPECT_EQ(*pin, "sha256:" + expected);
  auto pins = PinsOfPemBundle(pem + pem);
  ASSERT_TRUE(pins.has_value());
  EXPECT_EQ(pins->size(), 2u);
  EXPECT_FALSE(PinsOfPemBundle("not a pem").has_value());
  // A CERTIFICATE block that does not parse fails the bundle, as client-go's ParseCertsPEM does
  // for kubeadm; the pins of the blocks before it were returned.
  EXPECT_FALSE(
      PinsOfPemBundle(pem + "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
          .has_value());
}

TEST(Base64Test, RoundTrips) {
  for (const std::string& s :
       std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)}) {
    EXPECT_EQ(*Base64Decode(Base64Encode(s)), s);
  }
  EXPECT_EQ(Base64Encode("ab"), "YWI=");
  EXPECT_FALSE(Base64Decode("abc").has_value());
}

TEST(Sha256Test, PiecesGiveTheOneShotDigest) {
  Sha256 sha;
  sha.Update("ab");
  sha.Update("");
  sha.Update("c");
  const std::string digest = sha.Finish();
  EXPECT_EQ(digest.size(), 32u);
  EXPECT_EQ(HexEncode(digest), Sha256Hex("abc"));
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace kkadm::util
