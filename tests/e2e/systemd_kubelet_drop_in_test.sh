#!/bin/bash
# e2e: `kkadm init phase kubelet-start --rootfs R` on a node with the kubelet and kubeadm packages'
# unit files (kubelet.service and kubeadm's 10-kubeadm.conf in /usr/lib/systemd/system) and a
# runtime drop-in that also sets ExecStart, against a REAL systemd booted as PID 1 by
# lib/sd_boot.sh. kkadm must refuse, naming the file and writing nothing, while a drop-in it cannot
# hide (in /etc/systemd/system) overrides its own; without one, it hides the others and the
# kubelet systemd runs is kkadm's. Exit 77 (ctest SKIP) only without root.
set -u
: "${KKADM:?KKADM must name the kkadm binary}" "${KKADM_SOURCE_DIR:?KKADM_SOURCE_DIR must be set}"
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: booting systemd as PID 1 in namespaces needs root"; exit 77
fi

source "$KKADM_SOURCE_DIR/tests/e2e/lib/sd_instance.sh"
fail() { echo "FAIL: $*"; [ -f "$BASE/out" ] && cat "$BASE/out"; exit 1; }
kubelet_start() {
  PATH="$BIN:$PATH" "$KKADM" init phase kubelet-start --rootfs "$R" --node-name node-e2e \
    --cri-socket unix:///var/run/containerd/containerd.sock
}

# The packages' unit files, in the node's /usr/lib (systemd sees them over its host's).
VENDOR="$R/usr/lib/systemd/system"
mkdir -p "$VENDOR/kubelet.service.d" "$BASE/run" "$R/etc/systemd"
cat > "$VENDOR/kubelet.service" <<'EOF'
[Unit]
Description=kubelet: The Kubernetes Node Agent
Documentation=https://kubernetes.io/docs/
Wants=network-online.target
After=network-online.target

[Service]
ExecStart=/usr/bin/kubelet
Restart=always
StartLimitInterval=0
RestartSec=10

[Install]
WantedBy=multi-user.target
EOF
# kubeadm's drop-in as the kubeadm package ships it.
cp "$KKADM_SOURCE_DIR/tests/e2e/lib/10-kubeadm.conf" "$VENDOR/kubelet.service.d/10-kubeadm.conf"
# The instance's /run and /etc/systemd/system are the node's.
sd_instance_bind "$BASE/run" /run
sd_instance_bind "$BASE/units" /etc/systemd/system
printf '#!/bin/sh\necho "$@" > /run/kk-kubelet.args\nexec sleep infinity\n' > "$BIN/kubelet"
chmod 0755 "$BIN/kubelet"

SD_BOOT_VENDOR_UNITS="$VENDOR" sd_instance_boot

# Another drop-in setting ExecStart, from a runtime directory, sorting after kubeadm's.
RUN_DROP_IN=/run/systemd/system/kubelet.service.d/50-runtime.conf
mkdir -p "$R${RUN_DROP_IN%/*}"
printf '[Service]\nExecStart=\nExecStart=/bin/sh -c "echo runtime > /run/kk-kubelet.args; exec sleep infinity"\n' \
  > "$R$RUN_DROP_IN"

# 1. An admin's drop-in in /etc/systemd/system, which kkadm cannot hide: one line naming it,
#    a failure, and nothing written or started, by init's kubelet-start and by join.
MINE=/etc/systemd/system/kubelet.service.d/20-mine.conf
mkdir -p "$R${MINE%/*}"
printf '[Service]\nExecStart=\nExecStart=/opt/kubelet --v=4\n' > "$R$MINE"
# The node's files kkadm could write (its /run is the live instance's).
node_files() { (cd "$R" && find -L etc usr -printf '%p %s %m\n' | sort); }
before=$(node_files)
rc=0
kubelet_start >"$BASE/out" 2>"$BASE/err" || rc=$?
[ "$rc" = 1 ] || fail "kubelet-start with $MINE: exit code $rc, not 1"
want="error execution phase kubelet-start: kubelet drop-in \"$MINE\" sets ExecStart after kkadm's \"/etc/systemd/system/kubelet.service.d/10-kkadm.conf\", so systemd would not run the kubelet kkadm configures; remove it (flags of your own go in KUBELET_EXTRA_ARGS in /etc/default/kubelet) and run kkadm again"
# (Other lines on stderr are the warnings of the Kubernetes version look-up, offline here.)
[ "$(grep -v '^W' "$BASE/err")" = "$want" ] || fail "refusal message: $(cat "$BASE/err")"
grep -q '^\[kubelet-start\]' "$BASE/out" && fail "refusal printed progress: $(cat "$BASE/out")"
[ "$before" = "$(node_files)" ] && [ ! -e "$R/var" ] || fail "the refused run changed the node's files"
[ "$(prop org.freedesktop.systemd1.Unit ActiveState)" = 's "inactive"' ] \
  || fail "kubelet was started by the refused run"
# join checks it too, before its first phase (no discovery, nothing written).
rc=0
"$KKADM" join 127.0.0.1:1 --token abcdef.0123456789abcdef --rootfs "$R" --node-name node-e2e \
  --discovery-token-unsafe-skip-ca-verification >"$BASE/out" 2>"$BASE/err" || rc=$?
[ "$rc" = 1 ] || fail "join with $MINE: exit code $rc, not 1"
[ "$(grep -v '^W' "$BASE/err")" = "$want" ] || fail "join's refusal: $(cat "$BASE/err")"
[ "$before" = "$(node_files)" ] && [ ! -e "$R/var" ] || fail "the refused join changed the node's files"
rm "$R$MINE"

# 2. Only drop-ins kkadm can hide: it hides them, says so, and systemd runs kkadm's kubelet.
kubelet_start >"$BASE/out" 2>&1 || fail "kubelet-start failed"
for path in /usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf "$RUN_DROP_IN"; do
  grep -qxF "[kubelet-start] Hiding drop-in \"$path\", which sets ExecStart after kkadm's, from systemd" \
    "$BASE/out" || fail "no line about $path"
  shadow="$R/etc/systemd/system/kubelet.service.d/${path##*/}"
  [ "$(stat -c %a "$shadow")" = 644 ] || fail "$shadow is not 0644"
  grep -qF "$path" "$shadow" || fail "$shadow does not name $path"
done
[ ! -e "$R/etc/systemd/system/kubelet.service" ] || fail "wrote a kubelet.service beside the packaged one"

[ "$(prop org.freedesktop.systemd1.Unit ActiveState)" = 's "active"' ] || fail "kubelet not active"
drop_ins=$(prop org.freedesktop.systemd1.Unit DropInPaths)
for d in 10-kkadm.conf 10-kubeadm.conf 50-runtime.conf; do
  echo "$drop_ins" | grep -qF "\"/etc/systemd/system/kubelet.service.d/$d\"" \
    || fail "systemd did not load /etc/systemd/system/kubelet.service.d/$d: $drop_ins"
done
echo "$drop_ins" | grep -qE '"/(usr/)?lib/systemd|"/run/systemd' && fail "systemd still reads a hidden drop-in: $drop_ins"
exec_start=$(prop org.freedesktop.systemd1.Service ExecStart)
echo "$exec_start" | grep -qF "\"$BIN/kubelet\" 5 \"$BIN/kubelet\" \"\$KUBELET_KUBECONFIG_ARGS\" \"\$KUBELET_CONFIG_ARGS\" \"\$KUBELET_KUBEADM_ARGS\" \"\$KUBELET_EXTRA_ARGS\"" \
  || fail "ExecStart is not kkadm's: $exec_start"
for _ in $(seq 50); do [ -s "$BASE/run/kk-kubelet.args" ] && break; sleep 0.1; done
# (Inside, /var/lib/kubelet is the host's, so kubeadm-flags.env's KUBELET_KUBEADM_ARGS is not.)
args=$(cat "$BASE/run/kk-kubelet.args" 2>&1)
case "$args" in
  "--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf --config=/var/lib/kubelet/config.yaml"*) ;;
  *) fail "the kubelet systemd runs did not get kkadm's flags: $args" ;;
esac

# 3. A re-run keeps the files as they are and the kubelet running.
sum=$(cd "$R/etc/systemd/system/kubelet.service.d" && sha256sum ./*)
kubelet_start >"$BASE/out" 2>&1 || fail "second run failed"
[ "$sum" = "$(cd "$R/etc/systemd/system/kubelet.service.d" && sha256sum ./*)" ] \
  || fail "drop-ins changed on re-run"
[ "$(prop org.freedesktop.systemd1.Unit ActiveState)" = 's "active"' ] || fail "kubelet not active after re-run"
echo PASS
