#!/usr/bin/env bash
# The CRI pre-flight check against a real containerd (tests/e2e/lib/containerd.sh), through the
# binary: a socket that appears 2 s after kkadm started passes within --cri-socket-wait, with a
# progress line; the runtime's name and version are the ones the independent CRI client reads;
# no runtime at all is kubeadm's error after the wait, which is bounded; a dry run asks too.
# The node root is $WORK, where containerd's socket is /containerd/containerd.sock.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/containerd.sh"
kk_require_runtime_tools

config() {  # config SOCKET IGNORED-CHECKS
  cat <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  criSocket: $1
  ignorePreflightErrors: [$2]
CFG
}
preflight() {  # preflight CONFIG ARGS...: output in $OUTPUT, exit code in $RC, time in $TOOK ms
  local start; start=$(date +%s%N)
  RC=0; timeout 120 "$KKADM" --rootfs "$WORK" init phase preflight --config "$1" "${@:2}" \
    </dev/null >"$WORK/out" 2>&1 || RC=$?
  TOOK=$(( ($(date +%s%N) - start) / 1000000 ))
  OUTPUT=$(cat "$WORK/out")
}

# Every check but CRI is ignored: this machine is no node (ports, swap, binaries...), and the
# images kubeadm pulls are not in the test's containerd (tests/e2e/config_images_*_test.sh).
config unix:///nowhere/cri.sock "" >"$WORK/probe.yaml"
preflight "$WORK/probe.yaml" --cri-socket-wait 0s
IGNORED=$( (grep -o '\[ERROR [^]]*\]' <<<"$OUTPUT" || true) | sed 's/\[ERROR \(.*\)\]/\1/' |
  (grep -vx CRI || true) | sort -u | paste -sd, -)
IGNORED=${IGNORED:+$IGNORED,}ImagePull
config unix:///containerd/containerd.sock "$IGNORED" >"$WORK/kkadm.yaml"
config unix:///nowhere/cri.sock "$IGNORED" >"$WORK/none.yaml"

# ---- 1. the runtime starts 2 s after kkadm: kkadm waits for its socket -------------------------
preflight_bg() { preflight "$WORK/kkadm.yaml" --cri-socket-wait 30s; echo "$RC $TOOK" >"$WORK/late.rc"; }
preflight_bg &
BG=$!
sleep 2
containerd_start
wait "$BG"
read -r RC TOOK <"$WORK/late.rc"; OUTPUT=$(cat "$WORK/out")
assert_eq "preflight passes once the socket appears ($OUTPUT)" 0 "$RC"
assert_contains "progress line" "$OUTPUT" \
  "[preflight] Waiting up to 30s for the container runtime's socket $WORK/containerd/containerd.sock"
check "it waited for the runtime (${TOOK} ms)" test "$TOOK" -ge 2000
check "but not for the whole wait (${TOOK} ms)" test "$TOOK" -lt 25000
assert_not_contains "no CRI error" "$OUTPUT" "CRI]"

# ---- 2. the runtime's name and version, as the independent client reads them ------------------
version=$(cri version)
name=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["runtimeName"])' "$version")
release=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["runtimeVersion"])' "$version")
assert_eq "the independent client sees containerd" containerd "$name"
preflight "$WORK/kkadm.yaml"
assert_eq "preflight passes ($OUTPUT)" 0 "$RC"
assert_contains "runtime reported" "$OUTPUT" \
  "[preflight] Container runtime $name $release (CRI API v1) at unix:///containerd/containerd.sock: network "
assert_not_contains "no waiting when the socket is there" "$OUTPUT" "Waiting up to"

# A dry run asks the real runtime too (kubeadm's dry run runs its checks).
preflight "$WORK/kkadm.yaml" --dry-run
assert_eq "dry-run preflight passes ($OUTPUT)" 0 "$RC"
assert_contains "dry run: runtime reported" "$OUTPUT" "[preflight] Container runtime $name $release"

# ---- 3. no runtime: kubeadm's error after the wait ----------------------------------------------
preflight "$WORK/none.yaml" --cri-socket-wait 3s
assert_eq "no runtime fails preflight" 2 "$RC"
assert_contains "waited" "$OUTPUT" "[preflight] Waiting up to 3s for the container runtime's socket $WORK/nowhere/cri.sock"
assert_contains "kubeadm's error" "$OUTPUT" \
  '[ERROR CRI]: container runtime is not running: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /nowhere/cri.sock: connect: no such file or directory"'
check "after the whole wait (${TOOK} ms)" test "$TOOK" -ge 3000
check "and no longer (${TOOK} ms)" test "$TOOK" -lt 8000
# Ignored, it is a warning and preflight goes on.
preflight "$WORK/none.yaml" --cri-socket-wait 0s --ignore-preflight-errors CRI
assert_eq "ignored CRI error passes" 0 "$RC"
assert_contains "as a warning" "$OUTPUT" "[WARNING CRI]: container runtime is not running"

# A socket nobody answers on is an error too (the runtime is dead, its socket file left).
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$WORK/nowhere/cri.sock" 2>/dev/null ||
  { mkdir -p "$WORK/nowhere"; python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$WORK/nowhere/cri.sock"; }
preflight "$WORK/none.yaml" --cri-socket-wait 0s
assert_eq "a dead socket fails preflight" 2 "$RC"
assert_contains "with gRPC's code" "$OUTPUT" "[ERROR CRI]: container runtime is not running: rpc error: code = Unavailable desc = "
finish
