// etcd's snapshot stream and its integrity hash. etcd's maintenance server sends the database in
// pieces and then, as the stream's last message, the SHA-256 of everything before it; etcdctl
// keeps those 32 bytes at the file's end and checks them on restore. kkadm writes the same file
// (so etcdctl and etcdutl accept it) and checks the hash while the bytes go by.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "app/util/crypto.h"
#include "app/util/status.h"

namespace kkadm::phases::etcd_snapshot {

// The length of the hash at a snapshot file's end (sha256.Size).
inline constexpr std::size_t kSnapshotHashSize = 32;

// What a snapshot file holds, once its hash checked out.
struct SnapshotDigest {
  std::uint64_t db_size = 0;  // the database's bytes, the hash not counted
  std::string sha256;         // the database's SHA-256, lower-case hex
};

// Checks a snapshot file's bytes, fed in order: the last 32 are held back as the claimed hash,
// every byte before them is hashed.
class SnapshotHashCheck {
 public:
  void Update(std::string_view bytes);
  std::uint64_t bytes_seen() const { return seen_; }
  // The digest; FailedPrecondition "... integrity check failed" when the hash does not match or
  // the bytes cannot be a database followed by its hash (etcd's own test: a bolt database is
  // whole pages, so the file's size modulo 512 is 32).
  Result<SnapshotDigest> Finish();

 private:
  util::Sha256 sha_;
  std::string tail_;  // the last bytes seen, at most kSnapshotHashSize, not hashed yet
  std::uint64_t seen_ = 0;
};

// Decodes the body etcd's JSON gateway answers POST /v3/maintenance/snapshot with: one JSON
// object per line, {"result":{"blob":"<base64>","remaining_bytes":"<n>"}} (zero fields left out),
// or {"error":{"message":...}} when the server fails midway. Each blob's bytes go to `out` (the
// file) and through the hash check, so the database is never held whole.
class SnapshotStreamDecoder {
 public:
  using Output = std::function<Status(std::string_view bytes)>;
  explicit SnapshotStreamDecoder(Output out) : out_(std::move(out)) {}
  // A piece of the body as it arrived; an error stops the stream (out's, or a message that is not
  // a snapshot message, or one line longer than any etcd sends).
  Status Feed(std::string_view piece);
  // After the last piece: the digest, or why the stream is not a whole snapshot.
  Result<SnapshotDigest> Finish();
  std::uint64_t bytes_written() const { return check_.bytes_seen(); }

 private:
  Status Message(std::string_view line);

  Output out_;
  std::string pending_;  // a line not ended yet
  SnapshotHashCheck check_;
  std::uint64_t messages_ = 0;
};

}  // namespace kkadm::phases::etcd_snapshot
