// v1beta3 -> v1beta4 migration through the one loader, defaulting and encoder init/join/reset use.
#include "app/config/migrate.h"

#include "app/config/encode.h"
#include "app/config/make_config.h"
#include "app/util/printable.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::config {
namespace {

constexpr const char* kOldVersion = "kubeadm.k8s.io/v1beta3";

// kubeadm migrates whatever it can read; kkadm refuses a file with no v1beta3 document, whose
// "migration" would only add defaults the user did not ask for.
Status CheckHasOldDocument(const ConfigSource& old) {
  auto docs = util::yaml::ReadDocumentsInFileOrder(old.content, {.source = old.name});
  if (!docs) return docs.error();
  for (const util::yaml::Document& doc : *docs) {
    if (!doc.value.is_object()) continue;
    auto it = doc.value.find("apiVersion");
    if (it != doc.value.end() && it->is_string() && it->get<std::string>() == kOldVersion)
      return Status();
  }
  return InvalidArgument(util::EscapeNonPrintable(old.name) + ": apiVersion: no " + kOldVersion +
                         " document to migrate (kkadm reads kubeadm.k8s.io/v1beta4 as it is)");
}

void Append(std::string& out, const std::string& doc) {
  if (!out.empty()) out += "---\n";
  out += doc;
}

template <class Loaded>
void KeepWarnings(const Loaded& loaded, std::vector<std::string>& warnings) {
  warnings.insert(warnings.end(), loaded.warnings.begin(), loaded.warnings.end());
}

}  // namespace

Result<MigratedConfig> MigrateConfig(const ConfigSource& old, const util::Machine& machine,
                                     const ReleaseVersionSource& versions) {
  KKADM_RETURN_IF_ERROR(CheckHasOldDocument(old));
  auto docs = LoadDocuments(old, /*strict=*/true);
  if (!docs) return docs.error();
  MigratedConfig out;
  if (docs->init || docs->cluster) {
    auto init = MakeInitConfiguration(old, {}, machine, versions);
    if (!init) return init.error();
    KeepWarnings(*init, out.warnings);
    Append(out.text, EncodeInitConfiguration(init->cfg) + "---\n" +
                         EncodeClusterConfiguration(init->cfg.cluster));
  }
  if (docs->join) {
    auto join = MakeJoinConfiguration(old, {}, machine);
    if (!join) return join.error();
    KeepWarnings(*join, out.warnings);
    Append(out.text, EncodeJoinConfiguration(join->cfg));
  }
  if (docs->reset) {
    auto reset = MakeResetConfiguration(old, {});
    if (!reset) return reset.error();
    KeepWarnings(*reset, out.warnings);
    Append(out.text, EncodeResetConfiguration(reset->cfg));
  }
  return out;
}

}  // namespace kkadm::config
