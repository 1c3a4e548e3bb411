// ResetFixture: ResetData over a TempDir rootfs (RealFileSystem + RealTreeRemover, the real
// removal code), a FakeInitSystem behind reset's AnnouncingInitSystem, FakeMounter, FakeTerminal,
// FakeMachine, FakeClock, and the RealEtcdMemberRemover with clients over FakeEtcdHttp; output
// captured. UseDryRun() swaps in the dry run's seams, as `kkadm reset --dry-run` builds them.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "app/phases/etcd/etcd_member_removal.h"
#include "app/phases/reset/reset_data.h"
#include "app/util/file_system_dry_run.h"
#include "app/util/file_system_real.h"
#include "app/util/init_system_announcing.h"
#include "app/util/init_system_dry_run.h"
#include "app/util/mounter_real.h"
#include "app/util/tree_remover_real.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_etcd_http.h"
#include "tests/fakes/fake_init_system.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/fake_mounter.h"
#include "tests/fakes/fake_network.h"
#include "tests/fakes/fake_terminal.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::testing {

class ResetFixture : public ::testing::Test {
 protected:
  ResetFixture() {
    init_.units["kubelet.service"] = {.exists = true, .enabled = true, .active = true};
    data_.host = &host_;
    data_.out = &printer_;
    data_.etcd = &etcd_remover_;
    network_.etcd = [this](util::EtcdClientConfig config) {
      return MakeEtcdClient(std::move(config));
    };
  }

  // The fixture's seams with `mounter` in place of the fake one.
  util::Host HostWith(util::Mounter& mounter) {
    return util::Host{fs_,     announcing_init_, clock_,    machine_,
                      mounter, remover_,         terminal_, network_};
  }

  // An etcd client over the fake etcd, as the RealEtcdMemberRemover gets them.
  std::unique_ptr<util::EtcdClient> MakeEtcdClient(util::EtcdClientConfig config) {
    last_etcd_config_ = config;
    return std::make_unique<util::EtcdClient>(std::move(config),
                                              std::make_unique<FakeEtcdHttp>(etcd_));
  }

  // The seams of `kkadm reset --dry-run`: nothing is changed, they say what they would do.
  void UseDryRun() {
    data_.host = &dry_host_;
    data_.dry_run = true;
    data_.etcd = &dry_etcd_remover_;
    data_.confirm = false;
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
  std::ostringstream out_;
  util::Printer printer_{out_};
  util::RealFileSystem fs_{dir_.path()};
  util::RealTreeRemover remover_{dir_.path(), printer_};
  FakeInitSystem init_;
  util::AnnouncingInitSystem announcing_init_{init_, printer_, "reset"};
  FakeClock clock_;
  FakeMachine machine_;
  FakeTerminal terminal_;
  FakeMounter mounter_;
  FakeNetwork network_;
  util::Host host_{HostWith(mounter_)};
  FakeEtcdCluster etcd_;
  util::EtcdClientConfig last_etcd_config_;
  phases::RealEtcdMemberRemover etcd_remover_{network_};
  // The dry run's seams (UseDryRun).
  TempDir dry_dir_;
  util::DryRunFileSystem dry_fs_{fs_, dry_dir_.path(), printer_};
  util::DryRunInitSystem dry_init_{printer_, &init_};
  util::DryRunMounter dry_mounter_{mounter_, printer_};
  util::DryRunTreeRemover dry_remover_{printer_};
  util::Host dry_host_{dry_fs_,      dry_init_,    clock_,    machine_,
                       dry_mounter_, dry_remover_, terminal_, network_};
  phases::DryRunEtcdMemberRemover dry_etcd_remover_{printer_};
  phases::ResetData data_;
};

}  // namespace kkadm::testing
