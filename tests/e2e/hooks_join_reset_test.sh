#!/usr/bin/env bash
# Hooks of `join` and `reset` on sandbox nodes (lib/sandbox_node.sh; docs/hooks.md), and what they
# must never see. cp1 runs init; w1 joins it at -v 10 with hooks around the whole command
# (pre.d, post.d), preflight and kubelet-start, then resets at -v 10 with hooks around the whole
# command and cleanup-node. Each hook records its binding context (stdin): the command, phase,
# stage, result, the paths, and for join's post hooks what the phase made (the journal's files,
# the kubelet unit it started). Reset's pre-cleanup-node hook still finds the kubelet's files, its
# post hook finds them gone. Every event (HookStarted/HookFinished included) validates with Ajv.
# No line of either run's whole output, no event and no binding context holds the bootstrap
# token's secret or a private key.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"
source "$(dirname "$0")/lib/events_validator.sh"

TOKEN=abcdef.0123456789abcdef
SECRET=0123456789abcdef
OUT=$WORK/seen   # where the hooks write what they saw (a host path: hooks may write anywhere)
mkdir -p "$OUT"
node_boot cp1 10.123.0.51 w1 10.123.0.52
{ node_use cp1; node_init_config; cat <<CFG; } > "$WORK/init.yaml"
bootstrapTokens:
- token: $TOKEN
CFG
node_init "$WORK/init.yaml"
HASH=sha256:$(openssl x509 -pubkey -noout -in "$(node_root cp1)/etc/kubernetes/pki/ca.crt" |
  openssl pkey -pubin -outform der | sha256sum | cut -d' ' -f1)

W=$(node_root w1)
# A hook that records its binding context and whether the kubelet's config exists yet.
recorder() {  # PATH-UNDER-HOOKS TAG
  mkdir -p "$(dirname "$W/etc/kkadm/hooks.d/$1")"
  cat > "$W/etc/kkadm/hooks.d/$1" <<HOOK
#!/bin/bash
cat > '$OUT/$2.stdin'
test -e '$W/var/lib/kubelet/config.yaml' && echo present > '$OUT/$2.kubelet' || echo absent > '$OUT/$2.kubelet'
echo "recorded $2"
echo $2 >> '$OUT/order'
HOOK
  chmod 755 "$W/etc/kkadm/hooks.d/$1"
}
ctx() {  # TAG FIELD (a Python expression over c)
  python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); v = eval(sys.argv[2]); print(json.dumps(v) if not isinstance(v, str) else v)' "$OUT/$1.stdin" "$2"
}
order() { tr '\n' ' ' < "$OUT/order" | sed 's/ $//'; }

# ---- join --------------------------------------------------------------------------------------------
recorder join/pre.d/10-rec join-pre
recorder join/pre-preflight.d/10-rec join-pre-preflight
recorder join/post-preflight.d/10-rec join-post-preflight
recorder join/post-kubelet-start.d/10-rec join-post-kubelet-start
recorder join/post.d/10-rec join-post
rc=0
node_kkadm_on w1 -v 10 join 10.123.0.51:6443 --token "$TOKEN" --discovery-token-ca-cert-hash "$HASH" \
  --ignore-preflight-errors all --events "$WORK/join.events" >"$WORK/join.out" 2>"$WORK/join.err" || rc=$?
assert_eq "join with hooks (stderr: $(tail -20 "$WORK/join.err"))" 0 "$rc"
stop_on_failure
assert_eq "join's hooks in order" "join-pre join-pre-preflight join-post-preflight join-post-kubelet-start join-post" "$(order)"
for tag in join-pre join-pre-preflight join-post-kubelet-start join-post; do
  assert_eq "$tag: command" join "$(ctx $tag 'c["command"]')"
  assert_eq "$tag: rootfs" "$W" "$(ctx $tag 'c["rootfs"]')"
done
assert_eq "join-pre: the command's own hook has no phase" '["", "pre"]' "$(ctx join-pre '[c["phase"], c["stage"]]')"
assert_eq "join-pre-preflight: phase and stage" '["preflight", "pre"]' "$(ctx join-pre-preflight '[c["phase"], c["stage"]]')"
assert_eq "join-post-kubelet-start: phase, stage, result" '["kubelet-start", "post", "Succeeded"]' \
  "$(ctx join-post-kubelet-start '[c["phase"], c["stage"], c["result"]]')"
assert_eq "join-post: the whole command succeeded" '["", "post", "Succeeded"]' "$(ctx join-post '[c["phase"], c["stage"], c["result"]]')"
assert_eq "join's paths" '{"adminKubeconfig": "/etc/kubernetes/admin.conf", "kubeletKubeconfig": "/etc/kubernetes/kubelet.conf", "manifestsDir": "/etc/kubernetes/manifests"}' \
  "$(ctx join-pre-preflight 'c["paths"]')"
assert_eq "pre-preflight ran before the kubelet's config was written" absent "$(cat "$OUT/join-pre-preflight.kubelet")"
assert_eq "post-kubelet-start after" present "$(cat "$OUT/join-post-kubelet-start.kubelet")"
assert_contains "kubelet-start's outputs: the kubelet's config it wrote" \
  "$(ctx join-post-kubelet-start '[f["path"] for f in c["outputs"]["files"]]')" '"/var/lib/kubelet/config.yaml"'
assert_eq "its SHA-256 is of the file as the phase left it" \
  "$(sha256sum "$W/var/lib/kubelet/config.yaml" | cut -d' ' -f1)" \
  "$(ctx join-post-kubelet-start '[f["sha256"] for f in c["outputs"]["files"] if f["path"] == "/var/lib/kubelet/config.yaml"][0]')"
assert_contains "kubelet-start's outputs: the kubelet unit it started" \
  "$(ctx join-post-kubelet-start 'c["outputs"]["unitsStarted"]')" 'kubelet'
assert_eq "preflight made nothing" '[]' "$(ctx join-post-preflight 'c["outputs"]["files"]')"
assert_contains "the command's post hook: what every phase made" \
  "$(ctx join-post '[f["path"] for f in c["outputs"]["files"]]')" '"/var/lib/kubelet/config.yaml"'
validate_events "join's events" "$WORK/join.events"
assert_eq "one HookFinished per hook, each succeeded" "succeeded succeeded succeeded succeeded succeeded" \
  "$(python3 -c 'import json,sys; print(" ".join(e["result"] for e in map(json.loads, open(sys.argv[1])) if e["kind"] == "HookFinished"))' "$WORK/join.events")"
check "a hook's output line is in its event" grep -q '"line":"recorded join-post-kubelet-start"' "$WORK/join.events"

# ---- reset -------------------------------------------------------------------------------------------
rm -f "$OUT/order"
recorder reset/pre.d/10-rec reset-pre
recorder reset/pre-cleanup-node.d/10-rec reset-pre-cleanup-node
recorder reset/post-cleanup-node.d/10-rec reset-post-cleanup-node
recorder reset/post.d/10-rec reset-post
rc=0
node_kkadm_on w1 -v 10 reset --force --events "$WORK/reset.events" >"$WORK/reset.out" 2>"$WORK/reset.err" || rc=$?
assert_eq "reset with hooks (stderr: $(tail -20 "$WORK/reset.err"))" 0 "$rc"
assert_eq "reset's hooks in order" "reset-pre reset-pre-cleanup-node reset-post-cleanup-node reset-post" "$(order)"
assert_eq "reset-pre-cleanup-node: command, phase, stage" '["reset", "cleanup-node", "pre"]' \
  "$(ctx reset-pre-cleanup-node '[c["command"], c["phase"], c["stage"]]')"
assert_eq "reset-post-cleanup-node: result" '["cleanup-node", "post", "Succeeded"]' \
  "$(ctx reset-post-cleanup-node '[c["phase"], c["stage"], c["result"]]')"
assert_eq "reset-post: the whole command" '["reset", "", "post", "Succeeded"]' \
  "$(ctx reset-post '[c["command"], c["phase"], c["stage"], c["result"]]')"
assert_eq "reset's paths" '{"certificatesDir": "/etc/kubernetes/pki"}' "$(ctx reset-pre 'c["paths"]')"
assert_eq "reset's post hooks are told no outputs" false "$(ctx reset-post-cleanup-node '"outputs" in c')"
assert_eq "pre-cleanup-node finds the kubelet's files" present "$(cat "$OUT/reset-pre-cleanup-node.kubelet")"
assert_eq "post-cleanup-node finds them gone" absent "$(cat "$OUT/reset-post-cleanup-node.kubelet")"
validate_events "reset's events" "$WORK/reset.events"
assert_eq "reset: one HookFinished per hook" 4 "$(grep -c '"kind":"HookFinished"' "$WORK/reset.events")"

# ---- secrets: nothing of either run at -v 10, no event, no binding context -----------------------------
check "join logged at -v 10" grep -qE '^[IWEDT][0-9]{4} ' "$WORK/join.err"
check "reset logged at -v 10" grep -qE '^[IWEDT][0-9]{4} ' "$WORK/reset.err"
ALL=$(cat "$WORK"/join.* "$WORK"/reset.* "$OUT"/*.stdin)
for secret in "$SECRET" "PRIVATE KEY"; do
  assert_not_contains "no output, event or binding context of join or reset holds [$secret]" "$ALL" "$secret"
done
finish
