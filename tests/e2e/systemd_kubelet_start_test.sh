#!/bin/bash
# e2e: `kkadm init phase kubelet-start --rootfs R` against a REAL systemd, booted as PID 1 in
# private namespaces by lib/sd_boot.sh; kkadm reaches it through KKADM_SYSTEM_BUS_ADDRESS.
# Exit 77 (ctest SKIP) only without root, or while kkadm has no `init phase kubelet-start`.
set -u
: "${KKADM:?KKADM must name the kkadm binary}" "${KKADM_SOURCE_DIR:?KKADM_SOURCE_DIR must be set}"
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: booting systemd as PID 1 in namespaces needs root"; exit 77
fi
if ! "$KKADM" init phase kubelet-start --help 2>&1 | grep -qF "Write kubelet settings"; then
  echo "SKIP: this kkadm has no 'init phase kubelet-start' command yet"; exit 77
fi

source "$KKADM_SOURCE_DIR/tests/e2e/lib/sd_instance.sh"
fail() { echo "FAIL: $*"; [ -f "$BASE/out" ] && cat "$BASE/out"; exit 1; }

# Without a reachable systemd kkadm must say so and fail.
mkdir -p "$R"
KKADM_SYSTEM_BUS_ADDRESS="unix:path=$BASE/no-such-socket" \
  "$KKADM" init phase kubelet-start --rootfs "$R" >"$BASE/out" 2>&1 && fail "succeeded without systemd"
grep -q "cannot reach systemd over D-Bus" "$BASE/out" || fail "no clear error without systemd"

sd_instance_boot

# The node root's /etc/systemd/system is the instance's.
sd_instance_bind "$BASE/units" /etc/systemd/system
printf '#!/bin/sh\necho "$@" > /run/kk-kubelet.args\nexec sleep infinity\n' > "$BIN/kubelet"
chmod 0755 "$BIN/kubelet"

PATH="$BIN:$PATH" "$KKADM" init phase kubelet-start --rootfs "$R" --node-name node-e2e \
  --cri-socket unix:///var/run/containerd/containerd.sock >"$BASE/out" 2>&1 || fail "kubelet-start failed"
for line in \
  '[kubelet-start] Writing kubelet environment file with flags to file "/var/lib/kubelet/kubeadm-flags.env"' \
  '[kubelet-start] Writing kubelet configuration to file "/var/lib/kubelet/config.yaml"' \
  '[kubelet-start] Starting the kubelet'; do
  grep -qxF "$line" "$BASE/out" || fail "missing output line: $line"
done

flags=$(cat "$R/var/lib/kubelet/kubeadm-flags.env")
case "$flags" in
  'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock '*'--pod-infra-container-image=registry.k8s.io/pause:3.10"') ;;
  *) fail "unexpected kubeadm-flags.env: $flags" ;;
esac
[ "$(stat -c %a "$R/var/lib/kubelet")" = 700 ] || fail "kubelet dir mode"
for f in var/lib/kubelet/kubeadm-flags.env var/lib/kubelet/config.yaml \
         etc/systemd/system/kubelet.service.d/10-kkadm.conf etc/systemd/system/kubelet.service; do
  [ "$(stat -c %a "$R/$f")" = 644 ] || fail "$f is not 0644"
done

[ "$(prop org.freedesktop.systemd1.Unit ActiveState)" = 's "active"' ] || fail "kubelet not active"
[ "$(prop org.freedesktop.systemd1.Unit UnitFileState)" = 's "enabled"' ] || fail "kubelet not enabled"
prop org.freedesktop.systemd1.Unit DropInPaths | grep -qF /etc/systemd/system/kubelet.service.d/10-kkadm.conf \
  || fail "drop-in not loaded: $(prop org.freedesktop.systemd1.Unit DropInPaths)"
exec_start=$(prop org.freedesktop.systemd1.Service ExecStart)
echo "$exec_start" | grep -qF "\"$BIN/kubelet\" 5 \"$BIN/kubelet\" \"\$KUBELET_KUBECONFIG_ARGS\" \"\$KUBELET_CONFIG_ARGS\" \"\$KUBELET_KUBEADM_ARGS\" \"\$KUBELET_EXTRA_ARGS\"" \
  || fail "unexpected ExecStart: $exec_start"
prop org.freedesktop.systemd1.Service EnvironmentFiles | grep -qF /var/lib/kubelet/kubeadm-flags.env \
  || fail "EnvironmentFiles lacks kubeadm-flags.env"
for _ in $(seq 50); do [ -s "$BASE/run/kk-kubelet.args" ] && break; sleep 0.1; done
grep -qF -- "--kubeconfig=/etc/kubernetes/kubelet.conf --config=/var/lib/kubelet/config.yaml" \
  "$BASE/run/kk-kubelet.args" || fail "kubelet args: $(cat "$BASE/run/kk-kubelet.args" 2>&1)"

# Re-running rewrites identical files and leaves the kubelet running.
sum=$(cd "$R" && sha256sum var/lib/kubelet/* etc/systemd/system/kubelet.service.d/10-kkadm.conf)
PATH="$BIN:$PATH" "$KKADM" -v 5 init phase kubelet-start --rootfs "$R" --node-name node-e2e \
  --cri-socket unix:///var/run/containerd/containerd.sock >"$BASE/out" 2>&1 || fail "second run failed"
# -v 5 names the systemd job kkadm waited for and how it ended.
grep -qE "systemd (Re)?[Ss]tartUnit kubelet.service: job /org/freedesktop/systemd1/job/[0-9]+ ended: done" \
  "$BASE/out" || fail "-v 5 does not name the systemd job and how it ended: $(cat "$BASE/out")"
[ "$sum" = "$(cd "$R" && sha256sum var/lib/kubelet/* etc/systemd/system/kubelet.service.d/10-kkadm.conf)" ] \
  || fail "files changed on re-run"
[ "$(prop org.freedesktop.systemd1.Unit ActiveState)" = 's "active"' ] || fail "kubelet not active after re-run"

bus call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager \
  StopUnit ss kubelet.service replace >/dev/null || fail "StopUnit failed"
for _ in $(seq 50); do [ "$(prop org.freedesktop.systemd1.Unit ActiveState)" = 's "inactive"' ] && break; sleep 0.1; done
[ "$(prop org.freedesktop.systemd1.Unit ActiveState)" = 's "inactive"' ] || fail "kubelet did not stop"
echo PASS
