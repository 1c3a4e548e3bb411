#!/usr/bin/env bash
# `kkadm reset` with kkadm's journal undoes exactly what the journal says kkadm did (docs/reset.md).
#   1. A scratch node root with files of its own (/etc/hostname, a user file in /etc/kubernetes,
#      the user's CA in /etc/kubernetes/pki), then `kkadm init phase` certs, kubeconfig,
#      control-plane and etcd, then the user adds a manifest and edits a kubeconfig; `kkadm reset
#      --force` with no system bus at all exits 0, never talks to systemd, and leaves the tree as it
#      was before init plus exactly the user's manifest (and the directory holding it); the
#      pre-existing files are byte-identical; the manifest and the edited kubeconfig are listed.
#   2. --dry-run on the same node changes nothing and says what it would remove.
#   3. A reset SIGKILLed at its N-th unlink/unlinkat/rmdir (strace fault injection), for several N,
#      then run again: exit 0 and the same final tree as the uninterrupted reset.
#   4. (root: a sandbox node with real systemd, etcd, the stand-in kubelet) a full `kkadm init`,
#      then reset: the kubelet unit kkadm started is stopped and the one it enabled disabled, the
#      unit files kkadm wrote are gone, no node process is left, and the tree is as before init
#      but for the hostPath directories the kubelet itself made for the static Pods.
source "$(dirname "$0")/lib/common.sh"

R=$WORK/node
mkdir -p "$R/etc/kubernetes/pki" "$R/var/lib" "$R/run"
echo "node-1" > "$R/etc/hostname"
echo "my notes about this cluster" > "$R/etc/kubernetes/user-notes.txt"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 365 \
  -keyout "$R/etc/kubernetes/pki/ca.key" -out "$R/etc/kubernetes/pki/ca.crt" -subj /CN=kubernetes \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign,digitalSignature \
  2>/dev/null
chmod 600 "$R/etc/kubernetes/pki/ca.key"
cat > "$WORK/init.yaml" <<'CFG'
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  name: node-1
localAPIEndpoint:
  advertiseAddress: 127.0.0.1
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.31.0
encryptionAlgorithm: ECDSA-P256
CFG
BEFORE=$(tree_fingerprint "$R")
# No service manager to reach: reset must not need one.
export KKADM_SYSTEM_BUS_ADDRESS="unix:path=$WORK/no-such-bus"
for phase in "certs all" "kubeconfig all" "control-plane all" "etcd local"; do
  # shellcheck disable=SC2086
  rc=0; "$KKADM" --rootfs "$R" init phase $phase --config "$WORK/init.yaml" >"$WORK/phase.out" 2>&1 || rc=$?
  assert_eq "init phase $phase (output: $(cat "$WORK/phase.out"))" 0 "$rc"
  cat "$WORK/phase.out" >> "$WORK/phases.out"
done
assert_contains "the user's CA is used, not rewritten" "$(cat "$WORK/phases.out")" \
  "[certs] Using existing ca certificate authority"
check "kkadm made the manifests" test -s "$R/etc/kubernetes/manifests/kube-apiserver.yaml"
check "kkadm made etcd's data directory" test -d "$R/var/lib/etcd"
echo "the user's" > "$R/etc/kubernetes/manifests/my-pod.yaml"
echo "# edited" >> "$R/etc/kubernetes/scheduler.conf"
INITED=$WORK/inited
cp -a "$R" "$INITED"

reset_node() {  # reset_node ROOT ARGS...: output in $OUT, exit code in $RC
  local root=$1; shift
  RC=0; "$KKADM" --rootfs "$root" reset "$@" </dev/null >"$WORK/reset.out" 2>&1 || RC=$?
  OUT=$(cat "$WORK/reset.out")
}

# ---- 2. the dry run first: nothing changes -------------------------------------------------------
reset_node "$R" --dry-run
assert_eq "dry-run exit code (output: $OUT)" 0 "$RC"
assert_eq "dry-run changed nothing" "$(tree_fingerprint "$INITED")" "$(tree_fingerprint "$R")"
assert_contains "dry-run says what it would remove" "$OUT" \
  '[reset] Would delete the files kkadm made: [/etc/kubernetes/pki/'
assert_contains "dry-run: the directories too" "$OUT" "[reset] Would delete the directories kkadm made: ["
assert_contains "dry-run: kkadm's record last" "$OUT" "[reset] Would delete kkadm's record of this node: [/run/kkadm /var/lib/kkadm]"

# ---- 1. the reset -------------------------------------------------------------------------------
reset_node "$R" --force
assert_eq "reset exit code (output: $OUT)" 0 "$RC"
echo "$OUT"
assert_not_contains "no service manager was asked" "$OUT" "kubelet service"
assert_not_contains "nothing incomplete" "$OUT" "incomplete"
assert_contains "no etcd member to remove" "$OUT" "kkadm started no service on this node"
assert_contains "the user's manifest is listed" "$OUT" \
  "/etc/kubernetes/manifests: kkadm made this directory, but it holds what kkadm did not make: my-pod.yaml"
assert_contains "the edited kubeconfig is listed" "$OUT" "$(printf '[reset] Removed although changed since kkadm wrote them: 1 file(s):\n\t/etc/kubernetes/scheduler.conf')"
AFTER=$(tree_fingerprint "$R")
USER_MADE='^(\./etc/kubernetes/manifests d [0-9]+|\./etc/kubernetes/manifests/my-pod\.yaml f [0-9]+|[0-9a-f]{64}  \./etc/kubernetes/manifests/my-pod\.yaml)$'
assert_eq "the tree is as before init, plus what the user made" "$BEFORE" \
  "$(echo "$AFTER" | grep -Ev "$USER_MADE")"
assert_eq "what the user made is there" 3 "$(echo "$AFTER" | grep -Ec "$USER_MADE")"
for f in etc/hostname etc/kubernetes/user-notes.txt etc/kubernetes/pki/ca.key etc/kubernetes/pki/ca.crt; do
  assert_eq "/$f byte-identical" "$(cd "$INITED" && sha256sum "$f")" "$(cd "$R" && sha256sum "$f")"
done
FINAL=$AFTER

# ---- 3. killed half way, then run again ---------------------------------------------------------
if command -v strace >/dev/null; then
  killed=0 resumed=0
  for n in 1 3 8 15 25 30; do
    K=$WORK/kill-$n
    rm -rf "$K"; cp -a "$INITED" "$K"
    rc=0
    { strace -f -o /dev/null -e trace=unlink,unlinkat,rmdir \
      -e inject=unlink,unlinkat,rmdir:signal=KILL:when="$n" \
      "$KKADM" --rootfs "$K" reset --force </dev/null >"$WORK/kill.out" 2>&1; } 2>/dev/null || rc=$?
    [ "$rc" -eq 0 ] || killed=$((killed + 1))
    reset_node "$K" --force
    assert_eq "reset after a kill at call $n: exit code (output: $OUT)" 0 "$RC"
    [[ "$OUT" != *"Done by the reset that was interrupted, not run again"* ]] || resumed=$((resumed + 1))
    assert_eq "reset after a kill at call $n: the same final tree" "$FINAL" "$(tree_fingerprint "$K")"
    rm -rf "$K"
  done
  check "the resets were killed ($killed of 6)" test "$killed" -ge 4
  check "a resumed reset left out what the killed one finished ($resumed)" test "$resumed" -ge 4
fi

# ---- 4. a sandbox node: units, etcd, the kubelet's own state -------------------------------------
if [ "$(id -u)" -eq 0 ]; then
  unset KKADM_SYSTEM_BUS_ADDRESS
  source "$(dirname "$0")/lib/sandbox_node.sh"
  node_boot node-1 10.123.0.11
  # What every real system has. (systemd makes multi-user.target.wants for kkadm's enable, and
  # removes it again with the disable once it is empty.)
  mkdir -p "$NODE_ROOT/var/lib" "$NODE_ROOT/run" "$NODE_ROOT/etc/ssl/certs"
  SB_BEFORE=$(tree_fingerprint "$NODE_ROOT")
  node_init_config > "$WORK/sandbox.yaml"
  node_init "$WORK/sandbox.yaml"
  unit_state() {
    DBUS_SYSTEM_BUS_ADDRESS="$(node_bus "$NODE_NAME")" busctl --system get-property org.freedesktop.systemd1 \
      /org/freedesktop/systemd1/unit/kubelet_2eservice org.freedesktop.systemd1.Unit "$1" 2>&1
  }
  node_processes() {
    pgrep -af -- "--sandbox-rootfs $NODE_ROOT|--data-dir=$NODE_ROOT" | grep -v pgrep || true
  }
  assert_eq "kubelet active after init" 's "active"' "$(unit_state ActiveState)"
  check "etcd has data after init" test -n "$(ls -A "$NODE_ROOT/var/lib/etcd")"
  rc=0; node_kkadm reset --force >"$WORK/sandbox-reset.out" 2>&1 || rc=$?
  OUT=$(cat "$WORK/sandbox-reset.out")
  assert_eq "sandbox reset exit code (output: $OUT)" 0 "$rc"
  for line in '[reset] Stopping the kubelet service' '[reset] Disabling the kubelet service' \
    '[reset] Deleted contents of the kubelet directory: /var/lib/kubelet' \
    '[reset] Deleted contents of the etcd data directory: /var/lib/etcd'; do
    assert_contains "sandbox reset output" "$OUT" "$line"
  done
  assert_eq "kubelet inactive after reset" 's "inactive"' "$(unit_state ActiveState)"
  for _ in $(seq 50); do [ -z "$(node_processes)" ] && break; sleep 0.1; done
  assert_eq "no node process left" "" "$(node_processes)"
  # The kubelet made these for the static Pods' DirectoryOrCreate volumes (flexvolume-dir):
  # not kkadm's doing, kept as kubeadm keeps them.
  KUBELETS='^\./usr(/libexec(/kubernetes(/kubelet-plugins(/volume(/exec)?)?)?)?)? d [0-9]+$'
  extra=$(diff <(echo "$SB_BEFORE") <(tree_fingerprint "$NODE_ROOT") | grep '^[<>]' | sed 's/^> //' | grep -Ev "$KUBELETS" || true)
  assert_eq "the sandbox node is as before init but for the kubelet's hostPath directories" "" "$extra"
  node_stop
fi
finish
