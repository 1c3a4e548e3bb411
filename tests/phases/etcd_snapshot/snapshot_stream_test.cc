// The snapshot stream decoder and hash check against streams made as etcd's gateway makes them.
#include "app/phases/etcd_snapshot/snapshot_stream.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/util/crypto.h"
#include "app/util/kubeconfig.h"

namespace kkadm::phases::etcd_snapshot {
namespace {

// A stand-in database: whole 4096-byte pages of varied bytes, as bolt's are.
std::string Database(std::size_t pages) {
  std::string db(pages * 4096, '\0');
  for (std::size_t i = 0; i < db.size(); ++i) db[i] = static_cast<char>((i * 131 + i / 7) & 0xff);
  return db;
}

std::string RawSha256(const std::string& data) {
  util::Sha256 sha;
  sha.Update(data);
  return sha.Finish();
}

// The body etcd 3.4's gateway sends: 32 KiB blobs with remaining_bytes, then the hash message.
std::string GatewayStream(const std::string& db, const std::string& hash) {
  std::string body;
  for (std::size_t at = 0; at < db.size(); at += 32768) {
    const std::string piece = db.substr(at, 32768);
    nlohmann::json result = {{"blob", util::Base64Encode(piece)}};
    const std::size_t remaining = db.size() - at - piece.size();
    if (remaining > 0) result["remaining_bytes"] = std::to_string(remaining);
    body += nlohmann::json({{"result", result}}).dump() + "\n";
  }
  body += nlohmann::json({{"result", {{"blob", util::Base64Encode(hash)}}}}).dump() + "\n";
  return body;
}

struct Decoded {
  std::string written;
  Status fed;
  Result<SnapshotDigest> digest = Internal("not finished");
};

Decoded Decode(const std::string& body, std::size_t piece_size) {
  Decoded out;
  SnapshotStreamDecoder decoder([&](std::string_view bytes) {
    out.written.append(bytes);
    return Status();
  });
  for (std::size_t at = 0; at < body.size() && out.fed.ok(); at += piece_size)
    out.fed = decoder.Feed(std::string_view(body).substr(at, piece_size));
  if (out.fed.ok()) out.digest = decoder.Finish();
  return out;
}

// Whatever the pieces the body arrives in, the file gets the database and its hash, as etcdctl's.
TEST(SnapshotStreamTest, WritesDatabaseAndHashInAnyPieces) {
  const std::string db = Database(20);  // 80 KiB: three blobs
  const std::string body = GatewayStream(db, RawSha256(db));
  for (std::size_t piece : {std::size_t{1}, std::size_t{7}, std::size_t{4096}, body.size()}) {
    Decoded decoded = Decode(body, piece);
    ASSERT_TRUE(decoded.fed.ok()) << decoded.fed.message();
    ASSERT_TRUE(decoded.digest) << decoded.digest.error().message();
    EXPECT_EQ(decoded.written, db + RawSha256(db)) << "pieces of " << piece;
    EXPECT_EQ(decoded.digest->db_size, db.size());
    EXPECT_EQ(decoded.digest->sha256, util::Sha256Hex(db));
  }
}

TEST(SnapshotStreamTest, RefusesAWrongHash) {
  const std::string db = Database(2);
  std::string hash = RawSha256(db);
  hash[5] ^= 1;
  Decoded decoded = Decode(GatewayStream(db, hash), 100);
  ASSERT_FALSE(decoded.digest);
  EXPECT_EQ(decoded.digest.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(decoded.digest.error().message().find("integrity check failed"), std::string::npos);
}

TEST(SnapshotStreamTest, RefusesAStreamCutShort) {
  const std::string db = Database(20);
  std::string body = GatewayStream(db, RawSha256(db));
  body = body.substr(0, body.find('\n') + 1);  // the first blob only, no hash
  Decoded decoded = Decode(body, 4096);
  ASSERT_FALSE(decoded.digest);
  EXPECT_EQ(decoded.digest.error().code(), StatusCode::kFailedPrecondition);
}

TEST(SnapshotStreamTest, AnErrorMessageMidwayIsEtcds) {
  const std::string db = Database(20);
  std::string body = GatewayStream(db, RawSha256(db));
  body = body.substr(0, body.find('\n') + 1) +
         R"({"error":{"grpc_code":14,"http_code":503,"message":"etcdserver: stopped"}})";
  Decoded decoded = Decode(body, 4096);
  ASSERT_FALSE(decoded.digest);
  EXPECT_EQ(decoded.digest.error().code(), StatusCode::kUnavailable);
  EXPECT_EQ(decoded.digest.error().message(), "etcd: etcdserver: stopped");
}

TEST(SnapshotStreamTest, RefusesWhatIsNotASnapshotStream) {
  EXPECT_FALSE(Decode("", 10).digest);
  EXPECT_FALSE(Decode("<html>bad gateway</html>\n", 10).fed.ok());
  EXPECT_FALSE(Decode("{\"result\":{\"blob\":\"@@@\"}}\n", 10).fed.ok());
  EXPECT_FALSE(Decode("{\"other\":1}\n", 10).fed.ok());
  // A line without end is not held forever.
  Decoded endless = Decode(std::string(std::size_t{2} << 20, 'x'), 65536);
  ASSERT_FALSE(endless.fed.ok());
  EXPECT_NE(endless.fed.message().find("not etcd's"), std::string::npos);
}

TEST(SnapshotStreamTest, OutputErrorsStopTheStream) {
  const std::string db = Database(2);
  SnapshotStreamDecoder decoder([](std::string_view) { return Unavailable("disk full"); });
  Status fed = decoder.Feed(GatewayStream(db, RawSha256(db)));
  EXPECT_EQ(fed.message(), "disk full");
}

TEST(SnapshotHashCheckTest, FedByteByByteOrWhole) {
  const std::string db = Database(1);
  const std::string file = db + RawSha256(db);
  SnapshotHashCheck whole, bytewise;
  whole.Update(file);
  for (char c : file) bytewise.Update(std::string_view(&c, 1));
  ASSERT_TRUE(whole.Finish());
  Result<SnapshotDigest> digest = bytewise.Finish();
  ASSERT_TRUE(digest);
  EXPECT_EQ(digest->sha256, util::Sha256Hex(db));
  SnapshotHashCheck odd_size;
  odd_size.Update(file + "x");
  EXPECT_FALSE(odd_size.Finish());
}

}  // namespace
}  // namespace kkadm::phases::etcd_snapshot
