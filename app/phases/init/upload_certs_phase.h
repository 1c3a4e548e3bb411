// The upload-certs phase of `kkadm init`.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "upload-certs": with --upload-certs, uploads the shared certificates encrypted with the
// certificate key (cfg.certificateKey or a fresh one), stored into data.certificate_key.
workflow::Phase NewUploadCertsPhase(InitData& data);

}  // namespace kkadm::phases
