#!/usr/bin/env bash
# Bootstrap token TTLs are Go durations, read by one parser for `kkadm init --token-ttl` and
# `kkadm token create --ttl`, as kubeadm reads both with time.ParseDuration. A TTL below a
# millisecond ("1us") is accepted by both and, as in kubeadm, the token expires at once (its
# Secret's expiration is the current second); before, init wrote a token that never expired and
# token create refused the flag. "0" still means never. Against an HTTPS stand-in API server on
# 127.0.0.1 that records what is written (tests/e2e/lib/recording_api.py).
source "$(dirname "$0")/lib/common.sh"

PKI=$WORK/pki
bash "$KKADM_SOURCE_DIR/tests/util/servers/mkcerts.sh" "$PKI" >/dev/null 2>&1
RECORD=$WORK/record.jsonl
python3 "$KKADM_SOURCE_DIR/tests/e2e/lib/recording_api.py" --cert "$PKI/server.crt" \
  --key "$PKI/server.key" --port-file "$WORK/port" --record "$RECORD" &
SERVER=$!
on_exit "kill $SERVER"
for _ in $(seq 50); do [ -s "$WORK/port" ] && break; sleep 0.1; done
[ -s "$WORK/port" ] || { fail "the stand-in API server did not start"; finish; exit 1; }

ROOT=$WORK/rootfs
mkdir -p "$ROOT/etc/kubernetes/pki"
cp "$PKI/ca.crt" "$PKI/ca.key" "$ROOT/etc/kubernetes/pki/"
KUBECONFIG_FILE=$ROOT/etc/kubernetes/admin.conf
cat > "$KUBECONFIG_FILE" <<EOF
apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")
    server: https://127.0.0.1:$(cat "$WORK/port")
  name: kubernetes
contexts:
- context:
    cluster: kubernetes
    user: admin
  name: admin@kubernetes
current-context: admin@kubernetes
users:
- name: admin
  user:
    client-certificate-data: $(base64 -w0 "$PKI/client.crt")
    client-key-data: $(base64 -w0 "$PKI/client.key")
EOF

# expiration ID: the decoded data.expiration of the last Secret bootstrap-token-ID written,
# "<none>" when it has none, "<missing>" when none was written.
expiration() {
  python3 - "$RECORD" "bootstrap-token-$1" <<'PY'
import base64, json, os, sys
found = "<missing>"
for line in open(sys.argv[1]) if os.path.exists(sys.argv[1]) else []:
    body = json.loads(line)["body"]
    if body.get("kind") == "Secret" and body["metadata"]["name"] == sys.argv[2]:
        data = body.get("data", {})
        found = base64.b64decode(data["expiration"]).decode() if "expiration" in data else "<none>"
print(found)
PY
}

# within_run WHAT EXPIRATION START END: the expiration names a second from START to END (epoch).
within_run() {
  local at
  at=$(date -u -d "$2" +%s 2>/dev/null) || { fail "$1: expiration [$2] is not a time"; return; }
  if [ "$at" -ge "$3" ] && [ "$at" -le "$4" ]; then pass; else
    fail "$1: expiration $2 is not within the run ($(date -u -d "@$3" +%FT%TZ) .. $(date -u -d "@$4" +%FT%TZ))"
  fi
}

# ---- 1. token create --ttl 1us: accepted, and the token expires at once ---------------------------
start=$(date -u +%s)
rc=0; "$KKADM" token create abcdef.0123456789abcdef --ttl 1us --kubeconfig "$KUBECONFIG_FILE" \
  >"$WORK/create.out" 2>"$WORK/create.err" || rc=$?
end=$(date -u +%s)
assert_eq "token create --ttl 1us: exit code ($(cat "$WORK/create.err"))" 0 "$rc"
within_run "token create --ttl 1us" "$(expiration abcdef)" "$start" "$end"

# ---- 2. init --token-ttl 1us: the same token, not one that never expires -------------------------
SKIP=preflight,certs,kubeconfig,etcd,control-plane,kubelet-start,wait-control-plane,upload-config
SKIP=$SKIP,upload-certs,mark-control-plane,kubelet-finalize,addon,show-join-command
init_with_ttl() {  # TOKEN TTL
  local rc=0
  "$KKADM" init --rootfs "$ROOT" --kubernetes-version v1.32.0 --node-name cp-1 \
    --apiserver-advertise-address 192.0.2.10 --ignore-preflight-errors all --skip-phases "$SKIP" \
    --token "$1" --token-ttl "$2" >"$WORK/init.out" 2>"$WORK/init.err" </dev/null || rc=$?
  assert_eq "init --token-ttl $2: exit code ($(tail -3 "$WORK/init.err"))" 0 "$rc"
}
start=$(date -u +%s)
init_with_ttl ghijkl.0123456789abcdef 1us
end=$(date -u +%s)
within_run "init --token-ttl 1us" "$(expiration ghijkl)" "$start" "$end"

# ---- 3. "0" is a token that never expires, for both --------------------------------------------
# Another TTL is another input of the bootstrap-token phase: the node's journal would refuse it
# (docs/journal.md); this is about the TTL's parsing, so the node starts afresh.
rm -rf "$ROOT/var/lib/kkadm"
init_with_ttl mnopqr.0123456789abcdef 0
assert_eq "init --token-ttl 0: no expiration" "<none>" "$(expiration mnopqr)"
rc=0; "$KKADM" token create stuvwx.0123456789abcdef --ttl 0 --kubeconfig "$KUBECONFIG_FILE" \
  >"$WORK/create.out" 2>"$WORK/create.err" || rc=$?
assert_eq "token create --ttl 0: exit code ($(cat "$WORK/create.err"))" 0 "$rc"
assert_eq "token create --ttl 0: no expiration" "<none>" "$(expiration stuvwx)"

finish
