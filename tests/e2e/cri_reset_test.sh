#!/usr/bin/env bash
# `kkadm reset` removes every pod sandbox and container from a real containerd: the test creates
# them with the independent CRI client (python3-grpcio, tests/e2e/lib/cri_client.py), runs the
# binary, and that client then sees none left. Also: a dry run lists them and removes none; a
# reset without a runtime says so and succeeds; the journal-driven reset (a node kkadm's journal
# describes) removes them as well. The node root is $WORK/node, whose
# /run/containerd/containerd.sock is a link to the test's containerd socket.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/containerd.sh"
containerd_start

# ---- a systemd for `systemctl stop kubelet` (no kubelet unit: stopping it is a no-op) ----------
SD=$WORK/sd
bash "$KKADM_SOURCE_DIR/tests/e2e/lib/sd_boot.sh" "$SD" >"$WORK/sd-boot.log" 2>&1 &
SD_BOOT=$!
on_exit "SD_BOOT_LIB=1 source '$KKADM_SOURCE_DIR/tests/e2e/lib/sd_boot.sh'; sd_boot_cleanup_cgroups '$SD'"
on_exit "kill -s SIGRTMIN+3 \$(pgrep -P $SD_BOOT -x systemd) 2>/dev/null; for i in \$(seq 100); do kill -0 $SD_BOOT 2>/dev/null || break; sleep 0.1; done; kill -9 $SD_BOOT 2>/dev/null"
export KKADM_SYSTEM_BUS_ADDRESS="unix:path=$SD/run/dbus/system_bus_socket"
for _ in $(seq 100); do [ -S "$SD/run/dbus/system_bus_socket" ] && break; sleep 0.1; done
[ -S "$SD/run/dbus/system_bus_socket" ] || { echo "FAIL: systemd did not boot: $(cat "$WORK/sd-boot.log")"; exit 1; }

R=$WORK/node
mkdir -p "$R/etc/kubernetes/manifests" "$R/var/lib/kubelet" "$R/run/containerd"
ln -s ../../../containerd/containerd.sock "$R/run/containerd/containerd.sock"
SOCKET=unix:///run/containerd/containerd.sock

reset_() {  # reset_ ARGS...: output in $OUTPUT, exit code in $RC
  RC=0; timeout 120 "$KKADM" --rootfs "$R" reset --force "$@" </dev/null >"$WORK/out" 2>&1 || RC=$?
  OUTPUT=$(cat "$WORK/out")
}
count() { cri "$1" | grep -c '"id"' || true; }
make_pods() {  # two sandboxes, one with two containers (one exited), one with one
  local p1 p2
  p1=$(cri run-pod etcd-node --namespace kube-system)
  p2=$(cri run-pod coredns-x --namespace kube-system)
  cri create-container "$p1" etcd "$CTRD_SANDBOX_IMAGE" /bin/sh -c 'sleep 600' >/dev/null
  cri create-container "$p1" done "$CTRD_SANDBOX_IMAGE" /bin/true >/dev/null
  cri create-container "$p2" coredns "$CTRD_SANDBOX_IMAGE" /bin/sh -c 'sleep 600' >/dev/null
  PODS="$p1 $p2"
}

# ---- 1. a dry run removes nothing ---------------------------------------------------------------
make_pods
assert_eq "two sandboxes made" 2 "$(count pods)"
assert_eq "three containers made" 3 "$(count containers)"
reset_ --dry-run --cri-socket "$SOCKET"
assert_eq "dry run exit code ($OUTPUT)" 0 "$RC"
for p in $PODS; do assert_contains "dry run names $p" "$OUTPUT" "[dryrun] Would remove pod sandbox $p"; done
assert_eq "dry run left the sandboxes" 2 "$(count pods)"
assert_eq "dry run left the containers" 3 "$(count containers)"

# ---- 2. reset removes every sandbox and container -----------------------------------------------
reset_ --cri-socket "$SOCKET"
assert_eq "reset exit code ($OUTPUT)" 0 "$RC"
assert_contains "says it" "$OUTPUT" "[reset] Removing 2 pod sandboxes (and their containers) from $SOCKET"
assert_contains "and that it did" "$OUTPUT" "[reset] Removed 2 pod sandboxes"
assert_eq "no sandbox left (independent client)" 0 "$(count pods)"
assert_eq "no container left (independent client)" 0 "$(count containers)"
check "no task left in containerd" bash -c "[ -z \"\$(ctr --address '$CTRD_SOCK' -n k8s.io tasks ls -q)\" ]"

# ---- 3. detected socket (no --cri-socket): the one known socket under the root -----------------
mkdir -p "$R/var/run"
ln -s ../../run/containerd "$R/var/run/containerd"
make_pods
reset_
assert_eq "reset with a detected socket ($OUTPUT)" 0 "$RC"
assert_contains "detected containerd's" "$OUTPUT" "from unix:///var/run/containerd/containerd.sock"
assert_eq "none left after the detected reset" 0 "$(count pods)"
rm "$R/var/run/containerd"

# ---- 4. the journal-driven reset (a node kkadm's journal describes) removes them too -----------
make_pods
mkdir -p "$R/var/lib/kkadm"
RC=0; "$KKADM" --rootfs "$R" init phase kubelet-start --cri-socket "$SOCKET" </dev/null \
  >"$WORK/start.out" 2>&1 || RC=$?
if [ -s "$R/var/lib/kkadm/journal" ]; then
  reset_ --cri-socket "$SOCKET"
  assert_contains "journal-driven ($OUTPUT)" "$OUTPUT" "Undoing what kkadm's journal"
  assert_contains "removes the pods" "$OUTPUT" "[reset] Removed 2 pod sandboxes"
  assert_eq "none left after the journal-driven reset" 0 "$(count pods)"
else
  fail "kubelet-start wrote no journal to drive the reset: $(tail -5 "$WORK/start.out")"
fi

# ---- 5. no runtime: nothing to remove, and reset succeeds ---------------------------------------
containerd_stop
reset_ --cri-socket unix:///nowhere/cri.sock -v 2
assert_eq "reset without a runtime ($OUTPUT)" 0 "$RC"
assert_contains "says there is none" "$OUTPUT" "[reset] No container runtime socket at /nowhere/cri.sock: no containers to remove"
finish
