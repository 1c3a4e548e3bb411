#!/usr/bin/env bash
# Pre-flight knows kkadm's own work: on a sandbox node (real systemd, real etcd, the stand-in API
# server) the control plane is set up phase by phase (`kkadm init phase ...`), its static pods and
# kubelet running; then `kkadm init` with pre-flight errors counted passes pre-flight, saying which
# checks only that recorded work fails (its manifests, the ports of their pods and of the kubelet
# it started, etcd's data directory), and finishes. A manifest edited by hand is no longer kkadm's
# work: pre-flight counts it again. The errors this sandbox fails anyway (no container runtime, ...)
# are learnt from a pre-flight run on the fresh node and ignored by name.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"

node_boot node-1 10.123.0.11
R=$(node_root node-1)
{ node_init_config | grep -v ignorePreflightErrors; cat <<CFG; } > "$WORK/init.yaml"
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
encryptionAlgorithm: ECDSA-P256
CFG

# What this sandbox fails on a fresh node, by name: ignored from here on.
node_kkadm init phase preflight --config "$WORK/init.yaml" >"$WORK/fresh.out" 2>&1 || true
IGNORE=$(sed -n 's/^\t\[ERROR \([^]]*\)\]:.*/\1/p' "$WORK/fresh.out" | paste -sd, -)
assert_not_contains "a fresh node fails no port check ($IGNORE)" "$IGNORE" "Port-"
assert_not_contains "a fresh node fails no file check ($IGNORE)" "$IGNORE" "Available-"
# The image pulls come only after the node's checks pass (as kubeadm's): this node has no runtime.
IGNORE=${IGNORE:+$IGNORE,}ImagePull
ignore=--ignore-preflight-errors=$IGNORE

for phase in "certs all" "kubeconfig all" "etcd local" "control-plane all" "kubelet-start"; do
  rc=0; node_kkadm init phase $phase --config "$WORK/init.yaml" >"$WORK/phase.out" 2>&1 || rc=$?
  assert_eq "init phase $phase exit code ($(tail -3 "$WORK/phase.out"))" 0 "$rc"
done
check "the stand-in API server listens on 6443" wait_for 30 node_exec bash -c 'exec 3<>/dev/tcp/10.123.0.11/6443'

rc=0; node_kkadm init --config "$WORK/init.yaml" $ignore >"$WORK/init.out" 2>&1 || rc=$?
OUT=$(cat "$WORK/init.out")
assert_eq "init after its phases by hand: exit code ($(tail -20 "$WORK/init.out"))" 0 "$rc"
stop_on_failure
LEFT_OUT=$(grep "Leaving out the checks that only kkadm's own earlier work" <<<"$OUT" || true)
for check in Port-6443 Port-10259 Port-10257 Port-2379 Port-2380 Port-10250 \
  FileAvailable--etc-kubernetes-manifests-kube-apiserver.yaml \
  FileAvailable--etc-kubernetes-manifests-etcd.yaml DirAvailable--var-lib-etcd; do
  assert_contains "pre-flight leaves out $check" "$LEFT_OUT" "$check"
done
assert_contains "the record is named" "$LEFT_OUT" "(recorded in /var/lib/kkadm/journal)"
# Pre-flight was never recorded done, so every phase after it runs; what the phases by hand made
# is reused, not made again.
assert_contains "the CA is reused" "$OUT" "[certs] Using existing ca certificate authority"
assert_not_contains "no certificate made again" "$OUT" "Generating"
assert_contains "init finished" "$OUT" "Your Kubernetes control-plane has initialized successfully!"

# Edited by hand, a manifest is the user's: its check counts again.
echo "# tuned by hand" >> "$R/etc/kubernetes/manifests/kube-scheduler.yaml"
rc=0; node_kkadm init phase preflight --config "$WORK/init.yaml" $ignore >"$WORK/edited.out" 2>&1 || rc=$?
assert_eq "pre-flight with an edited manifest: exit code" 2 "$rc"
assert_contains "the edited manifest fails its check" "$(cat "$WORK/edited.out")" \
  "[ERROR FileAvailable--etc-kubernetes-manifests-kube-scheduler.yaml]"
assert_not_contains "the others are still left out" "$(cat "$WORK/edited.out")" "[ERROR Port-6443]"
finish
