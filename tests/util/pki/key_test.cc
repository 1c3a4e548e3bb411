#include "app/util/pki/key.h"

#include <gtest/gtest.h>

#include <set>

#include "app/util/pki/key_pool.h"

namespace kkadm::util::pki {
namespace {

TEST(PrivateKeyTest, RsaRoundTripsAsPkcs1) {
  auto key = PrivateKey::Generate(KeyType::kRsa2048);
  ASSERT_TRUE(key.has_value()) << key.error().message();
  EXPECT_TRUE(key->IsRsa());
  EXPECT_EQ(key->Bits(), 2048);
  auto pem = key->ToPem();
  ASSERT_TRUE(pem.has_value());
  EXPECT_EQ(pem->rfind("-----BEGIN RSA PRIVATE KEY-----\n", 0), 0u);
  auto parsed = PrivateKey::ParsePem(*pem);
  ASSERT_TRUE(parsed.has_value()) << parsed.error().message();
  EXPECT_EQ(*parsed->ToPem(), *pem);
  EXPECT_EQ(*parsed->PublicKeyDer(), *key->PublicKeyDer());
}

TEST(PrivateKeyTest, EcdsaRoundTripsAsSec1) {
  for (auto type : {KeyType::kEcdsaP256, KeyType::kEcdsaP384}) {
    auto key = PrivateKey::Generate(type);
    ASSERT_TRUE(key.has_value());
    EXPECT_TRUE(key->IsEcdsa());
    EXPECT_EQ(key->Bits(), type == KeyType::kEcdsaP256 ? 256 : 384);
    auto pem = key->ToPem();
    ASSERT_TRUE(pem.has_value());
    EXPECT_EQ(pem->rfind("-----BEGIN EC PRIVATE KEY-----\n", 0), 0u);
    auto parsed = PrivateKey::ParsePem(*pem);
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed->PublicKeyDer(), *key->PublicKeyDer());
  }
}

TEST(PrivateKeyTest, PublicKeyPemIsPkix) {
  auto key = PrivateKey::Generate(KeyType::kEcdsaP256);
  ASSERT_TRUE(key.has_value());
  auto pub = key->PublicKeyPem();
  ASSERT_TRUE(pub.has_value());
  EXPECT_EQ(pub->rfind("-----BEGIN PUBLIC KEY-----\n", 0), 0u);
}

// PKCS#8 ("PRIVATE KEY") and a leading "EC PARAMETERS" block (openssl ecparam -genkey) parse too.
TEST(PrivateKeyTest, ParsesPkcs8AndSkipsOtherBlocks) {
  const std::string pkcs8 =
      "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
      "-----BEGIN PRIVATE KEY-----\n"
      "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgDGnXZ9P3a7gQU4HF\n"
      "RHABFAfY6sYB1osVrp/hfRF1PIuhRANCAAQ52JcuwulLCUSwJORdlpYd0qDL3TxJ\n"
      "p0mnyRJU0j4rbyNsYYtaM86uZeZW5P/cQ5hIWcC2msNLjFyBWp1sVUi1\n"
      "-----END PRIVATE KEY-----\n";
  auto key = PrivateKey::ParsePem(pkcs8);
  ASSERT_TRUE(key.has_value()) << key.error().message();
  EXPECT_TRUE(key->IsEcdsa());
}

TEST(PrivateKeyTest, RejectsGarbageAndEncryptedKeys) {
  EXPECT_EQ(PrivateKey::ParsePem("not a key").error().code(), StatusCode::kInvalidArgument);
  // Encrypted with pass phrase "x": must fail without prompting on the terminal.
  const std::string encrypted =
      "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
      "MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAgnXS+dup8XmAICCAAw\n"
      "DAYIKoZIhvcNAgkFADAdBglghkgBZQMEAQIEEOYHT4ND8H1A15EsPAQ95FgEgZBE\n"
      "DADkSi3aWFEMqRbB3i+niIwSO5KUo6eXFWck/aqCIfqysiTy06zPoXmItcjDh+Ga\n"
      "cJssuHxZ9rA4GIOuQWUpaMqnt8UDJIMHaQIPg7YJWDfbl0XG2cx0hrYyx48X1Rs4\n"
      "wSyHFenaJfVKICRsfJ3vo+9SzBbI27dpXHOaOTQ/PHJTWvO8oM/x/L5cGi5eYPg=\n"
      "-----END ENCRYPTED PRIVATE KEY-----\n";
  EXPECT_FALSE(PrivateKey::ParsePem(encrypted).has_value());
}

TEST(KeyPoolTest, GeneratesDistinctKeysAndHandsEachOutOnce) {
  KeyPool pool;
  ASSERT_TRUE(pool.Generate(KeyType::kRsa2048, {"a", "b", "c"}).ok());
  EXPECT_EQ(pool.size(), 3u);
  EXPECT_FALSE(pool.Take("a", KeyType::kEcdsaP256)->has_value());  // wrong type stays
  auto a = pool.Take("a", KeyType::kRsa2048);
  auto b = pool.Take("b", KeyType::kRsa2048);
  ASSERT_TRUE(a.has_value() && a->has_value() && b.has_value() && b->has_value());
  EXPECT_NE(*(*a)->PublicKeyDer(), *(*b)->PublicKeyDer());
  EXPECT_FALSE(pool.Take("a", KeyType::kRsa2048)->has_value());
  EXPECT_EQ(pool.size(), 1u);
  pool.Clear();
  EXPECT_EQ(pool.size(), 0u);
}

// Start returns at once; Take waits for (or makes) each key; keys are all distinct.
TEST(KeyPoolTest, BackgroundStartAndTake) {
  KeyPool pool;
  std::vector<std::string> names;
  for (int i = 0; i < 5; ++i) names.push_back("k" + std::to_string(i));
  pool.Start(KeyType::kRsa2048, names);
  EXPECT_EQ(pool.size(), names.size());
  std::set<std::string> seen;
  for (const auto& n : names) {
    auto key = pool.Take(n, KeyType::kRsa2048);
    ASSERT_TRUE(key.has_value() && key->has_value()) << n;
    EXPECT_TRUE((*key)->IsRsa());
    seen.insert(*(*key)->PublicKeyDer());
  }
  EXPECT_EQ(seen.size(), names.size());
  EXPECT_EQ(pool.size(), 0u);
  // A second Start reuses the pool; Clear cancels what is left and the destructor joins.
  pool.Start(KeyType::kRsa2048, {"r1", "r2", "r3", "r4"});
  auto r1 = pool.Take("r1", KeyType::kRsa2048);
  ASSERT_TRUE(r1.has_value() && r1->has_value());
  pool.Clear();
  EXPECT_EQ(pool.size(), 0u);
  pool.Start(KeyType::kRsa2048, {"late"});
}

// An ECDSA key costs less than a thread: nothing is queued, and TakeOrGenerate makes each key
// where it is asked for.
TEST(KeyPoolTest, EcdsaKeysAreMadeOnTake) {
  KeyPool pool;
  pool.Start(KeyType::kEcdsaP256, {"a", "b"});
  EXPECT_EQ(pool.size(), 0u);
  ASSERT_TRUE(pool.Generate(KeyType::kEcdsaP384, {"a"}).ok());
  EXPECT_EQ(pool.size(), 0u);
  auto a = pool.TakeOrGenerate("a", KeyType::kEcdsaP256);
  auto b = pool.TakeOrGenerate("b", KeyType::kEcdsaP256);
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_TRUE(a->IsEcdsa());
  EXPECT_NE(*a->PublicKeyDer(), *b->PublicKeyDer());
}

}  // namespace
}  // namespace kkadm::util::pki
