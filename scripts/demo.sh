#!/usr/bin/env bash
# kkadm's main job, on this machine: `kkadm init` of a control-plane node inside a throwaway
# sandbox node (tests/e2e/lib/sandbox_node.sh): a real systemd in its own namespaces starts the
# kubelet stand-in, which runs the real etcd and the stand-in API server from kkadm's manifests.
# Ends with the join command and a timing table, and removes everything it made.
# Needs root (systemd as PID 1 in a namespace, network namespaces).
source "$(dirname "$0")/lib.sh"
ensure_packages "${KKADM_BUILD_PACKAGES[@]}" "${KKADM_TEST_PACKAGES[@]}"
ensure_validator
build_kkadm >/dev/null

export KKADM=$KKADM_BUILD/kkadm KKADM_SOURCE_DIR=$KKADM_ROOT
source "$KKADM_ROOT/tests/e2e/lib/common.sh"
source "$KKADM_ROOT/tests/e2e/lib/sandbox_node.sh"
set +e

log "booting sandbox node demo-1 (10.123.0.11) with its own systemd"
node_boot demo-1 10.123.0.11 || exit 1
R=$(node_root demo-1)
cat > "$WORK/kkadm.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  name: demo-1
  # The sandbox has no container runtime, and its CPU/memory/tool checks are not the point here.
  ignorePreflightErrors: [all]
localAPIEndpoint:
  advertiseAddress: 10.123.0.11
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
encryptionAlgorithm: ECDSA-P256
# kkadm's own version: the default, stable-1, would be looked up on the internet (docs/config.md).
kubernetesVersion: $("$KKADM" version -o json | sed -n 's/.*"kubernetesVersion": "\(.*\)".*/\1/p')
CFG

log "kkadm init --rootfs $R --config kkadm.yaml --upload-certs"
# Each output line is stamped as it appears; a section starts at the first line of a new [prefix].
node_kkadm_on demo-1 init --config "$WORK/kkadm.yaml" --upload-certs 2>&1 |
  while IFS= read -r line; do printf '%s\t%s\n' "$(date +%s.%N)" "$line"; done > "$WORK/init.log"
rc=${PIPESTATUS[0]}
cut -f2- "$WORK/init.log"

echo
echo "Time per section of kkadm init's output:"
awk -F'\t' '
  { prefix = ($2 ~ /^\[[a-z-]+\]/) ? substr($2, 2, index($2, "]") - 2) : "" }
  NR == 1 { start = $1; last = $1 }
  prefix != "" && prefix != current { if (current != "") printf "  %-20s %6.2f s\n", current, $1 - last; current = prefix; last = $1 }
  { end = $1 }
  END { printf "  %-20s %6.2f s\n  %-20s %6.2f s\n", current, end - last, "total", end - start }' "$WORK/init.log"
echo
node_exec_on demo-1 kubectl --kubeconfig "$R/etc/kubernetes/admin.conf" get nodes -o wide 2>&1
log "stopping the sandbox node and removing it"
exit "$rc"
