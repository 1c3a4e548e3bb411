// Fuzz target: a kubeadm configuration file as `kkadm config validate`, init, join and reset read
// it (strict and lenient decoding, flags merged, defaults, validation), and the
// ClusterConfiguration and KubeletConfiguration a joining node reads from the cluster's ConfigMaps.
#include <spdlog/spdlog.h>

#include "app/config/load.h"
#include "app/config/load_cluster.h"
#include "app/config/make_config.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using kkadm::Result;

// Version labels resolve without a network: every label file is missing, so kubeadm's fallback to
// the built-in version runs (as on an air-gapped machine).
kkadm::config::ReleaseVersionSource Offline() {
  kkadm::config::ReleaseVersionSource source;
  source.fetch = [](const std::string& url, std::chrono::milliseconds) -> Result<std::string> {
    return kkadm::Unavailable("unable to fetch file. URL: \"" + url + "\"");
  };
  return source;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool quiet = [] {
    spdlog::set_level(spdlog::level::off);
    return true;
  }();
  (void)quiet;
  static const kkadm::config::ReleaseVersionSource versions = Offline();
  const kkadm::config::ConfigSource source{"fuzz.yaml",
                                           std::string(kkadm::fuzz::AsText(data, size))};
  (void)kkadm::config::LoadDocuments(source, /*strict=*/true);
  auto docs = kkadm::config::LoadDocuments(source, /*strict=*/false);
  (void)kkadm::config::ClusterConfigurationFromYaml(source.content, "kubeadm-config");
  (void)kkadm::config::KubeletConfigurationFromYaml(source.content, "kubelet-config");
  if (!docs) return 0;
  const kkadm::testing::FakeMachine machine;
  (void)kkadm::config::MakeInitConfiguration(source, {}, machine, versions);
  (void)kkadm::config::MakeJoinConfiguration(source, {}, machine);
  (void)kkadm::config::MakeResetConfiguration(source, {});
  return 0;
}
