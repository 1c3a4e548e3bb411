// OwnWork: what this node's journal records as kkadm's own earlier work on it, as it still is.
// Pre-flight does not count it against a command that repeats or resumes that work (a manifest
// kkadm wrote, the port of the static pod it describes, the kubelet kkadm started), where kubeadm
// would ask for `kubeadm reset` first.
#pragma once

#include <set>
#include <string>

namespace kkadm::phases {

struct OwnWork {
  std::set<std::string> files;  // node paths kkadm wrote, with the content and mode it left
  std::set<std::string> dirs;   // directories kkadm made
  std::set<std::string> units;  // systemd units kkadm enabled or started ("kubelet.service")
  std::string recorded_in;      // the node path of the record it comes from (the journal)

  bool HasFile(const std::string& path) const { return files.contains(path); }
  bool HasDir(const std::string& path) const { return dirs.contains(path); }
  bool HasUnit(const std::string& unit) const { return units.contains(unit); }
};

}  // namespace kkadm::phases
