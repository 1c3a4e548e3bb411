#!/bin/bash
# The sandbox's stand-in kubelet (tests/sandbox/kubelet.py), run as kkadm's systemd drop-in runs
# the kubelet, inside a network namespace this script creates (blackhole route for its address in
# the root namespace):
#  (a) static Pods: the real etcd from a kkadm-like etcd.yaml (node paths under the rootfs) gets
#      healthy over mTLS; a process that exits is restarted; an edited manifest restarts its
#      process; a removed manifest stops it;
#  (b) healthz on 127.0.0.1:10248 as soon as it starts;
#  (c) TLS bootstrap + Node registration against tests/e2e/lib/fake_csr_api.py (a tiny HTTPS API
#      that signs CSRs with openssl at once and checks every object with tests/validator): the
#      kubelet retries quietly until the API answers, then writes kubelet-client-<time>.pem, the
#      kubelet-client-current.pem symlink and kubelet.conf in the real kubelet's shape, registers
#      a Ready Node and sends heartbeats; after a restart it reuses kubelet.conf and the Node.
# Everything (processes, namespace, route, files) is removed on exit.
set -euo pipefail

SRC=${KKADM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
KUBELET=$SRC/tests/sandbox/kubelet.py
FAKE_API=$SRC/tests/e2e/lib/fake_csr_api.py
VALIDATOR=$SRC/tests/validator
NS=kkadm-kubelet-$$
IP=10.123.$(( $$ % 200 + 30 )).11
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kkadm-kubelet-e2e-XXXXXX")
R=$WORK/root
REC=$WORK/api
KUBELET_PID=""
API_PID=""
ROUTE=""
CHECKS=0
CURRENT_LOG=$WORK/kubelet.log
# The sandbox runs on the system's Python 3 (a version manager's shim would not exec it directly).
PYTHON=${KKADM_SANDBOX_PYTHON:-/usr/bin/python3}

fail() {
  echo "FAIL: $*" >&2
  echo "---- stand-in kubelet log $CURRENT_LOG (tail)" >&2
  tail -40 "$CURRENT_LOG" >&2 2>/dev/null || true
  [[ -f $REC/problems.log ]] && { echo "---- fake API problems" >&2; cat "$REC/problems.log" >&2; }
  exit 1
}
ok() { CHECKS=$((CHECKS + 1)); echo "ok: $*"; }

stop_pid() {  # pid: SIGTERM, wait up to 8 s, SIGKILL
  local pid=$1
  [[ -n $pid ]] || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

# Every pid a kubelet run logged for its static Pods.
pod_pids() { sed -n 's/.*: started .* (pid \([0-9]*\),.*/\1/p' "$WORK"/kubelet*.log 2>/dev/null; }

cleanup() {
  set +e
  stop_pid "$KUBELET_PID"
  stop_pid "$API_PID"
  local pid
  # Only processes still running one of this test's commands (their arguments name the rootfs).
  for pid in $(pod_pids); do
    { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null | grep -qF "$R" && kill -KILL "$pid" 2>/dev/null
  done
  ip netns del "$NS" 2>/dev/null
  [[ -n $ROUTE ]] && ip route del blackhole "$ROUTE" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

[[ $(id -u) == 0 ]] || fail "needs root (network namespaces)"
for tool in etcd openssl curl ip nsenter node "$PYTHON"; do command -v "$tool" >/dev/null || fail "$tool is not installed"; done

# The pure parts first: YAML subset reader, flags, taints, Pod -> process mapping.
(cd "$SRC/tests/sandbox" && PYTHONDONTWRITEBYTECODE=1 "$PYTHON" -m unittest -q kubelet_lib.unit_test) ||
  fail "unit tests of tests/sandbox/kubelet_lib"
ok "kubelet_lib unit tests"

# The independent schema validator's pinned dependencies (serialised with other tests).
if [[ ! -d $VALIDATOR/node_modules/kubernetes-models ]]; then
  (
    flock 9
    [[ -d $VALIDATOR/node_modules/kubernetes-models ]] ||
      npm ci --prefix "$VALIDATOR" --no-audit --no-fund --loglevel=error >/dev/null
  ) 9>"${TMPDIR:-/tmp}/kkadm-validator-install.lock" || fail "npm ci in $VALIDATOR failed (offline?)"
fi

wait_for() {  # seconds description command...: polls every 0.1 s
  local secs=$1 what=$2; shift 2
  local end=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < end)) || fail "timed out after ${secs}s: $what"
    sleep 0.1
  done
}
in_ns() { ip netns exec "$NS" "$@"; }
# Background processes start with nsenter, which execs the command itself, so that $! is the
# process (ip netns exec forks and waits; a shell function would add a subshell).
NETNS_FILE=/run/netns/$NS

# ---- the node: PKI and the files kkadm writes ----------------------------------------------------
PKI=$R/etc/kubernetes/pki
TOKEN=abcdef.0123456789abcdef
# shellcheck source-path=SCRIPTDIR source=lib/kubelet_node.sh
source "$SRC/tests/e2e/lib/kubelet_node.sh"
make_node_pki
write_node_files

# ---- network namespace -------------------------------------------------------------------------
ip route add blackhole "$IP/32"
ROUTE=$IP/32
ip netns add "$NS"
ip -n "$NS" link set lo up
ip -n "$NS" addr add "$IP/32" dev lo

# The kubelet's command line as kkadm's drop-in + kubeadm-flags.env give it, plus sandbox flags.
start_kubelet() {  # log file
  nsenter --net="$NETNS_FILE" -- "$PYTHON" "$KUBELET" \
    --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf \
    --config=/var/lib/kubelet/config.yaml \
    --container-runtime-endpoint=unix:///var/run/containerd/containerd.sock --hostname-override=node-a \
    --pod-infra-container-image=registry.k8s.io/pause:3.10 \
    --register-with-taints=node-role.kubernetes.io/control-plane:NoSchedule,example.com/role=sandbox:NoExecute \
    --v=1 --cgroup-driver=systemd --sandbox-rootfs="$R" --sandbox-log="$WORK/podlogs" > "$1" 2>&1 &
  CURRENT_LOG=$1
  KUBELET_PID=$!
}
start_kubelet "$WORK/kubelet.log"

# ---- (b) healthz -------------------------------------------------------------------------------
healthz_ok() { [[ $(in_ns curl -sS --max-time 1 http://127.0.0.1:10248/healthz) == ok ]]; }
wait_for 5 "healthz on 127.0.0.1:10248" healthz_ok
ok "healthz answers ok on 127.0.0.1:10248 inside the namespace"
grep -q 'ignoring flag --cgroup-driver=systemd' "$WORK/kubelet.log" || fail "unknown flag not logged"
ok "unknown flag logged and ignored"

# ---- (a) static pods ---------------------------------------------------------------------------
etcd_healthy() {
  in_ns curl -sS --max-time 2 --cacert "$PKI/etcd/ca.crt" --cert "$PKI/etcd/healthcheck-client.crt" \
    --key "$PKI/etcd/healthcheck-client.key" "https://$IP:2379/health" | grep -q '"health":"true"'
}
wait_for 20 "etcd from etcd.yaml healthy over mTLS" etcd_healthy
ok "etcd (static pod) is healthy over mTLS on $IP:2379"
[[ -d $R/var/lib/etcd/member ]] || fail "etcd's --data-dir was not mapped under the rootfs"
ok "etcd's node paths were mapped under the rootfs"
ETCD_PID=$(sed -n 's/.*static pod kube-system\/etcd: started .* (pid \([0-9]*\),.*/\1/p' "$WORK/kubelet.log" | tail -1)
tr '\0' '\n' < "/proc/$ETCD_PID/cmdline" | grep -qx -- "--cert-file=$R/etc/kubernetes/pki/etcd/server.crt" ||
  fail "etcd's --cert-file was not prefixed with the rootfs"
ok "etcd runs as /usr/bin/etcd with prefixed flags"

short_runs() { [[ $(wc -l < "$R/var/tmp/short/count") -ge 3 ]]; }
wait_for 8 "the exiting process restarted twice" short_runs
grep -q 'static pod kube-system/short: process [0-9]* exited with 0; restart #2' "$WORK/kubelet.log" ||
  fail "restarts not logged"
ok "an exiting process is restarted (with backoff)"

long_state() { cat "$R/var/tmp/long/state" 2>/dev/null; }
wait_for 5 "long pod started" test -s "$R/var/tmp/long/state"
read -r MARK1 PID1 < <(long_state)
[[ $MARK1 == v1 ]] && kill -0 "$PID1" || fail "long pod: state '$(long_state)'"
long_manifest v2 > "$R/etc/kubernetes/manifests/long.yaml"
long_is_v2() { [[ $(long_state) == "v2 "* ]]; }
wait_for 8 "edited manifest restarts the process" long_is_v2
read -r _ PID2 < <(long_state)
! kill -0 "$PID1" 2>/dev/null || fail "the old process $PID1 still runs after the manifest changed"
[[ $PID2 != "$PID1" ]] && kill -0 "$PID2" || fail "the new process does not run"
ok "an edited manifest stops the old process and starts the new one (env from the Pod)"
rm "$R/etc/kubernetes/manifests/long.yaml"
long_gone() { ! kill -0 "$PID2" 2>/dev/null; }
wait_for 7 "removed manifest stops its process" long_gone
grep -q 'long.yaml removed' "$WORK/kubelet.log" || fail "removal not logged"
ok "a removed manifest stops its process"

# ---- (c) TLS bootstrap and Node registration -------------------------------------------------
sleep 0.5
grep -q 'API server not reachable yet' "$WORK/kubelet.log" || fail "no quiet retry while the API is down"
[[ ! -e $R/etc/kubernetes/kubelet.conf ]] || fail "kubelet.conf appeared without an API server"
nsenter --net="$NETNS_FILE" -- "$PYTHON" "$FAKE_API" --listen "$IP:6443" --cert "$PKI/apiserver.crt" --key "$PKI/apiserver.key" \
  --ca "$PKI/ca.crt" --ca-key "$PKI/ca.key" --token "$TOKEN" --record "$REC" \
  --validator "$VALIDATOR/validate.js" --deny-node node-c > "$WORK/api.log" 2>&1 &
API_PID=$!
wait_for 25 "kubelet.conf written after the TLS bootstrap" test -s "$R/etc/kubernetes/kubelet.conf"
ok "kubelet.conf written once the API server answered"

KC=$R/etc/kubernetes/kubelet.conf
PEM_DIR=$R/var/lib/kubelet/pki
assert_mode() { [[ $(stat -c %a "$1") == "$2" ]] || fail "$1 has mode $(stat -c %a "$1"), want $2"; }
assert_mode "$KC" 600
cat > "$WORK/want.conf" <<EOF
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: $CA_DATA
    server: https://$IP:6443
  name: default-cluster
contexts:
- context:
    cluster: default-cluster
    namespace: default
    user: default-auth
  name: default-context
current-context: default-context
kind: Config
preferences: {}
users:
- name: default-auth
  user:
    client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem
    client-key: /var/lib/kubelet/pki/kubelet-client-current.pem
EOF
diff -u "$WORK/want.conf" "$KC" || fail "kubelet.conf is not in the real kubelet's shape"
ok "kubelet.conf has the real kubelet's shape (default-cluster/default-auth/default-context)"
if command -v kubectl >/dev/null; then
  [[ $(kubectl config view --kubeconfig "$KC" -o jsonpath='{.users[0].user.client-certificate}') == \
     /var/lib/kubelet/pki/kubelet-client-current.pem ]] || fail "kubectl reads kubelet.conf differently"
  ok "kubectl reads kubelet.conf"
fi

TARGET=$(readlink "$PEM_DIR/kubelet-client-current.pem")
[[ $TARGET =~ ^kubelet-client-[0-9]{4}(-[0-9]{2}){5}\.pem$ ]] || fail "symlink target '$TARGET'"
assert_mode "$PEM_DIR/$TARGET" 600
grep -q 'BEGIN CERTIFICATE' "$PEM_DIR/$TARGET" && grep -q 'BEGIN EC PRIVATE KEY' "$PEM_DIR/$TARGET" ||
  fail "$TARGET lacks the certificate or the key"
[[ ! -e $PEM_DIR/kubelet-client.key.tmp ]] || fail "the bootstrap key was left behind"
ok "kubelet-client-current.pem -> $TARGET (cert + key, 0600)"
openssl verify -CAfile "$PKI/ca.crt" "$PEM_DIR/kubelet-client-current.pem" >/dev/null || fail "openssl verify"
SUBJECT=$(openssl x509 -in "$PEM_DIR/kubelet-client-current.pem" -noout -subject -nameopt RFC2253 | sed 's/^subject=//')
[[ $SUBJECT == "CN=system:node:node-a,O=system:nodes" ]] || fail "subject '$SUBJECT'"
[[ $(openssl x509 -in "$PEM_DIR/kubelet-client-current.pem" -noout -pubkey) == \
   $(openssl pkey -in "$PEM_DIR/kubelet-client-current.pem" -pubout) ]] || fail "cert and key do not match"
ok "the client certificate verifies against the CA, CN system:node:node-a, O system:nodes"

CSRS=("$REC"/csr-*.json)
[[ ${#CSRS[@]} == 1 ]] || fail "expected one CSR, got ${#CSRS[@]}"
python3 - "${CSRS[0]}" <<'EOF' || fail "CSR content"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["metadata"]["name"].startswith("node-csr-"), c["metadata"]
assert c["spec"]["signerName"] == "kubernetes.io/kube-apiserver-client-kubelet", c["spec"]
assert c["spec"]["usages"] == ["digital signature", "client auth"], c["spec"]["usages"]
assert c["subject"] == "CN=system:node:node-a,O=system:nodes", c["subject"]
EOF
ok "the CSR: node-csr-*, kube-apiserver-client-kubelet signer, [digital signature, client auth]"

wait_for 20 "Node posted" test -s "$REC/node-node-a.json"
check_node() {
  python3 - "$REC/node-node-a.json" "$IP" <<'EOF'
import json, sys
n = json.load(open(sys.argv[1]))
labels = n["metadata"]["labels"]
assert labels["kubernetes.io/hostname"] == "node-a" and labels["kubernetes.io/os"] == "linux" \
    and labels["kubernetes.io/arch"] == "amd64", labels
taints = n["spec"]["taints"]
assert taints == [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"},
                  {"key": "example.com/role", "value": "sandbox", "effect": "NoExecute"}], taints
ready = [c for c in n["status"]["conditions"] if c["type"] == "Ready"]
assert ready and ready[0]["status"] == "True" and ready[0]["reason"] == "KubeletReady", ready
addrs = {a["type"]: a["address"] for a in n["status"]["addresses"]}
assert addrs == {"InternalIP": sys.argv[2], "Hostname": "node-a"}, addrs
info = n["status"]["nodeInfo"]
assert info["kubeletVersion"] == "v1.32.0" and info["containerRuntimeVersion"] == "sandbox://stand-in", info
EOF
}
check_node || fail "Node content"
ok "Node node-a registered Ready with labels, taints, InternalIP $IP (valid per kubernetes-models)"
heartbeat() { grep -q 'PATCH /api/v1/nodes/node-a/status 200' "$REC/events.log"; }
wait_for 20 "a status heartbeat" heartbeat
check_node || fail "Node after the heartbeat"
grep -q 'content-type application/strategic-merge-patch+json' "$REC/events.log" || fail "heartbeat patch type"
ok "heartbeat: PATCH nodes/node-a/status (strategic merge), still Ready"
[[ ! -s $REC/problems.log ]] || fail "the fake API refused or rejected something: $(cat "$REC/problems.log")"
ok "no object was rejected by the validator, no request was refused"

# ---- shutdown and restart ----------------------------------------------------------------------
kill -TERM "$KUBELET_PID"
RC=0
wait "$KUBELET_PID" || RC=$?
KUBELET_PID=""
[[ $RC == 0 ]] || fail "the kubelet exited $RC on SIGTERM"
for pid in $(pod_pids); do ! kill -0 "$pid" 2>/dev/null || fail "static pod process $pid survived the kubelet"; done
ok "SIGTERM: every static pod process stopped, kubelet exited 0"

start_kubelet "$WORK/kubelet2.log"
wait_for 5 "healthz after restart" healthz_ok
node_kept() { grep -q 'Node node-a exists already: keeping it' "$WORK/kubelet2.log"; }
wait_for 20 "restarted kubelet keeps the Node" node_kept
CSRS=("$REC"/csr-*.json)
[[ ${#CSRS[@]} == 1 ]] || fail "a restart with a valid kubelet.conf sent another CSR"
grep -q 'using kubeconfig /etc/kubernetes/kubelet.conf' "$WORK/kubelet2.log" || fail "kubelet.conf not reused"
wait_for 20 "etcd healthy again after the restart" etcd_healthy
ok "restart: kubelet.conf reused (no new CSR), existing Node kept, etcd back"
# A kubelet killed outright takes its static Pod processes along (parent-death signal).
ETCD_PID=$(sed -n 's/.*static pod kube-system\/etcd: started .* (pid \([0-9]*\),.*/\1/p' "$WORK/kubelet2.log" | tail -1)
kill -KILL "$KUBELET_PID"
wait "$KUBELET_PID" 2>/dev/null || true
KUBELET_PID=""
etcd_gone() { ! kill -0 "$ETCD_PID" 2>/dev/null || [[ $(ps -o stat= -p "$ETCD_PID") == Z* ]]; }
wait_for 8 "etcd stops when its kubelet is SIGKILLed" etcd_gone
ok "SIGKILL of the kubelet: etcd got SIGTERM and exited"

# ---- (d) a control-plane node's kubelet.conf as "kkadm init" writes it ----------------------------
# Embedded client certificate, no bootstrap kubeconfig, node name from --sandbox-node-name: the
# kubelet seeds its certificate store from the kubeconfig (as the real one does with rotation on)
# and registers with that identity.
R2=$WORK/root2
mkdir -p "$R2/var/lib/kubelet" "$R2/etc/kubernetes"
sed -e 's/^healthzPort: 10248$/healthzPort: 10249/' -e '/^staticPodPath:/d' \
  "$R/var/lib/kubelet/config.yaml" > "$R2/var/lib/kubelet/config.yaml"
mk_leaf "$PKI" ca node-b "/O=system:nodes/CN=system:node:node-b" clientAuth
cat > "$R2/etc/kubernetes/kubelet.conf" <<EOF
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: $CA_DATA
    server: https://$IP:6443
  name: kubernetes
contexts:
- context:
    cluster: kubernetes
    user: system:node:node-b
  name: system:node:node-b@kubernetes
current-context: system:node:node-b@kubernetes
kind: Config
preferences: {}
users:
- name: system:node:node-b
  user:
    client-certificate-data: $(base64 -w0 "$PKI/node-b.crt")
    client-key-data: $(base64 -w0 "$PKI/node-b.key")
EOF
nsenter --net="$NETNS_FILE" -- "$PYTHON" "$KUBELET" \
  --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf \
  --config=/var/lib/kubelet/config.yaml --sandbox-node-name=Node-B --sandbox-rootfs="$R2" \
  > "$WORK/kubelet-b.log" 2>&1 &
KUBELET_PID=$!
CURRENT_LOG=$WORK/kubelet-b.log
wait_for 20 "Node node-b registered with the embedded identity" test -s "$REC/node-node-b.json"
cmp -s <(openssl x509 -in "$R2/var/lib/kubelet/pki/kubelet-client-current.pem") "$PKI/node-b.crt" ||
  fail "kubelet-client-current.pem does not hold the kubeconfig's embedded certificate"
[[ ! -s $REC/problems.log ]] || fail "the fake API refused or rejected something: $(cat "$REC/problems.log")"
CSRS=("$REC"/csr-*.json)
[[ ${#CSRS[@]} == 1 ]] || fail "node-b sent a CSR although its kubelet.conf was valid"
ok "init-style kubelet.conf: certificate store seeded, Node node-b registered (lower-cased name)"
stop_pid "$KUBELET_PID"
KUBELET_PID=""

# ---- (e) a denied CSR ----------------------------------------------------------------------------
R3=$WORK/root3
mkdir -p "$R3/var/lib/kubelet" "$R3/etc/kubernetes"
cp "$R2/var/lib/kubelet/config.yaml" "$R3/var/lib/kubelet/config.yaml"
cp "$R/etc/kubernetes/bootstrap-kubelet.conf" "$R3/etc/kubernetes/"
nsenter --net="$NETNS_FILE" -- "$PYTHON" "$KUBELET" \
  --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf \
  --config=/var/lib/kubelet/config.yaml --hostname-override=node-c --sandbox-rootfs="$R3" \
  > "$WORK/kubelet-c.log" 2>&1 &
KUBELET_PID=$!
CURRENT_LOG=$WORK/kubelet-c.log
denied() { grep -q 'CertificateSigningRequest node-csr-[0-9a-f]* was denied: Test' "$WORK/kubelet-c.log"; }
wait_for 20 "the denial is reported" denied
sleep 0.3
[[ ! -e $R3/etc/kubernetes/kubelet.conf && ! -e $R3/var/lib/kubelet/pki/kubelet-client.key.tmp ]] ||
  fail "a denied CSR left kubelet.conf or its key behind"
kill -0 "$KUBELET_PID" || fail "the kubelet died on a denied CSR"
ok "a denied CSR is reported, writes nothing, and the key is dropped for a fresh attempt"
stop_pid "$KUBELET_PID"
KUBELET_PID=""

echo "PASS: $CHECKS checks"
