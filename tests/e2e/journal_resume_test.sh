#!/usr/bin/env bash
# The node's journal through `kkadm init` on a sandbox node (real systemd, real etcd, the stand-in
# API server): a second init with the same config runs no phase ("Up to date, not run again"),
# exits 0 and changes no byte outside kkadm's own state; a changed config is refused with the
# phase and field named and nothing written (the journal included); a manifest edited by hand is
# named and not overwritten without --force; /run/kkadm/status.json tells the run's end; reset
# takes kkadm's state away with the rest, so the next init starts afresh. While another command
# holds the node's lock, init is refused.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"

node_boot node-1 10.123.0.11
R=$(node_root node-1)
mkdir -p "$R/run"  # as on any running system: kkadm publishes its status there, never makes it
mkdir -p "$WORK/patches"
printf 'metadata:\n  annotations:\n    example.com/tuned: "1"\n' > "$WORK/patches/kube-apiserver+strategic.yaml"
{ node_init_config; cat <<CFG; } > "$WORK/init.yaml"
patches:
  directory: $WORK/patches
bootstrapTokens:
- token: abcdef.0123456789abcdef
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
encryptionAlgorithm: ECDSA-P256
CFG
# While init runs, its status is watchable: a hook before kubeconfig keeps the status file as the
# hook sees it (the first run's only; a re-run skips its phases, hooks and all).
mkdir -p "$R/etc/kkadm/hooks.d/init/pre-kubeconfig.d"
cat > "$R/etc/kkadm/hooks.d/init/pre-kubeconfig.d/10-keep-status" <<HOOK
#!/bin/sh
[ -e "$WORK/status-mid-run.json" ] || cp "\$KKADM_ROOTFS/run/kkadm/status.json" "$WORK/status-mid-run.json"
HOOK
chmod +x "$R/etc/kkadm/hooks.d/init/pre-kubeconfig.d/10-keep-status"
node_init "$WORK/init.yaml"
assert_eq "status file while init runs: running, in kubeconfig, every certs phase done" \
  "running kubeconfig certs-done" "$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
certs = [p for p in s["phases"] if p["phase"].startswith("certs/")]
done = len(certs) > 10 and all(p["state"] == "done" and p["ended"] for p in certs)
print(s["state"], s["phase"], "certs-done" if done else certs)' "$WORK/status-mid-run.json")"
assert_contains "status file after init" "$(cat "$R/run/kkadm/status.json")" '"state": "succeeded"'
assert_contains "the journal records the API objects init made" \
  "$(journal_field "$R" object path)" "/api/v1/namespaces/kube-system/configmaps/kubeadm-config"
assert_eq "kkadm status counts the objects upload-config made" True "$(node_kkadm status -o json | python3 -c '
import json, sys
print(next(p["made"]["objects"] for p in json.load(sys.stdin)["phases"] if p["phase"] == "upload-config/kubeadm") >= 1)')"
assert_not_contains "no secret in the journal" "$(cat "$R/var/lib/kkadm/journal")" "0123456789abcdef"

# etcd's data changes as etcd runs, whoever runs kkadm.
node_tree() { node_fingerprint "$R" | grep -v -e '^\./var/lib/etcd' -e ' \./var/lib/etcd'; }
before=$(node_tree)
rc=0; node_kkadm init --config "$WORK/init.yaml" >"$WORK/again.out" 2>&1 || rc=$?
OUT=$(cat "$WORK/again.out")
assert_eq "second init exit code ($OUT)" 0 "$rc"
for phase in preflight certs kubeconfig etcd control-plane kubelet-start upload-config mark-control-plane bootstrap-token addon show-join-command; do
  assert_contains "second init: $phase" "$OUT" "[$phase] Up to date, not run again"
done
assert_not_contains "second init generates nothing" "$OUT" "Generating"
assert_eq "second init changed no byte of the node" "$before" "$(node_tree)"

# A changed configuration: refused before anything is written, the phase and field named.
sed 's/^encryptionAlgorithm: ECDSA-P256$/&\napiServer:\n  extraArgs:\n  - name: enable-admission-plugins\n    value: NodeRestriction,AlwaysPullImages/' \
  "$WORK/init.yaml" > "$WORK/changed.yaml"
whole_before=$(tree_fingerprint "$R" | grep -v -e 'var/lib/etcd')
rc=0; node_kkadm init --config "$WORK/changed.yaml" >"$WORK/changed.out" 2>&1 || rc=$?
assert_eq "changed config exit code" 3 "$rc"
assert_contains "changed config names phase and field" "$(cat "$WORK/changed.out")" \
  'control-plane/apiserver: apiServer.extraArgs[enable-admission-plugins] (none) → "NodeRestriction,AlwaysPullImages"'
assert_eq "changed config wrote nothing" "$whole_before" "$(tree_fingerprint "$R" | grep -v -e 'var/lib/etcd')"

# A patch edited: the phase that applies it is named, no other (the patches' content is an input).
sed -i 's/"1"/"2"/' "$WORK/patches/kube-apiserver+strategic.yaml"
rc=0; node_kkadm init --config "$WORK/init.yaml" >"$WORK/patch.out" 2>&1 || rc=$?
assert_eq "edited patch exit code" 3 "$rc"
assert_contains "edited patch names its phase" "$(cat "$WORK/patch.out")" "control-plane/apiserver: patches[kube-apiserver] \"sha256:"
assert_not_contains "edited patch: no other phase" "$(cat "$WORK/patch.out")" "scheduler: patches"
sed -i 's/"2"/"1"/' "$WORK/patches/kube-apiserver+strategic.yaml"

# A manifest edited by hand is reported and kept; --force overwrites it.
MANIFEST=$R/etc/kubernetes/manifests/kube-scheduler.yaml
echo "# tuned by hand" >> "$MANIFEST"
edited=$(sha256sum < "$MANIFEST")
rc=0; node_kkadm init --config "$WORK/init.yaml" >"$WORK/edited.out" 2>&1 || rc=$?
assert_eq "edited manifest exit code" 1 "$rc"
assert_contains "edited manifest named" "$(cat "$WORK/edited.out")" \
  "/etc/kubernetes/manifests/kube-scheduler.yaml (written by phase control-plane/scheduler)"
assert_eq "edited manifest kept" "$edited" "$(sha256sum < "$MANIFEST")"

# A removed kubeconfig is made again, from its phase on.
rm "$R/etc/kubernetes/scheduler.conf"
rc=0; node_kkadm init --config "$WORK/init.yaml" --force >"$WORK/force.out" 2>&1 || rc=$?
assert_eq "init --force exit code ($(tail -5 "$WORK/force.out"))" 0 "$rc"
assert_contains "certs still up to date" "$(cat "$WORK/force.out")" "[certs] Up to date, not run again"
check "scheduler.conf made again" test -s "$R/etc/kubernetes/scheduler.conf"
assert_not_contains "edited manifest overwritten" "$(cat "$MANIFEST")" "# tuned by hand"

# One command at a time: while another process holds the node's lock (flock(1) on the node root,
# as a running kkadm holds it), init is refused and writes nothing.
flock -o "$R" sleep 60 & holder=$!  # -o: the lock is flock's alone, gone when its sleep ends
sleep 0.3
whole_before=$(tree_fingerprint "$R" | grep -v -e 'var/lib/etcd')
rc=0; node_kkadm init --config "$WORK/init.yaml" >"$WORK/locked.out" 2>&1 || rc=$?
reset_rc=0; node_kkadm reset --force >"$WORK/locked-reset.out" 2>&1 || reset_rc=$?
pkill -P "$holder" sleep; wait "$holder" 2>/dev/null || true
assert_eq "reset while the node is locked: exit code ($(cat "$WORK/locked-reset.out"))" 1 "$reset_rc"
assert_contains "reset while the node is locked: why" "$(cat "$WORK/locked-reset.out")" \
  "another kkadm command is changing this node"
assert_eq "init while the node is locked: exit code" 1 "$rc"
assert_contains "init while the node is locked: why" "$(cat "$WORK/locked.out")" \
  "another kkadm command is changing this node"
assert_eq "init while the node is locked wrote nothing" "$whole_before" \
  "$(tree_fingerprint "$R" | grep -v -e 'var/lib/etcd')"

# reset takes the journal and the status away: the next init starts afresh.
rc=0; node_kkadm reset --force >"$WORK/reset.out" 2>&1 || rc=$?
assert_eq "reset exit code ($(tail -5 "$WORK/reset.out"))" 0 "$rc"
check "journal gone after reset" test ! -e "$R/var/lib/kkadm"
check "status gone after reset" test ! -e "$R/run/kkadm"
finish
