# shellcheck shell=bash
# Sandbox nodes for end-to-end runs of kkadm (source it after lib/common.sh). Each node is
#   - a real systemd (lib/sd_boot.sh) as PID 1 in its own pid/mount/net/uts/ipc namespaces, with
#     the node's name as hostname and the node's --rootfs (node_root NAME) writable inside;
#   - `kubelet` on kkadm's PATH: a wrapper running the stand-in kubelet (tests/sandbox/kubelet.py)
#     for this node, so kkadm's kubelet-start really starts it through the node's systemd, and it
#     runs the node's static Pods (the real etcd, the stand-in API server, controller-manager and
#     scheduler) in the node's network namespace;
#   - an eth0 with the node's address (10.123.0.X/24) whose veth peer is a port of the bridge br0
#     in a "switch" network namespace shared by all nodes of this sandbox, so nodes reach each
#     other (etcd peers on :2380, API servers on :6443, kubelets) and nothing else.
# The root namespace has a blackhole route for 10.123.0.0/16 while any sandbox runs, so nothing
# from it ever reaches these addresses. Everything (processes, cgroups, namespaces, veths, the
# route, directories) is removed at exit, on failure too; a guard process does the same if the
# test dies without running its EXIT trap (SIGKILL).
#
# Functions (NAME is a node name; the "current node" is the one last booted or chosen by node_use):
#   node_boot NAME ADDRESS [NAME ADDRESS]...
#                               boot nodes, in parallel (seconds per node printed on stderr); the
#                               last one becomes the current node. ADDRESS: 10.123.0.1-254
#   node_use NAME               make NAME the current node
#   node_exec_on NAME CMD...    run CMD in NAME's network and UTS namespaces (host filesystem)
#   node_kkadm_on NAME ARGS...  $KKADM --rootfs <root> ARGS with NAME's kubelet wrapper on PATH and
#                               KKADM_SYSTEM_BUS_ADDRESS set for this call only, in NAME's namespaces
#   node_systemctl_on NAME ARGS systemctl against NAME's systemd (from inside its mount namespace)
#   node_start_kubelet_on NAME  write kubelet.service (the flags of kubeadm's packaged drop-in) when
#                               the node has none, and start it: for nodes kkadm has not set up
#                               (the caller writes /var/lib/kubelet/config.yaml and any kubeconfig)
#   node_stop_on NAME           halt NAME's systemd (its units stop; the kubelet and static Pods
#                               end with it); its files stay until exit
#   node_root NAME, node_dir NAME, node_logs NAME, node_bus NAME, node_address NAME, node_pid NAME
#                               print the rootfs, the node's directory, the static Pods' log
#                               directory, the KKADM_SYSTEM_BUS_ADDRESS value, the address, the
#                               PID of its systemd
#   node_names                  print the booted nodes' names, in boot order
#   node_exec, node_kkadm, node_systemctl, node_stop: the same for the current node.
# Current-node globals (read-only for callers): NODE_NAME NODE_ADDRESS NODE_DIR NODE_ROOT NODE_SD
# NODE_SYSTEMD_PID NODE_UNSHARE_PID.
SANDBOX_RANGE=10.123.0.0/16
SANDBOX_PREFIX_LEN=24
NODE_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SANDBOX_DIR=${SANDBOX_DIR:-}
declare -gA NODE_ADDRS=() NODE_DIRS=() NODE_PIDS=() NODE_UNSHARE_PIDS=() NODE_SDS=() NODE_PORTS=()
declare -ga NODE_ORDER=()

_node_known() {
  [ -n "${NODE_DIRS[$1]:-}" ] || { echo "sandbox: no node named '$1' (booted: ${NODE_ORDER[*]:-none})" >&2; return 1; }
}
node_root() { _node_known "$1" && echo "${NODE_DIRS[$1]}/rootfs"; }
node_dir() { _node_known "$1" && echo "${NODE_DIRS[$1]}"; }
node_logs() { _node_known "$1" && echo "${NODE_DIRS[$1]}/logs"; }
node_address() { _node_known "$1" && echo "${NODE_ADDRS[$1]}"; }
node_pid() { _node_known "$1" && echo "${NODE_PIDS[$1]}"; }
node_bus() { _node_known "$1" && echo "unix:path=${NODE_SDS[$1]}/run/dbus/system_bus_socket"; }
node_names() { echo "${NODE_ORDER[*]}"; }

node_use() {  # NAME
  _node_known "$1" || return 1
  NODE_NAME=$1 NODE_ADDRESS=${NODE_ADDRS[$1]} NODE_DIR=${NODE_DIRS[$1]} NODE_ROOT=${NODE_DIRS[$1]}/rootfs
  NODE_SD=${NODE_SDS[$1]} NODE_SYSTEMD_PID=${NODE_PIDS[$1]} NODE_UNSHARE_PID=${NODE_UNSHARE_PIDS[$1]}
}

node_exec_on() {  # NAME CMD...
  _node_known "$1" || return 1
  local pid=${NODE_PIDS[$1]}; shift
  [ -n "$pid" ] || { echo "sandbox: the node is stopped" >&2; return 1; }
  nsenter -t "$pid" -n -u -- "$@"
}

node_kkadm_on() {  # NAME ARGS...
  _node_known "$1" || return 1
  local name=$1; shift
  KKADM_SYSTEM_BUS_ADDRESS=$(node_bus "$name") PATH="${NODE_DIRS[$name]}/bin:$PATH" \
    node_exec_on "$name" "$KKADM" --rootfs "${NODE_DIRS[$name]}/rootfs" "$@"
}

node_systemctl_on() {  # NAME ARGS...
  _node_known "$1" || return 1
  local pid=${NODE_PIDS[$1]}; shift
  nsenter -t "$pid" -m -p -n -u -- systemctl "$@"
}

node_start_kubelet_on() {  # NAME
  _node_known "$1" || return 1
  local unit=${NODE_DIRS[$1]}/rootfs/etc/systemd/system/kubelet.service
  [ -e "$unit" ] || cat > "$unit" <<UNIT
# Written by the sandbox (tests/e2e/lib/sandbox_node.sh) for a node kkadm has not set up.
[Unit]
Description=kubelet: the stand-in kubelet of sandbox node $1
[Service]
ExecStart=${NODE_DIRS[$1]}/bin/kubelet --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf --config=/var/lib/kubelet/config.yaml
Restart=always
RestartSec=1
UNIT
  node_systemctl_on "$1" daemon-reload && node_systemctl_on "$1" start kubelet.service
}

node_exec() { node_exec_on "$NODE_NAME" "$@"; }
node_kkadm() { node_kkadm_on "$NODE_NAME" "$@"; }
node_systemctl() { node_systemctl_on "$NODE_NAME" "$@"; }
node_stop() { [ -n "${NODE_NAME:-}" ] || return 0; node_stop_on "$NODE_NAME"; }

node_stop_on() {  # NAME
  _node_known "$1" || return 1
  sandbox_halt_nodes halt "${NODE_DIRS[$1]}"
  NODE_PIDS[$1]=
  [ "${NODE_NAME:-}" != "$1" ] || NODE_SYSTEMD_PID=
}

# node_boot NAME ADDRESS [NAME ADDRESS]...: several nodes boot in parallel; the last one named
# becomes the current node.
node_boot() {
  local start name i
  start=$(date +%s%N)
  [ $# -ge 2 ] && [ $(($# % 2)) -eq 0 ] || { echo "sandbox: usage: node_boot NAME ADDRESS [NAME ADDRESS]..." >&2; return 1; }
  local -a names=()
  for ((i = 1; i < $#; i += 2)); do
    local n=${!i} j=$((i + 1))
    local a=${!j}
    [[ "$n" =~ ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ ]] || { echo "sandbox: bad node name '$n'" >&2; return 1; }
    [[ "$a" =~ ^10\.123\.0\.([1-9][0-9]?|1[0-9][0-9]|2[0-4][0-9]|25[0-4])$ ]] ||
      { echo "sandbox: node address '$a' is not a host of 10.123.0.0/24" >&2; return 1; }
    [ -z "${NODE_DIRS[$n]:-}" ] || { echo "sandbox: node '$n' exists already" >&2; return 1; }
    names+=("$n")
    NODE_ADDRS[$n]=$a
  done
  # The node's systemd has a private /tmp and /var/tmp: a kubelet wrapper pointing there would
  # restart forever instead of running the stand-in.
  case "$(readlink -f "$KKADM_SOURCE_DIR")/" in
    /tmp/* | /var/tmp/*)
      echo "sandbox: the source tree $KKADM_SOURCE_DIR is under /tmp or /var/tmp, which a node's systemd sees privately: the stand-in kubelet could not start; use a checkout elsewhere" >&2
      return 1 ;;
  esac
  [ -n "$SANDBOX_DIR" ] || sandbox_create || return 1
  for name in "${names[@]}"; do _node_spawn "$name" "${NODE_ADDRS[$name]}"; done
  for name in "${names[@]}"; do
    _node_wait "$name" || return 1
    local ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf 'sandbox: node %s (%s) booted in %d.%02d s\n' "$name" "${NODE_ADDRS[$name]}" \
      $((ms / 1000)) $((ms % 1000 / 10)) >&2
  done
  node_use "${names[-1]}"
}

# Starts the node's systemd in the background (its directory, kubelet wrapper, hostname).
_node_spawn() {  # NAME ADDRESS
  local name=$1 address=$2 dir
  # systemd's instance gets private /tmp and /var/tmp, so the node lives under /var/lib.
  dir=$SANDBOX_DIR/$name
  mkdir -p "$dir/rootfs/etc/systemd/system" "$dir/bin" "$dir/logs"
  NODE_ORDER+=("$name")
  NODE_PORTS[$name]=kk${SANDBOX_DIR##*-}${#NODE_ORDER[@]}
  NODE_DIRS[$name]=$dir NODE_PIDS[$name]=
  # Its basename names the instance's cgroup (kk-sd-...): unique per node and per sandbox.
  NODE_SDS[$name]=$(_sandbox_node_sd "$dir")
  cat > "$dir/bin/kubelet" <<WRAP
#!/bin/sh
# Stand-in kubelet for the sandbox node $name (tests/sandbox/kubelet.py).
exec python3 "$KKADM_SOURCE_DIR/tests/sandbox/kubelet.py" --sandbox-rootfs "$dir/rootfs" \\
  --sandbox-node-name "$name" --sandbox-log "$dir/logs" --node-ip "$address" "\$@"
WRAP
  chmod +x "$dir/bin/kubelet"
  SD_BOOT_UNITS=$dir/rootfs/etc/systemd/system SD_BOOT_RW_DIRS="$dir" SD_BOOT_HOSTNAME=$name \
    setsid bash "$NODE_LIB_DIR/sd_boot.sh" "${NODE_SDS[$name]}" >"$dir/boot.log" 2>&1 </dev/null &
  NODE_UNSHARE_PIDS[$name]=$!
  echo "$!" > "$dir/unshare.pid"
}

# Waits (10 s at most) for the node's systemd to serve D-Bus, then plugs the node into the switch.
_node_wait() {  # NAME
  local name=$1 dir=${NODE_DIRS[$1]} pid='' i
  local socket=${NODE_SDS[$name]}/run/dbus/system_bus_socket
  for i in $(seq 1 200); do
    [ -n "$pid" ] || pid=$(pgrep -P "${NODE_UNSHARE_PIDS[$name]}" -x systemd || true)
    [ -n "$pid" ] && [ -S "$socket" ] && break
    sleep 0.05
  done
  [ -n "$pid" ] && [ -S "$socket" ] ||
    { echo "sandbox: systemd of $name did not start: $(cat "$dir/boot.log")" >&2; return 1; }
  NODE_PIDS[$name]=$pid
  sandbox_plug_node "$name" "$pid" "${NODE_ADDRS[$name]}"
}

# ---- the sandbox: one directory, one switch, one route reference, one guard per test ----------------

# Creates SANDBOX_DIR, the switch namespace with br0, the blackhole route (reference-counted
# across concurrent sandboxes) and the guard; registers the teardown with on_exit.
sandbox_create() {
  SANDBOX_DIR=$(mktemp -d /var/lib/kkadm-sandbox-XXXXXX)
  local switch=kk-sw-${SANDBOX_DIR##*-}
  echo "$switch" > "$SANDBOX_DIR/switch"
  on_exit "sandbox_teardown '$SANDBOX_DIR'"
  sandbox_route_acquire "$SANDBOX_DIR"
  ip netns add "$switch" && ip -n "$switch" link add br0 type bridge &&
    ip -n "$switch" link set br0 up || { echo "sandbox: cannot create the switch namespace $switch" >&2; return 1; }
  # If the test dies without its EXIT trap (SIGKILL), the guard tears the sandbox down; after a
  # normal teardown it sees the directory gone and exits.
  setsid bash -c 'while kill -0 "$1" 2>/dev/null && [ -d "$2" ]; do sleep 0.5; done
                  [ -d "$2" ] || exit 0; source "$3"; sandbox_teardown "$2"' \
    sandbox-guard "$$" "$SANDBOX_DIR" "$NODE_LIB_DIR/sandbox_node.sh" >/dev/null 2>&1 </dev/null &
}

# Gives the node eth0 (the node end of a veth whose other end is a br0 port) with ADDRESS/24.
sandbox_plug_node() {  # NAME SYSTEMD_PID ADDRESS
  local switch port=${NODE_PORTS[$1]}
  switch=$(cat "$SANDBOX_DIR/switch")
  ip -n "$switch" link add "$port" type veth peer name eth0 netns "/proc/$2/ns/net" &&
    ip -n "$switch" link set "$port" master br0 up &&
    nsenter -t "$2" -n sh -c "ip link set lo up && ip link set eth0 up && ip addr add '$3/$SANDBOX_PREFIX_LEN' dev eth0" ||
    { echo "sandbox: cannot plug node $1 into the switch" >&2; return 1; }
}

# Stops nodes, all at once, from their directories alone (the guard has no arrays). MODE halt:
# systemd halts (SIGRTMIN+3), stopping its units, for 10 s at most; MODE kill: no grace. The end
# of PID 1 ends the whole PID namespace, the kubelet and every static Pod with it; the network
# namespace and the veth go with the last process. Every process still in a node's cgroup (only
# that node's processes are there) is then SIGKILLed, and the cgroups are removed.
sandbox_halt_nodes() {  # MODE NODE_DIR...
  local mode=$1 dir i pid left
  shift
  for dir in "$@"; do
    pid=$(_sandbox_node_systemd "$dir") || continue
    if [ "$mode" = halt ]; then kill -s SIGRTMIN+3 "$pid"; else kill -9 "$pid"; fi 2>/dev/null
  done
  for i in $(seq 1 100); do
    left=
    for dir in "$@"; do [ -z "$(_sandbox_node_procs "$dir")" ] || left=1; done
    [ -n "$left" ] || break
    sleep 0.1
  done
  for i in $(seq 1 50); do
    left=
    for dir in "$@"; do
      for pid in $(_sandbox_node_procs "$dir"); do left=1; kill -9 "$pid" 2>/dev/null; done
    done
    [ -n "$left" ] || break
    sleep 0.1
  done
  SD_BOOT_LIB=1 source "$NODE_LIB_DIR/sd_boot.sh"
  for dir in "$@"; do
    rm -f "$dir/unshare.pid"
    sd_boot_cleanup_cgroups "$(_sandbox_node_sd "$dir")"
  done
  return 0
}

# The node's sd_boot.sh BASE directory: its basename names the instance's cgroup kk-sd-<basename>.
_sandbox_node_sd() {  # NODE_DIR
  local sandbox=${1%/*}
  echo "$1/sd-${sandbox##*-}-$(basename "$1")"
}

# The PIDs in the node's cgroup tree (name=systemd hierarchy, else the unified one).
_sandbox_node_procs() {  # NODE_DIR
  local h cg
  cg=kk-sd-$(basename "$(_sandbox_node_sd "$1")")
  for h in systemd unified; do
    if [ -d "/sys/fs/cgroup/$h/$cg" ]; then
      find "/sys/fs/cgroup/$h/$cg" -name cgroup.procs -exec cat {} + 2>/dev/null
      return 0
    fi
  done
}

# The node's systemd (PID 1 of its namespaces): the child of its unshare process.
_sandbox_node_systemd() {  # NODE_DIR
  local unshare pid
  unshare=$(cat "$1/unshare.pid" 2>/dev/null) || return 1
  pid=$(pgrep -P "$unshare" -x systemd) || return 1
  _sandbox_node_procs "$1" | grep -qx "$pid" && echo "$pid"
}

# Stops every node of the sandbox, removes the switch and the directory, drops the route reference.
sandbox_teardown() {  # SANDBOX_DIR
  local dir=$1 node switch
  [ -d "$dir" ] || return 0
  local -a nodes=()
  for node in "$dir"/*/; do [ -d "$node/rootfs" ] && nodes+=("${node%/}"); done
  # Everything is thrown away: no grace needed.
  [ ${#nodes[@]} -eq 0 ] || sandbox_halt_nodes kill "${nodes[@]}"
  switch=$(cat "$dir/switch" 2>/dev/null || true)
  [ -z "$switch" ] || ip netns del "$switch" 2>/dev/null || true
  sandbox_route_release "$dir"
  rm -rf "$dir"
}

# The blackhole route is shared by every sandbox on the machine (several tests may run at once):
# each holds a reference file; the last one out removes the route.
SANDBOX_ROUTE_REFS=/run/kkadm-sandbox-route
sandbox_route_acquire() {  # SANDBOX_DIR
  mkdir -p "$SANDBOX_ROUTE_REFS"
  (
    flock 9
    touch "$SANDBOX_ROUTE_REFS/$(basename "$1")"
    ip route replace blackhole "$SANDBOX_RANGE"
  ) 9>"$SANDBOX_ROUTE_REFS.lock"
}
sandbox_route_release() {  # SANDBOX_DIR
  (
    flock 9
    rm -f "$SANDBOX_ROUTE_REFS/$(basename "$1")"
    local ref
    for ref in "$SANDBOX_ROUTE_REFS"/*; do  # references of sandboxes that vanished do not count
      [ -e "$ref" ] && [ ! -d "/var/lib/$(basename "$ref")" ] && rm -f "$ref"
    done
    [ -n "$(ls -A "$SANDBOX_ROUTE_REFS" 2>/dev/null)" ] || ip route del blackhole "$SANDBOX_RANGE" 2>/dev/null || true
  ) 9>"$SANDBOX_ROUTE_REFS.lock"
}

# ---- a cluster on the current node, for tests --------------------------------------------------

# node_init_config: the InitConfiguration document of the current node (its name and address;
# every preflight error ignored, since a sandbox node is no real machine). A test adds its own
# fields (bootstrapTokens ...) after it, then further documents (ClusterConfiguration).
node_init_config() {
  cat <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  name: $NODE_NAME
  ignorePreflightErrors: [all]
localAPIEndpoint:
  advertiseAddress: $NODE_ADDRESS
CFG
}

# node_init CONFIG [ARGS...]: `kkadm init --config CONFIG ARGS` on the current node, its output in
# $WORK/init.out. When init fails, nothing after it can work: the failure is counted, the static
# Pods' logs are shown and the test ends.
node_init() {
  local rc=0 log
  node_kkadm init --config "$@" >"$WORK/init.out" 2>&1 || rc=$?
  assert_eq "kkadm init exit code (output: $(tail -20 "$WORK/init.out"))" 0 "$rc"
  [ "$rc" -ne 0 ] || return 0
  for log in "$NODE_DIR"/logs/*; do echo "== $log"; tail -15 "$log"; done >&2
  finish
  exit 1
}

# ---- waiting and failing in multi-node tests ------------------------------------------------------

SANDBOX_T0=$(date +%s%N)
# The time since this file was sourced, e.g. "12.34 s".
elapsed() {
  local ms=$(( ($(date +%s%N) - SANDBOX_T0) / 1000000 ))
  printf '%d.%02d s' $((ms / 1000)) $((ms % 1000 / 10))
}
# wait_for SECONDS CMD...: CMD succeeds within SECONDS (polled every 0.2 s).
wait_for() {
  local end=$(( $(date +%s) + $1 )); shift
  until "$@" >/dev/null 2>&1; do [ "$(date +%s)" -lt "$end" ] || return 1; sleep 0.2; done
}
# After a failure the later steps cannot work: show every node's static Pod logs and kubelet
# journal, and end the test.
stop_on_failure() {
  [ "$E2E_FAILURES" -eq 0 ] && return 0
  local n f
  for n in $(node_names); do
    for f in "$(node_logs "$n")"/*.log; do [ -e "$f" ] && { echo "== $n: $(basename "$f")"; tail -15 "$f"; }; done
    echo "== $n: kubelet"
    journalctl -D "$(node_dir "$n")"/sd-*/run/log/journal -u kubelet --no-pager 2>/dev/null | tail -15
  done >&2
  finish; exit 1
}
