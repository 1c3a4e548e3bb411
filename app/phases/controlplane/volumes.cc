// Control-plane hostPath volumes (see volumes.h).
#include "app/phases/controlplane/volumes.h"

#include <array>
#include <set>

namespace kkadm::phases {
namespace {

constexpr const char* kDirectoryOrCreate = "DirectoryOrCreate";
constexpr const char* kFileOrCreate = "FileOrCreate";
constexpr const char* kCACertsPath = "/etc/ssl/certs";
constexpr const char* kDefaultFlexvolumeDir = "/usr/libexec/kubernetes/kubelet-plugins/volume/exec";

// /etc/ssl/certs may be or hold symlinks into these, so they are mounted when they exist.
constexpr std::array<const char*, 5> kCACertsExtraPaths = {
    "/etc/pki/ca-trust", "/etc/pki/tls/certs", "/etc/ca-certificates", "/usr/share/ca-certificates",
    "/usr/local/share/ca-certificates"};

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::string DirName(const std::string& path) {
  auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Volumes both kube-apiserver and kube-controller-manager get.
void AddCertVolumes(const StaticPodInput& in, util::VolumeMap& volumes) {
  const std::string& pki = in.cluster->certificates_dir;
  util::AddVolume(volumes, "k8s-certs", pki, true, kDirectoryOrCreate);
  util::AddVolume(volumes, "ca-certs", kCACertsPath, true, kDirectoryOrCreate);
  for (const std::string path : kCACertsExtraPaths) {
    if (!in.fs->Exists(path)) continue;
    std::string name = path.substr(1);
    for (char& c : name) c = (c == '/') ? '-' : c;
    util::AddVolume(volumes, name, path, true, kDirectoryOrCreate);
  }
}

}  // namespace

std::vector<std::string> ExternalEtcdCertDirs(const config::ExternalEtcd& etcd,
                                              const std::string& certificates_dir) {
  std::set<std::string> dirs;
  for (const std::string& file : {etcd.ca_file, etcd.cert_file, etcd.key_file}) {
    const std::string dir = DirName(file);
    bool covered = dir == "." || StartsWith(dir, kCACertsPath) || StartsWith(dir, certificates_dir);
    for (const std::string extra : kCACertsExtraPaths) covered = covered || StartsWith(dir, extra);
    if (covered) continue;
    bool inside_existing = false;
    for (auto it = dirs.begin(); it != dirs.end();) {
      if (StartsWith(*it, dir)) {
        it = dirs.erase(it);  // the new directory is a parent of an existing one
      } else {
        inside_existing = inside_existing || StartsWith(dir, *it);
        ++it;
      }
    }
    if (!inside_existing) dirs.insert(dir);
  }
  return {dirs.begin(), dirs.end()};
}

Result<util::VolumeMap> ControlPlaneVolumes(const std::string& component,
                                            const StaticPodInput& in) {
  const config::ClusterConfiguration& c = *in.cluster;
  util::VolumeMap volumes;
  const std::vector<config::HostPathMount>* extra = nullptr;
  if (component == kKubeAPIServer) {
    AddCertVolumes(in, volumes);
    if (c.etcd.external) {
      auto dirs = ExternalEtcdCertDirs(*c.etcd.external, c.certificates_dir);
      for (std::size_t i = 0; i < dirs.size(); ++i) {
        util::AddVolume(volumes, "etcd-certs-" + std::to_string(i), dirs[i], true,
                        kDirectoryOrCreate);
      }
    }
    extra = &c.api_server.component.extra_volumes;
  } else if (component == kKubeControllerManager) {
    AddCertVolumes(in, volumes);
    util::AddVolume(volumes, "kubeconfig", JoinPath(kKubernetesDir, "controller-manager.conf"),
                    true, kFileOrCreate);
    // Read-write: third-party storage plugins talk to their backends through sockets in it.
    const std::string flexvolume =
        util::GetArgValue(c.controller_manager.extra_args, "flex-volume-plugin-dir")
            .value_or(kDefaultFlexvolumeDir);
    util::AddVolume(volumes, "flexvolume-dir", flexvolume, false, kDirectoryOrCreate);
    extra = &c.controller_manager.extra_volumes;
  } else if (component == kKubeScheduler) {
    util::AddVolume(volumes, "kubeconfig", JoinPath(kKubernetesDir, "scheduler.conf"), true,
                    kFileOrCreate);
    extra = &c.scheduler.extra_volumes;
  } else {
    return InvalidArgument("unknown control-plane component \"" + component + "\"");
  }
  KKADM_RETURN_IF_ERROR(util::AddExtraVolumes(volumes, *extra).Wrap(component));
  return volumes;
}

}  // namespace kkadm::phases
