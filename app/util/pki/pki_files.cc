// Loading and writing certificates and keys through util::FileSystem.
#include "app/util/pki/pki_files.h"

#include <map>
#include <mutex>
#include <optional>

namespace kkadm::util::pki {
namespace {

// CAs already parsed in this process, by the exact bytes of their certificate and key files.
// Building a PKI signs every leaf and client certificate with one of three CAs, and OpenSSL 3's
// PEM decoding of a key costs more than signing; parsing each CA once (and a CA kkadm has just
// written not at all) removes most of that. Keyed by content, so a file changed on disk is
// parsed afresh: the memo can never answer differently from parsing.
class ParsedAuthorities {
 public:
  static ParsedAuthorities& Get() {
    static ParsedAuthorities instance;
    return instance;
  }

  std::optional<CertAndKey> Find(const std::string& cert_pem, const std::string& key_pem) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_content_.find({cert_pem, key_pem});
    if (it == by_content_.end()) return std::nullopt;
    return CertAndKey{it->second.cert, it->second.key.Share()};
  }

  void Remember(std::string cert_pem, std::string key_pem, const CertAndKey& authority) {
    std::lock_guard<std::mutex> lock(mu_);
    by_content_.insert_or_assign({std::move(cert_pem), std::move(key_pem)},
                                 CertAndKey{authority.cert, authority.key.Share()});
  }

 private:
  std::mutex mu_;
  std::map<std::pair<std::string, std::string>, CertAndKey> by_content_;
};

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
  auto cert_pem = Read(fs, CertPath(dir, base), "certificate");
  if (!cert_pem) return cert_pem.error().Wrap(context + ": failed to load certificate");
  auto key_pem = Read(fs, KeyPath(dir, base), "private key");
  if (!key_pem) return key_pem.error().Wrap(context + ": failed to load key");
  if (auto known = ParsedAuthorities::Get().Find(*cert_pem, *key_pem)) return std::move(*known);

  auto certs = Certificate::ParsePemBundle(*cert_pem);
  if (!certs) {
    return certs.error()
        .Wrap("couldn't load the certificate file " + CertPath(dir, base))
        .Wrap(context + ": failed to load certificate");
  }
  auto key = PrivateKey::ParsePem(*key_pem);
  if (!key) {
    return key.error()
        .Wrap("couldn't load the private key file " + KeyPath(dir, base))
        .Wrap(context + ": failed to load key");
  }
  CertAndKey authority{std::move(certs->front()), std::move(*key)};
  if (!authority.cert.IsCa())
    return FailedPrecondition(base + " certificate is not a certificate authority");
  if (!authority.cert.MatchesKey(authority.key)) {
    return FailedPrecondition(context + ": the private key does not match the certificate");
  }
  ParsedAuthorities::Get().Remember(std::move(*cert_pem), std::move(*key_pem), authority);
  return authority;
}

Status WriteCertAndKey(FileSystem& fs, const std::string& dir, const std::string& base,
                       const Certificate& cert, const PrivateKey& key) {
  auto pem = key.ToPem();
  if (!pem) return pem.error();
  std::string key_path = KeyPath(dir, base);
  Status s = fs.WriteFile(key_path, *pem, 0600);
  if (!s.ok()) return s.Wrap("unable to write private key to file " + key_path);
  std::string cert_path = CertPath(dir, base);
  std::string cert_pem = cert.ToPem();
  s = fs.WriteFile(cert_path, cert_pem, 0644);
  if (!s.ok()) return s.Wrap("unable to write certificate to file " + cert_path);
  if (cert.IsCa() && cert.MatchesKey(key)) {
    ParsedAuthorities::Get().Remember(std::move(cert_pem), std::move(*pem), {cert, key.Share()});
  }
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
