#!/usr/bin/env bash
# Bad input to `kkadm join`: every case must give exactly one error line naming the flag, field or
# argument at fault, exit code 3, no output, and leave --rootfs untouched (nothing runs, nothing
# is contacted: the endpoints below are in a blackholed test range).
source "$(dirname "$0")/lib/common.sh"

ROOT=$WORK/rootfs
mkdir -p "$ROOT/etc/kubernetes"
echo "pre-existing" > "$ROOT/etc/kubernetes/keep.txt"
BEFORE=$(tree_fingerprint "$ROOT")
PIN=sha256:$(printf 'a%.0s' $(seq 64))
TOKEN=$(python3 "$KKADM_SOURCE_DIR/tests/e2e/lib/join_token.py" --endpoint 10.123.0.1:6443 \
  --token abcdef.0123456789abcdef --pin "$PIN")

# case NAME EXPECTED-FRAGMENTS(|-separated) kkadm-join-args...
case_() {
  local name=$1 fragments=$2; shift 2
  local rc=0
  "$KKADM" --rootfs "$ROOT" join "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
  local err; err=$(cat "$WORK/err")
  assert_eq "$name: exit code (stderr: $err)" 3 "$rc"
  assert_eq "$name: one error line (stderr: $err)" 1 "$(grep -c . "$WORK/err" || true)"
  assert_eq "$name: no output" "" "$(cat "$WORK/out")"
  IFS='|' read -ra want <<< "$fragments"
  for f in "${want[@]}"; do assert_contains "$name" "$err" "$f"; done
  assert_not_contains "$name: the token secret is never shown" "$err" "0123456789abcdef"
  assert_eq "$name: rootfs unchanged" "$BEFORE" "$(tree_fingerprint "$ROOT")"
}

case_ truncated-token 'invalid join token' "${TOKEN:0:50}"
TYPO=x; [ "${TOKEN:20:1}" != x ] || TYPO=y
case_ typo-in-token 'invalid join token' "${TOKEN:0:20}$TYPO${TOKEN:21}"
case_ token-and-token-flag 'join token|can not be mixed with [--token]' "$TOKEN" --token abcdef.0123456789abcdef
case_ token-and-config 'can not be mixed with [--config]' "$TOKEN" --config "$WORK/none.yaml"
case_ two-arguments 'error:' 10.123.0.1:6443 10.123.0.2:6443
case_ no-discovery 'discovery|one of discovery.bootstrapToken or discovery.file must be set'
case_ no-pin 'discovery.bootstrapToken.caCertHashes|unsafeSkipCAVerification' 10.123.0.1:6443 --token abcdef.0123456789abcdef
case_ bad-pin '--discovery-token-ca-cert-hash: discovery.bootstrapToken.caCertHashes[0]|md5:abc' 10.123.0.1:6443 --token abcdef.0123456789abcdef \
  --discovery-token-ca-cert-hash md5:abc
case_ bad-token-flag '--token: discovery.bootstrapToken.token|abc.<redacted>' 10.123.0.1:6443 --token abc.0123456789abcdef \
  --discovery-token-unsafe-skip-ca-verification
case_ bad-endpoint 'apiServerEndpoint|10.123.0.1:99999' 10.123.0.1:99999 --token abcdef.0123456789abcdef \
  --discovery-token-unsafe-skip-ca-verification
case_ bad-bind-port '--apiserver-bind-port|70000' 10.123.0.1:6443 --token abcdef.0123456789abcdef \
  --discovery-token-unsafe-skip-ca-verification --control-plane --apiserver-bind-port 70000
case_ bad-certificate-key '--certificate-key: controlPlane.certificateKey' 10.123.0.1:6443 --token abcdef.0123456789abcdef \
  --discovery-token-unsafe-skip-ca-verification --control-plane --certificate-key nothex
case_ relative-discovery-file '--discovery-file: discovery.file.kubeConfigPath|cluster.conf' --discovery-file cluster.conf
# Each flag is named when its value is at fault; --discovery-token wins over --token, as its value
# does; the positional endpoint is not a flag.
case_ bad-discovery-token '--discovery-token: discovery.bootstrapToken.token: invalid value "abc.<redacted>"' \
  10.123.0.1:6443 --discovery-token abc.0123456789abcdef --tls-bootstrap-token abcdef.0123456789abcdef \
  --discovery-token-unsafe-skip-ca-verification
case_ bad-tls-bootstrap-token '--tls-bootstrap-token: discovery.tlsBootstrapToken: invalid value "abc.<redacted>"' \
  10.123.0.1:6443 --token abcdef.0123456789abcdef --tls-bootstrap-token abc.0123456789abcdef \
  --discovery-token-unsafe-skip-ca-verification
case_ bad-cri-socket '--cri-socket: nodeRegistration.criSocket: invalid value "tcp://x"' \
  "$TOKEN" --cri-socket tcp://x
case_ bad-node-name '--node-name: nodeRegistration.name: invalid value "bad_name"' "$TOKEN" --node-name Bad_Name
case_ endpoint-argument-is-no-flag \
  'JoinConfiguration (defaults and flags): discovery.bootstrapToken.apiServerEndpoint: invalid value "10.123.0.1:99999"' \
  10.123.0.1:99999 --token abcdef.0123456789abcdef --discovery-token-unsafe-skip-ca-verification
case_ unknown-skip-phase 'invalid phase name: kubelet' "$TOKEN" --skip-phases kubelet
case_ unknown-preflight-check 'nosuchcheck' "$TOKEN" --ignore-preflight-errors NoSuchCheck
printf 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\ndiscovery:\n  file:\n    kubeConfigPath: /x.conf\n' > "$WORK/join.yaml"
case_ config-mixed "can not mix '--config' with arguments [token]" --config "$WORK/join.yaml" --token abcdef.0123456789abcdef
case_ control-plane-phase-without-admin-conf "File /etc/kubernetes/admin.conf does not exists" \
  phase control-plane-join mark-control-plane --control-plane

# Not bad input: a control-plane phase run alone reads the node's admin.conf, under --rootfs, as its
# discovery file (the machine's own /etc/kubernetes/admin.conf is not looked at). Its API server is
# a closed loopback port: the phase gets as far as asking it.
R2=$WORK/admin-root
mkdir -p "$R2/etc/kubernetes"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$WORK/ca.key" \
  -out "$WORK/ca.crt" -subj /CN=kubernetes -days 1 2>/dev/null
cat > "$R2/etc/kubernetes/admin.conf" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- cluster: {server: "https://127.0.0.1:1", certificate-authority-data: $(base64 -w0 "$WORK/ca.crt")}
  name: kubernetes
contexts:
- context: {cluster: kubernetes, user: admin}
  name: admin@kubernetes
current-context: admin@kubernetes
users:
- name: admin
  user: {token: abcdef.0123456789abcdef}
KUBECONFIG
out=$(timeout 5 "$KKADM" --rootfs "$R2" join phase control-plane-join mark-control-plane --control-plane 2>&1 || true)
assert_contains "the node's admin.conf is the discovery file under --rootfs" "$out" "[mark-control-plane] Marking the node"
assert_not_contains "no look at the machine's own admin.conf" "$out" "no such file"
finish
