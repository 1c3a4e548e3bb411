#!/usr/bin/env bash
# What the node's journal costs and saves (issue 14), on a sandbox node (not a test; needs root):
#   fresh    `kkadm init` through kubelet-start on an emptied node (/etc/kubernetes,
#            /var/lib/kubelet and kkadm's own /var/lib/kkadm and /run/kkadm removed first), against
#            the node's real systemd, its kubelet a `sleep` (as bench/init_bench.sh has it)
#   re-run   the same command again on the node the fresh run finished: every phase up to date
#            (target: at most a quarter of fresh)
#   before   fresh with PREJOURNAL, the same kkadm without its journal: what fresh costs without
#            it (target: the journal adds at most 5 %). Build both alike, e.g.
#              bench/build_at.sh HEAD /var/tmp/kkadm-bench-journal Release
#              bench/build_at.sh HEAD /var/tmp/kkadm-bench-nojournal Release bench/without_journal.patch
#   no-run   fresh on a node without /run: the journal without the status file
# They are run in turn, RUNS times (before, no-run, fresh, re-run, before, ...), so that what else
# the machine does falls on each alike; medians are compared.
#   journal_bench.sh KKADM COMMAND_BENCH [RUNS] [PREJOURNAL] [ENCRYPTION_ALGORITHM]
set -euo pipefail
KKADM=$(readlink -f "$1") BENCH=$(readlink -f "$2") RUNS=${3:-15} ALGORITHM=${5:-ECDSA-P256}
PREJOURNAL=${4:+$(readlink -f "$4")}
export KKADM KKADM_SOURCE_DIR
KKADM_SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
source "$KKADM_SOURCE_DIR/tests/e2e/lib/common.sh"
source "$KKADM_SOURCE_DIR/tests/e2e/lib/sandbox_node.sh"

node_boot bench-node 10.123.0.11 2>/dev/null
R=$(node_root bench-node)
# As on a running system, /run is a tmpfs (kkadm's status file is part of what a run costs).
mkdir -p "$R/run" && mount -t tmpfs -o mode=755 tmpfs "$R/run" && on_exit "umount '$R/run'"
# A version, not the default label stable-1: no HTTPS lookup in the measured runs.
KUBERNETES_VERSION=$("$KKADM" version -o json | sed -n 's/.*"kubernetesVersion": "\(.*\)".*/\1/p')
printf '#!/bin/sh\nexec sleep infinity\n' >"$(node_dir bench-node)/bin/kubelet"
cat >"$WORK/init.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration: {name: bench-node, ignorePreflightErrors: [all]}
localAPIEndpoint: {advertiseAddress: 10.123.0.11}
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
encryptionAlgorithm: $ALGORITHM
kubernetesVersion: $KUBERNETES_VERSION
CFG
LATER=wait-control-plane,upload-config,upload-certs,mark-control-plane,bootstrap-token,kubelet-finalize,addon,show-join-command
ARGS=(init --config "$WORK/init.yaml" "--skip-phases=$LATER")
FRESH=("$R/etc/kubernetes" "$R/var/lib/kubelet" "$R/var/lib/kkadm" "$R/run/kkadm")

sample() {  # BINARY FRESH_DIR...: one run's wall time in ms, in the node (command_bench, 1 run)
  local binary=$1 out
  shift
  out=$(KKADM_SYSTEM_BUS_ADDRESS=$(node_bus bench-node) PATH="$(node_dir bench-node)/bin:$PATH" \
    node_exec_on bench-node "$BENCH" 1 "$@" -- "$binary" --rootfs "$R" "${ARGS[@]}")
  sed -n 's/.*median=\([0-9.]*\)ms.*/\1/p' <<<"$out"
}
for f in fresh rerun before no-run; do : >"$WORK/$f"; done
for ((i = 0; i < RUNS; i++)); do
  [ -z "$PREJOURNAL" ] || sample "$PREJOURNAL" "${FRESH[@]}" >>"$WORK/before"
  # The same without the node's /run: no status file, the journal alone.
  umount "$R/run" && rmdir "$R/run"
  sample "$KKADM" "${FRESH[@]:0:3}" >>"$WORK/no-run"
  mkdir "$R/run" && mount -t tmpfs -o mode=755 tmpfs "$R/run"
  sample "$KKADM" "${FRESH[@]}" >>"$WORK/fresh"
  sample "$KKADM" "$WORK/scratch" >>"$WORK/rerun"
done
# The re-run did run nothing: every phase said so, no key was made.
out=$(KKADM_SYSTEM_BUS_ADDRESS=$(node_bus bench-node) PATH="$(node_dir bench-node)/bin:$PATH" \
  node_exec_on bench-node "$KKADM" --rootfs "$R" "${ARGS[@]}" 2>&1)
grep -q '^\[kubelet-start\] Up to date, not run again' <<<"$out" && ! grep -q Generating <<<"$out" ||
  { echo "journal_bench: the re-run ran phases again: $out" >&2; exit 1; }

stats() {  # FILE: "min / median / max ms (n)"
  sort -n "$1" | awk '{v[NR] = $1} END {printf "min %.1f  median %.1f  max %.1f ms (n=%d)", v[1], v[int((NR + 1) / 2)], v[NR], NR}'
}
median() { sort -n "$1" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "fresh init through kubelet-start ($ALGORITHM):   $(stats "$WORK/fresh")"
echo "re-run on the finished node:                $(stats "$WORK/rerun")"
awk -v a="$(median "$WORK/rerun")" -v b="$(median "$WORK/fresh")" \
  'BEGIN {printf "re-run / fresh (medians): %.3f (target <= 0.25)\n", a / b}'
if [ -n "$PREJOURNAL" ]; then
  echo "fresh, the same kkadm without its journal: $(stats "$WORK/before")"
  echo "fresh, no /run on the node (no status file): $(stats "$WORK/no-run")"
  awk -v a="$(median "$WORK/fresh")" -v b="$(median "$WORK/before")" -v c="$(median "$WORK/no-run")" \
    'BEGIN {printf "journal overhead on a fresh run (medians): %+.1f %% (target <= 5 %%); without the status file: %+.1f %%\n", (a / b - 1) * 100, (c / b - 1) * 100}'
  # Each round's fresh beside its own before (run one after the other): steadier under load.
  paste "$WORK/fresh" "$WORK/before" | awk '{print ($1 / $2 - 1) * 100}' | sort -n |
    awk '{v[NR] = $1} END {printf "journal overhead, median of the rounds'"'"' own ratios: %+.1f %%\n", v[int((NR + 1) / 2)]}'
fi
state=$(node_systemctl_on bench-node is-active kubelet || true)
[ "$state" = active ] || { echo "journal_bench: kubelet.service is $state after the runs" >&2; exit 1; }
