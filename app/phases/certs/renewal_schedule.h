// `kkadm certs renew --schedule`: a systemd timer and service that renew, once a day, the
// certificates that expire within 30 days (kubeadm leaves renewal to its users; after a year
// without it every node stops working).
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "app/util/file_system.h"
#include "app/util/init_system.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases::certs {

inline constexpr const char* kRenewalService = "kkadm-certs-renew.service";
inline constexpr const char* kRenewalTimer = "kkadm-certs-renew.timer";
inline constexpr std::chrono::hours kRenewalWindow{30 * 24};

// What the service runs: `<kkadm> [--rootfs R] certs renew all --expiring-within 720h0m0s` plus
// the configuration flags the scheduling command was given (each a separate argument), and
// --restart-control-plane when asked: without it the running components keep the old
// certificates until they expire.
struct RenewalSchedule {
  std::string kkadm;                    // absolute path of the kkadm binary
  std::vector<std::string> extra_args;  // e.g. {"--config", "/etc/kkadm/kubeadm.yaml"}
  bool restart_control_plane = false;
};

// The unit files' text. The timer fires daily at midnight and, being Persistent, at boot when a
// run was missed; the service is a oneshot.
std::string RenewalServiceUnit(const RenewalSchedule& schedule);
std::string RenewalTimerUnit();

// Writes both units to /etc/systemd/system (0644, over earlier ones), reloads systemd, enables the
// timer and starts it, saying so on `out`.
Status InstallRenewalSchedule(const RenewalSchedule& schedule, util::FileSystem& fs,
                              util::InitSystem& init, util::Printer& out);

}  // namespace kkadm::phases::certs
