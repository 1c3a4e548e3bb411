#!/usr/bin/env bash
# `kkadm init --dry-run` under a scratch --rootfs, with and without --upload-certs: each exits 0,
# writes nothing under the rootfs (only into its dry-run directory), and prints what it would do.
# With --upload-certs it prints kubeadm's upload-certs lines: the owner token of kubeadm-certs is a
# fresh one the dry-run API client must not claim to know ("already exists" made this fail), and the
# printed certificate key is the one of the control-plane join command.
source "$(dirname "$0")/lib/common.sh"

ROOT=$WORK/rootfs
mkdir -p "$ROOT"
BEFORE=$(tree_fingerprint "$ROOT")
FLAGS=(--rootfs "$ROOT" --kubernetes-version v1.32.0 --node-name cp-1
       --apiserver-advertise-address 192.0.2.10 --control-plane-endpoint 192.0.2.10:6443
       --ignore-preflight-errors all)

dry_run() {  # NAME ARGS...: output in $WORK/NAME.out/.err, exit code in $RC
  local name=$1; shift
  RC=0
  KKADM_INIT_DRYRUN_DIR=$WORK/$name-dry "$KKADM" init --dry-run "${FLAGS[@]}" "$@" \
    >"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null || RC=$?
}

# ---- 1. --upload-certs ----------------------------------------------------------------------------------
dry_run upload --upload-certs
OUT=$(cat "$WORK/upload.out")
assert_eq "init --dry-run --upload-certs: exit code ($(tail -3 "$WORK/upload.err"))" 0 "$RC"
assert_contains "kubeadm's first upload-certs line" "$OUT" \
  '[upload-certs] Storing the certificates in Secret "kubeadm-certs" in the "kube-system" Namespace'
KEY=$(grep -A1 '^\[upload-certs\] Using certificate key:$' "$WORK/upload.out" | sed -n 2p)
check "kubeadm's certificate key line, then the key ($KEY)" grep -qE '^[0-9a-f]{64}$' <<<"$KEY"
assert_contains "the owner token's Secret would be created" "$OUT" \
  "[dryrun] Would perform action CREATE on Secret kube-system/bootstrap-token-"
assert_contains "kubeadm-certs would be created" "$OUT" \
  "[dryrun] Would perform action CREATE on Secret kube-system/kubeadm-certs"
assert_contains "the control-plane join command carries the key" "$OUT" "--control-plane --certificate-key $KEY"
assert_contains "dry run finished" "$OUT" "[dryrun] Finished dry-running successfully."
assert_not_contains "no token 'already exists'" "$(cat "$WORK/upload.out" "$WORK/upload.err")" "already exists"
assert_eq "--upload-certs: the rootfs is untouched" "$BEFORE" "$(tree_fingerprint "$ROOT")"
check "--upload-certs: the files went to the dry-run directory" test -s "$WORK/upload-dry/etc/kubernetes/pki/ca.crt"

# ---- 2. without it, as before ----------------------------------------------------------------------------
dry_run plain
assert_eq "init --dry-run: exit code ($(tail -3 "$WORK/plain.err"))" 0 "$RC"
assert_contains "upload-certs is skipped" "$(cat "$WORK/plain.out")" \
  "[upload-certs] Skipping phase. Please see --upload-certs"
assert_contains "the Node is marked" "$(cat "$WORK/plain.out")" \
  "[mark-control-plane] Marking the node cp-1 as control-plane"
assert_eq "--dry-run: the rootfs is untouched" "$BEFORE" "$(tree_fingerprint "$ROOT")"

finish
