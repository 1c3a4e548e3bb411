// Undo over a real file system in a temp directory (RealFileSystem, RealTreeRemover) and a fake
// service manager: what the journal says kkadm made goes, deepest first; what was there before,
// what the user added and what lies behind a symbolic link stays and is listed; kkadm's own state
// goes last; no unit recorded means no call to the service manager; the dry run's seams change
// nothing and report the same.
#include "app/phases/journal/undo.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/util/crypto.h"
#include "app/util/file_system_dry_run.h"
#include "app/util/file_system_real.h"
#include "app/util/tree_remover_real.h"
#include "tests/fakes/fake_init_system.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases::journal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

constexpr char kScheduler[] = "/etc/kubernetes/manifests/kube-scheduler.yaml";

PhaseRecord Record(std::string command, std::string path) {
  PhaseRecord record;
  record.command = std::move(command);
  record.path = std::move(path);
  record.state = PhaseState::kDone;
  return record;
}

class UndoTest : public ::testing::Test {
 protected:
  // A node where /etc existed with a file of the user's, and kkadm's init made /etc/kubernetes
  // with its manifests and PKI, the etcd data directory (which etcd filled), and its journal in
  // /var/lib/kkadm (making /var/lib), and wrote over /etc/hosts.
  void SetUp() override {
    Write("/etc/hostname", "node-1\n");
    Write("/etc/hosts", "written by kkadm\n");
    for (const char* file : {"/etc/kubernetes/admin.conf", kScheduler, "/etc/kubernetes/pki/ca.crt",
                             "/etc/kubernetes/pki/ca.key"}) {
      Write(file, std::string("content of ") + file);
    }
    Write("/var/lib/etcd/member/snap/db", "etcd's own data");
    Write("/var/lib/kkadm/journal", "records");

    PhaseRecord certs = Record("init", "certs/ca");
    certs.created_dirs = {"/var", "/var/lib", "/etc/kubernetes", "/etc/kubernetes/pki"};
    certs.created_files = {"/etc/kubernetes/pki/ca.crt", "/etc/kubernetes/pki/ca.key"};
    PhaseRecord plane = Record("init", "control-plane/scheduler");
    plane.created_dirs = {"/etc/kubernetes/manifests"};
    plane.created_files = {kScheduler, "/etc/kubernetes/admin.conf"};
    plane.files = {{kScheduler, util::Sha256Hex(std::string("content of ") + kScheduler), 0600}};
    PhaseRecord etcd = Record("init", "etcd/local");
    etcd.created_dirs = {"/var/lib/etcd"};
    etcd.inputs = {{"etcd.local.dataDir", "/var/lib/etcd", false}};
    PhaseRecord hosts = Record("init", "hosts");
    hosts.files = {{"/etc/hosts", util::Sha256Hex("written by kkadm\n"), 0644}};
    PhaseRecord reset = Record("reset", "cleanup-node");
    reset.created_files = {"/etc/hostname"};  // never: reset's records are not undone
    state_.phases = {certs, plane, etcd, hosts, reset};
    scope_.components = {{"/var/lib/etcd", "the etcd data directory"},
                         {"/var/lib/kubelet", "the kubelet directory"}};
  }

  void Write(const std::string& node_path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(Host(node_path)).parent_path());
    std::ofstream(Host(node_path)) << text;
  }
  std::string Host(const std::string& node_path) const { return dir_.path() + node_path; }
  bool Exists(const std::string& node_path) const {
    return std::filesystem::exists(std::filesystem::symlink_status(Host(node_path)));
  }
  std::string Read(const std::string& node_path) const {
    std::ifstream in(Host(node_path));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  // Every path under the root, relative, sorted.
  std::vector<std::string> Tree() const {
    std::vector<std::string> paths;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir_.path())) {
      paths.push_back(entry.path().string().substr(dir_.path().size()));
    }
    std::sort(paths.begin(), paths.end());
    return paths;
  }

  UndoReport Undo(util::FileSystem& fs, util::TreeRemover& remover) {
    UndoReport report;
    UndoFiles(WhatKkadmMade(state_), scope_, fs, remover, report);
    return report;
  }
  UndoReport Undo() { return Undo(fs_, remover_); }

  testing::TempDir dir_;
  std::ostringstream out_;
  util::Printer printer_{out_};
  util::RealFileSystem fs_{dir_.path()};
  util::RealTreeRemover remover_{dir_.path(), printer_};
  JournalState state_;
  UndoScope scope_;
};

TEST_F(UndoTest, WhatKkadmMadeFoldsEveryCommandButReset) {
  PhaseRecord join = Record("join", "kubelet-start");
  join.created_files = {"/var/lib/kubelet/config.yaml"};
  join.attempt_replaced = {"/etc/default/kubelet"};
  join.units_started = {"kubelet.service"};
  join.units_enabled = {"kubelet.service"};
  state_.phases.push_back(join);
  MadeByKkadm made = WhatKkadmMade(state_);
  EXPECT_THAT(made.files,
              ElementsAre("/etc/kubernetes/pki/ca.crt", "/etc/kubernetes/pki/ca.key", kScheduler,
                          "/etc/kubernetes/admin.conf", "/var/lib/kubelet/config.yaml"));
  EXPECT_THAT(made.dirs, ElementsAre("/var", "/var/lib", "/etc/kubernetes", "/etc/kubernetes/pki",
                                     "/etc/kubernetes/manifests", "/var/lib/etcd"));
  EXPECT_THAT(made.replaced, ElementsAre("/etc/hosts", "/etc/default/kubelet"));
  EXPECT_EQ(made.sha256.at("/etc/hosts"), util::Sha256Hex("written by kkadm\n"));
  EXPECT_THAT(made.units_started, ElementsAre("kubelet.service"));
  EXPECT_THAT(made.units_enabled, ElementsAre("kubelet.service"));
  EXPECT_THAT(made.etcd_data_dirs, ElementsAre("/var/lib/etcd"));
  EXPECT_TRUE(made.MadeDir("/etc/kubernetes"));
  EXPECT_FALSE(made.MadeDir("/etc"));
}

TEST_F(UndoTest, RemovesWhatKkadmMadeAndKeepsWhatWasThere) {
  std::filesystem::create_directories(Host("/run"));
  Write("/run/kkadm/status.json", "{}");
  UndoReport report = Undo();
  EXPECT_THAT(Tree(), ElementsAre("/etc", "/etc/hostname", "/etc/hosts", "/run"));
  EXPECT_EQ(Read("/etc/hostname"), "node-1\n");
  EXPECT_EQ(Read("/etc/hosts"), "written by kkadm\n");
  EXPECT_THAT(report.failed, IsEmpty());
  EXPECT_THAT(report.files, ElementsAre("/etc/kubernetes/pki/ca.crt", "/etc/kubernetes/pki/ca.key",
                                        kScheduler, "/etc/kubernetes/admin.conf"));
  ASSERT_EQ(report.emptied.size(), 1u);
  EXPECT_EQ(report.emptied[0].path, "/var/lib/etcd");
  EXPECT_THAT(report.dirs, ElementsAre("/etc/kubernetes/pki", "/etc/kubernetes/manifests",
                                       "/var/lib/etcd", "/etc/kubernetes", "/var/lib", "/var"))
      << "deepest first; those that held the journal once it is gone";
  EXPECT_THAT(report.state, ElementsAre("/run/kkadm", "/var/lib/kkadm"));
  ASSERT_EQ(report.kept.size(), 1u);
  EXPECT_EQ(report.kept[0].path, "/etc/hosts");
  EXPECT_THAT(report.kept[0].reason, HasSubstr("was there before kkadm"));
  EXPECT_THAT(report.changed, IsEmpty());
}

TEST_F(UndoTest, ADirectoryKkadmMadeStaysWhileItHoldsSomethingElse) {
  std::filesystem::create_directories(Host("/var/lib/kubelet"));  // made by someone else since
  UndoReport report = Undo();
  EXPECT_THAT(report.dirs, ElementsAre("/etc/kubernetes/pki", "/etc/kubernetes/manifests",
                                       "/var/lib/etcd", "/etc/kubernetes"));
  EXPECT_FALSE(Exists("/var/lib/kkadm"));
  EXPECT_TRUE(Exists("/var/lib")) << "it holds /var/lib/kubelet, which was there before";
  ASSERT_EQ(report.kept.size(), 2u);
  EXPECT_EQ(report.kept[1].path, "/var/lib");
  EXPECT_THAT(report.kept[1].reason, HasSubstr("holds what kkadm did not make: kubelet"));
}

TEST_F(UndoTest, WhatTheUserAddedOrChangedIsListed) {
  Write("/etc/kubernetes/manifests/my-pod.yaml", "mine");
  Write(kScheduler, "tuned by hand");
  UndoReport report = Undo();
  EXPECT_EQ(Read("/etc/kubernetes/manifests/my-pod.yaml"), "mine");
  EXPECT_FALSE(Exists(kScheduler)) << "kkadm made it: it goes, as kubeadm's reset would";
  EXPECT_THAT(report.changed, ElementsAre(kScheduler));
  std::vector<std::string> kept;
  for (const UndoItem& item : report.kept) kept.push_back(item.path + ": " + item.reason);
  EXPECT_THAT(kept, UnorderedElementsAre(
                        HasSubstr("/etc/hosts: was there before kkadm"),
                        "/etc/kubernetes/manifests: kkadm made this directory, but it holds what "
                        "kkadm did not make: my-pod.yaml"))
      << "/etc/kubernetes holds only the kept manifests directory: no word of its own";
  EXPECT_TRUE(Exists("/etc/kubernetes"));
  EXPECT_THAT(report.failed, IsEmpty());
}

TEST_F(UndoTest, ComponentStateInADirectoryKkadmDidNotMakeIsKept) {
  Write("/var/lib/kubelet/pki/kubelet.crt", "the kubelet's");
  state_.phases[2].created_dirs.clear();  // /var/lib/etcd was there before
  UndoReport report = Undo();
  EXPECT_EQ(Read("/var/lib/etcd/member/snap/db"), "etcd's own data");
  EXPECT_EQ(Read("/var/lib/kubelet/pki/kubelet.crt"), "the kubelet's");
  std::vector<std::string> kept;
  for (const UndoItem& item : report.kept) kept.push_back(item.path + ": " + item.reason);
  EXPECT_THAT(kept, ::testing::Contains(HasSubstr(
                        "/var/lib/etcd: the etcd data directory was there before kkadm")));
  EXPECT_THAT(kept, ::testing::Contains(HasSubstr("/var/lib/kubelet: the kubelet directory")));
}

TEST_F(UndoTest, TemporaryFilesOfUnfinishedWritesGo) {
  Write("/etc/kubernetes/pki/.ca.key.kkadm-tmp-Ab12Cd", "half a key");
  Write("/etc/.hosts.kkadm-tmp-Zz99Yy", "half of hosts");
  UndoReport report = Undo();
  EXPECT_FALSE(Exists("/etc/.hosts.kkadm-tmp-Zz99Yy"));
  EXPECT_FALSE(Exists("/etc/kubernetes")) << "nothing but kkadm's was in it";
  EXPECT_THAT(report.failed, IsEmpty());
}

TEST_F(UndoTest, NothingBehindASymbolicLinkIsTouched) {
  // /etc/kubernetes/pki is now a link to the node's /srv/pki, which holds a ca.crt of its own.
  Write("/srv/pki/ca.crt", "not kkadm's");
  std::filesystem::remove_all(Host("/etc/kubernetes/pki"));
  std::filesystem::create_directory_symlink("/srv/pki", Host("/etc/kubernetes/pki"));
  UndoReport report = Undo();
  EXPECT_EQ(Read("/srv/pki/ca.crt"), "not kkadm's");
  EXPECT_TRUE(std::filesystem::is_symlink(Host("/etc/kubernetes/pki")));
  std::vector<std::string> failed;
  for (const UndoItem& item : report.failed) failed.push_back(item.path + ": " + item.reason);
  EXPECT_THAT(failed, ElementsAre("/etc/kubernetes/pki/ca.crt: is below the symbolic link "
                                  "/etc/kubernetes/pki; not followed, so not removed"));
  std::vector<std::string> kept;
  for (const UndoItem& item : report.kept) kept.push_back(item.path + ": " + item.reason);
  EXPECT_THAT(kept, ::testing::Contains(HasSubstr(
                        "/etc/kubernetes/pki: kkadm made a directory here, but it is a symbolic "
                        "link now")));
}

TEST_F(UndoTest, ASecondUndoFindsNothingLeftToDo) {
  Undo();
  std::vector<std::string> after = Tree();
  UndoReport again = Undo();
  EXPECT_EQ(Tree(), after);
  EXPECT_THAT(again.files, IsEmpty());
  EXPECT_THAT(again.dirs, IsEmpty());
  EXPECT_THAT(again.state, IsEmpty());
  EXPECT_THAT(again.failed, IsEmpty());
}

TEST_F(UndoTest, TheDryRunChangesNothingAndReportsTheSame) {
  std::vector<std::string> before = Tree();
  testing::TempDir overlay;
  util::DryRunFileSystem dry_fs(fs_, overlay.path(), printer_);
  util::DryRunTreeRemover dry_remover(printer_);
  UndoReport dry = Undo(dry_fs, dry_remover);
  EXPECT_EQ(Tree(), before);
  EXPECT_THAT(out_.str(), HasSubstr("[dryrun] Would remove \"/etc/kubernetes/pki/ca.key\""));
  UndoReport real = Undo();
  EXPECT_EQ(dry.files, real.files);
  EXPECT_EQ(dry.dirs, real.dirs);
  EXPECT_EQ(dry.state, real.state);
  std::ostringstream said;
  util::Printer printer(said);
  SayUndone(dry, true, printer);
  EXPECT_THAT(said.str(), HasSubstr("[reset] Would delete the directories kkadm made: "
                                    "[/etc/kubernetes/pki /etc/kubernetes/manifests "
                                    "/var/lib/etcd /etc/kubernetes /var/lib /var]"));
  EXPECT_THAT(said.str(), HasSubstr("[reset] Would delete contents of the etcd data directory: "
                                    "/var/lib/etcd"));
}

TEST_F(UndoTest, NoUnitRecordedMeansNoServiceManager) {
  testing::FakeInitSystem init;
  init.unreachable = true;  // no system bus on this node root
  UndoReport report;
  MadeByKkadm made = WhatKkadmMade(state_);
  made.files.push_back("/etc/systemd/system/kubelet.service");
  UndoUnits(made, init, report);
  report.files.push_back("/etc/systemd/system/kubelet.service");
  ReloadUnits(made, init, report);
  EXPECT_THAT(init.calls, IsEmpty());
  EXPECT_THAT(report.failed, IsEmpty());
}

TEST_F(UndoTest, UnitsKkadmStartedAreStoppedAndThoseItEnabledDisabled) {
  testing::FakeInitSystem init;
  init.units["kubelet.service"] = {.exists = true, .enabled = true, .active = true};
  MadeByKkadm made;
  made.units_started = {"kubelet.service", "gone.service"};
  made.units_enabled = {"kubelet.service"};
  UndoReport report;
  UndoUnits(made, init, report);
  EXPECT_THAT(init.calls,
              ElementsAre("Stop gone.service", "Stop kubelet.service", "Disable kubelet.service"));
  EXPECT_FALSE(init.units["kubelet.service"].active);
  EXPECT_FALSE(init.units["kubelet.service"].enabled);
  EXPECT_THAT(report.stopped, ElementsAre("kubelet.service")) << "a unit gone already is fine";
  EXPECT_THAT(report.failed, IsEmpty());

  ReloadUnits(made, init, report);
  EXPECT_EQ(init.calls.size(), 3u) << "no unit file went: no reload";
  report.files.push_back("/etc/systemd/system/kubelet.service.d/10-kkadm.conf");
  ReloadUnits(made, init, report);
  EXPECT_EQ(init.calls.back(), "DaemonReload");

  init.unreachable = true;
  UndoReport unreachable;
  UndoUnits(made, init, unreachable);
  ASSERT_EQ(unreachable.failed.size(), 3u);
  EXPECT_EQ(unreachable.failed[1].path, "kubelet.service");
  EXPECT_THAT(unreachable.failed[1].reason,
              HasSubstr("could not be stopped: failed to connect to the system bus"));
}

}  // namespace
}  // namespace kkadm::phases::journal
