// StatusReport from a journal written through the Journal API on a real file system: each
// phase's state, times, inputs (secrets named, never shown), what it made and what drifted since;
// a phase left started by a killed run has no end; and the document's exact shape.
#include "app/phases/journal/status_report.h"

#include <gtest/gtest.h>

#include "app/util/file_system_real.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases::journal {
namespace {

using workflow::PhaseInput;

class StatusReportTest : public ::testing::Test {
 protected:
  // One init run: certs/ca done (two files, a directory), certs/apiserver failed, kubelet-start
  // done (a unit), control-plane/apiserver started and never ended (the run was killed).
  void RecordRun() {
    Journal journal(fs_, clock_);
    ASSERT_TRUE(journal.Load().ok());
    ASSERT_TRUE(journal.BeginRun("init", "v0.1.0", "boot-1").ok());
    ASSERT_TRUE(journal
                    .PhaseStarted("certs/ca", "fp-ca",
                                  {{"certificatesDir", "/etc/kubernetes/pki", false},
                                   {"certificateKey", "0123abcd", true}})
                    .ok());
    Write(journal, "/etc/kubernetes/pki", "", true);
    Write(journal, "/etc/kubernetes/pki/ca.crt", "cert", false);
    Write(journal, "/etc/kubernetes/pki/ca.key", "key", false);
    clock_.Advance(std::chrono::milliseconds(1500));
    journal.PhaseEnded(PhaseState::kDone, "");
    ASSERT_TRUE(journal.PhaseStarted("certs/apiserver", "fp-api", {}).ok());
    clock_.Advance(std::chrono::milliseconds(20));
    journal.PhaseEnded(PhaseState::kFailed, "no space left on device");
    ASSERT_TRUE(journal.PhaseStarted("kubelet-start", "fp-k", {}).ok());
    ASSERT_TRUE(journal.UnitChanged("kubelet.service", true).ok());
    ASSERT_TRUE(journal.UnitChanged("kubelet.service", false).ok());
    journal.PhaseEnded(PhaseState::kDone, "");
    ASSERT_TRUE(journal.Flush().ok());
    ASSERT_TRUE(journal.PhaseStarted("control-plane/apiserver", "fp-cp", {}).ok());
    Write(journal, "/etc/kubernetes/manifests/kube-apiserver.yaml", "pod", false);
    // Killed here: nothing more is recorded.
  }

  void Write(Journal& journal, const std::string& path, const std::string& data, bool dir) {
    ASSERT_TRUE(
        journal.WillWrite(path, dir ? Journal::Change::kNewDirectory : Journal::Change::kNewFile)
            .ok());
    if (dir) {
      ASSERT_TRUE(fs_.MakeDirs(path, 0755).ok());
    } else {
      ASSERT_TRUE(fs_.MakeDirs(util::ParentDirectory(path), 0755).ok());
      ASSERT_TRUE(fs_.WriteFile(path, data, 0600).ok());
      journal.Wrote(path, data, 0600);
    }
  }

  StatusReport Report() {
    Journal journal(fs_, clock_);
    EXPECT_TRUE(journal.Load().ok());
    return MakeStatusReport(journal.state(), fs_);
  }

  testing::TempDir dir_;
  util::RealFileSystem fs_{dir_.path()};
  testing::FakeClock clock_;
};

TEST_F(StatusReportTest, NoJournalIsAnEmptyDocument) {
  EXPECT_EQ(StatusJson(Report()).dump(),
            R"({"journal":"/var/lib/kkadm/journal","ignoredRecords":0,"runs":[],"phases":[]})");
}

TEST_F(StatusReportTest, PhasesWithStatesTimesAndWhatTheyMade) {
  RecordRun();
  const StatusReport report = Report();
  ASSERT_EQ(report.runs.size(), 1u);
  ASSERT_EQ(report.phases.size(), 4u);
  const nlohmann::ordered_json doc = StatusJson(report);
  EXPECT_EQ(doc["runs"].dump(), R"([{"command":"init","version":"v0.1.0","bootId":"boot-1",)"
                                R"("started":"2027-01-15T08:00:00.000Z"}])");
  EXPECT_EQ(
      doc["phases"][0].dump(),
      R"({"command":"init","phase":"certs/ca","state":"done",)"
      R"("started":"2027-01-15T08:00:00.000Z","ended":"2027-01-15T08:00:01.500Z",)"
      R"("fingerprint":"fp-ca","inputs":[{"name":"certificateKey","secret":true},)"
      R"({"name":"certificatesDir","value":"/etc/kubernetes/pki"}],)"
      R"("made":{"files":2,"directories":1,"units":0,"objects":0,"etcdMembers":0},"drift":[]})");
  EXPECT_EQ(PhaseDuration(report.phases[0].record), std::chrono::milliseconds(1500));
  EXPECT_EQ(doc["phases"][1]["state"], "failed");
  EXPECT_EQ(doc["phases"][1]["error"], "no space left on device");
  EXPECT_EQ(PhaseDuration(report.phases[1].record), std::chrono::milliseconds(20));
  EXPECT_EQ(doc["phases"][2]["made"].dump(),
            R"({"files":0,"directories":0,"units":1,"objects":0,"etcdMembers":0})");
  // Killed: started, no end, no duration; and what it began is not counted as made.
  const auto& killed = doc["phases"][3];
  EXPECT_EQ(killed["phase"], "control-plane/apiserver");
  EXPECT_EQ(killed["state"], "started");
  EXPECT_FALSE(killed.contains("ended"));
  EXPECT_EQ(killed["made"]["files"], 0);
  EXPECT_FALSE(PhaseDuration(report.phases[3].record).has_value());
}

TEST_F(StatusReportTest, NoSecretInTheDocument) {
  RecordRun();
  const std::string doc = StatusJson(Report()).dump();
  EXPECT_EQ(doc.find("0123abcd"), std::string::npos);
  EXPECT_EQ(doc.find("sha256:"), std::string::npos);  // not even the secret's hash
}

TEST_F(StatusReportTest, DriftByPath) {
  RecordRun();
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/pki/ca.crt", "edited", 0600).ok());
  ASSERT_TRUE(fs_.Remove("/etc/kubernetes/pki/ca.key").ok());
  const StatusReport report = Report();
  EXPECT_EQ(StatusJson(report)["phases"][0]["drift"].dump(),
            R"([{"path":"/etc/kubernetes/pki/ca.crt","change":"changed"},)"
            R"({"path":"/etc/kubernetes/pki/ca.key","change":"missing"}])");
  // A mode changed is drift too.
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/pki/ca.key", "key", 0644).ok());
  EXPECT_EQ(Report().phases[0].drift.size(), 2u);
}

TEST_F(StatusReportTest, DamagedLinesCounted) {
  RecordRun();
  ASSERT_TRUE(fs_.AppendFile(kJournalPath, "deadbeef {\"record\":\"run\"}\n", 0600).ok());
  EXPECT_EQ(Report().ignored_records, 1);
  EXPECT_EQ(StatusJson(Report())["ignoredRecords"], 1);
}

TEST_F(StatusReportTest, SharesTheStatusFilesPhaseFields) {
  EXPECT_EQ(PhaseStateJson("certs/ca", "done", "t0", "t1").dump(),
            R"({"phase":"certs/ca","state":"done","started":"t0","ended":"t1"})");
  EXPECT_EQ(PhaseStateJson("certs/ca", "running", "t0", "").dump(),
            R"({"phase":"certs/ca","state":"running","started":"t0"})");
}

}  // namespace
}  // namespace kkadm::phases::journal
