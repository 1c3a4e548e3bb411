# One real systemd for an e2e test, booted as PID 1 in private namespaces by lib/sd_boot.sh and
# reached by kkadm through KKADM_SYSTEM_BUS_ADDRESS. Source it after the root check; it sets
#   BASE  the test's scratch directory (the instance's /run is $BASE/run)
#   R     the node root kkadm gets as --rootfs
#   BIN   a directory for stand-in binaries that the instance sees (not under its private /tmp)
# and removes the instance and all of them on exit. The test defines fail() before booting.
LIB="$KKADM_SOURCE_DIR/tests/e2e/lib/sd_boot.sh"
BASE=$(mktemp -d /tmp/kksd-e2e-XXXXXX)
# The stand-in kubelet must be visible inside the instance, whose /tmp, /var/tmp, /run and /dev
# are private: keep it beside the binary unless that is under one of those.
BIN_PARENT=$(dirname "$(realpath "$KKADM")")
case "$BIN_PARENT/" in /tmp/*|/var/tmp/*|/run/*|/dev/*) BIN_PARENT=/var/lib ;; esac
BIN=$(mktemp -d "$BIN_PARENT/kkadm-e2e-bin-XXXXXX")
R="$BASE/node"
BOOT=""
SD=""

sd_instance_cleanup() {
  if [ -n "$SD" ] && kill -0 "$SD" 2>/dev/null; then
    kill -s SIGRTMIN+3 "$SD"
    for _ in $(seq 150); do kill -0 "$BOOT" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$BOOT" 2>/dev/null && kill -s KILL "$SD" 2>/dev/null
  fi
  [ -n "$BOOT" ] && { kill "$BOOT" 2>/dev/null; wait "$BOOT" 2>/dev/null; }
  SD_BOOT_LIB=1 source "$LIB"
  sd_boot_cleanup_cgroups "$BASE"
  # The node root's bind mounts of the instance's directories (sd_instance_bind), deepest first.
  awk -v r="$R/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r | xargs -r -n1 umount -l
  rm -rf "$BASE" "$BIN"
}
trap sd_instance_cleanup EXIT

# sd_instance_bind DIR NODE_PATH: the instance's DIR is the node root's NODE_PATH, bind-mounted.
# A symbolic link would not do: a node root is a root, and no link leads out of it.
sd_instance_bind() {
  mkdir -p "$1" "$R$2"
  mount --bind "$1" "$R$2"
}

export KKADM_SYSTEM_BUS_ADDRESS="unix:path=$BASE/run/dbus/system_bus_socket"
bus() { DBUS_SYSTEM_BUS_ADDRESS="$KKADM_SYSTEM_BUS_ADDRESS" busctl --system "$@"; }
UNIT="org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/kubelet_2eservice"
prop() { bus get-property $UNIT "$1" "$2" 2>&1; }

# Boots the instance (the caller's environment, e.g. SD_BOOT_VENDOR_UNITS, reaches sd_boot.sh)
# and waits until systemd says it is running; fail()s otherwise.
sd_instance_boot() {
  bash "$LIB" "$BASE" >"$BASE/boot.log" 2>&1 &
  BOOT=$!
  local state=""
  for _ in $(seq 100); do
    [ -z "$SD" ] && SD=$(pgrep -P "$BOOT" -x systemd || true)
    state=$(bus get-property org.freedesktop.systemd1 /org/freedesktop/systemd1 \
              org.freedesktop.systemd1.Manager SystemState 2>/dev/null || true)
    [ "$state" = 's "running"' ] && return 0
    sleep 0.1
  done
  fail "systemd did not boot: $(cat "$BASE/boot.log")"
}
