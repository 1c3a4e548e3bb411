// RecordLog: checksummed JSON lines over FileSystem::AppendFile.
#include "app/util/record_log.h"

#include "app/util/crypto.h"

namespace kkadm::util {
namespace {

// 16 hex characters (64 bits) of the record's SHA-256: a torn or damaged line is found, and the
// line stays short. (Not a defence against someone who can write the file: they are root.)
constexpr std::size_t kChecksumLength = 16;

std::string Line(const nlohmann::json& record) {
  // Invalid UTF-8 in a record (an error message quoting a file) is replaced, never fatal.
  std::string json = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return Sha256Hex(json).substr(0, kChecksumLength) + " " + json + "\n";
}

}  // namespace

Result<std::vector<nlohmann::json>> RecordLog::ReadAll(int* ignored) const {
  std::vector<nlohmann::json> records;
  if (ignored != nullptr) *ignored = 0;
  Result<std::string> text = fs_.ReadFile(path_);
  if (!text) {
    if (text.error().code() == StatusCode::kNotFound) return records;
    return text.error();
  }
  std::string_view rest = *text;
  while (!rest.empty()) {
    std::size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    const bool whole = end != std::string_view::npos && line.size() > kChecksumLength + 1 &&
                       line[kChecksumLength] == ' ';
    std::string_view json = whole ? line.substr(kChecksumLength + 1) : std::string_view();
    if (whole && Sha256Hex(json).substr(0, kChecksumLength) == line.substr(0, kChecksumLength)) {
      nlohmann::json record = nlohmann::json::parse(json, nullptr, false);
      if (!record.is_discarded()) {
        records.push_back(std::move(record));
        continue;
      }
    }
    if (ignored != nullptr) ++*ignored;
  }
  return records;
}

Status RecordLog::Append(const nlohmann::json& record) {
  return fs_.AppendFile(path_, Line(record), mode_);
}

Status RecordLog::Append(const std::vector<nlohmann::json>& records) {
  std::string lines;
  for (const auto& record : records) lines += Line(record);
  if (lines.empty()) return Status();
  return fs_.AppendFile(path_, lines, mode_);
}

}  // namespace kkadm::util
