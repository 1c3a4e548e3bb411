// The certs work: creates or reuses the cluster's CAs, leaf certificates and the service-account
// key pair under the certificate directory, following kubeadm's rules. Knows nothing of phases.
//
// Idempotent: a CA whose certificate loads is reused (without key: external CA); a leaf that
// chains to its CA and has its key is reused; a missing item is created; anything present but
// invalid (unparsable, not a CA, not signed by its CA, key not matching) is an error and no file
// is overwritten.
#pragma once

#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/phases/certs/cert_list.h"
#include "app/util/clock.h"
#include "app/util/file_system.h"
#include "app/util/pki/key_pool.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases::certs {

struct CertsEnv {
  const config::InitConfiguration& cfg;
  util::FileSystem& fs;
  util::Printer& out;
  util::Clock& clock;
  bool external_ca = false;            // ca.crt without ca.key
  util::pki::KeyPool* keys = nullptr;  // keys generated ahead of time; may be null

  const std::string& cert_dir() const { return cfg.cluster.certificates_dir; }
};

// One CA: reuse ("[certs] Using existing ca certificate authority", or "... keyless ..." when
// its key is absent) or create ("[certs] Generating "ca" certificate and key"). With external
// etcd the etcd CA is skipped.
Status CreateCA(const CertSpec& ca, CertsEnv& env);

// One leaf signed by its CA, loaded from disk: reuse ("[certs] Using existing apiserver
// certificate and key on disk") or create ("[certs] Generating "apiserver" certificate and key",
// plus the SAN line for serving certificates). FailedPrecondition "couldn't load CA certificate
// ca: ..." when it must be created and the CA (with key) is not there.
Status CreateLeaf(const CertSpec& leaf, CertsEnv& env);

// sa.key and sa.pub: "[certs] Generating "sa" key and public key" unless sa.key loads ("[certs]
// Using the existing "sa" key"; a missing sa.pub is then derived from it). Skipped with an
// external CA.
Status CreateServiceAccountKeys(CertsEnv& env);

// Base names of the keys the calls above would generate now (for KeyPool pre-generation).
std::vector<std::string> KeysToGenerate(const CertsEnv& env);

// Starts generating those keys in the background into env.keys (nothing without a pool) and
// returns at once; the calls above take them as they need them.
void PregenerateKeys(CertsEnv& env);

// Every CA, leaf and the sa keys, in kubeadm's order, with keys generated in parallel first.
Status CreatePKIAssets(CertsEnv& env);

}  // namespace kkadm::phases::certs
