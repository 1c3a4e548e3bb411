#!/usr/bin/env bash
# Benchmarks (not tests): the PKI against sequential OpenSSL key generation, and whole commands'
# wall time and peak RSS. Figures go into the closing notes of the issues that set targets.
source "$(dirname "$0")/lib.sh"
ensure_packages "${KKADM_BUILD_PACKAGES[@]}"
KKADM_BUILD_TYPE=Release build_kkadm >/dev/null
B=$KKADM_BUILD/bench K=$KKADM_BUILD/kkadm
DIR=$(mktemp -d) SHM=$(mktemp -d -p /dev/shm); trap 'rm -rf "$DIR" "$SHM"' EXIT
# A version, not the default label stable-1: no HTTPS lookup in the measured runs.
KV=$("$K" version -o json | sed -n 's/.*"kubernetesVersion": "\(.*\)".*/\1/p')
cat > "$DIR/ecdsa.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration: {name: bench-node}
localAPIEndpoint: {advertiseAddress: 192.0.2.10}
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
encryptionAlgorithm: ECDSA-P256
kubernetesVersion: $KV
CFG
echo "== certs_bench (PKI vs 11 sequential RSA-2048 keygens; ECDSA-P256 whole PKI)"
"$B/certs_bench" 5 "$DIR"
echo "== kkadm init phase certs all, RSA-2048"
"$B/command_bench" 5 "$DIR/r" -- "$K" init phase certs all --rootfs "$DIR/r" --node-name bench-node --apiserver-advertise-address 192.0.2.10 --kubernetes-version "$KV"
# On tmpfs the figure is kkadm's own; on /tmp's disk it adds 22 file fsyncs and 2 directory ones.
echo "== kkadm init phase certs all, ECDSA-P256, --rootfs on tmpfs"
"$B/command_bench" 40 "$SHM/r" -- "$K" init phase certs all --rootfs "$SHM/r" --config "$DIR/ecdsa.yaml"
echo "== kkadm init phase certs all, ECDSA-P256, --rootfs on /tmp ($(stat -f -c %T /tmp))"
"$B/command_bench" 40 "$DIR/r" -- "$K" init phase certs all --rootfs "$DIR/r" --config "$DIR/ecdsa.yaml"
echo "== hostile input of issue 19 refused (target: under 100 ms each, peak RSS bounded)"
bash "$(dirname "$0")/../bench/hostile_input_bench.sh" "$K" "$B/command_bench" 20
echo "== kkadm version"
"$B/command_bench" 40 "$SHM/r" -- "$K" version
echo "== kkadm init through kubelet-start on a sandbox node (real systemd; needs root), ECDSA-P256 and RSA-2048"
bash "$(dirname "$0")/../bench/init_bench.sh" "$K" "$B/command_bench" 20 ECDSA-P256
bash "$(dirname "$0")/../bench/init_bench.sh" "$K" "$B/command_bench" 5 RSA-2048
echo "== the node's journal on a sandbox node (needs root): fresh init through kubelet-start, the"
echo "   re-run on the finished node, fresh with the same kkadm without its journal (both built beside"
echo "   alike from HEAD, one with bench/without_journal.patch)"
WITH=$(bash "$(dirname "$0")/../bench/build_at.sh" HEAD "$KKADM_BUILD-journal" Release)
WITHOUT=$(bash "$(dirname "$0")/../bench/build_at.sh" HEAD "$KKADM_BUILD-nojournal" Release \
  "$(dirname "$0")/../bench/without_journal.patch")
bash "$(dirname "$0")/../bench/journal_bench.sh" "$WITH" "$B/command_bench" 15 "$WITHOUT"
echo "== kkadm join on the sandbox (3 runs of tests/e2e/join_multinode_test.sh; needs root)"
bash "$(dirname "$0")/../bench/join_bench.sh" "$K" 3
echo "== stripped binary size"
strip -o "$DIR/kkadm" "$K" && stat -c '%s bytes' "$DIR/kkadm"
