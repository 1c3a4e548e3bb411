#!/bin/bash
# e2e: `kkadm certs renew --schedule` against a REAL systemd (PID 1 in private namespaces,
# lib/sd_boot.sh): the timer is loaded, enabled and active, and its next elapse is the next
# midnight (OnCalendar=daily); running its service renews the certificates that expire within
# 30 days and leaves a far one alone. Also `certs renew --expiring-within` run by hand, and its
# bad values. Exit 77 (ctest SKIP) only without root.
set -u
: "${KKADM:?KKADM must name the kkadm binary}" "${KKADM_SOURCE_DIR:?KKADM_SOURCE_DIR must be set}"
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: booting systemd as PID 1 in namespaces needs root"; exit 77
fi
source "$KKADM_SOURCE_DIR/tests/e2e/lib/sd_instance.sh"
fail() { echo "FAIL: $*"; [ -f "$BASE/out" ] && cat "$BASE/out"; exit 1; }
# The instance's /tmp is private: the node root lives beside the stand-in binaries, made writable
# inside the instance, so the service renews the very files this test reads.
R="$BIN/node"
mkdir -p "$R"
export SD_BOOT_RW_DIRS="$R"

cfg() {  # cfg VALIDITY
  cat <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration: {name: node-1}
localAPIEndpoint: {advertiseAddress: 127.0.0.1}
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
certificateValidityPeriod: $1
CFG
}
cfg 240h > "$BASE/short.yaml"
cfg 8760h > "$BASE/long.yaml"
PKI=$R/etc/kubernetes/pki
"$KKADM" init phase certs all --rootfs "$R" --config "$BASE/short.yaml" >"$BASE/out" 2>&1 ||
  fail "init phase certs failed"
serial() { openssl x509 -noout -serial -in "$PKI/$1.crt"; }
days_left() {
  echo $(( ($(date -d "$(openssl x509 -noout -enddate -in "$PKI/$1.crt" | cut -d= -f2)" +%s) - $(date +%s)) / 86400 ))
}

# --- --expiring-within by hand: 10-day certificates, a 5-day window renews nothing ---
before=$(serial apiserver)
"$KKADM" certs renew all --rootfs "$R" --expiring-within 120h >"$BASE/out" 2>&1 || fail "renew 120h failed"
grep -qxF "certificate for serving the Kubernetes API expires in 9d, not within 120h0m0s: not renewed" \
  "$BASE/out" || fail "no 'not renewed' line"
grep -qxF "No certificate expires within 120h0m0s: nothing renewed." "$BASE/out" || fail "no summary"
[ "$(serial apiserver)" = "$before" ] || fail "a 5-day window renewed a 10-day certificate"
# A long-lived apiserver certificate (renewed by name with the 1-year validity), the rest short.
"$KKADM" certs renew apiserver --rootfs "$R" --config "$BASE/long.yaml" >"$BASE/out" 2>&1 ||
  fail "renew apiserver failed"
[ "$(days_left apiserver)" -ge 364 ] || fail "apiserver not renewed for a year"
for bad in nonsense 0s -5h; do
  out=$("$KKADM" certs renew all --rootfs "$R" --expiring-within="$bad" 2>&1) && fail "--expiring-within $bad accepted"
  [ "$(grep -c . <<<"$out")" = 1 ] && grep -qF -- "--expiring-within: invalid value" <<<"$out" ||
    fail "--expiring-within $bad: not one line: $out"
done

# --- the schedule under the real systemd ---
sd_instance_boot
sd_instance_bind "$BASE/units" /etc/systemd/system
"$KKADM" --rootfs "$R" certs renew --schedule >"$BASE/out" 2>&1 || fail "renew --schedule failed"
grep -qF "[renew] Enabled and started kkadm-certs-renew.timer" "$BASE/out" || fail "no 'Enabled' line"
TIMER="org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/kkadm_2dcerts_2drenew_2etimer"
SERVICE="org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/kkadm_2dcerts_2drenew_2eservice"
tprop() { bus get-property $TIMER "$1" "$2" 2>&1; }
sprop() { bus get-property $SERVICE "$1" "$2" 2>&1; }
[ "$(tprop org.freedesktop.systemd1.Unit LoadState)" = 's "loaded"' ] || fail "timer not loaded"
[ "$(tprop org.freedesktop.systemd1.Unit ActiveState)" = 's "active"' ] || fail "timer not active"
[ "$(tprop org.freedesktop.systemd1.Unit UnitFileState)" = 's "enabled"' ] || fail "timer not enabled"
next=$(tprop org.freedesktop.systemd1.Timer NextElapseUSecRealtime | awk '{print $2}')
# OnCalendar=daily: the next local midnight (the instance reads the host's /etc/localtime).
want=$(python3 -c 'import datetime as d
n = d.datetime.now().astimezone()
m = (n + d.timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
print(int(m.timestamp()) * 1000000)')
[ "$next" = "$want" ] || fail "next elapse $next, expected $want (next midnight)"
exec_start=$(sprop org.freedesktop.systemd1.Service ExecStart)
grep -qF '"certs" "renew" "all" "--expiring-within" "720h0m0s"' <<<"$exec_start" ||
  fail "service ExecStart: $exec_start"

# Running the service renews the 10-day certificates and not the 1-year one.
far=$(sha256sum "$PKI/apiserver.crt" "$PKI/apiserver.key")
near=$(serial front-proxy-client); near_etcd=$(serial etcd/server)
bus call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager \
  StartUnit ss kkadm-certs-renew.service replace >/dev/null || fail "StartUnit failed"
for _ in $(seq 300); do
  [ "$(sprop org.freedesktop.systemd1.Unit ActiveState)" = 's "inactive"' ] &&
    [ "$(sprop org.freedesktop.systemd1.Service ExecMainExitTimestampMonotonic)" != "t 0" ] && break
  sleep 0.1
done
[ "$(sprop org.freedesktop.systemd1.Service Result)" = 's "success"' ] ||
  fail "service result $(sprop org.freedesktop.systemd1.Service Result): $(tail -20 "$BASE/console.log")"
[ "$(sprop org.freedesktop.systemd1.Service ExecMainStatus)" = "i 0" ] || fail "service exit status"
[ "$far" = "$(sha256sum "$PKI/apiserver.crt" "$PKI/apiserver.key")" ] || fail "the far certificate was renewed"
[ "$(serial front-proxy-client)" != "$near" ] || fail "front-proxy-client not renewed"
[ "$(serial etcd/server)" != "$near_etcd" ] || fail "etcd/server not renewed"
for c in front-proxy-client etcd/server etcd/peer apiserver-kubelet-client apiserver-etcd-client; do
  [ "$(days_left "$c")" -ge 364 ] || fail "$c: $(days_left "$c") days left after the service"
  openssl verify -CAfile "$PKI/$( [[ $c == etcd/* || $c == apiserver-etcd-client ]] && echo etcd/ca ||
    { [ "$c" = front-proxy-client ] && echo front-proxy-ca || echo ca; })".crt "$PKI/$c.crt" >/dev/null ||
    fail "$c does not verify"
done

# Installing again replaces the units and keeps the timer running; with --restart-control-plane
# the service restarts the static Pods that use what it renewed (systemd's own parse of ExecStart).
"$KKADM" --rootfs "$R" certs renew --schedule --restart-control-plane >"$BASE/out" 2>&1 ||
  fail "second --schedule failed"
grep -qF "are renewed, and the static Pods that use them restarted" "$BASE/out" || fail "no restart line"
[ "$(tprop org.freedesktop.systemd1.Unit ActiveState)" = 's "active"' ] || fail "timer not active again"
exec_start=$(sprop org.freedesktop.systemd1.Service ExecStart)
grep -qF '"certs" "renew" "all" "--expiring-within" "720h0m0s" "--restart-control-plane"' <<<"$exec_start" ||
  fail "service ExecStart with --restart-control-plane: $exec_start"
echo PASS
