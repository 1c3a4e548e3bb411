#!/usr/bin/env bash
# `kkadm reset` never deletes through a symbolic link and never deletes what a mount shows.
# A --rootfs laid out like a kubeadm node, with links from kubeadm's directories to files and
# directories outside it (a link inside /var/lib/kubelet to an outside file, /etc/kubernetes/pki
# itself a link to an outside directory, /etc/kubernetes itself a link): reset removes the links,
# never the targets (their bytes are compared); a linked directory is listed, not followed. Also:
# reset twice in a row succeeds; an immutable file (chattr +i) is listed at the end and the exit
# code is 1; without a terminal and without --force reset refuses at once and changes nothing; a
# real bind mount below /var/lib/kubelet (inside `unshare -m`, so nothing leaks) is unmounted and
# its source left intact; a mount elsewhere is reported, not entered.
# The kubelet is stopped through a real systemd (lib/sd_boot.sh) that has no kubelet unit.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (systemd in namespaces, mount, chattr)"; exit 77; }

# ---- a systemd for `systemctl stop kubelet` (no kubelet unit: stopping it is a no-op) ----------
SD=$WORK/sd
bash "$KKADM_SOURCE_DIR/tests/e2e/lib/sd_boot.sh" "$SD" >"$WORK/sd-boot.log" 2>&1 &
SD_BOOT=$!
on_exit "SD_BOOT_LIB=1 source '$KKADM_SOURCE_DIR/tests/e2e/lib/sd_boot.sh'; sd_boot_cleanup_cgroups '$SD'"
on_exit "kill -s SIGRTMIN+3 \$(pgrep -P $SD_BOOT -x systemd) 2>/dev/null; for i in \$(seq 100); do kill -0 $SD_BOOT 2>/dev/null || break; sleep 0.1; done; kill -9 $SD_BOOT 2>/dev/null"
export KKADM_SYSTEM_BUS_ADDRESS="unix:path=$SD/run/dbus/system_bus_socket"
for _ in $(seq 100); do [ -S "$SD/run/dbus/system_bus_socket" ] && break; sleep 0.1; done
[ -S "$SD/run/dbus/system_bus_socket" ] || { echo "FAIL: systemd did not boot: $(cat "$WORK/sd-boot.log")"; exit 1; }

OUT=$WORK/outside
mkdir -p "$OUT/secret-dir/sub" "$OUT/pki-real/etcd" "$OUT/k8s-real/manifests" "$OUT/k8s-real/pki"
echo "secret bytes" > "$OUT/secret.txt"
echo "deep secret" > "$OUT/secret-dir/sub/file"
echo "real ca key" > "$OUT/pki-real/ca.key"
echo "real etcd ca" > "$OUT/pki-real/etcd/ca.crt"
echo "real admin.conf" > "$OUT/k8s-real/admin.conf"
echo "real manifest" > "$OUT/k8s-real/manifests/kube-apiserver.yaml"
echo "real pki" > "$OUT/k8s-real/pki/ca.key"
OUT_PRINT=$(tree_fingerprint "$OUT")

# A node as kubeadm leaves it (no etcd.yaml: no etcd to talk to here).
make_node() {
  local r=$1 f
  for f in etc/kubernetes/admin.conf etc/kubernetes/super-admin.conf etc/kubernetes/kubelet.conf \
           etc/kubernetes/bootstrap-kubelet.conf etc/kubernetes/controller-manager.conf \
           etc/kubernetes/scheduler.conf etc/kubernetes/manifests/kube-apiserver.yaml \
           etc/kubernetes/pki/ca.crt etc/kubernetes/pki/ca.key etc/kubernetes/pki/etcd/ca.crt \
           var/lib/kubelet/config.yaml var/lib/kubelet/kubeadm-flags.env var/lib/kubelet/pki/kubelet.crt \
           var/lib/kubelet/pods/p1/volumes/kubernetes.io~secret/token/ca.crt var/lib/etcd/member/snap/db \
           etc/kubernetes/keep.txt etc/hostname var/lib/other/data etc/cni/net.d/10-bridge.conf; do
    mkdir -p "$(dirname "$r/$f")"; echo "$f" > "$r/$f"
  done
}
reset_() {  # reset_ ROOT ARGS... (stdout+stderr in $WORK/out, exit code in $RC)
  local r=$1; shift
  RC=0; timeout 60 "$KKADM" --rootfs "$r" reset "$@" </dev/null >"$WORK/out" 2>&1 || RC=$?
  OUTPUT=$(cat "$WORK/out")
}
empty_dir() { [ -d "$1" ] && [ ! -L "$1" ] && [ -z "$(ls -A "$1")" ]; }
kept_as_is() { assert_eq "outside tree untouched ($1)" "$OUT_PRINT" "$(tree_fingerprint "$OUT")"; }

# ---- 1. links inside kubeadm's directories are removed as links --------------------------------
R=$WORK/node1; make_node "$R"
ln -s "$OUT/secret.txt" "$R/var/lib/kubelet/pods/p1/volumes/link-to-file"
ln -s "$OUT/secret-dir" "$R/var/lib/kubelet/link-to-dir"
ln -s ../../../etc/kubernetes/keep.txt "$R/var/lib/kubelet/relative-link"
ln -s "$OUT/secret-dir" "$R/etc/kubernetes/manifests/link-to-dir"
ln -s "$OUT/pki-real/ca.key" "$R/etc/kubernetes/pki/linked-key"
rm "$R/etc/kubernetes/admin.conf"; ln -s "$OUT/secret.txt" "$R/etc/kubernetes/admin.conf"
rm -r "$R/var/lib/etcd/member"; ln -s "$OUT/secret-dir" "$R/var/lib/etcd/member"
reset_ "$R" --force
assert_eq "links inside: exit code (output: $OUTPUT)" 0 "$RC"
kept_as_is "links inside"
for d in etc/kubernetes/manifests etc/kubernetes/pki var/lib/kubelet var/lib/etcd; do
  check "links inside: $d emptied and kept" empty_dir "$R/$d"
done
for f in admin.conf super-admin.conf kubelet.conf bootstrap-kubelet.conf controller-manager.conf scheduler.conf; do
  check "links inside: $f removed" test ! -e "$R/etc/kubernetes/$f" -a ! -L "$R/etc/kubernetes/$f"
done
for f in etc/kubernetes/keep.txt etc/hostname var/lib/other/data etc/cni/net.d/10-bridge.conf; do
  assert_eq "links inside: $f kept" "$f" "$(cat "$R/$f")"
done
for line in '[preflight] Running pre-flight checks' '[reset] Stopping the kubelet service' \
  '[reset] Unmounting mounted directories in "/var/lib/kubelet"' \
  '[reset] Deleting contents of directories: [/etc/kubernetes/manifests /var/lib/kubelet /etc/kubernetes/pki]' \
  '[reset] Deleting files: [/etc/kubernetes/admin.conf /etc/kubernetes/super-admin.conf /etc/kubernetes/kubelet.conf /etc/kubernetes/bootstrap-kubelet.conf /etc/kubernetes/controller-manager.conf /etc/kubernetes/scheduler.conf]' \
  '[reset] Deleted contents of the etcd data directory: /var/lib/etcd' \
  'The reset process does not clean CNI configuration. To do so, you must remove /etc/cni/net.d'; do
  assert_contains "links inside: output" "$OUTPUT" "$line"
done
assert_not_contains "links inside: nothing left behind" "$OUTPUT" "reset is incomplete"
# 2. twice in a row: nothing left to do, still success.
FIRST=$(tree_fingerprint "$R")
reset_ "$R" -f  # kubeadm's shorthand of --force
assert_eq "second reset: exit code (output: $OUTPUT)" 0 "$RC"
assert_eq "second reset changes nothing more" "$FIRST" "$(tree_fingerprint "$R")"
kept_as_is "second reset"

# ---- 3. a linked kubeadm directory is listed, not followed ------------------------------------
R=$WORK/node2; make_node "$R"
rm -r "$R/etc/kubernetes/pki"; ln -s "$OUT/pki-real" "$R/etc/kubernetes/pki"
rm -r "$R/etc/cni/net.d"; ln -s "$OUT/secret-dir" "$R/etc/cni/net.d"
reset_ "$R" --force --cleanup-cni
assert_eq "linked pki: exit code 1 (output: $OUTPUT)" 1 "$RC"
kept_as_is "linked pki"
check "linked pki: the link is still there" test -L "$R/etc/kubernetes/pki"
assert_contains "linked pki: listed" "$OUTPUT" "	/etc/kubernetes/pki: is a symbolic link (to $OUT/pki-real); not followed"
assert_contains "linked cni: listed" "$OUTPUT" "	/etc/cni/net.d: is a symbolic link (to $OUT/secret-dir); not followed"
assert_contains "linked pki: the list ends the output" "$(tail -1 "$WORK/out")" "error: reset is incomplete: 2 item(s)"
assert_not_contains "--cleanup-cni drops the CNI sentence" "$OUTPUT" "does not clean CNI configuration"
check "linked pki: manifests still emptied" empty_dir "$R/etc/kubernetes/manifests"
check "linked pki: kubelet dir still emptied" empty_dir "$R/var/lib/kubelet"
reset_ "$R" --force --cleanup-cni
assert_eq "linked pki again: same answer" 1 "$RC"
kept_as_is "linked pki again"

R=$WORK/node3; make_node "$R"
rm -r "$R/etc/kubernetes"; ln -s "$OUT/k8s-real" "$R/etc/kubernetes"
reset_ "$R" --force
assert_eq "linked /etc/kubernetes: exit code 1 (output: $OUTPUT)" 1 "$RC"
kept_as_is "linked /etc/kubernetes"
assert_contains "linked /etc/kubernetes: listed" "$OUTPUT" "	/etc/kubernetes: is a symbolic link (to $OUT/k8s-real)"
check "linked /etc/kubernetes: kubelet dir emptied" empty_dir "$R/var/lib/kubelet"

# ---- 4. what cannot be removed is listed and the exit code is 1 -------------------------------
R=$WORK/node4; make_node "$R"
if chattr +i "$R/etc/kubernetes/pki/ca.key" 2>/dev/null; then
  on_exit "chattr -i '$R/etc/kubernetes/pki/ca.key'"
  reset_ "$R" --force
  assert_eq "immutable file: exit code 1 (output: $OUTPUT)" 1 "$RC"
  assert_contains "immutable file: listed" "$OUTPUT" "	/etc/kubernetes/pki/ca.key: could not remove: Operation not permitted"
  assert_contains "immutable file: one item" "$OUTPUT" "1 item(s) could not be cleaned up"
  assert_eq "immutable file: kept" "etc/kubernetes/pki/ca.key" "$(cat "$R/etc/kubernetes/pki/ca.key")"
  check "immutable file: the rest is gone" test ! -e "$R/etc/kubernetes/pki/etcd"
  chattr -i "$R/etc/kubernetes/pki/ca.key"
  reset_ "$R" --force
  assert_eq "after fixing it, reset succeeds (output: $OUTPUT)" 0 "$RC"
  check "after fixing it, pki is empty" empty_dir "$R/etc/kubernetes/pki"
else
  echo "NOTE: this file system does not support chattr +i; the immutable-file check is skipped"
fi

# ---- 5. no terminal: no answer refuses at once; a piped answer counts -----------------------------
R=$WORK/node5; make_node "$R"
BEFORE=$(tree_fingerprint "$R")
start=$(date +%s)
RC=0; timeout 20 "$KKADM" --rootfs "$R" reset </dev/null >"$WORK/out" 2>"$WORK/err" || RC=$?
check "no terminal: exit code is not 0 (was $RC)" [ "$RC" -ne 0 ]
check "no terminal: did not wait" test "$RC" -ne 124 -a $(( $(date +%s) - start )) -lt 10
assert_contains "no terminal: names --force" "$(cat "$WORK/err")" "--force"
assert_eq "no terminal: nothing changed" "$BEFORE" "$(tree_fingerprint "$R")"
RC=0; echo n | timeout 20 "$KKADM" --rootfs "$R" reset >"$WORK/out" 2>"$WORK/err" || RC=$?
check "a piped 'n' refuses with exit 2 (was $RC)" [ "$RC" -eq 2 ]
assert_contains "a piped 'n': kubeadm's message" "$(cat "$WORK/err")" \
  "won't proceed; the user didn't answer (Y|y) in order to continue"
assert_eq "piped 'n': nothing changed" "$BEFORE" "$(tree_fingerprint "$R")"
# As in kubeadm, an answer on a pipe is an answer: `echo y | kkadm reset` resets.
RC=0; echo y | timeout 60 "$KKADM" --rootfs "$R" reset >"$WORK/out" 2>"$WORK/err" || RC=$?
check "a piped 'y' confirms (exit $RC: $(tail -2 "$WORK/err"))" test "$RC" -eq 0 -o "$RC" -eq 1
assert_contains "a piped 'y': the reset ran" "$(cat "$WORK/out")" "[reset] Deleting contents of"
check "a piped 'y': the node changed" [ "$BEFORE" != "$(tree_fingerprint "$R")" ]

# ---- 6. real mounts, in a private mount namespace ----------------------------------------------
R=$WORK/node6; make_node "$R"
SRC=$WORK/bind-src; mkdir -p "$SRC/inner"; echo "volume data" > "$SRC/inner/file"
SRC_PRINT=$(tree_fingerprint "$SRC")
mkdir -p "$R/var/lib/kubelet/pods/x" "$R/etc/kubernetes/pki/mnt"
urc=0
unshare -m --propagation private bash -c '
  set -u
  R=$1 SRC=$2 KKADM=$3 W=$4
  mount --bind "$SRC" "$R/var/lib/kubelet/pods/x" || exit 90
  mount --bind "$SRC/inner" "$R/var/lib/kubelet/pods/x/inner" || exit 91
  rc=0; "$KKADM" --rootfs "$R" reset --force >"$W/mnt-out" 2>&1 || rc=$?
  echo "$rc" > "$W/mnt-rc"
  findmnt -rn -o TARGET | grep -F "$R/" > "$W/mnt-left" || true
  # A mount where reset does not unmount: reported, not entered.
  mkdir -p "$R/etc/kubernetes/pki/mnt" && mount --bind "$SRC" "$R/etc/kubernetes/pki/mnt" || exit 92
  rc=0; "$KKADM" --rootfs "$R" reset --force >"$W/mnt2-out" 2>&1 || rc=$?
  echo "$rc" > "$W/mnt2-rc"
' _ "$R" "$SRC" "$KKADM" "$WORK" || urc=$?
assert_eq "mount namespace script ran" 0 "$urc"
assert_eq "bind mounts: exit code (output: $(cat "$WORK/mnt-out" 2>/dev/null))" 0 "$(cat "$WORK/mnt-rc" 2>/dev/null)"
assert_eq "bind mounts: none left below the rootfs" "" "$(cat "$WORK/mnt-left" 2>/dev/null)"
check "bind mounts: kubelet dir emptied" empty_dir "$R/var/lib/kubelet"
assert_eq "bind mounts: the mounted source is intact" "$SRC_PRINT" "$(tree_fingerprint "$SRC")"
assert_eq "mount in pki: exit code 1 (output: $(cat "$WORK/mnt2-out" 2>/dev/null))" 1 "$(cat "$WORK/mnt2-rc" 2>/dev/null)"
assert_contains "mount in pki: listed" "$(cat "$WORK/mnt2-out" 2>/dev/null)" \
  "	/etc/kubernetes/pki/mnt: is a mount point (another file system is mounted there); not entered"
assert_eq "mount in pki: the mounted source is intact" "$SRC_PRINT" "$(tree_fingerprint "$SRC")"
check "no mount leaked out of the namespace" test -z "$(findmnt -rn -o TARGET | grep -F "$WORK/" || true)"

finish
