#!/usr/bin/env bash
# Validation kkadm shares with kubeadm 1.32's validation.go, through the binary: image repository
# formats, unknown feature gates, upper-case API server SANs (accepted, lower-cased into the real
# certificate, checked with openssl), the join discovery file (an existing path or an https URL),
# and the external-CA rule (ca.crt without ca.key: every file that CA signs must be there before any
# certs or kubeconfig phase runs, and nothing is written when one is missing).
source "$(dirname "$0")/lib/common.sh"

CLUSTER_HEAD='apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0'
INIT_HEAD='apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
localAPIEndpoint:
  advertiseAddress: 192.0.2.10
nodeRegistration:
  name: cp-1
---'

# validate NAME EXPECTED-RC FRAGMENT CLUSTER-BODY: `config validate` of an init + cluster file.
validate() {
  local name=$1 want_rc=$2 fragment=$3 rc=0
  printf '%s\n%s\n%s\n' "$INIT_HEAD" "$CLUSTER_HEAD" "$4" > "$WORK/$name.yaml"
  "$KKADM" config validate --config "$WORK/$name.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
  assert_eq "$name: exit code ($(cat "$WORK/err"))" "$want_rc" "$rc"
  assert_contains "$name" "$(cat "$WORK/out" "$WORK/err")" "$fragment"
}

F="$WORK/bad-repo.yaml: ClusterConfiguration (document 2)"
validate bad-repo 3 "$F: imageRepository: invalid value \"registry.example.com/k8s/\": invalid image repository format: must not end with \"/\"" \
  'imageRepository: registry.example.com/k8s/'
F="$WORK/dns-scheme.yaml: ClusterConfiguration (document 2)"
validate dns-scheme 3 "$F: dns.imageRepository: invalid value \"https://mirror.example.com\": invalid image repository format: must not start with a scheme" \
  $'dns:\n  imageRepository: https://mirror.example.com'
validate etcd-tag 3 'etcd.local.imageRepository: invalid value "quay.io/coreos/etcd:v3.5": invalid image repository format: must not contain a tag' \
  $'etcd:\n  local:\n    imageRepository: quay.io/coreos/etcd:v3.5'
validate repo-ok 0 ok $'imageRepository: "[fd00::1]:5000/k8s"\ndns:\n  imageRepository: mirror.example.com:5000/coredns'
validate unknown-gate 3 'featureGates: invalid value "NoSuchGate": not a valid feature gate; known gates: ControlPlaneKubeletLocalMode' \
  $'featureGates:\n  NoSuchGate: false'
validate known-gates 0 ok $'featureGates:\n  NodeLocalCRISocket: true\n  ControlPlaneKubeletLocalMode: true'
validate upper-san 0 ok $'apiServer:\n  certSANs: [EXAMPLE.k8s.io, 10.100.0.1]'

# The unknown gate on the command line fails init before anything is written.
R=$WORK/gate-root; mkdir -p "$R"; BEFORE=$(tree_fingerprint "$R")
rc=0; "$KKADM" init phase control-plane apiserver --rootfs "$R" --feature-gates NoSuchGate=true \
  --apiserver-advertise-address 192.0.2.10 --kubernetes-version v1.32.0 >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "unknown gate flag: exit code" 3 "$rc"
assert_contains "unknown gate flag" "$(cat "$WORK/err")" 'featureGates: invalid value "NoSuchGate"'
assert_eq "unknown gate flag: nothing written" "$BEFORE" "$(tree_fingerprint "$R")"

# Upper-case SANs, from the file and from the flag, end up lower-cased in the certificate.
cert_sans() { openssl x509 -in "$1" -noout -ext subjectAltName | tail -n +2 | sed 's/^ *//'; }
R=$WORK/san-root; mkdir -p "$R"
"$KKADM" init phase certs ca --rootfs "$R" --config "$WORK/upper-san.yaml" >"$WORK/out" 2>&1 &&
  "$KKADM" init phase certs apiserver --rootfs "$R" --config "$WORK/upper-san.yaml" >"$WORK/out" 2>&1 ||
  fail "certs apiserver with EXAMPLE.k8s.io: $(cat "$WORK/out")"
sans=$(cert_sans "$R/etc/kubernetes/pki/apiserver.crt")
assert_contains "file SAN lower-cased" "$sans" "DNS:example.k8s.io"
assert_not_contains "no upper-case SAN" "$sans" "EXAMPLE"
R=$WORK/san-flag-root; mkdir -p "$R"
"$KKADM" init phase certs ca --rootfs "$R" >"$WORK/out" 2>&1 || fail "certs ca: $(cat "$WORK/out")"
"$KKADM" init phase certs apiserver --rootfs "$R" --node-name cp-1 --apiserver-advertise-address 192.0.2.10 \
  --apiserver-cert-extra-sans=API.Example.COM >"$WORK/out" 2>&1 || fail "certs apiserver with the flag: $(cat "$WORK/out")"
assert_contains "flag SAN lower-cased" "$(cert_sans "$R/etc/kubernetes/pki/apiserver.crt")" "DNS:api.example.com"

# join's discovery file: an existing file or an https URL, refused before anything happens.
join_case() {  # NAME FRAGMENT join-args...
  local name=$1 fragment=$2 rc=0; shift 2
  "$KKADM" --rootfs "$WORK/join-root" join "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
  assert_eq "$name: exit code ($(cat "$WORK/err"))" 3 "$rc"
  assert_contains "$name" "$(cat "$WORK/err")" "$fragment"
}
mkdir -p "$WORK/join-root"
join_case missing-file "discovery.file.kubeConfigPath: invalid value \"$WORK/nope.conf\": no such file on this machine: give an existing kubeconfig file or an https:// URL" \
  --discovery-file "$WORK/nope.conf"
join_case http-url 'discovery.file.kubeConfigPath: invalid value "http://192.0.2.1/cluster-info": if a URL is used, the scheme must be https' \
  --discovery-file http://192.0.2.1/cluster-info
join_case bad-https-url 'discovery.file.kubeConfigPath: invalid value "https://u r l/x": not a well-formed https URL' \
  --discovery-file 'https://u r l/x'
printf 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\ndiscovery:\n  file:\n    kubeConfigPath: %s\n' \
  "$WORK/upper-san.yaml" > "$WORK/join-file.yaml"
out=$("$KKADM" config validate --config "$WORK/join-file.yaml" 2>&1) || fail "existing discovery file refused: $out"
printf 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\ndiscovery:\n  file:\n    kubeConfigPath: https://192.0.2.1:6443/cluster-info.yaml\n' \
  > "$WORK/join-url.yaml"
out=$("$KKADM" config validate --config "$WORK/join-url.yaml" 2>&1) || fail "https discovery URL refused: $out"

# External CA: a full PKI and kubeconfigs made by kkadm, then ca.key taken away.
R=$WORK/ext-root; mkdir -p "$R"; P=$R/etc/kubernetes/pki
printf '%s\n%s\n' "$INIT_HEAD" "$CLUSTER_HEAD" > "$WORK/ext.yaml"
for phase in "certs all" "kubeconfig all"; do
  # shellcheck disable=SC2086
  out=$("$KKADM" init phase $phase --rootfs "$R" --config "$WORK/ext.yaml" 2>&1) || fail "init phase $phase: $out"
done
mv "$P/ca.key" "$WORK/ca.key"
out=$("$KKADM" init phase kubeconfig admin --rootfs "$R" --config "$WORK/ext.yaml" 2>&1) ||
  fail "complete external CA refused: $out"
assert_contains "external CA kubeconfig" "$out" "External CA mode: Using user provided admin.conf"

# ext_case NAME FRAGMENT phase args...: fails, names the missing file, writes nothing.
ext_case() {
  local name=$1 fragment=$2 rc=0; shift 2
  local before; before=$(tree_fingerprint "$R")
  "$KKADM" init phase "$@" --rootfs "$R" >"$WORK/out" 2>"$WORK/err" || rc=$?
  check "$name: non-zero exit" [ "$rc" -ne 0 ]
  assert_contains "$name" "$(cat "$WORK/err")" "$fragment"
  assert_eq "$name: nothing written" "$before" "$(tree_fingerprint "$R")"
}
mv "$P/apiserver-kubelet-client.key" "$WORK/"
ext_case certs-ca 'invalid or incomplete external CA: failure loading key for apiserver-kubelet-client' \
  certs ca --config "$WORK/ext.yaml"
ext_case certs-sa 'invalid or incomplete external CA: failure loading key for apiserver-kubelet-client' certs sa
ext_case kubeconfig 'invalid or incomplete external CA: failure loading key for apiserver-kubelet-client' \
  kubeconfig admin --config "$WORK/ext.yaml"
mv "$WORK/apiserver-kubelet-client.key" "$P/"
rm "$R/etc/kubernetes/scheduler.conf"
ext_case kubeconfig-missing 'the scheduler.conf file does not exists or it is not valid' \
  kubeconfig admin --config "$WORK/ext.yaml"
mv "$P/front-proxy-ca.key" "$WORK/"; rm "$P/front-proxy-client.crt"
ext_case front-proxy 'invalid or incomplete external front-proxy CA: failure loading certificate for front-proxy client' \
  certs front-proxy-client --config "$WORK/ext.yaml"

finish
