// StatusText: the table per command, a line for a phase that never ended or failed, one per
// drifted file; control characters in recorded text are escaped.
#include "cmd/status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kkadm::cmd {
namespace {

using phases::journal::FileDrift;
using phases::journal::PhaseRecord;
using phases::journal::PhaseReport;
using phases::journal::PhaseState;
using phases::journal::StatusReport;
using ::testing::HasSubstr;

PhaseReport Phase(const std::string& path, PhaseState state, const std::string& started,
                  const std::string& ended) {
  PhaseRecord record;
  record.command = "init";
  record.path = path;
  record.state = state;
  record.started = started;
  record.ended = ended;
  return PhaseReport{record, {}};
}

TEST(StatusTextTest, TablePerCommandThenNotes) {
  StatusReport report;
  report.runs = {{"init", "v0.1.0", "boot-1", "2027-01-15T08:00:00.000Z"},
                 {"init", "v0.1.1", "boot-2", "2027-01-15T09:00:00.000Z"}};
  report.phases.push_back(
      Phase("certs/ca", PhaseState::kDone, "2027-01-15T08:00:00.100Z", "2027-01-15T08:00:01.600Z"));
  report.phases[0].record.files = {{"/etc/kubernetes/pki/ca.crt", "x", 0644},
                                   {"/etc/kubernetes/pki/ca.key", "y", 0600}};
  report.phases[0].record.inputs = {{"certificatesDir", "/etc/kubernetes/pki", false}};
  report.phases[0].drift = {{"/etc/kubernetes/pki/ca.key", FileDrift::Kind::kMissing}};
  report.phases.push_back(Phase("kubelet-start", PhaseState::kFailed, "2027-01-15T09:00:00.000Z",
                                "2027-01-15T09:00:00.020Z"));
  report.phases[1].record.error = "kubelet\x1b[31m did not start";
  report.phases.push_back(
      Phase("control-plane/apiserver", PhaseState::kStarted, "2027-01-15T09:00:01.000Z", ""));
  EXPECT_EQ(StatusText(report),
            "init: 2 runs, the last started 2027-01-15T09:00:00.000Z by kkadm v0.1.1 (boot id "
            "boot-2)\n"
            "PHASE                     STATE     STARTED                    DURATION   INPUTS   "
            "MADE      DRIFT\n"
            "certs/ca                  done      2027-01-15T08:00:00.100Z   1.5s       1        "
            "2 files   1 missing\n"
            "kubelet-start             failed    2027-01-15T09:00:00.000Z   20ms       0        "
            "-         -\n"
            "control-plane/apiserver   started   2027-01-15T09:00:01.000Z   -          0        "
            "-         -\n"
            "\n"
            "init control-plane/apiserver: started 2027-01-15T09:00:01.000Z and never ended: its "
            "run was killed, or is running now\n"
            "init kubelet-start: failed: kubelet\\x1b[31m did not start\n"
            "\n"
            "Files changed or missing since kkadm wrote them:\n"
            "  missing  /etc/kubernetes/pki/ca.key  (written by init certs/ca)\n"
            "\n"
            "Each phase's inputs, fingerprint and errors in full: kkadm status -o yaml\n");
}

// A killed run leaves every phase it began started: one line, naming the last begun.
TEST(StatusTextTest, KilledRunInOneLine) {
  StatusReport report;
  report.phases = {Phase("certs/ca", PhaseState::kStarted, "2027-01-15T08:00:00.100Z", ""),
                   Phase("certs/sa", PhaseState::kStarted, "2027-01-15T08:00:00.300Z", ""),
                   Phase("certs/apiserver", PhaseState::kStarted, "2027-01-15T08:00:00.200Z", "")};
  EXPECT_THAT(StatusText(report),
              HasSubstr("\ninit: 3 phases started and never ended, the last certs/sa at "
                        "2027-01-15T08:00:00.300Z: their run was killed there, or is running "
                        "now\n\nEach"));
}

TEST(StatusTextTest, JournalWithoutPhases) {
  StatusReport report;
  report.runs = {{"join", "v0.1.0", "boot-1", "2027-01-15T08:00:00.000Z"}};
  EXPECT_THAT(StatusText(report), HasSubstr("No phase is recorded in the journal"));
}

}  // namespace
}  // namespace kkadm::cmd
