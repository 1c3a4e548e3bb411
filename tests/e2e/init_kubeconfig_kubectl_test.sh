#!/usr/bin/env bash
# `kkadm init phase kubeconfig all` writes kubeadm's five kubeconfig files (reference §6). The real
# kubectl reads each one, and openssl verifies its embedded client certificate against ca.crt.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/pki.sh"

R=$WORK/root; mkdir -p "$R"
FLAGS=(--rootfs "$R" --node-name node-1 --apiserver-advertise-address 192.0.2.10)
out=$("$KKADM" init phase certs all "${FLAGS[@]}" 2>&1) || fail "certs failed: $out"
FLAGS+=(--apiserver-bind-port 6443)
out=$("$KKADM" init phase kubeconfig all "${FLAGS[@]}" --control-plane-endpoint cp.example.internal:7443 2>&1) ||
  fail "kubeconfig failed: $out"
assert_contains "kubeconfig output" "$out" '[kubeconfig] Using kubeconfig folder "/etc/kubernetes"'
assert_contains "kubeconfig output" "$out" '[kubeconfig] Writing "admin.conf" kubeconfig file'

CA=$R/etc/kubernetes/pki/ca.crt
check_kubeconfig() {  # FILE USER ORG SERVER
  local f=$R/etc/kubernetes/$1
  check "$1 is 0600" test "$(stat -c %a "$f")" = 600
  local json
  json=$(kubectl config view --kubeconfig "$f" --raw -o json 2>&1) || { fail "kubectl cannot read $1: $json"; return; }
  assert_eq "$1 current-context" "$2@kubernetes" "$(kubectl config view --kubeconfig "$f" -o jsonpath='{.current-context}')"
  assert_eq "$1 server" "$4" "$(kubectl config view --kubeconfig "$f" -o jsonpath='{.clusters[0].cluster.server}')"
  assert_eq "$1 cluster name" "kubernetes" "$(kubectl config view --kubeconfig "$f" -o jsonpath='{.clusters[0].name}')"
  assert_eq "$1 user name" "$2" "$(kubectl config view --kubeconfig "$f" -o jsonpath='{.users[0].name}')"
  kubectl config view --kubeconfig "$f" --raw -o jsonpath='{.users[0].user.client-certificate-data}' | base64 -d > "$WORK/$1.crt"
  kubectl config view --kubeconfig "$f" --raw -o jsonpath='{.users[0].user.client-key-data}' | base64 -d > "$WORK/$1.key"
  kubectl config view --kubeconfig "$f" --raw -o jsonpath='{.clusters[0].cluster.certificate-authority-data}' | base64 -d > "$WORK/$1.ca"
  check "$1 embeds ca.crt" cmp -s "$WORK/$1.ca" "$CA"
  check "$1 client cert verifies against ca.crt" cert_verifies "$CA" "$WORK/$1.crt"
  local subject="CN=$2"; [ -n "$3" ] && subject="CN=$2,O=$3"
  assert_eq "$1 subject" "$subject" "$(cert_subject "$WORK/$1.crt")"
  assert_eq "$1 EKU" "TLS Web Client Authentication" "$(cert_ext_key_usage "$WORK/$1.crt")"
  check "$1 key matches cert" test "$(openssl pkey -in "$WORK/$1.key" -pubout)" = "$(openssl x509 -in "$WORK/$1.crt" -noout -pubkey)"
}
check_kubeconfig admin.conf kubernetes-admin kubeadm:cluster-admins https://cp.example.internal:7443
check_kubeconfig super-admin.conf kubernetes-super-admin system:masters https://cp.example.internal:7443
check_kubeconfig kubelet.conf system:node:node-1 system:nodes https://cp.example.internal:7443
check_kubeconfig controller-manager.conf system:kube-controller-manager "" https://192.0.2.10:6443
check_kubeconfig scheduler.conf system:kube-scheduler "" https://192.0.2.10:6443

# Re-running reuses every file.
before=$(node_fingerprint "$R")
out=$("$KKADM" init phase kubeconfig all "${FLAGS[@]}" --control-plane-endpoint cp.example.internal:7443 2>&1) ||
  fail "kubeconfig re-run failed: $out"
assert_eq "re-run changes nothing" "$before" "$(node_fingerprint "$R")"
assert_contains "re-run output" "$out" '[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/admin.conf"'

# A kubeconfig made with another CA is refused, and left as it is.
R2=$WORK/root2; mkdir -p "$R2"
"$KKADM" init phase certs all --rootfs "$R2" --node-name node-1 --apiserver-advertise-address 192.0.2.10 >/dev/null 2>&1
cp "$R/etc/kubernetes/admin.conf" "$WORK/foreign-admin.conf"
mkdir -p "$R2/etc/kubernetes"; cp "$WORK/foreign-admin.conf" "$R2/etc/kubernetes/admin.conf"
rc=0; out=$("$KKADM" init phase kubeconfig admin --rootfs "$R2" --apiserver-advertise-address 192.0.2.10 2>&1) || rc=$?
check "wrong CA: non-zero exit" [ "$rc" -ne 0 ]
assert_contains "wrong CA error" "$out" "exists already but has got the wrong CA cert"
check "wrong CA: file untouched" cmp -s "$WORK/foreign-admin.conf" "$R2/etc/kubernetes/admin.conf"

finish
