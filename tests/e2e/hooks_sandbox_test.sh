#!/usr/bin/env bash
# Hooks on a sandbox node (lib/sandbox_node.sh; docs/hooks.md): the cloud-init race of CAPI#1714,
# where kubeadm's preflight runs before containerd's socket exists, is closed by a pre-preflight
# hook that starts the real containerd (lib/containerd.sh's configuration, its socket in the node's
# /run/containerd) 2 s later and waits for its socket; without the hook the same preflight fails
# its CRI check (both with --cri-socket-wait 0s: the hook, not kkadm's own wait, wins the race).
# A post-init hook (the command's own post.d) runs the real kubectl with admin.conf, found through
# its binding context, against the stand-in API server and creates an object, which the test then
# reads back.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"
source "$(dirname "$0")/lib/containerd.sh"
kk_require_runtime_tools

node_boot node-1 10.123.0.31
R=$(node_root node-1)
HOOKS=$R/etc/kkadm/hooks.d/init
# containerd's directory is the node's /run/containerd: its socket is a node path, as criSocket is.
CTRD_DIR=$R/run/containerd CTRD_SOCK=$R/run/containerd/containerd.sock
CTRD_SANDBOX_IMAGE=registry.k8s.io/pause:3.10  # never run here: the CRI check only asks
export KK_CRI_CGROUP_PARENT=/kkadm-e2e-$$
mkdir -p "$CTRD_DIR/cni" "$CTRD_DIR/certs.d" "$CTRD_DIR/opt"
containerd_write_config "$CTRD_DIR"

# Every check but CRI is ignored: a sandbox node is no real machine.
pre_config() {  # IGNORED-CHECKS
  cat <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  name: $NODE_NAME
  criSocket: unix:///run/containerd/containerd.sock
  ignorePreflightErrors: [$1]
localAPIEndpoint:
  advertiseAddress: $NODE_ADDRESS
CFG
}
pre_config "" > "$WORK/pre.yaml"
rc=0; node_kkadm init phase preflight --config "$WORK/pre.yaml" --cri-socket-wait 0s >"$WORK/names.out" 2>&1 || rc=$?
IGNORED=$( (grep -o '\[ERROR [^]]*\]' "$WORK/names.out" || true) | sed 's/\[ERROR \(.*\)\]/\1/' | (grep -vx CRI || true) | sort -u | paste -sd, -)
IGNORED=${IGNORED:+$IGNORED,}ImagePull  # kubeadm's images are not in this containerd
pre_config "$IGNORED" > "$WORK/pre.yaml"

# Without a hook: preflight fails its CRI check (the race lost).
rc=0; node_kkadm init phase preflight --config "$WORK/pre.yaml" --cri-socket-wait 0s >"$WORK/nohook.out" 2>&1 || rc=$?
check "preflight without the hook fails (exit $rc)" test "$rc" -ne 0
assert_contains "on its CRI check" "$(cat "$WORK/nohook.out")" "[ERROR CRI]: container runtime is not running"

# The hook: starts the runtime 2 s later, as a service would start (it outlives the hook), and
# waits for its socket.
mkdir -p "$HOOKS/pre-preflight.d"
cat > "$HOOKS/pre-preflight.d/10-wait-for-containerd" <<HOOK
#!/bin/bash
setsid bash -c 'sleep 2; exec containerd --config "$CTRD_DIR/config.toml"' \
  </dev/null >"$CTRD_DIR/containerd.log" 2>&1 &
echo \$! > "$WORK/containerd.pid"
for i in \$(seq 150); do
  [ -S "$CTRD_SOCK" ] && { echo "containerd is up after \$i tries"; exit 0; }
  sleep 0.1
done
echo "containerd did not come up" >&2; exit 1
HOOK
chmod 755 "$HOOKS/pre-preflight.d/10-wait-for-containerd"
on_exit 'CTRD_PID=$(cat "$WORK/containerd.pid" 2>/dev/null) containerd_stop'
start=$(date +%s%N)
rc=0; node_kkadm init phase preflight --config "$WORK/pre.yaml" --cri-socket-wait 0s -v 2 >"$WORK/hook.out" 2>&1 || rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
assert_eq "preflight with the hook passes ($(tail -5 "$WORK/hook.out"))" 0 "$rc"
assert_not_contains "no CRI error" "$(cat "$WORK/hook.out")" "[ERROR CRI]"
assert_contains "the hook ran" "$(cat "$WORK/hook.out")" "[hooks] Running pre-preflight hook 10-wait-for-containerd"
assert_contains "its output is in the log" "$(cat "$WORK/hook.out")" "[hooks] 10-wait-for-containerd: containerd is up after"
check "the runtime took its 2 s (${took} ms)" test "$took" -ge 2000
assert_contains "the CRI check asked the real runtime" "$(cat "$WORK/hook.out")" "containerd 1.6"
rm -rf "$HOOKS/pre-preflight.d"
# The init below is not about the runtime: without one it pulls nothing (its images are not here).
CTRD_PID=$(cat "$WORK/containerd.pid") containerd_stop && rm -f "$CTRD_SOCK"

# post-init: kubectl with admin.conf (from the binding context) creates an object.
mkdir -p "$HOOKS/post.d"
cat > "$HOOKS/post.d/50-kubectl" <<'HOOK'
#!/bin/bash
set -euo pipefail
ctx=$(cat)
field() { python3 -c 'import json, sys; print(eval("json.loads(sys.argv[1])" + sys.argv[2]))' "$ctx" "$1"; }
root=$(field '["rootfs"]'); admin=$(field '["paths"]["adminKubeconfig"]')
[ "$(field '["result"]')" = Succeeded ] || { echo "init did not succeed" >&2; exit 1; }
kubectl --kubeconfig "${root%/}$admin" -n kube-system create configmap made-by-hook \
  --from-literal=stage="$(field '["stage"]')" --from-literal=phase="$(field '["phase"]')"
HOOK
chmod 755 "$HOOKS/post.d/50-kubectl"
node_init_config > "$WORK/init.yaml"
node_init "$WORK/init.yaml"
assert_contains "init ran the post-init hook" "$(cat "$WORK/init.out")" "[hooks] Running post-init hook 50-kubectl"
k() { node_exec_on node-1 kubectl --kubeconfig "$R/etc/kubernetes/admin.conf" "$@"; }
assert_eq "the hook's object is in the cluster" "post|" \
  "$(k -n kube-system get configmap made-by-hook -o jsonpath='{.data.stage}|{.data.phase}' 2>&1)"

finish
