// upload-certs phase adapter.
#include "app/phases/init/upload_certs_phase.h"

#include "app/phases/uploadcerts/upload_certs.h"
#include "app/util/crypto.h"

namespace kkadm::phases {
namespace {

Status RunUploadCerts(InitData& data) {
  if (!data.upload_certs) {
    data.printer().Line("upload-certs", "Skipping phase. Please see --upload-certs");
    return Status::Ok();
  }
  auto client = data.access->AdminClient();
  if (!client) return client.error();
  if (data.certificate_key.empty()) data.certificate_key = data.cfg.certificate_key;
  if (data.certificate_key.empty()) {
    auto key = util::CreateCertificateKey();
    if (!key) return key.error();
    data.certificate_key = *key;
  }
  KKADM_RETURN_IF_ERROR(UploadCerts(**client, data.fs(), data.printer(), data.cfg.cluster,
                                    data.certificate_key, data.host->clock.Now())
                            .Wrap("error uploading certs"));
  if (!data.skip_certificate_key_print) {
    data.printer().Line("upload-certs", "Using certificate key:\n" + data.certificate_key);
  }
  return Status::Ok();
}

}  // namespace

workflow::Phase NewUploadCertsPhase(InitData& data) {
  workflow::Phase phase;
  phase.name = "upload-certs";
  phase.description = "Upload certificates to kubeadm-certs";
  phase.long_description = "Upload control plane certificates to the kubeadm-certs Secret";
  phase.run = [&data] { return RunUploadCerts(data); };
  phase.inherit_flags = {
      "config", "kubeconfig", "upload-certs", "certificate-key", "skip-certificate-key-print",
      "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
