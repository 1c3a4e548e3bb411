#!/usr/bin/env bash
# `kkadm init`, its journal taken away, then `kkadm reset --force` on a sandbox node
# (lib/sandbox_node.sh: real systemd, real etcd, stand-in kubelet and control plane). After the
# reset: systemd reports kubelet.service inactive, no process of the node is left (etcd,
# stand-ins), etcd's data directory is empty, and the node's rootfs equals its fingerprint from
# before `kkadm init` apart from exactly:
#   - the directories kubeadm keeps (emptied): /etc/kubernetes, /etc/kubernetes/manifests,
#     /etc/kubernetes/pki, /var/lib/kubelet, /var/lib/etcd, and their new parents /var, /var/lib;
#   - the (empty) hostPath directories the kubelet created for the control plane's DirectoryOrCreate
#     volumes, which kubeadm does not touch either: /etc/ssl/certs (ca-certs) and
#     /usr/libexec/kubernetes/kubelet-plugins/volume/exec (flexvolume-dir), with their new parents;
#   - kkadm's kubelet unit files, which reset keeps as kubeadm keeps the kubelet package's unit:
#     /etc/systemd/system/kubelet.service, kubelet.service.d/10-kkadm.conf, and the enablement
#     link multi-user.target.wants/kubelet.service (docs/reset.md).
# Then a second reset succeeds and changes nothing.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"

node_boot node-1 10.123.0.11
BEFORE=$(tree_fingerprint "$NODE_ROOT")
node_init_config > "$WORK/init.yaml"
node_init "$WORK/init.yaml"

# What runs for this node: the stand-in kubelet and its static Pods all carry the node's rootfs
# in their command line (--sandbox-rootfs R, etcd's --data-dir=R/var/lib/etcd).
node_processes() {
  pgrep -af -- "--sandbox-rootfs $NODE_ROOT|--data-dir=$NODE_ROOT" | grep -v pgrep || true
}
unit_state() {
  DBUS_SYSTEM_BUS_ADDRESS="$(node_bus "$NODE_NAME")" busctl --system get-property org.freedesktop.systemd1 \
    /org/freedesktop/systemd1/unit/kubelet_2eservice org.freedesktop.systemd1.Unit ActiveState 2>&1
}
assert_eq "kubelet active after init" 's "active"' "$(unit_state)"
running=$(node_processes)
assert_contains "etcd runs after init" "$running" "etcd"
assert_contains "the stand-in API server runs after init" "$running" "apiserver.py"
check "etcd has data after init" test -n "$(ls -A "$NODE_ROOT/var/lib/etcd")"

# A node without kkadm's journal (set up by kubeadm, or a kkadm from before the journal): reset
# does what kubeadm's does. (With the journal it undoes exactly what kkadm did: reset_journal_test.)
rm -rf "$NODE_ROOT/var/lib/kkadm" "$NODE_ROOT/run/kkadm"
start=$(date +%s%N)
rc=0; node_kkadm reset --force >"$WORK/reset.out" 2>&1 || rc=$?
OUT=$(cat "$WORK/reset.out")
echo "kkadm reset took $(( ($(date +%s%N) - start) / 1000000 )) ms"
assert_eq "kkadm reset exit code (output: $OUT)" 0 "$rc"
echo "$OUT"
for line in '[reset] Reading configuration from the cluster...' '[preflight] Running pre-flight checks' \
  '[reset] Deleted contents of the etcd data directory: /var/lib/etcd' '[reset] Stopping the kubelet service' \
  '[reset] Deleting contents of directories: [/etc/kubernetes/manifests /var/lib/kubelet /etc/kubernetes/pki]' \
  'The reset process does not clean CNI configuration. To do so, you must remove /etc/cni/net.d' \
  'Please, check the contents of the $HOME/.kube/config file.'; do
  assert_contains "reset output" "$OUT" "$line"
done
assert_not_contains "the cluster configuration was read" "$OUT" "Unable to fetch the kubeadm-config"

assert_eq "kubelet inactive after reset" 's "inactive"' "$(unit_state)"
for _ in $(seq 50); do [ -z "$(node_processes)" ] && break; sleep 0.1; done
assert_eq "no node process left" "" "$(node_processes)"
check "etcd data directory is empty" test -d "$NODE_ROOT/var/lib/etcd" -a -z "$(ls -A "$NODE_ROOT/var/lib/etcd")"

# The rootfs is back to its pre-init state, apart from the listed directories and unit files.
KEPT='^\./(var|var/lib|var/lib/kubelet|var/lib/etcd|etc/kubernetes|etc/kubernetes/manifests|etc/kubernetes/pki|etc/ssl|etc/ssl/certs|usr|usr/libexec|usr/libexec/kubernetes|usr/libexec/kubernetes/kubelet-plugins|usr/libexec/kubernetes/kubelet-plugins/volume|usr/libexec/kubernetes/kubelet-plugins/volume/exec) d [0-9]+$'
UNIT='^(\./etc/systemd/system/(kubelet\.service|kubelet\.service\.d|kubelet\.service\.d/10-kkadm\.conf|multi-user\.target\.wants|multi-user\.target\.wants/kubelet\.service) |[0-9a-f]{64}  \./etc/systemd/system/kubelet\.service(\.d/10-kkadm\.conf)?$)'
AFTER=$(tree_fingerprint "$NODE_ROOT")
extra=$(diff <(echo "$BEFORE") <(echo "$AFTER") | grep '^>' | sed 's/^> //' | grep -Ev "$KEPT" | grep -Ev "$UNIT" || true)
missing=$(diff <(echo "$BEFORE") <(echo "$AFTER") | grep '^<' | sed 's/^< //' || true)
assert_eq "nothing else is left in the rootfs" "" "$extra"
assert_eq "nothing that was there before init is gone" "" "$missing"
kept=$(diff <(echo "$BEFORE") <(echo "$AFTER") | grep '^>' | sed 's/^> //' | grep -Ec "$KEPT" || true)
assert_eq "the kept directories are there" 15 "$kept"

# Twice in a row: nothing left to do, success, no change.
rc=0; node_kkadm reset --force >"$WORK/reset2.out" 2>&1 || rc=$?
assert_eq "second reset exit code (output: $(cat "$WORK/reset2.out"))" 0 "$rc"
assert_eq "second reset changes nothing" "$AFTER" "$(tree_fingerprint "$NODE_ROOT")"
assert_contains "second reset: no cluster to read from" "$(cat "$WORK/reset2.out")" "[reset] Stopping the kubelet service"

node_stop
finish
