#!/usr/bin/env bash
# The README's first command as a user runs it, as root from the source tree: scripts/demo.sh
# (the packages are installed and kkadm is built already, so those steps find nothing to do).
# Checked: exit status 0; `kubectl get nodes` lists the control-plane node and the worker that
# joined with the one-argument join token; the timing tables of init, join and the steps; and
# nothing the demo made is left afterwards: its sandbox directory, switch namespace, cgroups,
# processes, blackhole-route reference and temporary directory, nor an etcd.service that is
# enabled or running and was not before; the same when a step fails, with exit status 1.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"  # wait_for, elapsed

etcd_service() {  # "<is-enabled>/<is-active>" of the host's etcd.service
  local enabled active
  enabled=$(systemctl is-enabled etcd.service 2>/dev/null) active=$(systemctl is-active etcd.service 2>/dev/null)
  echo "$enabled/$active"
}
ETCD_BEFORE=$(etcd_service)
# run_demo OUTPUT [PATH-PREFIX]: scripts/demo.sh as the README runs it; prints its exit status.
run_demo() {
  local rc=0
  mkdir -p "$WORK/tmp"
  (cd "$KKADM_SOURCE_DIR" && PATH=${2:-}$PATH KKADM_BUILD=$(dirname "$KKADM") TMPDIR=$WORK/tmp \
    scripts/demo.sh) >"$1" 2>&1 </dev/null || rc=$?
  echo "$rc"
}

# left_nothing OUTPUT: nothing the demo that wrote OUTPUT made is left.
left_nothing() {
  local sandbox id
  sandbox=$(sed -n 's/^==> sandbox: \(\/var\/lib\/kkadm-sandbox-[A-Za-z0-9]*\) .*/\1/p' "$1")
  check "the demo named its sandbox directory ($sandbox)" test -n "$sandbox"
  sandbox=${sandbox:-/var/lib/kkadm-sandbox-unknown} id=${sandbox##*-}
  check "sandbox directory removed" test ! -e "$sandbox"
  # The guard process ends within a second of the directory's removal.
  no_process() { ! pgrep -f "$sandbox" >/dev/null; }
  check "no process of the sandbox left ($(pgrep -af "$sandbox" || true))" wait_for 5 no_process
  check "switch namespace kk-sw-$id removed" test -z "$(ip netns list | grep -w "kk-sw-$id" || true)"
  no_cgroup_left() { ! compgen -G "/sys/fs/cgroup/*/kk-sd-sd-$id-*" >/dev/null; }
  check "no cgroup of the nodes left" no_cgroup_left
  check "its blackhole-route reference dropped" test ! -e "/run/kkadm-sandbox-route/kkadm-sandbox-$id"
  check "no temporary directory left ($(ls -A "$WORK/tmp"))" test -z "$(ls -A "$WORK/tmp")"
  assert_eq "etcd.service enabled/active as before the demo" "$ETCD_BEFORE" "$(etcd_service)"
}

# ---- the demo ------------------------------------------------------------------------------------
rc=$(run_demo "$WORK/demo.out")
OUT=$(cat "$WORK/demo.out")
assert_eq "scripts/demo.sh exit status (output: $(tail -40 "$WORK/demo.out"))" 0 "$rc"
echo "scripts/demo.sh took $(elapsed)"
NODES=$(sed -n '/kubectl .*get nodes/,$p' "$WORK/demo.out")
check "kubectl lists the control-plane node demo-cp, Ready, tainted (listing: $NODES)" \
  grep -Eq '^demo-cp +True +10\.123\.0\.11 +v[0-9.]+ +node-role.kubernetes.io/control-plane$' \
  <<<"$NODES"
check "kubectl lists the worker demo-worker, Ready" \
  grep -Eq '^demo-worker +True +10\.123\.0\.12 +v[0-9.]+ +<none>$' <<<"$NODES"
assert_contains "the worker joined" "$OUT" "This node has joined the cluster"
for title in "Time per section of kkadm init on demo-cp:" \
  "Time per section of kkadm join on demo-worker:" "Time per step:"; do
  assert_contains "timing table" "$OUT" "$title"
done
for row in "kkadm init \(demo-cp\)" "kkadm join \(demo-worker\)" "both Nodes listed by kubectl"; do
  check "timing row '$row' has seconds" grep -Eq "^  $row +[0-9]+\.[0-9]{2} s$" <<<"$OUT"
done
check "init's sections are timed (certs)" grep -Eq '^  certs +[0-9]+\.[0-9]{2} s$' <<<"$OUT"
check "the build step ran" grep -q "^==> building kkadm in " <<<"$OUT"
left_nothing "$WORK/demo.out"

# ---- a failing step: exit status 1, and still nothing left -----------------------------------------
# The node listing fails (a kubectl first on PATH that refuses it; init and join do not use kubectl).
mkdir -p "$WORK/bin"
cat >"$WORK/bin/kubectl" <<KUBECTL
#!/bin/sh
case "\$*" in *custom-columns*) echo "error: the server has gone away" >&2; exit 1 ;; esac
exec $(command -v kubectl) "\$@"
KUBECTL
chmod +x "$WORK/bin/kubectl"
rc=$(run_demo "$WORK/failing.out" "$WORK/bin:")
assert_eq "exit status when the listing fails (output: $(tail -20 "$WORK/failing.out"))" 1 "$rc"
assert_contains "it says what failed" "$(cat "$WORK/failing.out")" "kubectl get nodes did not list both"
left_nothing "$WORK/failing.out"
echo "demo_test took $(elapsed)"
finish
