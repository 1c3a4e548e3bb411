// Decoding etcd's snapshot stream and checking its hash (snapshot_stream.h).
#include "app/phases/etcd_snapshot/snapshot_stream.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "app/util/kubeconfig.h"

namespace kkadm::phases::etcd_snapshot {
namespace {

// etcd sends 32 KiB pieces (44 KB of base64 with the JSON around them): a line ten times longer
// is not etcd's, and is not held.
constexpr std::size_t kMaxLine = std::size_t{1} << 20;

std::string Hex(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
  return out;
}

// The message of a gateway error object: {"error":{"message":...}} or {"error":"...",...}.
std::string ErrorMessage(const nlohmann::json& message) {
  const nlohmann::json& error = message["error"];
  if (error.is_object() && error.contains("message") && error["message"].is_string())
    return error["message"].get<std::string>();
  if (error.is_string()) {
    if (message.contains("message") && message["message"].is_string())
      return message["message"].get<std::string>();
    return error.get<std::string>();
  }
  return error.dump();
}

}  // namespace

void SnapshotHashCheck::Update(std::string_view bytes) {
  seen_ += bytes.size();
  if (bytes.size() >= kSnapshotHashSize) {
    // Everything held back so far and all but the last 32 new bytes are database bytes.
    sha_.Update(tail_);
    sha_.Update(bytes.substr(0, bytes.size() - kSnapshotHashSize));
    tail_.assign(bytes.substr(bytes.size() - kSnapshotHashSize));
    return;
  }
  tail_.append(bytes);
  if (tail_.size() > kSnapshotHashSize) {
    const std::size_t spill = tail_.size() - kSnapshotHashSize;
    sha_.Update(std::string_view(tail_).substr(0, spill));
    tail_.erase(0, spill);
  }
}

Result<SnapshotDigest> SnapshotHashCheck::Finish() {
  if (seen_ < kSnapshotHashSize || seen_ % 512 != kSnapshotHashSize) {
    return FailedPrecondition(fmt::format(
        "snapshot integrity check failed: {} bytes cannot be a database followed by its SHA-256 "
        "(a snapshot's size modulo 512 is 32)",
        seen_));
  }
  const std::string computed = sha_.Finish();
  if (computed != tail_) {
    return FailedPrecondition(
        fmt::format("snapshot integrity check failed: the database's SHA-256 is {}, the snapshot "
                    "says {}",
                    Hex(computed), Hex(tail_)));
  }
  return SnapshotDigest{seen_ - kSnapshotHashSize, Hex(computed)};
}

Status SnapshotStreamDecoder::Feed(std::string_view piece) {
  for (;;) {
    const std::size_t newline = piece.find('\n');
    if (newline == std::string_view::npos) break;
    pending_.append(piece.substr(0, newline));
    piece.remove_prefix(newline + 1);
    KKADM_RETURN_IF_ERROR(Message(pending_));
    pending_.clear();
  }
  pending_.append(piece);
  if (pending_.size() > kMaxLine) {
    return FailedPrecondition(
        fmt::format("the snapshot stream has a message over {} bytes: not etcd's", kMaxLine));
  }
  return Status();
}

Status SnapshotStreamDecoder::Message(std::string_view line) {
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return Status();
  auto message = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!message.is_object()) {
    return FailedPrecondition("the snapshot stream's message " + std::to_string(messages_ + 1) +
                              " is not JSON: " + std::string(line.substr(0, 200)));
  }
  if (message.contains("error")) return Unavailable("etcd: " + ErrorMessage(message));
  const nlohmann::json result = message.value("result", nlohmann::json());
  if (!result.is_object()) {
    return FailedPrecondition("the snapshot stream's message " + std::to_string(messages_ + 1) +
                              " has no result: " + std::string(line.substr(0, 200)));
  }
  ++messages_;
  const nlohmann::json blob = result.value("blob", nlohmann::json(""));
  if (!blob.is_string()) return FailedPrecondition("the snapshot stream's blob is not a string");
  Result<std::string> bytes = util::Base64Decode(blob.get_ref<const std::string&>());
  if (!bytes) return bytes.error().Wrap("the snapshot stream's blob");
  check_.Update(*bytes);
  return out_(*bytes);
}

Result<SnapshotDigest> SnapshotStreamDecoder::Finish() {
  KKADM_RETURN_IF_ERROR(Message(pending_));
  pending_.clear();
  if (messages_ == 0) return FailedPrecondition("etcd sent no snapshot (an empty stream)");
  return check_.Finish();
}

}  // namespace kkadm::phases::etcd_snapshot
