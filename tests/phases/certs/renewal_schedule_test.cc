#include "app/phases/certs/renewal_schedule.h"

#include <gtest/gtest.h>

namespace kkadm::phases::certs {
namespace {

// systemd splits ExecStart= at spaces, expands '$' and '%': a node root or binary path holding
// them must reach kkadm as one unchanged argument.
TEST(RenewalScheduleTest, ExecStartQuotesWhatSystemdWouldSplitOrExpand) {
  std::string unit =
      RenewalServiceUnit({.kkadm = "/opt/kk adm/kkadm", .extra_args = {"--rootfs", "/n/$x%y\"z"}});
  EXPECT_NE(unit.find("ExecStart=\"/opt/kk adm/kkadm\" --rootfs \"/n/$$x%%y\\\"z\" certs renew all "
                      "--expiring-within 720h0m0s\n"),
            std::string::npos)
      << unit;
  EXPECT_NE(unit.find("Type=oneshot\n"), std::string::npos);
}

TEST(RenewalScheduleTest, RestartControlPlaneIsPassedOn) {
  std::string unit = RenewalServiceUnit(
      {.kkadm = "/usr/bin/kkadm", .extra_args = {}, .restart_control_plane = true});
  EXPECT_NE(unit.find("ExecStart=/usr/bin/kkadm certs renew all --expiring-within 720h0m0s "
                      "--restart-control-plane\n"),
            std::string::npos)
      << unit;
}

TEST(RenewalScheduleTest, TimerRunsTheServiceDailyAndCatchesUp) {
  std::string timer = RenewalTimerUnit();
  for (const char* line : {"OnCalendar=daily\n", "Persistent=true\n",
                           "Unit=kkadm-certs-renew.service\n", "WantedBy=timers.target\n"}) {
    EXPECT_NE(timer.find(line), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace kkadm::phases::certs
