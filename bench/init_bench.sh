#!/usr/bin/env bash
# `kkadm init` through kubelet-start on a sandbox node (not a test): preflight, certs, kubeconfig,
# etcd, control-plane and kubelet-start, the last against the node's real systemd over sd-bus
# (stop, reload, enable, start kubelet.service, each job waited for). The node's kubelet is a
# `sleep` here rather than the Python stand-in, so that its start-up, which systemd does not wait
# for, stays out of the next run's figure. Every run starts from an empty /etc/kubernetes,
# /var/lib/kubelet and /var/lib/kkadm (without the last, the node's journal would make every run
# after the first a re-run of phases up to date: bench/journal_bench.sh measures that).
# `kkadm init phase certs all` is measured the same way, for the ratio issue 3 sets a target on,
# and so is `init` without the kubeconfig phase (its 5 keys are the difference in key generation).
# Needs root (systemd, network namespaces).
#   init_bench.sh KKADM COMMAND_BENCH [RUNS] [ENCRYPTION_ALGORITHM]
set -euo pipefail
KKADM=$(readlink -f "$1") BENCH=$(readlink -f "$2") RUNS=${3:-20} ALGORITHM=${4:-ECDSA-P256}
export KKADM KKADM_SOURCE_DIR
KKADM_SOURCE_DIR=$(cd "$(dirname "$0")/.." && pwd)
source "$KKADM_SOURCE_DIR/tests/e2e/lib/common.sh"
source "$KKADM_SOURCE_DIR/tests/e2e/lib/sandbox_node.sh"

node_boot bench-node 10.123.0.11 2>/dev/null
R=$(node_root bench-node)
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
in_node() {  # RUNS ARGS...: command_bench of `kkadm --rootfs R ARGS` in the node
  local runs=$1; shift
  KKADM_SYSTEM_BUS_ADDRESS=$(node_bus bench-node) PATH="$(node_dir bench-node)/bin:$PATH" \
    node_exec_on bench-node "$BENCH" "$runs" "$R/etc/kubernetes" "$R/var/lib/kubelet" \
    "$R/var/lib/kkadm" -- "$KKADM" --rootfs "$R" "$@"
}
median() { sed -n 's/.*median=\([0-9.]*\)ms.*/\1/p' <<<"$1"; }
certs=$(in_node "$RUNS" init phase certs all --config "$WORK/init.yaml")
echo "kkadm init phase certs all ($ALGORITHM):     $certs"
LATER=wait-control-plane,upload-config,upload-certs,mark-control-plane,bootstrap-token,kubelet-finalize,addon,show-join-command
init=$(in_node "$RUNS" init --config "$WORK/init.yaml" --skip-phases=$LATER)
echo "kkadm init through kubelet-start ($ALGORITHM): $init"
# The same without the kubeconfig phase: the same 11 keys as certs, so the ratio shows what the
# other phases cost beyond key generation (with RSA on few cores, keys are nearly all of it).
same_keys=$(in_node "$RUNS" init --config "$WORK/init.yaml" --skip-phases=kubeconfig,$LATER)
echo "kkadm init through kubelet-start, kubeconfig skipped ($ALGORITHM): $same_keys"
ratio() { awk -v a="$(median "$1")" -v b="$(median "$2")" 'BEGIN {printf "%.2f", a / b}'; }
echo "init / certs (medians): $(ratio "$init" "$certs"); without kubeconfig: $(ratio "$same_keys" "$certs")"
state=$(node_systemctl_on bench-node is-active kubelet || true)
[ "$state" = active ] || { echo "init_bench: kubelet.service is $state after the runs" >&2; exit 1; }
