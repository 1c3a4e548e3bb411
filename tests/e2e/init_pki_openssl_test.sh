#!/usr/bin/env bash
# `kkadm init phase certs all` builds kubeadm's whole PKI (reference §5); the openssl CLI checks it:
# every chain verifies, and CN, O, SANs, key usages, extended key usages and validity match the
# table, for RSA-2048 and ECDSA-P256. Re-running changes no file; a leaf from another CA is refused.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/pki.sh"

LEAF_LIFETIME=$((365 * 86400 + 300))   # 8760h after a 5-minute backdate
CA_LIFETIME=$((3650 * 86400 + 300))    # 87600h after a 5-minute backdate

write_config() {  # FILE ALGORITHM
  cat > "$1" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  name: Node-1
localAPIEndpoint:
  advertiseAddress: 192.0.2.10
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
controlPlaneEndpoint: cp.example.internal:6443
encryptionAlgorithm: $2
apiServer:
  certSANs: [extra.example.internal, 203.0.113.7]
etcd:
  local:
    serverCertSANs: [etcd.example.internal]
CFG
}

check_cert() {  # PKI BASE ISSUER-BASE SUBJECT SANS EKU IS-CA
  local pki=$1 base=$2 issuer=$3 subject=$4 sans=$5 eku=$6 is_ca=$7 f="$1/$2.crt"
  check "$base.crt exists" test -f "$f"
  check "$base.key is 0600" test "$(stat -c %a "$pki/$base.key")" = 600
  check "$base.crt is 0644" test "$(stat -c %a "$f")" = 644
  check "$base chains to $issuer" cert_verifies "$pki/$issuer.crt" "$f"
  assert_eq "$base subject" "$subject" "$(cert_subject "$f")"
  assert_eq "$base SANs" "$sans" "$(cert_sans "$f")"
  assert_eq "$base extended key usage" "$eku" "$(cert_ext_key_usage "$f")"
  if [ "$is_ca" = yes ]; then
    assert_eq "$base key usage" "X509v3 Key Usage: critical Digital Signature, Key Encipherment, Certificate Sign" "$(cert_key_usage "$f")"
    assert_eq "$base basic constraints" "X509v3 Basic Constraints: critical CA:TRUE" "$(cert_basic_constraints "$f")"
    assert_eq "$base lifetime" "$CA_LIFETIME" "$(cert_lifetime "$f")"
  else
    assert_contains "$base key usage" "$(cert_key_usage "$f")" "critical Digital Signature"
    assert_eq "$base lifetime" "$LEAF_LIFETIME" "$(cert_lifetime "$f")"
  fi
}

check_pki() {  # PKI KEY-TYPE
  local p=$1
  local server="TLS Web Server Authentication" client="TLS Web Client Authentication"
  check_cert "$p" ca ca "CN=kubernetes" "DNS:kubernetes" "" yes
  check_cert "$p" front-proxy-ca front-proxy-ca "CN=front-proxy-ca" "DNS:front-proxy-ca" "" yes
  check_cert "$p" etcd/ca etcd/ca "CN=etcd-ca" "DNS:etcd-ca" "" yes
  check_cert "$p" apiserver ca "CN=kube-apiserver" \
    "DNS:cp.example.internal, DNS:extra.example.internal, DNS:kubernetes, DNS:kubernetes.default, DNS:kubernetes.default.svc, DNS:kubernetes.default.svc.cluster.local, DNS:node-1, IP Address:10.96.0.1, IP Address:192.0.2.10, IP Address:203.0.113.7" \
    "$server" no
  check_cert "$p" apiserver-kubelet-client ca "CN=kube-apiserver-kubelet-client,O=kubeadm:cluster-admins" "" "$client" no
  check_cert "$p" front-proxy-client front-proxy-ca "CN=front-proxy-client" "" "$client" no
  check_cert "$p" etcd/server etcd/ca "CN=node-1" \
    "DNS:etcd.example.internal, DNS:localhost, DNS:node-1, IP Address:192.0.2.10, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1" \
    "$server, $client" no
  check_cert "$p" etcd/peer etcd/ca "CN=node-1" \
    "DNS:localhost, DNS:node-1, IP Address:192.0.2.10, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1" \
    "$server, $client" no
  check_cert "$p" etcd/healthcheck-client etcd/ca "CN=kube-etcd-healthcheck-client" "" "$client" no
  check_cert "$p" apiserver-etcd-client etcd/ca "CN=kube-apiserver-etcd-client" "" "$client" no
  check "sa.key is 0600" test "$(stat -c %a "$p/sa.key")" = 600
  check "sa.pub is a public key" openssl pkey -pubin -in "$p/sa.pub" -noout
  check "sa.pub matches sa.key" test "$(openssl pkey -in "$p/sa.key" -pubout)" = "$(cat "$p/sa.pub")"
  for c in ca apiserver etcd/server; do
    assert_eq "$c key type" "$2" "$(cert_key_type "$p/$c.crt")"
  done
}

for alg in RSA-2048 ECDSA-P256; do
  R=$WORK/root-$alg; mkdir -p "$R"
  write_config "$WORK/$alg.yaml" "$alg"
  out=$("$KKADM" init phase certs all --config "$WORK/$alg.yaml" --rootfs "$R" 2>&1) || fail "$alg: certs all failed: $out"
  assert_contains "$alg output" "$out" '[certs] Using certificateDir folder "/etc/kubernetes/pki"'
  assert_contains "$alg output" "$out" '[certs] Generating "apiserver" certificate and key'
  assert_contains "$alg output" "$out" '[certs] Generating "sa" key and public key'
  key_type=rsaEncryption; [ "$alg" = ECDSA-P256 ] && key_type=id-ecPublicKey
  check_pki "$R/etc/kubernetes/pki" "$key_type"

  # Re-running on an existing PKI reuses every file byte for byte.
  before=$(node_fingerprint "$R")
  out=$("$KKADM" init phase certs all --config "$WORK/$alg.yaml" --rootfs "$R" 2>&1) || fail "$alg: re-run failed: $out"
  assert_eq "$alg: re-run changes nothing" "$before" "$(node_fingerprint "$R")"
  assert_contains "$alg re-run output" "$out" "[certs] Using existing ca certificate authority"
  assert_contains "$alg re-run output" "$out" "[certs] Using existing apiserver certificate and key on disk"
done

# A leaf signed by another CA is refused and nothing is changed.
R=$WORK/root-RSA-2048; P=$R/etc/kubernetes/pki
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/other-ca.key" -out "$WORK/other-ca.crt" \
  -subj /CN=other-ca -days 1 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$P/apiserver.key" -subj /CN=kube-apiserver 2>/dev/null |
  openssl x509 -req -CA "$WORK/other-ca.crt" -CAkey "$WORK/other-ca.key" -CAcreateserial \
    -days 1 -out "$P/apiserver.crt" 2>/dev/null
before=$(node_fingerprint "$R")
rc=0; out=$("$KKADM" init phase certs all --config "$WORK/RSA-2048.yaml" --rootfs "$R" 2>&1) || rc=$?
check "foreign leaf: non-zero exit" [ "$rc" -ne 0 ]
assert_contains "foreign leaf error" "$out" "apiserver"
assert_contains "foreign leaf error" "$out" "not signed by"
assert_eq "foreign leaf: nothing changed" "$before" "$(node_fingerprint "$R")"

# Flags instead of a file: --cert-dir and --apiserver-cert-extra-sans.
R=$WORK/root-flags; mkdir -p "$R"
out=$("$KKADM" init phase certs all --rootfs "$R" --cert-dir /etc/kk-pki --node-name flags-node \
  --apiserver-advertise-address 192.0.2.20 --apiserver-cert-extra-sans=10.0.0.99,api.flags.internal 2>&1) ||
  fail "flags run failed: $out"
check "--cert-dir honoured" test -f "$R/etc/kk-pki/apiserver.crt"
check "nothing in the default dir" test ! -e "$R/etc/kubernetes/pki"
assert_eq "flag SANs" \
  "DNS:api.flags.internal, DNS:flags-node, DNS:kubernetes, DNS:kubernetes.default, DNS:kubernetes.default.svc, DNS:kubernetes.default.svc.cluster.local, IP Address:10.96.0.1, IP Address:192.0.2.20, IP Address:10.0.0.99" \
  "$(cert_sans "$R/etc/kk-pki/apiserver.crt")"

# A name whose first label is longer than 63 characters is a DNS-1123 subdomain for Kubernetes
# (apimachinery limits only the whole name to 253): kubeadm puts it in apiserver.crt. kkadm's
# validation accepted it while its certificates dropped it with a warning (two copies of the rule).
R_LONG=$WORK/root-long-label; mkdir -p "$R_LONG"
LONG=$(printf 'a%.0s' $(seq 64)).example.internal
out=$("$KKADM" init phase certs all --rootfs "$R_LONG" --node-name long-node \
  --apiserver-advertise-address 192.0.2.20 --apiserver-cert-extra-sans="$LONG" 2>&1) ||
  fail "long-label run failed: $out"
assert_contains "a 64-character label is one of the apiserver SANs" \
  "$(cert_sans "$R_LONG/etc/kubernetes/pki/apiserver.crt")" "DNS:$LONG,"
assert_not_contains "the long-label SAN is not dropped" "$out" "was not added to the 'apiserver.crt' SAN"

# One sub-phase alone: the apiserver certificate is re-issued from the existing CA.
rm "$R/etc/kk-pki/apiserver.crt" "$R/etc/kk-pki/apiserver.key"
out=$("$KKADM" init phase certs apiserver --rootfs "$R" --cert-dir /etc/kk-pki --node-name flags-node \
  --apiserver-advertise-address 192.0.2.20 2>&1) || fail "certs apiserver alone failed: $out"
check "apiserver re-issued by the same CA" cert_verifies "$R/etc/kk-pki/ca.crt" "$R/etc/kk-pki/apiserver.crt"

# External CA mode: ca.crt without ca.key, every leaf present: accepted as keyless.
R=$WORK/root-ECDSA-P256; rm "$R/etc/kubernetes/pki/ca.key"
out=$("$KKADM" init phase certs all --config "$WORK/ECDSA-P256.yaml" --rootfs "$R" 2>&1) || fail "external CA failed: $out"
assert_contains "external CA" "$out" "Using existing ca keyless certificate authority"
check "external CA: no ca.key made" test ! -e "$R/etc/kubernetes/pki/ca.key"

finish
