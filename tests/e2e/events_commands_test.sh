#!/usr/bin/env bash
# Progress events of the commands beyond init/join/reset's phases, and the clients' retries
# (docs/events.md), through the binary, every event checked with Ajv (lib/events_validator.sh):
#   1. `certs renew all --events FILE` keeps kubeadm's stdout and writes one CertificateRenewal per
#      certificate (renewed, with the notAfter openssl reads; missing for a removed kubeconfig);
#      `-o json --expiring-within` puts JSON only on stdout, the human lines on stderr (not-due);
#      `certs check-expiration -o json` keeps kubeadm's document, not events; at -v 10 no line
#      holds a private key.
#   2. The Kubernetes API client's retries: an init's bootstrap-token phase against an HTTPS
#      stand-in API server behind a proxy that resets its first connections: Retry events (what
#      kubernetes-api) with the request and the error as reason, the token still written; at -v 10
#      no event or log line of the run holds the token secret, raw or base64.
#   3. The etcd client's retries: `reset phase remove-etcd-member -o json` against a real etcd
#      behind the same proxy: Retry events (what etcd-api) naming the call.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/events_validator.sh"

# count FILE KIND [KEY=VALUE]: how many events of KIND (whose KEY is VALUE) FILE holds.
count() {
  python3 - "$@" <<'PY'
import json, sys
path, kind = sys.argv[1:3]
key, value = (sys.argv[3].split("=", 1) + [None])[:2] if len(sys.argv) > 3 else (None, None)
n = 0
for line in open(path):
    e = json.loads(line)
    if e["kind"] == kind and (key is None or str(e.get(key)) == value):
        n += 1
print(n)
PY
}
field_of() {  # FILE KIND KEY=VALUE FIELD: FIELD of the first event of KIND whose KEY is VALUE
  python3 - "$@" <<'PY'
import json, sys
path, kind, match, field = sys.argv[1:]
key, value = match.split("=", 1)
for line in open(path):
    e = json.loads(line)
    if e["kind"] == kind and str(e.get(key)) == value:
        print(e.get(field, ""))
        break
PY
}
json_only() { python3 -c 'import json, sys; [json.loads(l)["kind"] for l in open(sys.argv[1])]' "$1"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# start_reset_proxy NAME UPSTREAM N: a proxy resetting its first N connections; its port in
# ${NAME}_PORT, its log in $WORK/NAME-proxy.log.
start_reset_proxy() {
  python3 "$KKADM_SOURCE_DIR/tests/e2e/lib/flaky_proxy.py" --mode accept-reset --upstream "$2" \
    --fail "$3" --port-file "$WORK/$1-proxy.port" --log "$WORK/$1-proxy.log" &
  on_exit "kill $! 2>/dev/null; wait $! 2>/dev/null"
  for _ in $(seq 50); do [ -s "$WORK/$1-proxy.port" ] && break; sleep 0.1; done
  [ -s "$WORK/$1-proxy.port" ] || { fail "the $1 proxy did not start"; finish; exit 1; }
  printf -v "${1}_PORT" '%s' "$(cat "$WORK/$1-proxy.port")"
}

# ---- 1. certs renew ----------------------------------------------------------------------------
R=$WORK/certs
mkdir -p "$R"
cat > "$WORK/certs.yaml" <<CFG
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
certificateValidityPeriod: 48h
CFG
"$KKADM" --rootfs "$R" init phase certs all --config "$WORK/certs.yaml" >/dev/null
"$KKADM" --rootfs "$R" init phase kubeconfig all --config "$WORK/certs.yaml" >/dev/null
rm "$R/etc/kubernetes/super-admin.conf"
P=$R/etc/kubernetes/pki

rc=0
"$KKADM" -v 10 --rootfs "$R" certs renew all --events "$WORK/renew.events" >"$WORK/renew.out" \
  2>"$WORK/renew.err" || rc=$?
assert_eq "certs renew all --events (stderr: $(cat "$WORK/renew.err"))" 0 "$rc"
validate_events "certs renew's events" "$WORK/renew.events"
assert_eq "the event file is private" 600 "$(stat -c %a "$WORK/renew.events")"
assert_contains "stdout keeps kubeadm's lines" "$(cat "$WORK/renew.out")" \
  "certificate for serving the Kubernetes API renewed"
assert_contains "  ... and its last line" "$(cat "$WORK/renew.out")" "Done renewing certificates."
assert_not_contains "no event on stdout" "$(cat "$WORK/renew.out")" '"apiVersion"'
assert_not_contains "no event or -v 10 line holds a private key" \
  "$(cat "$WORK/renew.events" "$WORK/renew.out" "$WORK/renew.err")" "PRIVATE KEY"
assert_eq "ten certificates renewed" 10 "$(count "$WORK/renew.events" CertificateRenewal result=renewed)"
assert_eq "super-admin.conf is missing" missing \
  "$(field_of "$WORK/renew.events" CertificateRenewal certificate=super-admin.conf result)"
end=$(openssl x509 -in "$P/apiserver.crt" -noout -enddate | cut -d= -f2)
assert_eq "apiserver's notAfter is the renewed certificate's" "$(date -u -d "$end" +%FT%TZ)" \
  "$(field_of "$WORK/renew.events" CertificateRenewal certificate=apiserver notAfter)"
assert_eq "the command's name" "certs renew" \
  "$(field_of "$WORK/renew.events" CommandFinished result=succeeded command)"
assert_eq "first CommandStarted, last CommandFinished" "CommandStarted CommandFinished" \
  "$(python3 -c 'import json,sys; l=[json.loads(x)["kind"] for x in open(sys.argv[1])]; print(l[0], l[-1])' "$WORK/renew.events")"

rc=0
"$KKADM" --rootfs "$R" certs renew all -o json --expiring-within 24h >"$WORK/window.jsonl" \
  2>"$WORK/window.err" || rc=$?
assert_eq "certs renew all -o json --expiring-within 24h" 0 "$rc"
check "stdout is JSON Lines only" json_only "$WORK/window.jsonl"
validate_events "certs renew -o json" "$WORK/window.jsonl"
assert_eq "48 h certificates are not due within 24 h" 10 \
  "$(count "$WORK/window.jsonl" CertificateRenewal result=not-due)"
assert_contains "the human lines went to stderr" "$(cat "$WORK/window.err")" \
  "not within 24h0m0s: not renewed"

rc=0
"$KKADM" --rootfs "$R" certs renew etcd-server -o json >"$WORK/one.jsonl" 2>"$WORK/one.err" || rc=$?
assert_eq "certs renew etcd-server -o json" 0 "$rc"
assert_eq "one certificate, renewed" "1 renewed" \
  "$(count "$WORK/one.jsonl" CertificateRenewal) $(field_of "$WORK/one.jsonl" CertificateRenewal certificate=etcd-server result)"

rc=0
"$KKADM" --rootfs "$R" certs renew all --expiring-within 0s --events "$WORK/bad.events" \
  >/dev/null 2>"$WORK/bad.err" || rc=$?
check "a bad --expiring-within fails" test "$rc" -ne 0
assert_eq "  ... and its events end failed" failed \
  "$(field_of "$WORK/bad.events" CommandFinished command=certs\ renew result)"
validate_events "a failed renewal's events" "$WORK/bad.events"

"$KKADM" --rootfs "$R" certs check-expiration -o json >"$WORK/check.json" 2>/dev/null
assert_eq "check-expiration -o json keeps kubeadm's document" \
  "output.kubeadm.k8s.io/v1alpha3 CertificateExpirationInfo" \
  "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["apiVersion"], d["kind"])' "$WORK/check.json")"

# ---- 2. the Kubernetes API client's retries ---------------------------------------------------
PKI=$WORK/pki
bash "$KKADM_SOURCE_DIR/tests/util/servers/mkcerts.sh" "$PKI" >/dev/null 2>&1
python3 "$KKADM_SOURCE_DIR/tests/e2e/lib/recording_api.py" --cert "$PKI/server.crt" \
  --key "$PKI/server.key" --port-file "$WORK/api.port" --record "$WORK/record.jsonl" &
on_exit "kill $! 2>/dev/null; wait $! 2>/dev/null"
for _ in $(seq 50); do [ -s "$WORK/api.port" ] && break; sleep 0.1; done
[ -s "$WORK/api.port" ] || { fail "the stand-in API server did not start"; finish; exit 1; }
start_reset_proxy api "127.0.0.1:$(cat "$WORK/api.port")" 2

ROOT=$WORK/api-node
mkdir -p "$ROOT/etc/kubernetes/pki"
cp "$PKI/ca.crt" "$PKI/ca.key" "$ROOT/etc/kubernetes/pki/"
cat > "$ROOT/etc/kubernetes/admin.conf" <<EOF
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")
    server: https://127.0.0.1:$api_PORT
  name: kubernetes
contexts:
- context: {cluster: kubernetes, user: admin}
  name: admin@kubernetes
current-context: admin@kubernetes
users:
- name: admin
  user:
    client-certificate-data: $(base64 -w0 "$PKI/client.crt")
    client-key-data: $(base64 -w0 "$PKI/client.key")
EOF
SECRET=0123456789abcdef
SKIP=preflight,certs,kubeconfig,etcd,control-plane,kubelet-start,wait-control-plane,upload-config
SKIP=$SKIP,upload-certs,mark-control-plane,kubelet-finalize,addon,show-join-command
rc=0
"$KKADM" -v 10 init --rootfs "$ROOT" --kubernetes-version v1.32.0 --node-name cp-1 \
  --apiserver-advertise-address 192.0.2.10 --skip-phases "$SKIP" --token "abcdef.$SECRET" \
  -o json >"$WORK/api.jsonl" 2>"$WORK/api.err" </dev/null || rc=$?
assert_eq "init's bootstrap-token through a flaky API server (stderr: $(tail -5 "$WORK/api.err"))" 0 "$rc"
check "stdout is JSON Lines only" json_only "$WORK/api.jsonl"
validate_events "init's events with API retries" "$WORK/api.jsonl"
assert_eq "the proxy reset 2 connections" 2 "$(grep -c '^fail accept-reset' "$WORK/api-proxy.log")"
assert_eq "two Retry events for the API" 2 "$(count "$WORK/api.jsonl" Retry what=kubernetes-api)"
REASON=$(field_of "$WORK/api.jsonl" Retry what=kubernetes-api reason)
assert_contains "the reason names the request" "$REASON" " https://127.0.0.1:$api_PORT/api"
# curl sees the reset in the handshake or at connect, as the timing falls.
check "  ... and the error ($REASON)" grep -qE "/api/v1/[^ ]*: .*(reset by peer|connect)" <<<"$REASON"
assert_eq "the first retry waits 0.5 s" 0.5 "$(field_of "$WORK/api.jsonl" Retry attempt=1 delaySeconds)"
assert_eq "the second 1 s" 1.0 "$(field_of "$WORK/api.jsonl" Retry attempt=2 delaySeconds)"
check "the token's Secret was written after the retries" grep -q '"bootstrap-token-abcdef"' "$WORK/record.jsonl"
B64=$(printf %s "$SECRET" | base64 -w0)
# The human output says "[bootstrap-token] Using token: ...", as kubeadm's does; the log does not.
LOGS=$(grep -E '^[IWEDT][0-9]{4} ' "$WORK/api.err" || true)
check "the run logged at -v 10" test -n "$LOGS"
for secret in "$SECRET" "$B64"; do
  assert_not_contains "no event or -v 10 log line holds the token secret [$secret]" \
    "$(cat "$WORK/api.jsonl"; echo "$LOGS")" "$secret"
done

# ---- 3. the etcd client's retries -------------------------------------------------------------
command -v etcd >/dev/null || { echo "etcd is not installed"; finish; exit 1; }
CP=$(free_port)
PP=$(free_port)
etcd --name node-1 --data-dir "$WORK/etcd-data" --listen-client-urls "https://127.0.0.1:$CP" \
  --advertise-client-urls "https://127.0.0.1:$CP" --listen-peer-urls "http://127.0.0.1:$PP" \
  --initial-advertise-peer-urls "http://127.0.0.1:$PP" --initial-cluster "node-1=http://127.0.0.1:$PP" \
  --cert-file "$PKI/server.crt" --key-file "$PKI/server.key" --trusted-ca-file "$PKI/ca.crt" \
  --client-cert-auth >"$WORK/etcd.log" 2>&1 &
on_exit "kill $! 2>/dev/null; wait $! 2>/dev/null"
healthy() {
  curl -s --max-time 2 --cacert "$PKI/ca.crt" --cert "$PKI/client.crt" --key "$PKI/client.key" \
    "https://127.0.0.1:$CP/health" | grep -q '"health":"true"'
}
for _ in $(seq 100); do healthy && break; sleep 0.1; done
check "etcd is healthy" healthy
start_reset_proxy etcd "127.0.0.1:$CP" 2

E=$WORK/etcd-node
mkdir -p "$E/etc/kubernetes/manifests" "$E/etc/kubernetes/pki/etcd" "$E/var/lib/etcd"
cp "$PKI/ca.crt" "$E/etc/kubernetes/pki/etcd/ca.crt"
cp "$PKI/client.crt" "$E/etc/kubernetes/pki/apiserver-etcd-client.crt"
cp "$PKI/client.key" "$E/etc/kubernetes/pki/apiserver-etcd-client.key"
cat > "$E/etc/kubernetes/manifests/etcd.yaml" <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: etcd
  namespace: kube-system
spec:
  containers:
  - command:
    - etcd
    - --advertise-client-urls=https://127.0.0.1:$etcd_PORT
    - --data-dir=/var/lib/etcd
    - --initial-advertise-peer-urls=http://127.0.0.1:$PP
    - --initial-cluster=node-1=http://127.0.0.1:$PP
    - --listen-client-urls=https://127.0.0.1:$etcd_PORT
    - --name=node-1
    - --trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt
    image: registry.k8s.io/etcd:3.5.16-0
    name: etcd
  volumes:
  - hostPath:
      path: /var/lib/etcd
      type: DirectoryOrCreate
    name: etcd-data
YAML
rc=0
"$KKADM" -v 2 --rootfs "$E" reset phase remove-etcd-member -o json >"$WORK/etcd.jsonl" \
  2>"$WORK/etcd.err" || rc=$?
assert_eq "remove-etcd-member through a flaky etcd (stderr: $(tail -5 "$WORK/etcd.err"))" 0 "$rc"
check "stdout is JSON Lines only" json_only "$WORK/etcd.jsonl"
validate_events "reset's events with etcd retries" "$WORK/etcd.jsonl"
assert_eq "the proxy reset 2 connections" 2 "$(grep -c '^fail accept-reset' "$WORK/etcd-proxy.log")"
check "at least one Retry event for etcd" test "$(count "$WORK/etcd.jsonl" Retry what=etcd-api)" -ge 1
REASON=$(field_of "$WORK/etcd.jsonl" Retry what=etcd-api reason)
assert_contains "the reason names the call" "$REASON" "etcd /v3/cluster/member/list: "
assert_contains "  ... and the endpoint's error" "$REASON" "https://127.0.0.1:$etcd_PORT"
assert_contains "the only member is left in (it answered after the retries)" \
  "$(cat "$WORK/etcd.err")" "only remaining etcd member"
finish
