// The node's file system and service manager as phases see them while a command keeps a journal:
// each passes the call on and tells the journal what the running phase made (a file or directory
// that did not exist, a file's content, a unit enabled or started), so phases record nothing
// themselves.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "app/phases/journal/journal.h"
#include "app/util/file_system.h"
#include "app/util/init_system.h"

namespace kkadm::phases::journal {

class JournalingFileSystem final : public util::FileSystem {
 public:
  JournalingFileSystem(util::FileSystem& node, Journal& journal) : node_(node), journal_(journal) {}

  Result<std::string> ReadFile(const std::string& path) const override {
    return node_.ReadFile(path);
  }
  Status WriteFile(const std::string& path, std::string_view data, unsigned mode) override;
  Status AppendFile(const std::string& path, std::string_view data, unsigned mode) override;
  // The journal's Flush: the files first, then the records of the phases they finish.
  Status Sync() override { return journal_.Flush(); }
  Status MakeDirs(const std::string& path, unsigned mode) override;
  Status EnsureDirectory(const std::string& path, unsigned mode, std::string_view phase) override;
  Result<util::FileInfo> Stat(const std::string& path) const override { return node_.Stat(path); }
  Result<std::vector<std::string>> ListDir(const std::string& path) const override {
    return node_.ListDir(path);
  }
  Status Remove(const std::string& path) override;
  std::string HostPath(const std::string& path) const override { return node_.HostPath(path); }

 private:
  // Tells the journal of `path` (a new or a replaced file, or a new directory) and of each
  // missing directory above it, the highest first, before any of them is made.
  Status RecordCreation(const std::string& path, bool directory);

  util::FileSystem& node_;
  Journal& journal_;
  std::set<std::string> existing_dirs_;  // seen to exist or recorded as made
};

class JournalingInitSystem final : public util::InitSystem {
 public:
  JournalingInitSystem(util::InitSystem& manager, Journal& journal)
      : manager_(manager), journal_(journal) {}

  Status DaemonReload() override { return manager_.DaemonReload(); }
  Status Start(const std::string& unit) override;
  Status Stop(const std::string& unit) override { return manager_.Stop(unit); }
  Status Restart(const std::string& unit) override;
  // Recorded only when the unit was not enabled before: reset leaves a unit the package enabled.
  Status Enable(const std::string& unit) override;
  Status Disable(const std::string& unit) override { return manager_.Disable(unit); }
  Status ReloadIfStale(const std::string& unit, const std::vector<std::string>& files) override {
    return manager_.ReloadIfStale(unit, files);
  }
  Result<bool> Exists(const std::string& unit) override { return manager_.Exists(unit); }
  Result<bool> IsEnabled(const std::string& unit) override { return manager_.IsEnabled(unit); }
  Result<bool> IsActive(const std::string& unit) override { return manager_.IsActive(unit); }

 private:
  util::InitSystem& manager_;
  Journal& journal_;
};

}  // namespace kkadm::phases::journal
