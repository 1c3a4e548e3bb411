// Loading a kubeadm configuration file: split into documents, dispatch on apiVersion/kind, decode
// each into the internal types. No defaults and no validation happen here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/config/decode.h"
#include "app/config/types.h"
#include "app/util/status.h"

namespace kkadm::config {

// A configuration file's name (used in every message) and its text.
struct ConfigSource {
  std::string name;
  std::string content;
};

// Each kind found, with the origin its messages start with ("kubeadm.yaml: InitConfiguration
// (document 1)").
struct LoadedDocuments {
  std::optional<InitConfiguration> init;
  std::string init_origin;
  std::optional<DecodedCluster> cluster;
  std::string cluster_origin;
  std::optional<JoinConfiguration> join;
  std::string join_origin;
  std::optional<ResetConfiguration> reset;
  std::string reset_origin;
  ComponentConfigs component_configs;
  std::vector<std::string> warnings;
};

// Strict mode (`config validate`) turns unknown fields and unknown kinds into errors; lenient mode
// (init/join/reset) reports them as warnings. Fails with InvalidArgument on YAML syntax errors
// (file:line:column), a document without apiVersion/kind, an unsupported kubeadm API version,
// a kind given twice, or any field error, as one line naming file, document, field and value.
Result<LoadedDocuments> LoadDocuments(const ConfigSource& source, bool strict);

// The message prefix used for a kind the file did not contain (defaults and flags only).
std::string DefaultedOrigin(const std::string& kind);
// Whether `origin` is one DefaultedOrigin gave (so its values came from defaults and flags, not
// from a document of the file).
bool IsDefaultedOrigin(const std::string& origin);

}  // namespace kkadm::config
