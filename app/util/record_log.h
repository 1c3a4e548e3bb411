// RecordLog: a file of JSON records that survives being cut short. Each record is one line,
// "<checksum> <compact JSON>\n", appended with one write: a crash leaves at most the last record
// torn, and a record whose checksum does not match is ignored, never trusted.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/util/file_system.h"
#include "app/util/status.h"

namespace kkadm::util {

class RecordLog {
 public:
  // `path` is a node path; `mode` the file's when the first append creates it.
  RecordLog(FileSystem& fs, std::string path, unsigned mode)
      : fs_(fs), path_(std::move(path)), mode_(mode) {}

  // Every intact record, in the order appended; none when the file does not exist. `ignored`
  // (may be null) counts the lines left out as torn or damaged.
  Result<std::vector<nlohmann::json>> ReadAll(int* ignored = nullptr) const;
  // Appends one record (durable at the file system's next Sync).
  Status Append(const nlohmann::json& record);
  // Appends several records with one write.
  Status Append(const std::vector<nlohmann::json>& records);

  const std::string& path() const { return path_; }

 private:
  FileSystem& fs_;
  std::string path_;
  unsigned mode_;
};

}  // namespace kkadm::util
