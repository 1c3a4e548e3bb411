#!/bin/bash
# sd_boot.sh BASE [TARGET]: boots the host's systemd as PID 1 in fresh pid+mount+net+uts+ipc
# namespaces, for tests that need a real service manager (docs/real-components.md §3a).
#   BASE/run    -> bind-mounted on /run inside (host sees BASE/run/dbus/system_bus_socket)
#   BASE/units  -> bind-mounted on /etc/systemd/system inside (throwaway; tests write units here)
#   BASE/console.log <- the instance's /dev/console
# Inside, / is read-only; /tmp, /var/tmp and /dev are private; /proc/sys and /sys are read-only;
# the instance boots only to TARGET (basic.target), so the host's enabled services never start.
# Optional environment:
#   SD_BOOT_UNITS=DIR     use DIR instead of BASE/units (e.g. a --rootfs's /etc/systemd/system)
#   SD_BOOT_RW_DIRS="D…"  host directories (not under /tmp or /var/tmp) that stay writable inside,
#                         at the same paths (e.g. a node's --rootfs the stand-in kubelet writes to)
#   SD_BOOT_HOSTNAME=N    the instance's hostname (and its /etc/hostname, bind-mounted from BASE)
#   SD_BOOT_VENDOR_UNITS=DIR  DIR's files appear in /usr/lib/systemd/system inside, over the host's
#                         (a read-only overlay), as a package's unit files would
# The instance lives in its own cgroup kk-sd-<basename BASE>; after it exits, remove that with
# sd_boot_cleanup_cgroups (source this file with SD_BOOT_LIB=1 to get the function).
sd_boot_cgroup_name() { echo "kk-sd-$(basename "$1")"; }

# Removes the instance's cgroup directories (deepest first). Safe to call when they are absent.
sd_boot_cleanup_cgroups() {
  local cg h
  cg=$(sd_boot_cgroup_name "$1")
  for h in systemd unified; do
    [ -d "/sys/fs/cgroup/$h/$cg" ] || continue
    find "/sys/fs/cgroup/$h/$cg" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
}

[ "${SD_BOOT_LIB:-}" = 1 ] && return 0
set -eu

B=$(realpath "$1"); T=${2:-basic.target}
U=$(realpath -m "${SD_BOOT_UNITS:-$B/units}")
mkdir -p "$B/run" "$U"; : > "$B/console.log"
# Units that would touch kernel-global state or the host's files are masked.
for u in systemd-sysctl.service systemd-modules-load.service systemd-binfmt.service \
         systemd-remount-fs.service proc-sys-fs-binfmt_misc.automount systemd-firstboot.service \
         systemd-sysusers.service systemd-random-seed.service; do
  ln -sf /dev/null "$U/$u"; done
# Own cgroup, so systemd builds init.scope/system.slice below it and not at the host's root.
CG=$(sd_boot_cgroup_name "$B")
for h in systemd unified; do
  if [ -d "/sys/fs/cgroup/$h" ]; then
    mkdir -p "/sys/fs/cgroup/$h/$CG"; echo $$ > "/sys/fs/cgroup/$h/$CG/cgroup.procs"
  fi
done
exec unshare --pid --fork --mount --net --uts --ipc --propagation private --mount-proc -- /bin/bash -c '
  set -e
  B=$0 U=$2
  mount --bind "$B/run" /run
  mount --bind "$U" /etc/systemd/system
  [ -z "$5" ] || mount -t overlay overlay -o "ro,lowerdir=$5:/usr/lib/systemd/system" /usr/lib/systemd/system
  for d in $3; do mount --bind "$d" "$d"; done
  mkdir -p "$B/.olddev" && mount --rbind /dev "$B/.olddev"
  mount -t tmpfs -o mode=755,nosuid tmpfs /dev
  for n in null zero full random urandom tty; do touch /dev/$n; mount --bind "$B/.olddev/$n" /dev/$n; done
  touch /dev/console; mount --bind "$B/console.log" /dev/console
  mkdir /dev/pts /dev/shm /dev/mqueue
  mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts /dev/pts; ln -s pts/ptmx /dev/ptmx
  mount -t tmpfs -o mode=1777 tmpfs /dev/shm
  ln -s /proc/self/fd /dev/fd; ln -s /proc/self/fd/0 /dev/stdin
  ln -s /proc/self/fd/1 /dev/stdout; ln -s /proc/self/fd/2 /dev/stderr
  umount -l "$B/.olddev" && rmdir "$B/.olddev"
  mount -t tmpfs -o mode=1777 tmpfs /tmp
  mount -t tmpfs -o mode=1777 tmpfs /var/tmp
  if [ -n "$4" ]; then
    hostname "$4"
    if [ -f /etc/hostname ]; then echo "$4" > "$B/hostname"; mount --bind "$B/hostname" /etc/hostname; fi
  fi
  mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys
  mount -o remount,bind,ro /sys
  mount -o remount,bind,ro /
  export container=kkadm-test
  exec /lib/systemd/systemd --system --unit="$1"
' "$B" "$T" "$U" "${SD_BOOT_RW_DIRS:-}" "${SD_BOOT_HOSTNAME:-}" "${SD_BOOT_VENDOR_UNITS:-}"
