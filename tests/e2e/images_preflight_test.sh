#!/usr/bin/env bash
# init's pre-flight pulls kubeadm's images through a real containerd (tests/e2e/lib/containerd.sh):
# kubeadm's three lines and the images in `ctr images ls`; a missing image is the ImagePull error,
# a warning with --ignore-preflight-errors=ImagePull; a dry run says it would pull and asks the
# registry nothing; a retry through a flaky registry is a Retry event in --events.
# The node root is $WORK, where containerd's socket is /containerd/containerd.sock.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/containerd.sh"
kk_require_runtime_tools
containerd_start
registry_start

config() {  # config REPOSITORY VERSION IGNORED-CHECKS
  cat <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  criSocket: unix:///containerd/containerd.sock
  ignorePreflightErrors: [$3]
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
imageRepository: $1
kubernetesVersion: $2
CFG
}
preflight() {  # preflight CONFIG ARGS...: output in $OUTPUT, exit code in $RC
  RC=0; timeout 120 "$KKADM" --rootfs "$WORK" init phase preflight --config "$1" "${@:2}" \
    </dev/null >"$WORK/out" 2>&1 || RC=$?
  OUTPUT=$(cat "$WORK/out")
}

mapfile -t IMAGES < <("$KKADM" config images list --image-repository "$REGISTRY" \
  --kubernetes-version v1.32.0 2>/dev/null)
registry_push_images "${IMAGES[@]}"
# Every check but CRI and ImagePull is ignored: this machine is no node (ports, swap, binaries...).
config "$REGISTRY" v1.32.0 "" >"$WORK/probe.yaml"
preflight "$WORK/probe.yaml" --dry-run
IGNORED=$( (grep -o '\[ERROR [^]]*\]' <<<"$OUTPUT" || true) | sed 's/\[ERROR \(.*\)\]/\1/' |
  (grep -vx -e CRI -e ImagePull || true) | paste -sd, -)
config "$REGISTRY" v1.32.0 "$IGNORED" >"$WORK/kkadm.yaml"

# ---- 1. a dry run pulls nothing ----------------------------------------------------------------
preflight "$WORK/kkadm.yaml" --dry-run
assert_eq "dry run passes ($OUTPUT)" 0 "$RC"
assert_contains "kubeadm's dry-run line" "$OUTPUT" \
  "[preflight] Would pull the required images (like 'kubeadm config images pull')"
assert_eq "the dry run asked the registry nothing" 0 "$(registry_requests)"

# ---- 2. preflight pulls every image ------------------------------------------------------------
preflight "$WORK/kkadm.yaml"
assert_eq "preflight passes ($OUTPUT)" 0 "$RC"
assert_contains "kubeadm's lines" "$OUTPUT" "[preflight] Pulling images required for setting up a Kubernetes cluster
[preflight] This might take a minute or two, depending on the speed of your internet connection
[preflight] You can also perform this action beforehand using 'kubeadm config images pull'"
listed=$(ctrd_ctr images ls -q)
for image in "${IMAGES[@]}"; do check "ctr images ls shows $image" grep -qxF "$image" <<<"$listed"; done
before=$(registry_requests)
preflight "$WORK/kkadm.yaml"
assert_eq "IfNotPresent: nothing asked again" "$before" "$(registry_requests)"

# ---- 3. a missing image is the ImagePull error, ignorable --------------------------------------
config "$REGISTRY" v1.32.9 "$IGNORED" >"$WORK/missing.yaml"
preflight "$WORK/missing.yaml"
assert_eq "missing image fails preflight" 2 "$RC"
assert_contains "ImagePull error naming it" "$OUTPUT" \
  "[ERROR ImagePull]: failed to pull image $REGISTRY/kube-apiserver:v1.32.9: rpc error: code = NotFound"
preflight "$WORK/missing.yaml" --ignore-preflight-errors ImagePull
assert_eq "ignored ImagePull passes" 0 "$RC"
assert_contains "as a warning" "$OUTPUT" "[WARNING ImagePull]: failed to pull image $REGISTRY/kube-apiserver:v1.32.9"

# ---- 4. a retry is an event ---------------------------------------------------------------------
flaky_proxy_start 2 503
config "$FLAKY" v1.32.0 "$IGNORED" >"$WORK/flaky.yaml"
preflight "$WORK/flaky.yaml" --events "$WORK/events.jsonl"
assert_eq "flaky registry: preflight passes after a retry ($OUTPUT)" 0 "$RC"
assert_contains "retry in the log" "$OUTPUT" "(attempt 1 of 5), retrying in 1s"
retry=$(grep '"kind":"Retry"' "$WORK/events.jsonl" || true)
assert_contains "a Retry event" "$retry" '"what":"image-pull"'
assert_contains "naming the image" "$retry" "\"reason\":\"$FLAKY/kube-apiserver:v1.32.0: rpc error"
finish
