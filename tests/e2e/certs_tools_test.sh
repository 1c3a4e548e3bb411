#!/usr/bin/env bash
# `kkadm certs certificate-key`, `kkadm certs generate-csr` and `kkadm kubeconfig user`, checked
# with openssl and kubectl: a 64-hex-digit key; kubeadm's key and CSR file names with the
# subjects and SANs of the certificates they stand for, and kubeconfigs holding only their client
# key; a user kubeconfig on stdout whose client certificate chains to the cluster CA with the
# given name, organizations and validity. Bad input gives one line and writes nothing.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/pki.sh"

cat > "$WORK/cfg.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  name: node-1
localAPIEndpoint:
  advertiseAddress: 127.0.0.1
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
controlPlaneEndpoint: cp.example.internal
apiServer:
  certSANs: [extra.example.internal]
CFG

# --- certificate-key ---
k1=$("$KKADM" certs certificate-key); k2=$("$KKADM" certs certificate-key)
check "certificate-key is 64 lowercase hex digits" grep -qxE '[0-9a-f]{64}' <<<"$k1"
check "certificate-key is random" test "$k1" != "$k2"

# --- generate-csr ---
G=$WORK/csr; mkdir -p "$G"
out=$("$KKADM" --rootfs "$G" certs generate-csr --config "$WORK/cfg.yaml" 2>&1)
assert_eq "generate-csr lists what it made" "generating keys and CSRs in /etc/kubernetes/pki
  apiserver
  apiserver-kubelet-client
  front-proxy-client
  etcd/server
  etcd/peer
  etcd/healthcheck-client
  apiserver-etcd-client
generating keys and CSRs in /etc/kubernetes
  admin.conf
  super-admin.conf
  kubelet.conf
  controller-manager.conf
  scheduler.conf" "$out"
GP=$G/etc/kubernetes/pki
for base in apiserver apiserver-kubelet-client front-proxy-client etcd/server etcd/peer etcd/healthcheck-client apiserver-etcd-client; do
  check "$base.csr verifies (signed by its key)" openssl req -in "$GP/$base.csr" -noout -verify
  assert_eq "$base.csr is for $base.key" "$(openssl pkey -in "$GP/$base.key" -pubout)" "$(openssl req -in "$GP/$base.csr" -noout -pubkey)"
  assert_eq "$base.key is 0600" 600 "$(stat -c %a "$GP/$base.key")"
  check "no $base.crt is made" test ! -e "$GP/$base.crt"
done
assert_eq "apiserver CSR subject" "subject=CN = kube-apiserver" "$(openssl req -in "$GP/apiserver.csr" -noout -subject)"
sans=$(openssl req -in "$GP/apiserver.csr" -noout -text | grep -A1 'Subject Alternative Name' | tail -1 | sed 's/^ *//')
assert_eq "apiserver CSR SANs" "DNS:cp.example.internal, DNS:extra.example.internal, DNS:kubernetes, DNS:kubernetes.default, DNS:kubernetes.default.svc, DNS:kubernetes.default.svc.cluster.local, DNS:node-1, IP Address:10.96.0.1, IP Address:127.0.0.1" "$sans"
assert_eq "kubelet-client CSR subject" "subject=O = kubeadm:cluster-admins, CN = kube-apiserver-kubelet-client" "$(openssl req -in "$GP/apiserver-kubelet-client.csr" -noout -subject)"
for f in admin.conf super-admin.conf kubelet.conf controller-manager.conf scheduler.conf; do
  kc=$G/etc/kubernetes/$f
  kubectl config view --raw --kubeconfig "$kc" -o jsonpath='{.users[0].user.client-key-data}' | base64 -d > "$WORK/k.key"
  assert_eq "$f.csr is for the key in $f (read by kubectl)" "$(openssl pkey -in "$WORK/k.key" -pubout)" "$(openssl req -in "$kc.csr" -noout -pubkey)"
  assert_eq "$f has no client certificate yet" "" "$(kubectl config view --raw --kubeconfig "$kc" -o jsonpath='{.users[0].user.client-certificate-data}')"
  case $f in controller-manager.conf|scheduler.conf) server=https://127.0.0.1:6443 ;; *) server=https://cp.example.internal:6443 ;; esac
  assert_eq "$f server" "$server" "$(kubectl config view --kubeconfig "$kc" -o jsonpath='{.clusters[0].cluster.server}')"
done
assert_eq "admin.conf CSR subject" "subject=O = kubeadm:cluster-admins, CN = kubernetes-admin" "$(openssl req -in "$G/etc/kubernetes/admin.conf.csr" -noout -subject)"
before=$(tree_fingerprint "$G")
rc=0; err=$("$KKADM" --rootfs "$G" certs generate-csr --config "$WORK/cfg.yaml" 2>&1) || rc=$?
check "generate-csr over existing files fails" test "$rc" -ne 0
assert_eq "and says so in one line" 1 "$(printf '%s\n' "$err" | wc -l)"
assert_contains "naming the file" "$err" "file already exists: $GP/apiserver.key"
assert_eq "and replaces nothing" "$before" "$(tree_fingerprint "$G")"

# --- kubeconfig user ---
R=$WORK/root; mkdir -p "$R"
"$KKADM" --rootfs "$R" init phase certs ca --config "$WORK/cfg.yaml" >/dev/null
out=$("$KKADM" --rootfs "$R" kubeconfig user --config "$WORK/cfg.yaml" --client-name johndoe --org appdevs,qa --org ops --validity-period 24h 2>"$WORK/err")
printf '%s\n' "$out" > "$WORK/user.conf"
assert_eq "nothing on stderr" "" "$(cat "$WORK/err")"
assert_eq "current context" "johndoe@kubernetes" "$(kubectl config view --kubeconfig "$WORK/user.conf" -o jsonpath='{.current-context}')"
assert_eq "server is the control-plane endpoint" "https://cp.example.internal:6443" "$(kubectl config view --kubeconfig "$WORK/user.conf" -o jsonpath='{.clusters[0].cluster.server}')"
kubectl config view --raw --kubeconfig "$WORK/user.conf" -o jsonpath='{.users[0].user.client-certificate-data}' | base64 -d > "$WORK/u.crt"
kubectl config view --raw --kubeconfig "$WORK/user.conf" -o jsonpath='{.users[0].user.client-key-data}' | base64 -d > "$WORK/u.key"
kubectl config view --raw --kubeconfig "$WORK/user.conf" -o jsonpath='{.clusters[0].cluster.certificate-authority-data}' | base64 -d > "$WORK/u-ca.crt"
check "user certificate chains to the cluster CA" cert_verifies "$R/etc/kubernetes/pki/ca.crt" "$WORK/u.crt"
assert_eq "embedded CA is the cluster CA" "$(cat "$R/etc/kubernetes/pki/ca.crt")" "$(cat "$WORK/u-ca.crt")"
assert_eq "user subject" "CN=johndoe,O=ops,O=qa,O=appdevs" "$(cert_subject "$WORK/u.crt")"
assert_eq "user key matches" "$(openssl pkey -in "$WORK/u.key" -pubout)" "$(openssl x509 -in "$WORK/u.crt" -noout -pubkey)"
assert_eq "user certificate lives 24h (after a 5-minute backdate)" $((24 * 3600 + 300)) "$(cert_lifetime "$WORK/u.crt")"
assert_eq "client auth" "TLS Web Client Authentication" "$(cert_ext_key_usage "$WORK/u.crt")"
"$KKADM" --rootfs "$R" kubeconfig user --config "$WORK/cfg.yaml" --client-name x --validity-period 9000h 2>"$WORK/err" >/dev/null
assert_contains "a long validity warns" "$(cat "$WORK/err")" "WARNING: the specified certificate validity period 9000h0m0s is longer than the default duration 8760h0m0s, this may increase security risks."

bad() {  # WHAT EXPECTED-TEXT ARGS...
  local what=$1 text=$2; shift 2
  local before rc=0 out err
  before=$(tree_fingerprint "$R")
  out=$("$KKADM" --rootfs "$R" "$@" 2>"$WORK/err") || rc=$?
  err=$(cat "$WORK/err")
  check "$what: non-zero exit" test "$rc" -ne 0
  assert_eq "$what: nothing on stdout" "" "$out"
  assert_eq "$what: one line" 1 "$(printf '%s\n' "$err" | wc -l)"
  assert_contains "$what: says what" "$err" "$text"
  assert_eq "$what: nothing written" "$before" "$(tree_fingerprint "$R")"
}
bad "nonsense validity" 'invalid argument "forever" for "--validity-period" flag: time: invalid duration "forever"' \
  kubeconfig user --config "$WORK/cfg.yaml" --client-name a --validity-period forever
bad "negative validity" 'invalid argument "-1h" for "--validity-period" flag: must be positive' \
  kubeconfig user --config "$WORK/cfg.yaml" --client-name a --validity-period -1h
bad "no client name" "--client-name is required" kubeconfig user --config "$WORK/cfg.yaml"
rm "$R/etc/kubernetes/pki/ca.key"
bad "no CA key" "couldn't create a kubeconfig; the CA files couldn't be loaded" \
  kubeconfig user --config "$WORK/cfg.yaml" --client-name a

finish
