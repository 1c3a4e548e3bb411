# A sandbox node for end-to-end runs of `kkadm init` (source it after lib/common.sh):
#   - a real systemd (lib/sd_boot.sh) as the node's service manager, in its own network namespace
#     holding the node's address, with the node's --rootfs writable inside;
#   - `kubelet` on kkadm's PATH is a wrapper running the stand-in kubelet (tests/sandbox/kubelet.py),
#     so kkadm's kubelet-start really starts it through systemd, and it runs the static Pods: the
#     real etcd and the stand-in API server, controller-manager and scheduler;
#   - a blackhole route for the sandbox range in the root namespace, removed at exit.
# Functions: node_boot NAME ADDRESS, node_exec CMD... (runs in the node's network namespace),
# node_kkadm ARGS... (kkadm against the node's rootfs and systemd), node_stop.
SANDBOX_RANGE=10.123.0.0/16
NODE_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

node_boot() {  # NAME ADDRESS
  NODE_NAME=$1 NODE_ADDRESS=$2
  # systemd's instance gets private /tmp and /var/tmp, so the node lives elsewhere.
  NODE_DIR=$(mktemp -d /var/lib/kkadm-sandbox-XXXXXX)
  NODE_ROOT=$NODE_DIR/rootfs
  NODE_SD=$NODE_DIR/sd-${NODE_DIR##*-}  # its basename names the instance's cgroup: unique per node
  mkdir -p "$NODE_ROOT/etc/systemd/system" "$NODE_DIR/bin" "$NODE_DIR/logs"
  on_exit "rm -rf '$NODE_DIR'"
  cat > "$NODE_DIR/bin/kubelet" <<WRAP
#!/bin/sh
# Stand-in kubelet for the sandbox node $NODE_NAME (tests/sandbox/kubelet.py).
exec python3 "$KKADM_SOURCE_DIR/tests/sandbox/kubelet.py" --sandbox-rootfs "$NODE_ROOT" \\
  --sandbox-node-name "$NODE_NAME" --sandbox-log "$NODE_DIR/logs" --node-ip "$NODE_ADDRESS" "\$@"
WRAP
  chmod +x "$NODE_DIR/bin/kubelet"

  ip route add blackhole "$SANDBOX_RANGE" 2>/dev/null || true
  on_exit "ip route del blackhole '$SANDBOX_RANGE'"
  SD_BOOT_UNITS=$NODE_ROOT/etc/systemd/system SD_BOOT_RW_DIRS="$NODE_DIR" \
    setsid bash "$NODE_LIB_DIR/sd_boot.sh" "$NODE_SD" >"$NODE_DIR/sd-boot.log" 2>&1 &
  NODE_UNSHARE_PID=$!
  on_exit "node_stop"
  local i
  for i in $(seq 1 100); do
    NODE_SYSTEMD_PID=$(pgrep -P "$NODE_UNSHARE_PID" -x systemd || true)
    [ -n "$NODE_SYSTEMD_PID" ] && [ -S "$NODE_SD/run/dbus/system_bus_socket" ] && break
    sleep 0.1
  done
  [ -n "$NODE_SYSTEMD_PID" ] || { echo "systemd did not start: $(cat "$NODE_DIR/sd-boot.log")" >&2; return 1; }
  nsenter -t "$NODE_SYSTEMD_PID" -n ip link set lo up
  nsenter -t "$NODE_SYSTEMD_PID" -n ip addr add "$NODE_ADDRESS/32" dev lo
  export KKADM_SYSTEM_BUS_ADDRESS="unix:path=$NODE_SD/run/dbus/system_bus_socket"
}

node_exec() { nsenter -t "$NODE_SYSTEMD_PID" -n "$@"; }

node_kkadm() { PATH="$NODE_DIR/bin:$PATH" nsenter -t "$NODE_SYSTEMD_PID" -n "$KKADM" --rootfs "$NODE_ROOT" "$@"; }

node_stop() {
  [ -n "${NODE_SYSTEMD_PID:-}" ] || return 0
  # Halting PID 1 ends the whole PID namespace: the kubelet and every static Pod with it.
  kill -s SIGRTMIN+3 "$NODE_SYSTEMD_PID" 2>/dev/null || true
  local i
  for i in $(seq 1 100); do kill -0 "$NODE_UNSHARE_PID" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$NODE_UNSHARE_PID" "$NODE_SYSTEMD_PID" 2>/dev/null || true
  SD_BOOT_LIB=1 source "$NODE_LIB_DIR/sd_boot.sh"
  sd_boot_cleanup_cgroups "$NODE_SD"
  NODE_SYSTEMD_PID=
}
