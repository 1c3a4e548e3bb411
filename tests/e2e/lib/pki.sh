# Certificates with the openssl CLI, the independent verifier of kkadm's PKI: inspection, and the
# PKI of stand-in clusters (ECDSA P-256, valid one day). Source it.

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
# cert_make_ca DIR NAME CN [KEY_USAGE]: a self-signed CA DIR/NAME.{crt,key}; its critical key usage
# KEY_USAGE, by default keyCertSign,cRLSign.
cert_make_ca() {
  openssl ecparam -name prime256v1 -genkey -noout -out "$1/$2.key"
  openssl req -x509 -new -key "$1/$2.key" -sha256 -days 1 -subj "/CN=$3" -out "$1/$2.crt" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,${4:-keyCertSign,cRLSign}"
}
# cert_make_leaf CA_DIR CA DIR NAME SUBJECT EKU [SAN]: DIR/NAME.{crt,key} signed by
# CA_DIR/CA.{crt,key} with a random serial: SUBJECT ("/O=g/CN=n"), extended key usage EKU
# ("serverAuth,clientAuth") and, when given, the subjectAltName SAN ("DNS:localhost,IP:127.0.0.1").
cert_make_leaf() {
  local ca_dir=$1 ca=$2 dir=$3 name=$4 tmp
  tmp=$(mktemp -d)
  openssl ecparam -name prime256v1 -genkey -noout -out "$dir/$name.key"
  openssl req -new -key "$dir/$name.key" -subj "$5" -out "$tmp/csr"
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=%s\n%s\n' \
    "$6" "${7:+subjectAltName=$7}" > "$tmp/ext"
  openssl x509 -req -in "$tmp/csr" -CA "$ca_dir/$ca.crt" -CAkey "$ca_dir/$ca.key" \
    -set_serial "0x$(openssl rand -hex 8)" -days 1 -sha256 -extfile "$tmp/ext" -out "$dir/$name.crt" 2>/dev/null
  local rc=$?
  rm -rf "$tmp"
  return $rc
}
