// PKI files on the node, through util::FileSystem: "<dir>/<base>.crt" (0644), "<dir>/<base>.key"
// (0600) and "<dir>/<base>.pub" (0600), loaded and written as kubeadm's pkiutil does.
#pragma once

#include <string>
#include <vector>

#include "app/util/file_system.h"
#include "app/util/pki/certificate.h"
#include "app/util/pki/key.h"
#include "app/util/status.h"

namespace kkadm::util::pki {

std::string CertPath(const std::string& dir, const std::string& base);
std::string KeyPath(const std::string& dir, const std::string& base);
std::string PublicKeyPath(const std::string& dir, const std::string& base);

// The first certificate of the file. NotFound when the file is absent, InvalidArgument when it
// holds no certificate; messages name the file ("couldn't load the certificate file <path>: ...").
Result<Certificate> LoadCert(const FileSystem& fs, const std::string& path);
// Every certificate of the file: the first is the certificate, the rest its intermediates.
Result<std::vector<Certificate>> LoadCertChain(const FileSystem& fs, const std::string& path);
// An RSA or ECDSA private key (PKCS#1, SEC1 or PKCS#8).
Result<PrivateKey> LoadKey(const FileSystem& fs, const std::string& path);

struct CertAndKey {
  Certificate cert;
  PrivateKey key;
};

// A CA's certificate and key: both must load, the certificate must be a CA and the key must be its
// key. Errors say which part failed ("failure loading ca certificate authority: ...").
Result<CertAndKey> LoadCertificateAuthority(const FileSystem& fs, const std::string& dir,
                                            const std::string& base);

// Writes the key (0600) first, then the certificate (0644), each atomically; missing parent
// directories are created 0755.
Status WriteCertAndKey(FileSystem& fs, const std::string& dir, const std::string& base,
                       const Certificate& cert, const PrivateKey& key);
// Writes "<base>.key" (0600) and "<base>.pub" (0600, PEM "PUBLIC KEY").
Status WriteKeyPair(FileSystem& fs, const std::string& dir, const std::string& base,
                    const PrivateKey& key);

}  // namespace kkadm::util::pki
