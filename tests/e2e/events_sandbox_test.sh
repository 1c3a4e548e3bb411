#!/usr/bin/env bash
# Progress events through the binary on sandbox nodes (lib/sandbox_node.sh; docs/events.md):
#   - `kkadm init -o json -v 10 --show-secrets --events FILE` on cp1: stdout is JSON Lines only,
#     the same lines as FILE; every event validates against docs/events.schema.json with Ajv (an
#     independent validator, installed from tests/events_validator's lockfile); the phases, the
#     preflight checks, the waits and the join commands are there; the timing table is on stderr
#     with the figures of the PhaseFinished events; no log line and no journal record holds the
#     token secret, the certificate key or a private key;
#   - the worker join command read from those events joins w1 (`-o json`: events valid, the human
#     output on stderr);
#   - cp2 joins as a control-plane node (-o json -v 10, a JoinConfiguration made of init's events:
#     token, CA hash, certificate key; timeouts.etcdAPICall 1m30s): events valid, its own API
#     server's and its etcd member's waits are WaitStarted/WaitFinished with their limits (the etcd
#     member's is etcdAPICall), no output line or event holds the token secret, the certificate
#     key or a private key;
#   - `kkadm reset -o json` on w1: events valid;
#   - without --show-secrets (a dry-run init at -v 10) the events hold no secret, and with no new
#     flag stdout is kubeadm's text, not JSON.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"
source "$(dirname "$0")/lib/events_validator.sh"

kinds() { python3 -c 'import json,sys; print(" ".join(sorted({json.loads(l)["kind"] for l in open(sys.argv[1])})))' "$1"; }
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

TOKEN=abcdef.0123456789abcdef
SECRET=0123456789abcdef
KEY=$(openssl rand -hex 32)
node_boot cp1 10.123.0.41 w1 10.123.0.42 cp2 10.123.0.43
{ node_use cp1; node_init_config; cat <<CFG; } > "$WORK/init.yaml"
bootstrapTokens:
- token: $TOKEN
certificateKey: $KEY
timeouts:
  controlPlaneComponentHealthCheck: 3m30s
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
controlPlaneEndpoint: 10.123.0.41:6443
encryptionAlgorithm: ECDSA-P256
CFG

# ---- 1. init -o json --------------------------------------------------------------------------------------
rc=0
node_kkadm_on cp1 -v 10 init --config "$WORK/init.yaml" --upload-certs -o json --show-secrets \
  --events "$WORK/init.events" >"$WORK/init.jsonl" 2>"$WORK/init.err" || rc=$?
assert_eq "init -o json exit code (stderr: $(tail -20 "$WORK/init.err"))" 0 "$rc"
stop_on_failure
validate_events "init's stdout" "$WORK/init.jsonl"
assert_eq "--events FILE holds the same events as stdout" "$(cat "$WORK/init.jsonl")" "$(cat "$WORK/init.events")"
assert_eq "the event file is private" 600 "$(stat -c %a "$WORK/init.events")"
for kind in CommandStarted CommandFinished PhaseStarted PhaseFinished PreflightCheck WaitStarted WaitFinished JoinCommand; do
  assert_contains "init emits $kind" " $(kinds "$WORK/init.jsonl") " " $kind "
done
assert_eq "the first event" CommandStarted "$(head -1 "$WORK/init.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["kind"])')"
assert_eq "the last event succeeded" succeeded "$(field_of "$WORK/init.jsonl" CommandFinished command=init result)"
assert_eq "wait for the API server ended ready" ready "$(field_of "$WORK/init.jsonl" WaitFinished what=api-server result)"
# Per-phase waits: the limit is the configuration's timeouts, each failed probe a Retry.
assert_eq "the API server's wait has timeouts.controlPlaneComponentHealthCheck" 210.0 \
  "$(field_of "$WORK/init.jsonl" WaitStarted what=api-server timeoutSeconds)"
assert_eq "the kubelet's wait has kubeadm's default" 240.0 \
  "$(field_of "$WORK/init.jsonl" WaitStarted what=kubelet timeoutSeconds)"
RETRY=$(grep -m1 '"kind":"Retry"' "$WORK/init.jsonl" || true)
assert_contains "a retry says why (the kubelet or API server was not up at once)" "$RETRY" '"reason":"'
assert_contains "the first retry is attempt 1" "$RETRY" '"attempt":1,'
check "preflight: a check that passed" grep -q '"kind":"PreflightCheck".*"severity":"pass"' "$WORK/init.jsonl"
assert_eq "the control-plane join command carries the certificate key" "$KEY" \
  "$(field_of "$WORK/init.jsonl" JoinCommand role=control-plane certificateKey)"
assert_eq "the worker join event carries the token" "$TOKEN" "$(field_of "$WORK/init.jsonl" JoinCommand role=worker token)"
# The human output moved to stderr; the timing table is there with the events' figures.
assert_contains "kubeadm's banner on stderr" "$(cat "$WORK/init.err")" "Your Kubernetes control-plane has initialized successfully!"
check "no human line on stdout" test -z "$(grep -v '^{' "$WORK/init.jsonl" || true)"
for phase in preflight certs wait-control-plane show-join-command; do
  seconds=$(field_of "$WORK/init.jsonl" PhaseFinished phase=$phase durationSeconds)
  check "timing table: $phase took $seconds s as its PhaseFinished event says" \
    grep -qE "^$phase +$(printf '%.3f' "$seconds")s\$" "$WORK/init.err"
done
assert_contains "timing table: the total" "$(cat "$WORK/init.err")" "total  "
# Secrets: no log line (-v 10: klog-style "I1126 12:00:00.000000 ...") and no journal record.
LOGS=$(grep -E '^[IWEDT][0-9]{4} ' "$WORK/init.err" || true)
check "init logged at -v 10" test -n "$LOGS"
R=$(node_root cp1)
for secret in "$SECRET" "$KEY" "PRIVATE KEY"; do
  assert_not_contains "no log line holds [$secret]" "$LOGS" "$secret"
  assert_not_contains "the journal holds no [$secret]" "$(cat "$R/var/lib/kkadm/journal")" "$secret"
done

# ---- 2. a worker joins with the command from init's events ---------------------------------------------
JOIN=$(field_of "$WORK/init.jsonl" JoinCommand role=worker joinCommand)
assert_contains "the worker join command is kkadm's one-argument form" "$JOIN" "kkadm join kk1."
read -r -a join_args <<<"${JOIN#kkadm }"
rc=0
node_kkadm_on w1 "${join_args[@]}" --ignore-preflight-errors all -o json >"$WORK/join.jsonl" 2>"$WORK/join.err" || rc=$?
assert_eq "join with the events' command (stderr: $(tail -20 "$WORK/join.err"))" 0 "$rc"
stop_on_failure
validate_events "join's stdout" "$WORK/join.jsonl"
assert_contains "join's banner on stderr" "$(cat "$WORK/join.err")" "This node has joined the cluster"
assert_eq "join succeeded" succeeded "$(field_of "$WORK/join.jsonl" CommandFinished command=join result)"
assert_eq "join waited for the TLS bootstrap for at most tlsBootstrap (5m)" 300.0 \
  "$(field_of "$WORK/join.jsonl" WaitStarted what=tls-bootstrap timeoutSeconds)"
assert_eq "the TLS bootstrap ended ready" ready "$(field_of "$WORK/join.jsonl" WaitFinished what=tls-bootstrap result)"
assert_eq "join's kubelet became healthy" ready "$(field_of "$WORK/join.jsonl" WaitFinished what=kubelet result)"
check "w1's kubelet.conf" test -s "$(node_root w1)/etc/kubernetes/kubelet.conf"
check "Node w1 registered" wait_for 30 node_exec_on cp1 kubectl --kubeconfig "$R/etc/kubernetes/admin.conf" get node w1
assert_not_contains "join's events hold no token secret" "$(cat "$WORK/join.jsonl")" "$SECRET"

# ---- 2b. a control-plane node joins at -v 10: its API server and etcd member waits are events -------------
# Its configuration comes from init's events; its etcd member's wait is timeouts.etcdAPICall.
CP_KUBEADM=$(field_of "$WORK/init.jsonl" JoinCommand role=control-plane kubeadmJoinCommand)
cat > "$WORK/cpjoin.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
nodeRegistration:
  name: cp2
  ignorePreflightErrors: [all]
discovery:
  bootstrapToken:
    apiServerEndpoint: 10.123.0.41:6443
    token: $(field_of "$WORK/init.jsonl" JoinCommand role=control-plane token)
    caCertHashes: [$(grep -o 'sha256:[0-9a-f]*' <<<"$CP_KUBEADM")]
controlPlane:
  localAPIEndpoint:
    advertiseAddress: 10.123.0.43
  certificateKey: $(field_of "$WORK/init.jsonl" JoinCommand role=control-plane certificateKey)
timeouts:
  etcdAPICall: 1m30s
CFG
rc=0
node_kkadm_on cp2 -v 10 join --config "$WORK/cpjoin.yaml" -o json >"$WORK/cpjoin.jsonl" \
  2>"$WORK/cpjoin.err" || rc=$?
assert_eq "control-plane join with the configuration from the events (stderr: $(tail -20 "$WORK/cpjoin.err"))" 0 "$rc"
stop_on_failure
validate_events "the control-plane join's stdout" "$WORK/cpjoin.jsonl"
assert_eq "it waited for its own API server for at most controlPlaneComponentHealthCheck (4m)" 240.0 \
  "$(field_of "$WORK/cpjoin.jsonl" WaitStarted what=api-server timeoutSeconds)"
assert_eq "its API server became healthy" ready "$(field_of "$WORK/cpjoin.jsonl" WaitFinished what=api-server result)"
assert_eq "it waited for its etcd member at its client URL" https://10.123.0.43:2379 \
  "$(field_of "$WORK/cpjoin.jsonl" WaitStarted what=etcd-member target)"
assert_eq "for at most timeouts.etcdAPICall (1m30s)" 90.0 \
  "$(field_of "$WORK/cpjoin.jsonl" WaitStarted what=etcd-member timeoutSeconds)"
assert_contains "  ... as its line says" "$(cat "$WORK/cpjoin.err")" \
  "[etcd] Waiting for the new etcd member to join the cluster. This can take up to 1m30s"
assert_eq "the etcd member became a voter" ready "$(field_of "$WORK/cpjoin.jsonl" WaitFinished what=etcd-member result)"
CP_LOGS=$(grep -E '^[IWEDT][0-9]{4} ' "$WORK/cpjoin.err" || true)
check "the control-plane join logged at -v 10" test -n "$CP_LOGS"
for secret in "$SECRET" "$KEY" "PRIVATE KEY"; do
  assert_not_contains "no output line or event of the control-plane join holds [$secret]" \
    "$(cat "$WORK/cpjoin.jsonl" "$WORK/cpjoin.err")" "$secret"
done

# ---- 3. reset -o json ---------------------------------------------------------------------------------------
rc=0
node_kkadm_on w1 reset --force -o json >"$WORK/reset.jsonl" 2>"$WORK/reset.err" || rc=$?
assert_eq "reset -o json (stderr: $(tail -20 "$WORK/reset.err"))" 0 "$rc"
validate_events "reset's stdout" "$WORK/reset.jsonl"
assert_contains "reset emits its phases" "$(kinds "$WORK/reset.jsonl")" "PhaseFinished"
assert_contains "reset's timing table" "$(cat "$WORK/reset.err")" "[timing] Phase durations:"

# ---- 4. without --show-secrets, and without any new flag --------------------------------------------------
D=$WORK/dry; mkdir -p "$D"
rc=0
"$KKADM" -v 10 --rootfs "$D" init --dry-run --config "$WORK/init.yaml" --upload-certs -o json \
  >"$WORK/dry.jsonl" 2>"$WORK/dry.err" || rc=$?
assert_eq "dry-run init -o json (stderr: $(tail -5 "$WORK/dry.err"))" 0 "$rc"
validate_events "dry-run init's stdout" "$WORK/dry.jsonl"
assert_eq "the token is redacted" "<redacted>" "$(field_of "$WORK/dry.jsonl" JoinCommand role=worker token)"
DRY_LOGS=$(grep -E '^[IWEDT][0-9]{4} ' "$WORK/dry.err" || true)
for secret in "$SECRET" "$KEY" "PRIVATE KEY"; do
  assert_not_contains "no event without --show-secrets holds [$secret]" "$(cat "$WORK/dry.jsonl")" "$secret"
  assert_not_contains "no dry-run log line holds [$secret]" "$DRY_LOGS" "$secret"
done
rc=0
"$KKADM" --rootfs "$D" init --dry-run --config "$WORK/init.yaml" >"$WORK/text.out" 2>"$WORK/text.err" || rc=$?
assert_eq "dry-run init without -o" 0 "$rc"
check "without -o, stdout is kubeadm's text" grep -q '^\[init\] Using Kubernetes version' "$WORK/text.out"
check "without -o, no event on stdout" test -z "$(grep '"apiVersion"' "$WORK/text.out" || true)"
finish
