#!/usr/bin/env bash
# `kkadm config images pull` against a real containerd and a loopback registry holding images this
# test builds under the names `kkadm config images list` prints (tests/e2e/lib/containerd.sh):
# kubeadm's "[config/images] Pulled" lines and containerd's own `ctr images ls`; a second pull
# asks the registry nothing (its access log) and says the images are present; a registry that
# fails its first requests (the flaky proxy, 503 or reset) is retried with each retry reported;
# a missing image is a clear error naming it; no runtime is an error at once.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/containerd.sh"

containerd_start
registry_start
SOCK=unix://$CTRD_SOCK

pull() {  # pull ARGS...: stdout in $OUT, stderr in $ERR, exit code in $RC
  RC=0
  timeout 120 "$KKADM" config images pull --cri-socket "$SOCK" "$@" >"$WORK/out" 2>"$WORK/err" ||
    RC=$?
  OUT=$(cat "$WORK/out")
  ERR=$(cat "$WORK/err")
}

mapfile -t IMAGES < <("$KKADM" config images list --image-repository "$REGISTRY" 2>/dev/null)
assert_eq "seven images" 7 "${#IMAGES[@]}"
registry_push_images "${IMAGES[@]}"

# ---- 1. the images are pulled, in kubeadm's order, and containerd holds them ------------------
pull --image-repository "$REGISTRY"
assert_eq "pull exits 0 ($ERR)" 0 "$RC"
assert_eq "kubeadm's lines" "$(printf '[config/images] Pulled %s\n' "${IMAGES[@]}")" "$OUT"
listed=$(ctrd_ctr images ls -q)
for image in "${IMAGES[@]}"; do
  check "ctr images ls shows $image" grep -qxF "$image" <<<"$listed"
  check "the independent CRI client sees $image" cri image-status "$image" >/dev/null
done
assert_eq "every blob fetched once (config + layer per image)" 14 "$(registry_blob_gets)"

# ---- 2. a second pull asks the registry nothing -----------------------------------------------
before=$(registry_requests)
pull --image-repository "$REGISTRY"
assert_eq "second pull exits 0" 0 "$RC"
assert_eq "already present" \
  "$(printf '[config/images] Image %s already present on machine\n' "${IMAGES[@]}")" "$OUT"
assert_eq "no request reached the registry" "$before" "$(registry_requests)"

# ---- 3. the same through a --config file ------------------------------------------------------
cat >"$WORK/kkadm.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  criSocket: $SOCK
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
imageRepository: $REGISTRY
CFG
RC=0; "$KKADM" config images pull --config "$WORK/kkadm.yaml" >"$WORK/out" 2>&1 || RC=$?
assert_eq "--config pull exits 0" 0 "$RC"
assert_eq "--config names the registry and the socket" 7 "$(grep -c "already present" "$WORK/out")"

# ---- 4. a registry failing its first requests is retried -------------------------------------
# containerd asks a failing manifest twice per pull: 4 failed requests fail two pulls.
flaky_proxy_start 4 503
start=$(date +%s%N)
pull --image-repository "$FLAKY"
took=$(( ($(date +%s%N) - start) / 1000000 ))
assert_eq "pull through the flaky registry exits 0 ($ERR)" 0 "$RC"
assert_eq "all pulled" 7 "$(grep -c "^\[config/images\] Pulled $FLAKY/" <<<"$OUT")"
assert_eq "the proxy failed 4 requests" 4 "$(grep -c '^fail 503' "$FLAKY_LOG")"
assert_contains "first retry reported" "$ERR" \
  "pulling image \"${IMAGES[0]/$REGISTRY/$FLAKY}\" failed (attempt 1 of 5), retrying in 1s: rpc error: code = Unknown"
assert_contains "with the registry's status" "$ERR" "503 Service Unavailable"
assert_contains "second retry reported, after a longer pause" "$ERR" "(attempt 2 of 5), retrying in 2s"
assert_eq "two retries" 2 "$(grep -c "retrying in" <<<"$ERR")"
check "it paused 1 s + 2 s (${took} ms)" test "$took" -ge 3000

flaky_proxy_start 2 reset
pull --image-repository "$FLAKY"
RESET_PROXY_LOG=$FLAKY_LOG
assert_eq "connection resets are retried too ($ERR)" 0 "$RC"
assert_contains "reset reported" "$ERR" "(attempt 1 of 5), retrying in 1s"
assert_eq "the proxy reset 2 connections" 2 "$(grep -c '^fail reset' "$RESET_PROXY_LOG")"

# ---- 5. a missing image fails at once, naming it ----------------------------------------------
pull --image-repository "$REGISTRY" --kubernetes-version v1.31.9
check "missing image: non-zero exit" test "$RC" -ne 0
assert_contains "the error names the image" "$ERR" \
  "failed to pull image \"$REGISTRY/kube-apiserver:v1.31.9\": rpc error: code = NotFound desc = "
assert_contains "and says it is not found" "$ERR" "not found"
assert_not_contains "a missing image is not retried" "$ERR" "retrying in"

# ---- 6. no runtime: an error at once ----------------------------------------------------------
SOCK=unix://$WORK/nowhere.sock
start=$(date +%s%N)
pull --image-repository "$REGISTRY"
took=$(( ($(date +%s%N) - start) / 1000000 ))
check "no runtime: non-zero exit" test "$RC" -ne 0
assert_contains "the error names the socket" "$ERR" "$WORK/nowhere.sock"
assert_contains "gRPC's code" "$ERR" "code = Unavailable"
check "without waiting (${took} ms)" test "$took" -lt 5000
finish
