#!/usr/bin/env bash
# Bad input to `kkadm init`, `kkadm reset` and `kkadm config validate`: every case must give exactly one error line
# naming the file or flag, the field and the value, a non-zero exit, and leave --rootfs untouched.
source "$(dirname "$0")/lib/common.sh"

ROOT=$WORK/rootfs
mkdir -p "$ROOT/etc/kubernetes/pki" "$ROOT/var/lib"
echo "pre-existing" > "$ROOT/etc/kubernetes/keep.txt"
BEFORE=$(tree_fingerprint "$ROOT")

V4='apiVersion: kubeadm.k8s.io/v1beta4'
V3='apiVersion: kubeadm.k8s.io/v1beta3'

# case NAME EXPECTED-FRAGMENTS(|-separated) CONFIG-CONTENT-or-"" [extra kkadm init flags...]
case_() {
  local name=$1 fragments=$2 content=$3; shift 3
  local args=(init --rootfs "$ROOT" --ignore-preflight-errors=all --skip-phases=kubelet-start)
  if [ -n "$content" ]; then
    printf '%s\n' "$content" > "$WORK/$name.yaml"
    args+=(--config "$WORK/$name.yaml")
  fi
  args+=("$@")
  local rc=0
  "$KKADM" "${args[@]}" >"$WORK/out" 2>"$WORK/err" || rc=$?
  local err; err=$(cat "$WORK/err")
  [ "$rc" -ne 0 ] && pass || fail "$name: exit code was 0"
  # Without kubernetesVersion, init looks stable-1 up first: in this air-gapped environment that
  # gives kubeadm's two warnings (docs/config.md), which are not errors.
  local lines; lines=$(grep -v -e ' could not fetch a Kubernetes version from the internet: ' \
    -e ' falling back to the local client version: ' "$WORK/err" | grep -c . || true)
  assert_eq "$name: one error line (stderr: $err)" 1 "$lines"
  IFS='|' read -ra want <<< "$fragments"
  for f in "${want[@]}"; do assert_contains "$name" "$err" "$f"; done
  assert_eq "$name: rootfs unchanged" "$BEFORE" "$(tree_fingerprint "$ROOT")"
}

case_ malformed-yaml 'malformed-yaml.yaml:4:1' "$V4
kind: ClusterConfiguration
networking: [serviceSubnet: 1"
case_ unknown-apiversion 'unknown-apiversion.yaml|kubeadm.k8s.io/v1beta1' 'apiVersion: kubeadm.k8s.io/v1beta1
kind: ClusterConfiguration'
case_ missing-kind 'missing-kind.yaml|kind' "$V4"
case_ wrong-type-port 'wrong-type-port.yaml|bindPort|abc' "$V4
kind: InitConfiguration
localAPIEndpoint:
  bindPort: abc"
case_ v1beta4-args-map 'v1beta4-args-map.yaml|apiServer.extraArgs' "$V4
kind: ClusterConfiguration
apiServer:
  extraArgs:
    v: \"4\""
case_ v1beta3-args-list 'v1beta3-args-list.yaml|extraArgs' "$V3
kind: ClusterConfiguration
controllerManager:
  extraArgs:
  - name: v
    value: \"4\""
case_ bad-service-cidr 'bad-service-cidr.yaml|serviceSubnet|10.96.0.0/33' "$V4
kind: ClusterConfiguration
networking:
  serviceSubnet: 10.96.0.0/33"
case_ bad-pod-cidr 'bad-pod-cidr.yaml|podSubnet|not-a-cidr' "$V4
kind: ClusterConfiguration
networking:
  podSubnet: not-a-cidr"
case_ bad-advertise-ip 'bad-advertise-ip.yaml|advertiseAddress|999.1.1.1' "$V4
kind: InitConfiguration
localAPIEndpoint:
  advertiseAddress: 999.1.1.1"
case_ bad-port-range 'bad-port-range.yaml|bindPort|70000' "$V4
kind: InitConfiguration
localAPIEndpoint:
  bindPort: 70000"
# The token's secret part never reaches any output.
case_ bad-token-in-file 'bad-token-in-file.yaml|bootstrapTokens[0].token|abc.<redacted>' "$V4
kind: InitConfiguration
bootstrapTokens:
- token: abc.def"
case_ bad-token-usage 'bad-token-usage.yaml|usages|frobnicate' "$V4
kind: InitConfiguration
bootstrapTokens:
- token: abcdef.0123456789abcdef
  usages: [signing, frobnicate]"
case_ bad-dns-domain 'bad-dns-domain.yaml|dnsDomain|Not_A_Domain' "$V4
kind: ClusterConfiguration
networking:
  dnsDomain: Not_A_Domain"
case_ bad-encryption 'bad-encryption.yaml|encryptionAlgorithm|DSA-1024' "$V4
kind: ClusterConfiguration
encryptionAlgorithm: DSA-1024"
case_ bad-validity 'bad-validity.yaml|certificateValidityPeriod|forever' "$V4
kind: ClusterConfiguration
certificateValidityPeriod: forever"
case_ bad-node-name 'bad-node-name.yaml|name|node_1' "$V4
kind: InitConfiguration
nodeRegistration:
  name: node_1"
case_ bad-endpoint-port 'bad-endpoint-port.yaml|controlPlaneEndpoint|99999' "$V4
kind: ClusterConfiguration
controlPlaneEndpoint: cp.example.internal:99999"
case_ relative-extra-volume 'relative-extra-volume.yaml|hostPath|relative/dir' "$V4
kind: ClusterConfiguration
apiServer:
  extraVolumes:
  - name: audit
    hostPath: relative/dir
    mountPath: /etc/audit"
case_ bad-certificate-key 'bad-certificate-key.yaml|certificateKey|<redacted>|64 hexadecimal' "$V4
kind: InitConfiguration
certificateKey: xyz"
case_ bad-taint-effect 'bad-taint-effect.yaml|effect|Sometimes' "$V4
kind: InitConfiguration
nodeRegistration:
  taints:
  - key: dedicated
    effect: Sometimes"
case_ bad-pull-policy 'bad-pull-policy.yaml|imagePullPolicy|Sometimes' "$V4
kind: InitConfiguration
nodeRegistration:
  imagePullPolicy: Sometimes"
case_ local-and-external-etcd 'local-and-external-etcd.yaml|etcd' "$V4
kind: ClusterConfiguration
etcd:
  local:
    dataDir: /var/lib/etcd
  external:
    endpoints: [https://127.0.0.1:2379]"
case_ old-kubernetes-version 'old-kubernetes-version.yaml|kubernetesVersion|v1.10.0' "$V4
kind: ClusterConfiguration
kubernetesVersion: v1.10.0"
case_ missing-config-file 'does-not-exist.yaml' "" --config "$WORK/does-not-exist.yaml"
case_ flag-bad-token '--token|bootstrapTokens[0].token' "" --token abc
case_ flag-bad-service-cidr '--service-cidr: networking.serviceSubnet: invalid value "1.2.3.4"' "" \
  --service-cidr 1.2.3.4
# A flag's value is named by the flag, also as one element of a list or merged with the default.
case_ flag-bad-cert-san '--apiserver-cert-extra-sans: apiServer.certSANs[1]: invalid value "bad_name"' \
  "" --apiserver-cert-extra-sans good.example,bad_name
case_ flag-all-and-a-check \
  '--ignore-preflight-errors: nodeRegistration.ignorePreflightErrors: invalid value "all,swap"' "" \
  --ignore-preflight-errors=Swap
# A flag beside --config names itself when the file has no document for its field; when the file
# has one, the error names the file's document as before.
case_ flag-beside-config '--node-name: nodeRegistration.name: invalid value "bad_name"' "$V4
kind: ClusterConfiguration" --node-name Bad_Name
case_ flag-over-config-document \
  'flag-over-config-document.yaml: InitConfiguration (document 1): nodeRegistration.name: invalid value "bad_name"' \
  "$V4
kind: InitConfiguration" --node-name Bad_Name
case_ flag-bad-bind-port '--apiserver-bind-port|0|not in range' "" --apiserver-bind-port 0
case_ flag-bad-advertise '--apiserver-advertise-address|not-an-ip' "" --apiserver-advertise-address not-an-ip
case_ flag-unknown-skip-phase 'invalid phase name|no-such-phase' "" --skip-phases=no-such-phase
case_ flag-unknown-preflight 'no-such-check' "" --ignore-preflight-errors=no-such-check
case_ flag-config-mixed "can not mix '--config' with arguments|service-cidr" "$V4
kind: ClusterConfiguration" --service-cidr 10.96.0.0/12

# A bad --rootfs is refused before anything happens, by every command that reads the node.
for cmd in init "token list"; do
  rc=0; "$KKADM" --rootfs "$WORK/no-such-root" $cmd >"$WORK/out" 2>"$WORK/err" || rc=$?
  check "$cmd: bad --rootfs exits 3" [ "$rc" -eq 3 ]
  assert_contains "$cmd: bad --rootfs" "$(cat "$WORK/err")" \
    "invalid --rootfs \"$WORK/no-such-root\": not an existing directory"
done

# kkadm reset: bad flags and ResetConfiguration files are refused before anything is touched. The
# init system points at nothing, so even a reset that wrongly went ahead could not stop a service.
reset_case() {  # reset_case NAME EXPECTED-FRAGMENTS(|-separated) CONFIG-CONTENT-or-"" [extra reset flags...]
  local name=$1 fragments=$2 content=$3; shift 3
  local args=(reset --rootfs "$ROOT")
  if [ -n "$content" ]; then
    printf '%s\n' "$content" > "$WORK/$name.yaml"
    args+=(--config "$WORK/$name.yaml")
  fi
  args+=("$@")
  local rc=0
  KKADM_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/kkadm-bad-input \
    "$KKADM" "${args[@]}" </dev/null >"$WORK/out" 2>"$WORK/err" || rc=$?
  local err; err=$(cat "$WORK/err")
  [ "$rc" -ne 0 ] && pass || fail "$name: exit code was 0"
  assert_eq "$name: one error line (stderr: $err)" 1 "$(grep -c . "$WORK/err" || true)"
  IFS='|' read -ra want <<< "$fragments"
  for f in "${want[@]}"; do assert_contains "$name" "$err" "$f"; done
  assert_eq "$name: rootfs unchanged" "$BEFORE" "$(tree_fingerprint "$ROOT")"
}
reset_case reset-unknown-flag 'frobnicate' "" --force --frobnicate
reset_case reset-unknown-skip-phase 'invalid phase name|no-such-phase' "" --force --skip-phases=no-such-phase
reset_case reset-unknown-preflight 'no-such-check' "" --force --ignore-preflight-errors=no-such-check
reset_case reset-relative-cert-dir '--cert-dir: certificatesDir: invalid value "relative/pki"' "" \
  --force --cert-dir relative/pki
reset_case reset-all-and-a-check '--ignore-preflight-errors: ignorePreflightErrors: invalid value "all,swap"' \
  "" --force --ignore-preflight-errors all,Swap
reset_case reset-checks-in-file \
  'reset-checks-in-file.yaml: ResetConfiguration (document 1): ignorePreflightErrors: invalid value "all,swap"' \
  "$V4
kind: ResetConfiguration
force: true
ignorePreflightErrors: [all]" --ignore-preflight-errors Swap
reset_case reset-missing-config 'no-such-reset.yaml' "" --force --config "$WORK/no-such-reset.yaml"
reset_case reset-bad-unmount-flag 'reset-bad-unmount-flag.yaml|unmountFlags[0]|MNT_LAZY' "$V4
kind: ResetConfiguration
force: true
unmountFlags: [MNT_LAZY]"
reset_case reset-relative-cert-dir-in-file 'reset-relative-cert-dir-in-file.yaml|certificatesDir|pki' "$V4
kind: ResetConfiguration
force: true
certificatesDir: pki"
reset_case reset-wrong-type 'reset-wrong-type.yaml|force|sometimes' "$V4
kind: ResetConfiguration
force: sometimes"
reset_case reset-config-mixed "can not mix '--config' with arguments|force" "$V4
kind: ResetConfiguration" --force
rc=0; "$KKADM" reset --force --rootfs "$WORK/no-such-root" </dev/null >"$WORK/out" 2>"$WORK/err" || rc=$?
check "reset: bad --rootfs exits non-zero" [ "$rc" -ne 0 ]
assert_contains "reset: bad --rootfs" "$(cat "$WORK/err")" "$WORK/no-such-root"
# `token inspect` decodes offline: a broken join token is one line, exit 3, and never repeated.
GOOD=kk1.AQ8xMC4xMjMuMC4xOjY0NDMCF2FiY2RlZi4wMTIzNDU2Nzg5YWJjZGVmAyCqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn54SI8
rc=0; "$KKADM" token inspect "$GOOD" >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "token inspect of the docs' example exits 0 ($(cat "$WORK/err"))" 0 "$rc"
inspect_case() {  # NAME FRAGMENT TOKEN
  local rc=0
  "$KKADM" token inspect "$3" >"$WORK/out" 2>"$WORK/err" || rc=$?
  local err; err=$(cat "$WORK/err")
  assert_eq "token inspect $1: exit code" 3 "$rc"
  assert_eq "token inspect $1: one error line (stderr: $err)" 1 "$(grep -c . "$WORK/err" || true)"
  assert_contains "token inspect $1" "$err" "$2"
  assert_eq "token inspect $1: nothing on stdout" "" "$(cat "$WORK/out")"
  assert_not_contains "token inspect $1: the token is not echoed" "$err" "${3:4:16}"
  assert_not_contains "token inspect $1: the secret is not echoed" "$err" 0123456789abcdef
}
inspect_case truncated 'invalid join token' "${GOOD:0:60}"
inspect_case mistyped 'invalid join token: checksum mismatch' "${GOOD:0:30}X${GOOD:31}"
inspect_case bare-bootstrap-token 'a bare bootstrap token' abcdef.0123456789abcdef
inspect_case other-prefix 'does not start with "kk1."' "kk2.${GOOD:4}"

# config images list loads the configuration as init does, and names its flags the same way.
rc=0; "$KKADM" config images list --kubernetes-version v1.10.0 >"$WORK/out" 2>"$WORK/err" || rc=$?
check "config images list refuses an old --kubernetes-version" [ "$rc" -ne 0 ]
assert_contains "config images list names the flag" "$(cat "$WORK/err")" \
  '--kubernetes-version: kubernetesVersion: invalid value "v1.10.0"'

# config validate is strict: an unknown field is an error there (a warning for init).
printf '%s\nkind: ClusterConfiguration\nnetwrking: {}\n' "$V4" > "$WORK/unknown-field.yaml"
rc=0; "$KKADM" config validate --config "$WORK/unknown-field.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
check "config validate rejects an unknown field" [ "$rc" -ne 0 ]
assert_contains "config validate unknown field" "$(cat "$WORK/err")" "netwrking"

finish
