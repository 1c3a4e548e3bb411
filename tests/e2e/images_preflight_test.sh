#!/usr/bin/env bash
# init's pre-flight pulls kubeadm's images through a real containerd (tests/e2e/lib/containerd.sh):
# kubeadm's three lines and the images in `ctr images ls`; a missing image is the ImagePull error,
# a warning with --ignore-preflight-errors=ImagePull; a dry run says it would pull and asks the
# registry nothing; a retry through a flaky registry is a Retry event in --events. containerd's
# sandbox_image (registry.k8s.io/pause:3.10) unlike kkadm's pause image is kubeadm's warning, the
# same one is not. A runtime that is dead (no socket, or a socket nobody listens on) is one error
# per image at once, under every pull policy, instead of 5 tries' pauses (15 s) an image.
# The node root is $WORK, where containerd's socket is /containerd/containerd.sock.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/containerd.sh"
kk_require_runtime_tools
containerd_start
registry_start

config() {  # config REPOSITORY VERSION IGNORED-CHECKS [POLICY [SOCKET]]
  cat <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  criSocket: ${5:-unix:///containerd/containerd.sock}
  imagePullPolicy: ${4:-IfNotPresent}
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
assert_contains "kubeadm's warning: containerd's sandbox image is not kkadm's pause" "$OUTPUT" \
  "detected that the sandbox image \"registry.k8s.io/pause:3.10\" of the container runtime is inconsistent with that used by kubeadm. It is recommended to use \"$REGISTRY/pause:3.10\" as the CRI sandbox image."
before=$(registry_requests)
preflight "$WORK/kkadm.yaml"
assert_eq "IfNotPresent: nothing asked again" "$before" "$(registry_requests)"

# ---- 2b. the same sandbox image is no warning ---------------------------------------------------
# kkadm's default names, tagged in containerd from the registry's: nothing to pull (IfNotPresent),
# and its pause image registry.k8s.io/pause:3.10 is containerd's sandbox_image.
mapfile -t DEFAULT_NAMES < <("$KKADM" config images list --kubernetes-version v1.32.0 2>/dev/null)
for i in "${!IMAGES[@]}"; do
  ctrd_ctr images tag --force "${IMAGES[$i]}" "${DEFAULT_NAMES[$i]}" >/dev/null
done
config registry.k8s.io v1.32.0 "$IGNORED" >"$WORK/default.yaml"
preflight "$WORK/default.yaml"
assert_eq "default images present: preflight passes ($OUTPUT)" 0 "$RC"
assert_not_contains "no sandbox image warning when they agree" "$OUTPUT" "sandbox image"

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
# ---- 5. a dead runtime: one error per image, at once ---------------------------------------------
# CRI ignored (as on a machine whose runtime comes later): the pulls then meet no runtime.
"$KK_PY" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$WORK/stale.sock"
for socket in unix:///none.sock unix:///stale.sock; do
  for policy in Always IfNotPresent; do
    config "$REGISTRY" v1.32.0 "${IGNORED:+$IGNORED,}CRI" "$policy" "$socket" >"$WORK/dead.yaml"
    start=$(date +%s%N)
    preflight "$WORK/dead.yaml"
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    assert_eq "$socket, $policy: ImagePull fails" 2 "$RC"
    assert_eq "$socket, $policy: one error per image" 7 "$(grep -c '\[ERROR ImagePull\]' <<<"$OUTPUT")"
    if [ "$policy" = Always ]; then
      error="failed to pull image $REGISTRY/kube-apiserver:v1.32.0: container runtime is not running:"
    else
      error="failed to check if image $REGISTRY/kube-apiserver:v1.32.0 exists:"
    fi
    assert_contains "$socket, $policy: naming the image" "$OUTPUT" \
      "[ERROR ImagePull]: $error rpc error: code = Unavailable"
    assert_not_contains "$socket, $policy: no retry" "$OUTPUT" "retrying in"
    check "$socket, $policy: within 5 s (took $ms ms; 105 s with retries)" test "$ms" -lt 5000
  done
done
finish
