// The renewal timer and service, installed through the FileSystem and InitSystem seams.
#include "app/phases/certs/renewal_schedule.h"

#include <fmt/format.h>

#include "app/util/duration.h"

namespace kkadm::phases::certs {
namespace {

constexpr const char* kUnitDir = "/etc/systemd/system/";

// systemd's quoting of one ExecStart= word: double quotes when it holds a space, a quote, a
// backslash or a '$' (which would expand), with those escaped; '%' doubled (a specifier).
std::string ExecWord(const std::string& word) {
  std::string escaped;
  bool quote = word.empty();
  for (char c : word) {
    if (c == '%') {
      escaped += "%%";
      continue;
    }
    if (c == ' ' || c == '\t' || c == '"' || c == '\\' || c == '$' || c == '\'') quote = true;
    if (c == '"' || c == '\\') escaped += '\\';
    if (c == '$') escaped += '$';
    escaped += c;
  }
  return quote ? "\"" + escaped + "\"" : escaped;
}

}  // namespace

std::string RenewalServiceUnit(const RenewalSchedule& schedule) {
  std::string exec = ExecWord(schedule.kkadm);
  for (const std::string& arg : schedule.extra_args) exec += " " + ExecWord(arg);
  exec +=
      " certs renew all --expiring-within " +
      util::FormatDuration(std::chrono::duration_cast<std::chrono::milliseconds>(kRenewalWindow));
  if (schedule.restart_control_plane) exec += " --restart-control-plane";
  return fmt::format(
      "# Written by kkadm certs renew --schedule.\n"
      "[Unit]\n"
      "Description=kkadm: renew the certificates that expire within 30 days\n"
      "\n"
      "[Service]\n"
      "Type=oneshot\n"
      "ExecStart={}\n",
      exec);
}

std::string RenewalTimerUnit() {
  return fmt::format(
      "# Written by kkadm certs renew --schedule.\n"
      "[Unit]\n"
      "Description=kkadm: daily renewal of the certificates that expire within 30 days\n"
      "\n"
      "[Timer]\n"
      "OnCalendar=daily\n"
      "Persistent=true\n"
      "Unit={}\n"
      "\n"
      "[Install]\n"
      "WantedBy=timers.target\n",
      kRenewalService);
}

Status InstallRenewalSchedule(const RenewalSchedule& schedule, util::FileSystem& fs,
                              util::InitSystem& init, util::Printer& out) {
  const std::string service = std::string(kUnitDir) + kRenewalService;
  const std::string timer = std::string(kUnitDir) + kRenewalTimer;
  KKADM_RETURN_IF_ERROR(fs.WriteFile(service, RenewalServiceUnit(schedule), 0644));
  KKADM_RETURN_IF_ERROR(fs.WriteFile(timer, RenewalTimerUnit(), 0644));
  KKADM_RETURN_IF_ERROR(fs.Sync());  // systemd reads them itself
  out.Line("renew", fmt::format("Wrote {} and {}", service, timer));
  KKADM_RETURN_IF_ERROR(init.DaemonReload());
  KKADM_RETURN_IF_ERROR(init.Enable(kRenewalTimer));
  KKADM_RETURN_IF_ERROR(init.Restart(kRenewalTimer));
  out.Line("renew", fmt::format("Enabled and started {}: every day the certificates that expire "
                                "within 30 days are renewed{}",
                                kRenewalTimer,
                                schedule.restart_control_plane
                                    ? ", and the static Pods that use them restarted"
                                    : ""));
  return Status();
}

}  // namespace kkadm::phases::certs
