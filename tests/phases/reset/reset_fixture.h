// ResetFixture: ResetData over a TempDir rootfs (RealFileSystem + RealTreeRemover, the real
// removal code), a FakeInitSystem, FakeMounter, FakeTerminal, FakeMachine, FakeClock, and an etcd
// client over FakeEtcdHttp; output captured.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "app/phases/reset/reset_data.h"
#include "app/util/file_system_real.h"
#include "app/util/tree_remover_real.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_etcd_http.h"
#include "tests/fakes/fake_init_system.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/fake_mounter.h"
#include "tests/fakes/fake_terminal.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::testing {

class ResetFixture : public ::testing::Test {
 protected:
  ResetFixture()
      : fs_(dir_.path()),
        remover_(dir_.path()),
        host_{fs_, init_, clock_, machine_},
        printer_(out_) {
    init_.units["kubelet.service"] = {.exists = true, .enabled = true, .active = true};
    data_.host = &host_;
    data_.out = &printer_;
    data_.terminal = &terminal_;
    data_.mounter = &mounter_;
    data_.remover = &remover_;
    data_.etcd_client = [this](util::EtcdClientConfig config) {
      last_etcd_config_ = config;
      return std::make_unique<util::EtcdClient>(std::move(config),
                                                std::make_unique<FakeEtcdHttp>(etcd_));
    };
  }

  // Writes a node file under the rootfs.
  void Write(const std::string& node_path, const std::string& text) {
    std::filesystem::path path = Host(node_path);
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  std::string Host(const std::string& node_path) const { return dir_.path() + node_path; }
  bool Exists(const std::string& node_path) const {
    return std::filesystem::exists(std::filesystem::symlink_status(Host(node_path)));
  }
  bool IsEmptyDir(const std::string& node_path) const {
    return std::filesystem::is_directory(Host(node_path)) &&
           std::filesystem::is_empty(Host(node_path));
  }
  std::string Output() const { return out_.str(); }

  TempDir dir_;
  util::RealFileSystem fs_;
  util::RealTreeRemover remover_;
  FakeInitSystem init_;
  FakeClock clock_;
  FakeMachine machine_;
  util::Host host_;
  std::ostringstream out_;
  util::Printer printer_;
  FakeTerminal terminal_;
  FakeMounter mounter_;
  FakeEtcdCluster etcd_;
  util::EtcdClientConfig last_etcd_config_;
  phases::ResetData data_;
};

}  // namespace kkadm::testing
