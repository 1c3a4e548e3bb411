#!/usr/bin/env bash
# kubeadm's CRI socket detection for init, join, reset and `config images pull` (docs/cri.md):
# with no criSocket set (no --cri-socket, none in --config), the node's one known socket is used
# under --rootfs. The node here has only CRI-O's socket, /var/run/crio/crio.sock, which is the
# real containerd of tests/e2e/lib/containerd.sh behind a link: `config images pull` pulls through
# it (ctr images ls), `init --dry-run` names it in the kubelet's flags and the CRI check reaches
# it, and no run asks containerd's default socket. With containerd's socket too, every command
# stops with kubeadm's "found multiple CRI endpoints" error, exit 3 (kkadm's code for a
# configuration to fix, docs/exit-codes.md; kubeadm exits 1), and writes nothing.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/containerd.sh"
containerd_start
registry_start

# The node root is $WORK, where containerd's socket is /containerd/containerd.sock. A relative
# link to it resolves inside the node root, as kkadm resolves every node path.
ROOT=$WORK
mkdir -p "$ROOT/var/run/crio" "$ROOT/var/run/containerd" "$ROOT/etc" "$ROOT/run"
ln -s ../../../containerd/containerd.sock "$ROOT/var/run/crio/crio.sock"
node_state() { for d in etc var run; do tree_fingerprint "$ROOT/$d"; done; }
check "the link reaches containerd" test -S "$ROOT/var/run/crio/crio.sock"

run() {  # run NAME ARGS...: output in $OUTPUT, exit code in $RC
  local name=$1; shift
  RC=0
  timeout 120 "$KKADM" --rootfs "$ROOT" "$@" </dev/null >"$WORK/$name.out" 2>&1 || RC=$?
  OUTPUT=$(cat "$WORK/$name.out")
}

mapfile -t IMAGES < <("$KKADM" config images list --image-repository "$REGISTRY" \
  --kubernetes-version v1.32.0 2>/dev/null)
registry_push_images "${IMAGES[@]}"

# ---- 1. one socket: CRI-O's is used -------------------------------------------------------------
run pull config images pull --image-repository "$REGISTRY" --kubernetes-version v1.32.0
assert_eq "config images pull through the detected socket ($OUTPUT)" 0 "$RC"
assert_contains "kubeadm's lines" "$OUTPUT" "[config/images] Pulled $REGISTRY/kube-apiserver:v1.32.0"
listed=$(ctrd_ctr images ls -q)
for image in "${IMAGES[@]}"; do check "ctr images ls shows $image" grep -qxF "$image" <<<"$listed"; done

INIT=(init --kubernetes-version v1.32.0 --node-name cp-1 --apiserver-advertise-address 192.0.2.10
      --ignore-preflight-errors all)
KKADM_INIT_DRYRUN_DIR=$WORK/dry run dry "${INIT[@]}" --dry-run
assert_eq "init --dry-run exits 0 ($(tail -3 <<<"$OUTPUT"))" 0 "$RC"
assert_contains "the CRI check reached the runtime behind CRI-O's socket" "$OUTPUT" \
  "at unix:///var/run/crio/crio.sock"
assert_contains "the kubelet's flags carry CRI-O's socket" \
  "$(cat "$WORK/dry/var/lib/kubelet/kubeadm-flags.env" 2>&1)" \
  "--container-runtime-endpoint=unix:///var/run/crio/crio.sock"
assert_not_contains "containerd's default socket is never named" "$OUTPUT" containerd.sock

# A socket given is used as it is: containerd's default, which is not there.
run given config images pull --image-repository "$REGISTRY" --kubernetes-version v1.32.0 \
  --cri-socket unix:///var/run/containerd/containerd.sock
assert_eq "--cri-socket is not overridden by detection" 1 "$RC"
assert_contains "it names the socket given" "$OUTPUT" "/var/run/containerd/containerd.sock"

# ---- 2. two sockets: kubeadm's error, nothing written ---------------------------------------------
ln -s ../../../containerd/containerd.sock "$ROOT/var/run/containerd/containerd.sock"
BEFORE=$(node_state)
MULTIPLE="found multiple CRI endpoints on the host. Please define which one do you wish to use by setting the 'criSocket' field in the kubeadm configuration file: unix:///var/run/containerd/containerd.sock, unix:///var/run/crio/crio.sock"
requests=$(registry_requests)
run pull2 config images pull --image-repository "$REGISTRY" --kubernetes-version v1.32.0
assert_eq "config images pull: exit 3 (a configuration to fix)" 3 "$RC"
assert_contains "config images pull: kubeadm's error" "$OUTPUT" "$MULTIPLE"
assert_eq "config images pull: the registry was not asked" "$requests" "$(registry_requests)"
run init2 "${INIT[@]}"
assert_eq "init: exit 3 (a configuration to fix)" 3 "$RC"
assert_contains "init: kubeadm's error" "$OUTPUT" "$MULTIPLE"
run join2 join 192.0.2.10:6443 --token abcdef.0123456789abcdef \
  --discovery-token-unsafe-skip-ca-verification --ignore-preflight-errors all
assert_eq "join: exit 3 (a configuration to fix)" 3 "$RC"
assert_contains "join: kubeadm's error" "$OUTPUT" "$MULTIPLE"
run reset2 reset --force
assert_eq "reset: exit 3 (a configuration to fix)" 3 "$RC"
assert_contains "reset: kubeadm's error" "$OUTPUT" "$MULTIPLE"
assert_eq "nothing written under the node root" "$BEFORE" "$(node_state)"
# A socket named in the configuration file settles it.
cat >"$WORK/init.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  criSocket: unix:///var/run/crio/crio.sock
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
imageRepository: $REGISTRY
CFG
run pull3 config images pull --config "$WORK/init.yaml"
assert_eq "criSocket in --config: no detection, pulls ($OUTPUT)" 0 "$RC"
assert_contains "already present" "$OUTPUT" "[config/images] Image $REGISTRY/kube-apiserver:v1.32.0 already present on machine"
finish
