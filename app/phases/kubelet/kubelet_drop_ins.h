// The drop-ins of kubelet.service as systemd reads them, and which of them would take the kubelet's
// command line away from kkadm's drop-in (kubeadm's packaged 10-kubeadm.conf, an admin's own).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/util/file_system.h"

namespace kkadm::phases {

// The directory of kkadm's drop-in, and of the files kkadm writes there to hide another drop-in.
inline constexpr std::string_view kKubeletDropInDir = "/etc/systemd/system/kubelet.service.d";
inline constexpr std::string_view kKubeletDropInName = "10-kkadm.conf";

// A drop-in systemd would apply after kkadm's (its name sorts after 10-kkadm.conf) that sets what
// kkadm's sets, or a file that takes the place of kkadm's drop-in itself.
struct KubeletDropInConflict {
  std::string path;  // node path of the file systemd reads
  // What it sets: "ExecStart", one of the variables kkadm's ExecStart uses
  // ("KUBELET_CONFIG_ARGS"), "an empty Environment=" or "an empty EnvironmentFile="; for a file
  // named 10-kkadm.conf, "kkadm's drop-in".
  std::string setting;
  // It lives where /etc/systemd/system takes precedence (/run/systemd/system, /usr/local/lib,
  // /lib, /usr/lib, the generators' late directory, any service.d), so a file of the same name in
  // kKubeletDropInDir hides it from systemd. Otherwise only its owner can move it out of the way.
  bool hideable = false;
};

// The conflicts among kubelet.service's drop-ins, in systemd's order of application. Reads the
// drop-in directories of systemd's system unit search path (kubelet.service.d before the
// top-level service.d, each from /etc/systemd/system.control down to /run/systemd/generator.late)
// as systemd merges them: by file name, the first directory holding a name supplying it. Files
// kkadm wrote to hide another (RenderKubeletDropInShadow) are looked through to what they hide.
// Missing directories are fine; one that cannot be read is an error.
Result<std::vector<KubeletDropInConflict>> FindKubeletDropInConflicts(const util::FileSystem& fs);

// What `drop_in` (a unit file's text) sets in [Service] that would replace what kkadm's drop-in
// sets, in the terms of KubeletDropInConflict::setting; empty when nothing.
std::string ConflictingSetting(std::string_view drop_in);

// FailedPrecondition naming the first conflict that is not hideable, in one line that says what to
// do; OK when every conflict is hideable (or there is none).
Status CheckKubeletDropInConflicts(const std::vector<KubeletDropInConflict>& conflicts);

// FindKubeletDropInConflicts, then CheckKubeletDropInConflicts: whether kkadm can make its drop-in
// the one that decides how systemd runs the kubelet. Reads only.
Status CheckKubeletDropIns(const util::FileSystem& fs);

// The file kkadm puts at kKubeletDropInDir/<name of `hidden`>: comments only, saying what it hides
// and why, so systemd applies nothing in place of `hidden`.
std::string RenderKubeletDropInShadow(const KubeletDropInConflict& hidden);

}  // namespace kkadm::phases
