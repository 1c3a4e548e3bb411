// Loading and writing certificates and keys through util::FileSystem.
#include "app/util/pki/pki_files.h"

namespace kkadm::util::pki {
namespace {

Result<std::string> Read(const FileSystem& fs, const std::string& path, const char* what) {
  auto data = fs.ReadFile(path);
  if (!data) {
    return Status(data.error().code(), std::string("couldn't load the ") + what + " file " + path +
                                           ": " + data.error().message());
  }
  return data;
}

}  // namespace

std::string CertPath(const std::string& dir, const std::string& base) {
  return dir + "/" + base + ".crt";
}
std::string KeyPath(const std::string& dir, const std::string& base) {
  return dir + "/" + base + ".key";
}
std::string PublicKeyPath(const std::string& dir, const std::string& base) {
  return dir + "/" + base + ".pub";
}

Result<Certificate> LoadCert(const FileSystem& fs, const std::string& path) {
  auto chain = LoadCertChain(fs, path);
  if (!chain) return std::move(chain).error();
  return std::move(chain->front());
}

Result<std::vector<Certificate>> LoadCertChain(const FileSystem& fs, const std::string& path) {
  auto data = Read(fs, path, "certificate");
  if (!data) return std::move(data).error();
  auto certs = Certificate::ParsePemBundle(*data);
  if (!certs) return certs.error().Wrap("couldn't load the certificate file " + path);
  return certs;
}

Result<PrivateKey> LoadKey(const FileSystem& fs, const std::string& path) {
  auto data = Read(fs, path, "private key");
  if (!data) return std::move(data).error();
  auto key = PrivateKey::ParsePem(*data);
  if (!key) return key.error().Wrap("couldn't load the private key file " + path);
  return key;
}

Result<CertAndKey> LoadCertificateAuthority(const FileSystem& fs, const std::string& dir,
                                            const std::string& base) {
  const std::string context = "failure loading " + base + " certificate authority";
  auto cert = LoadCert(fs, CertPath(dir, base));
  if (!cert) return cert.error().Wrap(context + ": failed to load certificate");
  auto key = LoadKey(fs, KeyPath(dir, base));
  if (!key) return key.error().Wrap(context + ": failed to load key");
  if (!cert->IsCa())
    return FailedPrecondition(base + " certificate is not a certificate authority");
  if (!cert->MatchesKey(*key)) {
    return FailedPrecondition(context + ": the private key does not match the certificate");
  }
  return CertAndKey{std::move(*cert), std::move(*key)};
}

Status WriteCertAndKey(FileSystem& fs, const std::string& dir, const std::string& base,
                       const Certificate& cert, const PrivateKey& key) {
  auto pem = key.ToPem();
  if (!pem) return pem.error();
  std::string key_path = KeyPath(dir, base);
  Status s = fs.WriteFile(key_path, *pem, 0600);
  if (!s.ok()) return s.Wrap("unable to write private key to file " + key_path);
  std::string cert_path = CertPath(dir, base);
  s = fs.WriteFile(cert_path, cert.ToPem(), 0644);
  if (!s.ok()) return s.Wrap("unable to write certificate to file " + cert_path);
  return Status();
}

Status WriteKeyPair(FileSystem& fs, const std::string& dir, const std::string& base,
                    const PrivateKey& key) {
  auto pem = key.ToPem();
  auto pub = key.PublicKeyPem();
  if (!pem) return pem.error();
  if (!pub) return pub.error();
  std::string key_path = KeyPath(dir, base);
  Status s = fs.WriteFile(key_path, *pem, 0600);
  if (!s.ok()) return s.Wrap("unable to write private key to file " + key_path);
  std::string pub_path = PublicKeyPath(dir, base);
  s = fs.WriteFile(pub_path, *pub, 0600);
  if (!s.ok()) return s.Wrap("unable to write public key to file " + pub_path);
  return Status();
}

}  // namespace kkadm::util::pki
