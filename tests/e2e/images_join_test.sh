#!/usr/bin/env bash
# Which images `join` pulls in its pre-flight, as kubeadm: a worker none (kubeadm's join pulls
# only before a new control-plane instance), a control-plane join the cluster's control-plane
# images (its ClusterConfiguration's imageRepository, here a loopback registry), through the
# joining node's runtime: the real containerd of tests/e2e/lib/containerd.sh in w1's node root
# (/run/containerd/containerd.sock), asked by `join phase preflight` on sandbox node w1 of a
# cluster cp1 made (lib/sandbox_node.sh). The registry's access log and `ctr images ls` tell.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/containerd.sh"
kk_require_runtime_tools
source "$(dirname "$0")/lib/sandbox_node.sh"

TOKEN=abcdef.0123456789abcdef
KEY=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
node_boot cp1 10.123.0.61 w1 10.123.0.62
CTRD_DIR=$(node_root w1)/run/containerd containerd_start
registry_start
mapfile -t IMAGES < <("$KKADM" config images list --image-repository "$REGISTRY" \
  --kubernetes-version v1.32.0 2>/dev/null)
registry_push_images "${IMAGES[@]}"

{ node_use cp1; node_init_config; cat <<CFG; } >"$WORK/init.yaml"
bootstrapTokens:
- token: $TOKEN
certificateKey: $KEY
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
controlPlaneEndpoint: 10.123.0.61:6443
imageRepository: $REGISTRY
CFG
node_init "$WORK/init.yaml" --upload-certs
HASH=sha256:$(openssl x509 -pubkey -noout -in "$(node_root cp1)/etc/kubernetes/pki/ca.crt" |
  openssl pkey -pubin -outform der | sha256sum | cut -d' ' -f1)
before=$(registry_requests)

preflight() {  # NAME ARGS...: join phase preflight on w1, output in $OUTPUT, exit code in $RC
  local name=$1; shift
  RC=0
  node_kkadm_on w1 join phase preflight 10.123.0.61:6443 --token "$TOKEN" \
    --discovery-token-ca-cert-hash "$HASH" --cri-socket unix:///run/containerd/containerd.sock \
    --ignore-preflight-errors all "$@" </dev/null >"$WORK/$name.out" 2>&1 || RC=$?
  OUTPUT=$(cat "$WORK/$name.out")
}

# ---- 1. a worker pulls nothing --------------------------------------------------------------------
preflight worker
assert_eq "worker preflight passes ($(tail -5 <<<"$OUTPUT"))" 0 "$RC"
assert_contains "the CRI check asked w1's containerd" "$OUTPUT" "containerd 1.6"
assert_not_contains "no pull lines" "$OUTPUT" "Pulling images"
assert_eq "the registry was asked nothing" "$before" "$(registry_requests)"
assert_eq "containerd holds no kubeadm image" "" \
  "$(ctrd_ctr images ls -q | grep -F "$REGISTRY/" || true)"

# ---- 2. a control-plane join pulls the cluster's images -------------------------------------------
preflight cp --control-plane --certificate-key "$KEY" --apiserver-advertise-address 10.123.0.62
assert_eq "control-plane preflight passes ($(tail -5 <<<"$OUTPUT"))" 0 "$RC"
assert_contains "kubeadm's lines" "$OUTPUT" \
  "[preflight] Running pre-flight checks before initializing the new control plane instance"
assert_contains "and the pull lines" "$OUTPUT" \
  "[preflight] Pulling images required for setting up a Kubernetes cluster"
assert_not_contains "no ImagePull warning" "$OUTPUT" "WARNING ImagePull"
listed=$(ctrd_ctr images ls -q)
for image in "${IMAGES[@]}"; do check "ctr images ls shows $image" grep -qxF "$image" <<<"$listed"; done
assert_eq "each image's config and layer fetched once" 14 "$(registry_blob_gets)"
finish
