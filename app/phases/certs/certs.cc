// The certs work: CA, leaf and service-account key creation with kubeadm's reuse rules.
#include "app/phases/certs/certs.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "app/util/pki/pki_files.h"
#include "app/util/strings.h"

namespace kkadm::phases::certs {
namespace {

using util::pki::Certificate;
using util::pki::PrivateKey;

util::pki::KeyType KeyType(const CertsEnv& env) {
  return KeyTypeFor(env.cfg.cluster.encryption_algorithm);
}

// kubeadm only warns when an existing certificate is outside its validity period.
void CheckPeriod(const std::string& base, const Certificate& cert, util::Clock& clock) {
  auto now = clock.Now();
  auto fmt_time = [](util::pki::TimePoint t) {
    return fmt::format("{:%Y-%m-%d %H:%M:%S} +0000 UTC",
                       fmt::gmtime(std::chrono::system_clock::to_time_t(t)));
  };
  std::string period =
      "NotBefore: " + fmt_time(cert.NotBefore()) + ", NotAfter: " + fmt_time(cert.NotAfter());
  if (now < cert.NotBefore()) {
    spdlog::warn(
        "WARNING: could not validate bounds for certificate {}: the certificate is not valid yet: "
        "{}",
        base, period);
  } else if (now > cert.NotAfter()) {
    spdlog::warn(
        "WARNING: could not validate bounds for certificate {}: the certificate has expired: {}",
        base, period);
  }
}

Result<PrivateKey> NewKey(CertsEnv& env, const std::string& base) {
  if (env.keys != nullptr) return env.keys->TakeOrGenerate(base, KeyType(env));
  return PrivateKey::Generate(KeyType(env));
}

Status WithValidity(util::pki::CertConfig& config, const CertsEnv& env) {
  auto start = env.clock.Now();
  config.not_before = start - std::chrono::minutes(5);
  config.not_after = start + (config.is_ca ? env.cfg.cluster.ca_certificate_validity_period
                                           : env.cfg.cluster.certificate_validity_period);
  return Status();
}

Status GenerateCA(const CertSpec& ca, CertsEnv& env) {
  auto config = GetCertConfig(ca, env.cfg);
  if (!config)
    return config.error().Wrap("couldn't get configuration for \"" + ca.name + "\" CA certificate");
  KKADM_RETURN_IF_ERROR(WithValidity(*config, env));
  auto key = NewKey(env, ca.base_name);
  if (!key) return key.error().Wrap("unable to create private key while generating CA certificate");
  auto cert = util::pki::SelfSignCA(*config, *key);
  if (!cert) return cert.error().Wrap("unable to create self-signed CA certificate");
  env.out.Line("certs", fmt::format("Generating \"{}\" certificate and key", ca.base_name));
  return util::pki::WriteCertAndKey(env.fs, env.cert_dir(), ca.base_name, *cert, *key)
      .Wrap("failure while saving " + ca.base_name + " certificate and key");
}

// Loads an existing leaf and checks it against its CA and its key.
Status ValidateExistingLeaf(const CertSpec& leaf, const CertSpec& ca, CertsEnv& env) {
  auto chain =
      util::pki::LoadCertChain(env.fs, util::pki::CertPath(env.cert_dir(), leaf.base_name));
  if (!chain) return chain.error().Wrap("failure loading " + leaf.base_name + " certificate");
  CheckPeriod(leaf.base_name, chain->front(), env.clock);
  auto ca_cert = util::pki::LoadCert(env.fs, util::pki::CertPath(env.cert_dir(), ca.base_name));
  if (!ca_cert) return ca_cert.error().Wrap("couldn't load CA certificate " + ca.name);
  std::vector<Certificate> intermediates(chain->begin() + 1, chain->end());
  Status verified = chain->front().VerifyChain(intermediates, *ca_cert, env.clock.Now());
  if (!verified.ok()) {
    return FailedPrecondition(
        fmt::format("[certs] certificate {} not signed by CA certificate {}: {}", leaf.base_name,
                    ca.base_name, verified.message()));
  }
  std::string key_path = util::pki::KeyPath(env.cert_dir(), leaf.base_name);
  auto key = util::pki::LoadKey(env.fs, key_path);
  if (!key) return key.error().Wrap("failure loading " + leaf.base_name + " key");
  if (!chain->front().MatchesKey(*key)) {
    return FailedPrecondition("the private key file " + key_path +
                              " does not match the certificate " +
                              util::pki::CertPath(env.cert_dir(), leaf.base_name));
  }
  return Status();
}

Status GenerateLeaf(const CertSpec& leaf, const CertSpec& ca, CertsEnv& env) {
  auto authority = util::pki::LoadCertificateAuthority(env.fs, env.cert_dir(), ca.base_name);
  if (!authority) return authority.error().Wrap("couldn't load CA certificate " + ca.name);
  auto config = GetCertConfig(leaf, env.cfg);
  if (!config) return config.error().Wrap("couldn't create \"" + leaf.name + "\" certificate");
  KKADM_RETURN_IF_ERROR(WithValidity(*config, env));
  auto key = NewKey(env, leaf.base_name);
  if (!key) return key.error().Wrap("unable to create private key");
  auto cert = util::pki::SignLeaf(*config, *key, authority->cert, authority->key);
  if (!cert) return cert.error().Wrap("unable to sign certificate");
  env.out.Line("certs", fmt::format("Generating \"{}\" certificate and key", leaf.base_name));
  KKADM_RETURN_IF_ERROR(
      util::pki::WriteCertAndKey(env.fs, env.cert_dir(), leaf.base_name, *cert, *key)
          .Wrap("failure while saving " + leaf.base_name + " certificate and key"));
  if (cert->HasExtKeyUsage(util::pki::ExtKeyUsage::kServerAuth)) {
    env.out.Line("certs", fmt::format("{} serving cert is signed for DNS names {} and IPs {}",
                                      leaf.base_name, util::GoList(cert->DnsNames()),
                                      util::GoList(cert->IpAddresses())));
  }
  return Status();
}

bool SkippedForExternalEtcd(const CertSpec& spec, const CertsEnv& env) {
  return spec.IsEtcd() && env.cfg.cluster.etcd.external.has_value();
}

}  // namespace

Status CreateCA(const CertSpec& ca, CertsEnv& env) {
  if (SkippedForExternalEtcd(ca, env)) {
    env.out.Line("certs", "External etcd mode: Skipping " + ca.base_name +
                              " certificate authority generation");
    return Status();
  }
  const std::string cert_path = util::pki::CertPath(env.cert_dir(), ca.base_name);
  const std::string key_path = util::pki::KeyPath(env.cert_dir(), ca.base_name);
  if (!env.fs.Exists(cert_path)) {
    if (env.fs.Exists(key_path)) {
      return NotFound("failure loading " + ca.base_name +
                      " certificate: couldn't load the certificate file " + cert_path +
                      ": the key exists without its certificate");
    }
    return GenerateCA(ca, env);
  }
  auto cert = util::pki::LoadCert(env.fs, cert_path);
  if (!cert) return cert.error().Wrap("failure loading " + ca.base_name + " certificate");
  if (!cert->IsCa()) return FailedPrecondition("certificate " + ca.base_name + " is not a CA");
  CheckPeriod(ca.base_name, *cert, env.clock);
  if (!env.fs.Exists(key_path)) {
    env.out.Line("certs", "Using existing " + ca.base_name + " keyless certificate authority");
    return Status();
  }
  auto key = util::pki::LoadKey(env.fs, key_path);
  if (!key) return key.error().Wrap("failure loading " + ca.base_name + " key");
  if (!cert->MatchesKey(*key)) {
    return FailedPrecondition("the private key file " + key_path +
                              " does not match the certificate " + cert_path);
  }
  env.out.Line("certs", "Using existing " + ca.base_name + " certificate authority");
  return Status();
}

Status CreateLeaf(const CertSpec& leaf, CertsEnv& env) {
  if (SkippedForExternalEtcd(leaf, env)) {
    env.out.Line("certs",
                 "External etcd mode: Skipping " + leaf.base_name + " certificate generation");
    return Status();
  }
  const CertSpec* ca = FindCertSpec(leaf.ca_name);
  if (ca == nullptr)
    return Internal("certificate " + leaf.name + " references unknown CA " + leaf.ca_name);
  const std::string cert_path = util::pki::CertPath(env.cert_dir(), leaf.base_name);
  if (env.fs.Exists(cert_path)) {
    KKADM_RETURN_IF_ERROR(ValidateExistingLeaf(leaf, *ca, env));
    env.out.Line("certs", "Using existing " + leaf.base_name + " certificate and key on disk");
    return Status();
  }
  if (env.fs.Exists(util::pki::KeyPath(env.cert_dir(), leaf.base_name))) {
    return NotFound("failure loading " + leaf.base_name +
                    " certificate: couldn't load the certificate file " + cert_path +
                    ": the key exists without its certificate");
  }
  return GenerateLeaf(leaf, *ca, env);
}

Status CreateServiceAccountKeys(CertsEnv& env) {
  if (env.external_ca) {
    env.out.Line("certs", "Using existing sa keys");
    return Status();
  }
  const std::string key_path = util::pki::KeyPath(env.cert_dir(), kServiceAccountKeyBaseName);
  if (env.fs.Exists(key_path)) {
    auto key = util::pki::LoadKey(env.fs, key_path);
    if (!key) return key.error().Wrap("file sa.key existed but it could not be loaded properly");
    env.out.Line("certs", "Using the existing \"sa\" key");
    const std::string pub_path =
        util::pki::PublicKeyPath(env.cert_dir(), kServiceAccountKeyBaseName);
    if (env.fs.Exists(pub_path)) return Status();
    auto pub = key->PublicKeyPem();
    if (!pub) return pub.error();
    return env.fs.WriteFile(pub_path, *pub, 0600)
        .Wrap("unable to write public key to file " + pub_path);
  }
  auto key = NewKey(env, kServiceAccountKeyBaseName);
  if (!key) return key.error().Wrap("failure while creating service account token signing key");
  env.out.Line("certs", "Generating \"sa\" key and public key");
  return util::pki::WriteKeyPair(env.fs, env.cert_dir(), kServiceAccountKeyBaseName, *key);
}

std::vector<std::string> KeysToGenerate(const CertsEnv& env) {
  std::vector<std::string> names;
  auto absent = [&](const std::string& base) {
    return !env.fs.Exists(util::pki::CertPath(env.cert_dir(), base)) &&
           !env.fs.Exists(util::pki::KeyPath(env.cert_dir(), base));
  };
  for (const auto& spec : CertList()) {
    if (SkippedForExternalEtcd(spec, env) || !absent(spec.base_name)) continue;
    const CertSpec* ca = spec.IsCa() ? nullptr : FindCertSpec(spec.ca_name);
    // A leaf of a keyless CA cannot be signed: no key is worth making for it.
    if (ca != nullptr && env.fs.Exists(util::pki::CertPath(env.cert_dir(), ca->base_name)) &&
        !env.fs.Exists(util::pki::KeyPath(env.cert_dir(), ca->base_name))) {
      continue;
    }
    names.push_back(spec.base_name);
  }
  if (!env.external_ca &&
      !env.fs.Exists(util::pki::KeyPath(env.cert_dir(), kServiceAccountKeyBaseName))) {
    names.push_back(kServiceAccountKeyBaseName);
  }
  return names;
}

void PregenerateKeys(CertsEnv& env) {
  if (env.keys != nullptr) env.keys->Start(KeyType(env), KeysToGenerate(env));
}

Status CreatePKIAssets(CertsEnv& env) {
  util::pki::KeyPool pool;
  util::pki::KeyPool* saved = env.keys;
  env.keys = &pool;
  PregenerateKeys(env);
  Status s;
  for (const auto& spec : CertList()) {
    if (!s.ok()) break;
    s = spec.IsCa() ? CreateCA(spec, env) : CreateLeaf(spec, env);
  }
  if (s.ok()) s = CreateServiceAccountKeys(env);
  env.keys = saved;
  return s;
}

}  // namespace kkadm::phases::certs
