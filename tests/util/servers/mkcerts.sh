#!/bin/bash
# mkcerts.sh DIR [SANLIST]: a throwaway ECDSA P-256 PKI for client tests (real-components.md §1):
# ca.{crt,key}, server (serverAuth+clientAuth, SANs), peer (same), client (clientAuth, CN kkadm-test-client).
set -euo pipefail
D=$1; SAN=${2:-"DNS:localhost,IP:127.0.0.1"}
mkdir -p "$D"; cd "$D"
openssl ecparam -name prime256v1 -genkey -noout -out ca.key
openssl req -x509 -new -key ca.key -sha256 -days 1 -subj "/CN=kkadm-test-ca" -out ca.crt \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
mk() { # name cn eku san
  openssl ecparam -name prime256v1 -genkey -noout -out $1.key
  openssl req -new -key $1.key -subj "/CN=$2" -out $1.csr
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=%s\n%s\n' "$3" "${4:+subjectAltName=$4}" > $1.ext
  openssl x509 -req -in $1.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 -sha256 -extfile $1.ext -out $1.crt 2>/dev/null
  rm -f $1.csr $1.ext
}
mk server kube-etcd serverAuth,clientAuth "$SAN"
mk peer   kube-etcd-peer serverAuth,clientAuth "$SAN"
mk client kkadm-test-client clientAuth ""
