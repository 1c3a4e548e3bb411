# Certificate inspection with the openssl CLI, the independent verifier of kkadm's PKI. Source it.

cert_subject() { openssl x509 -in "$1" -noout -subject -nameopt RFC2253 | sed 's/^subject=//'; }
cert_issuer() { openssl x509 -in "$1" -noout -issuer -nameopt RFC2253 | sed 's/^issuer=//'; }
# "DNS:a, DNS:b, IP Address:1.2.3.4" or "" when there is no SAN extension.
cert_sans() { openssl x509 -in "$1" -noout -ext subjectAltName 2>/dev/null | sed -n '2p' | sed 's/^ *//'; }
cert_key_usage() { openssl x509 -in "$1" -noout -ext keyUsage 2>/dev/null | tr -d '\n' | sed 's/  */ /g'; }
cert_ext_key_usage() { openssl x509 -in "$1" -noout -ext extendedKeyUsage 2>/dev/null | sed -n '2p' | sed 's/^ *//'; }
cert_basic_constraints() { openssl x509 -in "$1" -noout -ext basicConstraints 2>/dev/null | tr -d '\n' | sed 's/  */ /g'; }
cert_key_type() { openssl x509 -in "$1" -noout -text | sed -n 's/^ *Public Key Algorithm: //p'; }
# Seconds between notBefore and notAfter.
cert_lifetime() {
  local nb na
  nb=$(openssl x509 -in "$1" -noout -startdate | cut -d= -f2)
  na=$(openssl x509 -in "$1" -noout -enddate | cut -d= -f2)
  echo $(( $(date -d "$na" +%s) - $(date -d "$nb" +%s) ))
}
# OK when CERT chains to CA (and is usable for PURPOSE, if given) per openssl verify.
cert_verifies() {
  local ca=$1 cert=$2
  openssl verify -CAfile "$ca" "$cert" >/dev/null 2>&1
}
# kubeadm's --discovery-token-ca-cert-hash of a CA certificate: "sha256:" and the SHA-256 of its
# SubjectPublicKeyInfo, as openssl computes it.
cert_pin() {
  echo "sha256:$(openssl x509 -in "$1" -pubkey -noout | openssl pkey -pubin -outform der | sha256sum | cut -d' ' -f1)"
}
# kubeadm_certs_decrypt KEY BLOB: one entry of the kubeadm-certs Secret (BLOB, base64: nonce,
# ciphertext, tag) decrypted to stdout with the certificate key KEY (hex), by Node.js's AES-256-GCM,
# independently of kkadm. Fails when it does not decrypt.
kubeadm_certs_decrypt() {
  node -e '
    const c = require("crypto"); const key = Buffer.from(process.argv[1], "hex");
    const data = Buffer.from(process.argv[2], "base64");
    const d = c.createDecipheriv("aes-256-gcm", key, data.subarray(0, 12));
    d.setAuthTag(data.subarray(data.length - 16));
    process.stdout.write(Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]));
  ' "$1" "$2"
}
