// JournalObserver with the Runner over a real file system in a temp directory: phases finished
// as they are now are not run again; changed inputs and changed files are refused before anything
// is written; an unfinished attempt is undone before the next; no secret reaches the journal.
#include "app/phases/journal/journal_observer.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <sstream>

#include "app/phases/journal/journaling_seams.h"
#include "app/util/file_system_real.h"
#include "app/workflow/runner.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases::journal {
namespace {

using workflow::Phase;
using workflow::PhaseInput;

// A node with a two-phase tree: "files/a" writes /etc/a (and a secret-dependent /etc/s), "files/b"
// writes /etc/sub/b; each reads one input the test sets. Each run builds a fresh journal and
// observer, as each kkadm command does.
class JournalObserverTest : public ::testing::Test {
 protected:
  struct Outcome {
    Status status;
    std::vector<std::string> ran;
    std::string out;
  };

  Outcome RunNode(bool force = false, bool phase_command = false) {
    Outcome outcome;
    util::RealFileSystem fs(dir_.path());
    Journal journal(fs, clock_);
    EXPECT_TRUE(journal.Load().ok());
    JournalingFileSystem journaling(fs, journal);
    std::ostringstream out;
    util::Printer printer(out);
    JournalObserver observer(journal, fs, printer, RunIdentity{"init", "v0-test", "boot"}, force);
    EXPECT_TRUE(observer.RecoverUnfinishedAttempts().ok());
    workflow::Runner runner(Tree(journaling, outcome.ran));
    runner.SetObserver(&observer);
    workflow::RunOptions options;
    if (phase_command) options.filter_path = "files";
    outcome.status = runner.Run(options);
    outcome.out = out.str();
    return outcome;
  }

  std::vector<Phase> Tree(util::FileSystem& fs, std::vector<std::string>& ran) {
    Phase a = Leaf("a", fs, ran, [this, &fs] {
      if (fail_before_writing_) return FailedPrecondition("port 6443 is in use");
      KKADM_RETURN_IF_ERROR(fs.WriteFile("/etc/a", inputs_["a"], 0600));
      status_during_a_ = Read(kStatusPath);
      if (fail_a_after_write_) {
        return FailedPrecondition("no space left on device (token " + inputs_["secret"] + ".)");
      }
      return fs.WriteFile("/etc/s", "hash of " + inputs_["secret"], 0600);
    });
    Phase b =
        Leaf("b", fs, ran, [this, &fs] { return fs.WriteFile("/etc/sub/b", inputs_["b"], 0644); });
    Phase files;
    files.name = "files";
    files.children = {std::move(a), std::move(b)};
    return {std::move(files)};
  }

  Phase Leaf(const std::string& name, util::FileSystem&, std::vector<std::string>& ran,
             std::function<Status()> work) {
    Phase phase;
    phase.name = name;
    phase.run = [&ran, name, work] {
      ran.push_back(name);
      return work();
    };
    phase.inputs = [this, name] {
      std::vector<PhaseInput> inputs = {{"field." + name, inputs_[name], false}};
      if (name == "a") inputs.push_back({"token", inputs_["secret"], true});
      return inputs;
    };
    return phase;
  }

  // A run of phase files/b that does `work` and is killed before the phase ends (no end record).
  void KilledDuringB(const std::function<void(Journal&, util::FileSystem&)>& work) {
    util::RealFileSystem fs(dir_.path());
    Journal journal(fs, clock_);
    ASSERT_TRUE(journal.Load().ok());
    ASSERT_TRUE(journal.BeginRun("init", "v0-test", "boot").ok());
    ASSERT_TRUE(journal.PhaseStarted("files/b", "fingerprint", {}).ok());
    work(journal, fs);
  }

  std::string Read(const std::string& path) {
    util::RealFileSystem fs(dir_.path());
    Result<std::string> content = fs.ReadFile(path);
    return content ? *content : "<" + content.error().message() + ">";
  }

  testing::TempDir dir_;
  testing::FakeClock clock_;
  std::map<std::string, std::string> inputs_ = {
      {"a", "alpha"}, {"b", "beta"}, {"secret", "abcdef.0123456789abcdef"}};
  std::string status_during_a_;  // /run/kkadm/status.json as phase a saw it after its write
  bool fail_a_after_write_ = false;
  bool fail_before_writing_ = false;
};

TEST_F(JournalObserverTest, FinishedPhasesAreNotRunAgain) {
  Outcome first = RunNode();
  ASSERT_TRUE(first.status.ok()) << first.status.message();
  EXPECT_EQ(first.ran, (std::vector<std::string>{"a", "b"}));
  const std::string journal = Read(kJournalPath);

  Outcome second = RunNode();
  ASSERT_TRUE(second.status.ok()) << second.status.message();
  EXPECT_TRUE(second.ran.empty());
  EXPECT_EQ(second.out, "[files] Up to date, not run again\n");
  EXPECT_EQ(Read("/etc/a"), "alpha");
  // The journal gained the second run's record, nothing about phases.
  const std::string grown = Read(kJournalPath).substr(journal.size());
  EXPECT_EQ(std::count(grown.begin(), grown.end(), '\n'), 1) << grown;
  EXPECT_NE(grown.find("\"record\":\"run\""), std::string::npos) << grown;
}

TEST_F(JournalObserverTest, ARemovedFileIsMadeAgainFromItsPhaseOn) {
  ASSERT_TRUE(RunNode().status.ok());
  ASSERT_TRUE(util::RealFileSystem(dir_.path()).Remove("/etc/sub/b").ok());
  Outcome again = RunNode();
  ASSERT_TRUE(again.status.ok()) << again.status.message();
  EXPECT_EQ(again.ran, (std::vector<std::string>{"b"}));
  EXPECT_EQ(again.out, "[files/a] Up to date, not run again\n");
  EXPECT_EQ(Read("/etc/sub/b"), "beta");
}

TEST_F(JournalObserverTest, ChangedInputsAreRefusedByPhaseAndFieldBeforeAnyWrite) {
  ASSERT_TRUE(RunNode().status.ok());
  const std::string journal = Read(kJournalPath);
  inputs_["b"] = "gamma";
  Outcome changed = RunNode();
  EXPECT_EQ(changed.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(changed.status.message().find("files/b: field.b \"beta\" → \"gamma\""),
            std::string::npos)
      << changed.status.message();
  EXPECT_EQ(changed.status.message().find("files/a"), std::string::npos);
  EXPECT_TRUE(changed.ran.empty());
  EXPECT_EQ(Read(kJournalPath), journal);
  // A phase run alone applies the change, as kubeadm's phase commands do.
  Outcome alone = RunNode(false, true);
  ASSERT_TRUE(alone.status.ok()) << alone.status.message();
  EXPECT_EQ(Read("/etc/sub/b"), "gamma");
  EXPECT_TRUE(RunNode().status.ok());
}

TEST_F(JournalObserverTest, AChangedSecretIsNamedButNeverWritten) {
  ASSERT_TRUE(RunNode().status.ok());
  inputs_["secret"] = "ghijkl.0123456789abcdef";
  Outcome changed = RunNode();
  EXPECT_EQ(changed.status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(changed.status.message().find("files/a: token \"sha256:"), std::string::npos)
      << changed.status.message();
  for (const char* secret : {"abcdef.0123456789abcdef", "ghijkl.0123456789abcdef"}) {
    EXPECT_EQ(changed.status.message().find(secret), std::string::npos);
    EXPECT_EQ(Read(kJournalPath).find(secret), std::string::npos);
  }
}

TEST_F(JournalObserverTest, FilesChangedByHandAreNotOverwrittenWithoutForce) {
  ASSERT_TRUE(RunNode().status.ok());
  ASSERT_TRUE(util::RealFileSystem(dir_.path()).WriteFile("/etc/a", "edited", 0600).ok());
  ASSERT_TRUE(util::RealFileSystem(dir_.path()).Remove("/etc/sub/b").ok());
  Outcome refused = RunNode();
  EXPECT_EQ(refused.status.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.status.message().find("/etc/a (written by phase files/a)"), std::string::npos)
      << refused.status.message();
  EXPECT_TRUE(refused.ran.empty());
  EXPECT_EQ(Read("/etc/a"), "edited");
  Outcome forced = RunNode(/*force=*/true);
  ASSERT_TRUE(forced.status.ok()) << forced.status.message();
  EXPECT_EQ(forced.ran, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Read("/etc/a"), "alpha");
}

TEST_F(JournalObserverTest, AnUnfinishedAttemptIsUndoneBeforeTheNext) {
  fail_a_after_write_ = true;
  Outcome failed = RunNode();
  EXPECT_FALSE(failed.status.ok());
  EXPECT_EQ(Read("/etc/a"), "alpha");  // written before the failure
  EXPECT_NE(Read(kJournalPath).find("\"state\":\"failed\""), std::string::npos);
  // The error is recorded, a secret it quotes is not.
  EXPECT_NE(Read(kJournalPath).find("no space left on device (token <redacted>.)"),
            std::string::npos)
      << Read(kJournalPath);
  EXPECT_EQ(Read(kJournalPath).find(inputs_["secret"]), std::string::npos);
  // A temporary file a killed write left beside it.
  ASSERT_TRUE(
      util::RealFileSystem(dir_.path()).WriteFile("/etc/.a.kkadm-tmp-abcdef", "k", 0600).ok());

  fail_a_after_write_ = false;
  inputs_["a"] = "fixed";  // an unfinished phase may run with other inputs
  Outcome again = RunNode();
  ASSERT_TRUE(again.status.ok()) << again.status.message();
  EXPECT_EQ(again.ran, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Read("/etc/a"), "fixed");
  EXPECT_EQ(Read("/etc/.a.kkadm-tmp-abcdef").front(), '<');  // gone
}

// A later phase killed after it replaced a file an earlier one wrote (kubelet-finalize and
// kubeconfig/kubelet's kubelet.conf): kkadm's own change, not someone else's. The re-run is not
// refused; the killed phase runs again and owns the file.
TEST_F(JournalObserverTest, AFileAKilledLaterPhaseBeganToReplaceIsNotSomeoneElsesChange) {
  ASSERT_TRUE(RunNode().status.ok());
  KilledDuringB([](Journal& journal, util::FileSystem& fs) {
    ASSERT_TRUE(journal.WillWrite("/etc/a", Journal::Change::kReplacedFile).ok());
    ASSERT_TRUE(fs.WriteFile("/etc/a", "rewritten by b", 0600).ok());
  });
  Outcome again = RunNode();
  ASSERT_TRUE(again.status.ok()) << again.status.message();
  EXPECT_EQ(again.ran, (std::vector<std::string>{"b"}));
}

// A phase killed after it started a unit (or changed an API object, or added an etcd member) is
// run again over what it made, not undone: removing an etcd member's manifest would stop it.
TEST_F(JournalObserverTest, AnAttemptThatReachedBeyondFilesIsNotUndone) {
  ASSERT_TRUE(RunNode().status.ok());
  KilledDuringB([](Journal& journal, util::FileSystem& fs) {
    ASSERT_TRUE(journal.WillWrite("/etc/sub/etcd.yaml", Journal::Change::kNewFile).ok());
    ASSERT_TRUE(fs.WriteFile("/etc/sub/etcd.yaml", "manifest", 0600).ok());
    ASSERT_TRUE(journal.UnitChanged("kubelet.service", false).ok());
  });
  Outcome again = RunNode();
  ASSERT_TRUE(again.status.ok()) << again.status.message();
  EXPECT_EQ(again.ran, (std::vector<std::string>{"b"}));
  EXPECT_EQ(Read("/etc/sub/etcd.yaml"), "manifest");
}

// The first phase that changes the node publishes the status at once, not at the next phase.
TEST_F(JournalObserverTest, TheStatusIsPublishedAsSoonAsTheRunChangesTheNode) {
  ASSERT_TRUE(util::RealFileSystem(dir_.path()).MakeDirs("/run", 0755).ok());
  ASSERT_TRUE(RunNode().status.ok());
  EXPECT_NE(status_during_a_.find("\"phase\": \"files/a\""), std::string::npos) << status_during_a_;
  EXPECT_NE(status_during_a_.find("\"state\": \"running\""), std::string::npos);
}

TEST_F(JournalObserverTest, ARunThatMakesNothingLeavesNoJournal) {
  fail_before_writing_ = true;
  EXPECT_FALSE(RunNode().status.ok());
  EXPECT_FALSE(util::RealFileSystem(dir_.path()).Exists(kStateDir));
  EXPECT_FALSE(util::RealFileSystem(dir_.path()).Exists(kRunDir));
}

TEST_F(JournalObserverTest, ATornLastRecordIsIgnored) {
  ASSERT_TRUE(RunNode().status.ok());
  util::RealFileSystem fs(dir_.path());
  ASSERT_TRUE(
      fs.AppendFile(kJournalPath, "0123456789abcdef {\"record\":\"phase\",\"comm", 0600).ok());
  Journal journal(fs, clock_);
  ASSERT_TRUE(journal.Load().ok());
  EXPECT_EQ(journal.state().ignored_records, 1);
  ASSERT_NE(journal.state().Find("init", "files/b"), nullptr);
  EXPECT_EQ(journal.state().Find("init", "files/b")->state, PhaseState::kDone);
  EXPECT_TRUE(RunNode().ran.empty());
}

// A phase's start is kept back until it first changes the node, then written with that change:
// killed before, the phase left nothing to undo and no record; killed after, both are there, the
// start first.
TEST_F(JournalObserverTest, APhaseStartIsRecordedWithTheFirstChangeItMakes) {
  ASSERT_TRUE(RunNode().status.ok());
  const std::string finished = Read(kJournalPath);
  KilledDuringB([](Journal&, util::FileSystem&) {});
  EXPECT_EQ(Read(kJournalPath), finished);
  KilledDuringB([](Journal& journal, util::FileSystem&) {
    ASSERT_TRUE(journal
                    .WillMake({{"/etc/sub2", Journal::Change::kNewDirectory},
                               {"/etc/sub2/c", Journal::Change::kNewFile}})
                    .ok());
  });
  const std::string killed = Read(kJournalPath).substr(finished.size());
  const std::size_t run = killed.find("\"record\":\"run\"");
  const std::size_t started = killed.find("\"phase\":\"files/b\",\"record\":\"phase\"");
  const std::size_t dir = killed.find("\"path\":\"/etc/sub2\"");
  const std::size_t file = killed.find("\"path\":\"/etc/sub2/c\"");
  ASSERT_NE(file, std::string::npos) << killed;
  EXPECT_LT(run, started);
  EXPECT_LT(started, dir);
  EXPECT_LT(dir, file);
}

}  // namespace
}  // namespace kkadm::phases::journal
