#!/usr/bin/env bash
# `kkadm certs renew ... --restart-control-plane` on a sandbox node (lib/sandbox_node.sh: real
# systemd, the stand-in kubelet running the real etcd and the stand-in API server, controller-manager
# and scheduler from kkadm's manifests): after `renew all` every component serves or uses the new
# files (the served certificates' serials, seen with openssl s_client, are the new files'), each was
# restarted once, in kubeadm's order, and is healthy; the manifests are back byte-identical. A dry
# run changes nothing. A hung kubelet (SIGSTOP) that never stops the API server: a clear error
# naming it within the configured controlPlaneComponentHealthCheck, exit 1, the manifest back.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"

node_boot node-1 10.123.0.41
R=$(node_root node-1)
PKI=$R/etc/kubernetes/pki
MAN=$R/etc/kubernetes/manifests
API=10.123.0.41:6443
# The sandbox's etcd is 3.4.23: with its tag, kkadm writes the probes that etcd answers (/health).
{ node_init_config; cat <<CFG; } > "$WORK/init.yaml"
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
etcd:
  local:
    imageTag: 3.4.23-0
CFG
node_init "$WORK/init.yaml"

served_serial() {  # HOST:PORT: the serial of the certificate served there (etcd then
  # ends the handshake, which s_client fails on, for want of a client certificate)
  { node_exec openssl s_client -connect "$1" </dev/null 2>/dev/null || true; } |
    openssl x509 -noout -serial
}
file_serial() { openssl x509 -noout -serial -in "$PKI/$1.crt"; }
starts() {  # COMPONENT: how many times the stand-in kubelet started it
  grep -c '^==== .* starting: ' "$(node_logs node-1)/kube-system_$1_$1.log"
}
healthy() {  # URL: answers ok within 20 s
  wait_for 20 node_exec curl -skf --max-time 2 "$1"
}
manifests_sum() { (cd "$MAN" && sha256sum *.yaml); }
COMPONENTS="etcd kube-apiserver kube-controller-manager kube-scheduler"

check "API server healthy after init" healthy "https://$API/livez"
check "scheduler healthy after init" healthy https://127.0.0.1:10259/healthz
check "controller-manager healthy after init" healthy https://127.0.0.1:10257/healthz
assert_eq "served API serial is apiserver.crt's after init" "$(file_serial apiserver)" "$(served_serial "$API")"
MANIFESTS=$(manifests_sum)
declare -A BEFORE
for c in $COMPONENTS; do BEFORE[$c]=$(starts "$c"); done
API_BEFORE=$(served_serial "$API")
ETCD_BEFORE=$(served_serial 127.0.0.1:2379)

# ---- a dry run: says what it would do, changes nothing ----
PKI_SUM=$(cd "$PKI" && find . -type f | sort | xargs sha256sum)
rc=0; node_kkadm certs renew all --restart-control-plane --dry-run >"$WORK/dry.out" 2>&1 || rc=$?
assert_eq "dry run exit code ($(tail -5 "$WORK/dry.out"))" 0 "$rc"
DRY=$(cat "$WORK/dry.out")
assert_contains "dry run: would wait for the kubelet to stop the API server" "$DRY" \
  "[dryrun] Would wait up to 4m0s for the kubelet to stop kube-apiserver (https://$API/livez no longer answering)"
assert_contains "dry run: would wait for a healthy scheduler" "$DRY" \
  "[dryrun] Would wait up to 4m0s for a healthy kube-scheduler at https://127.0.0.1:10259/healthz"
assert_contains "dry run: the manifest move" "$DRY" \
  "[control-plane-restart] Moving /etc/kubernetes/manifests/etcd.yaml to /etc/kubernetes/tmp/kkadm-restart/etcd.yaml"
assert_eq "dry run: PKI unchanged" "$PKI_SUM" "$(cd "$PKI" && find . -type f | sort | xargs sha256sum)"
assert_eq "dry run: manifests unchanged" "$MANIFESTS" "$(manifests_sum)"
check "dry run: nothing held" test ! -e "$R/etc/kubernetes/tmp/kkadm-restart"
for c in $COMPONENTS; do assert_eq "dry run: $c not restarted" "${BEFORE[$c]}" "$(starts "$c")"; done
assert_eq "dry run: same served serial" "$API_BEFORE" "$(served_serial "$API")"

# ---- renew all --restart-control-plane ----
start=$(date +%s)
rc=0; node_kkadm certs renew all --restart-control-plane >"$WORK/renew.out" 2>&1 || rc=$?
OUT=$(cat "$WORK/renew.out")
assert_eq "renew --restart-control-plane exit code ($(tail -8 "$WORK/renew.out"))" 0 "$rc"
echo "renew all --restart-control-plane took $(( $(date +%s) - start )) s"
grep '^\[control-plane-restart\]' <<<"$OUT" || true
assert_contains "renewed first" "$OUT" "Done renewing certificates. Restarting the static Pods that use them."
assert_not_contains "no reminder to restart by hand" "$OUT" "You must restart"
order=$(grep -o '^\[control-plane-restart\] Restarting [a-z-]*' <<<"$OUT" | awk '{print $3}' | xargs)
assert_eq "one at a time, kubeadm's order" "$COMPONENTS" "$order"
assert_contains "etcd: what it uses" "$OUT" \
  "[control-plane-restart] Restarting etcd: it uses /etc/kubernetes/pki/etcd/server.crt, /etc/kubernetes/pki/etcd/server.key"
for c in $COMPONENTS; do
  assert_contains "$c stopped by the kubelet" "$OUT" "[control-plane-restart] The kubelet stopped $c after"
  assert_contains "$c healthy again" "$OUT" "[control-plane-restart] $c is healthy after"
  assert_eq "$c restarted exactly once" $(( BEFORE[$c] + 1 )) "$(starts "$c")"
done
assert_contains "summary" "$OUT" \
  "[control-plane-restart] Restarted etcd, kube-apiserver, kube-controller-manager, kube-scheduler: all healthy"
API_AFTER=$(served_serial "$API")
assert_eq "the API server serves the new apiserver.crt" "$(file_serial apiserver)" "$API_AFTER"
check "... whose serial changed ($API_BEFORE -> $API_AFTER)" test "$API_BEFORE" != "$API_AFTER"
ETCD_AFTER=$(served_serial 127.0.0.1:2379)
assert_eq "etcd serves the new etcd/server.crt" "$(file_serial etcd/server)" "$ETCD_AFTER"
check "... whose serial changed" test "$ETCD_BEFORE" != "$ETCD_AFTER"
assert_eq "etcd's peer port serves the new etcd/peer.crt" "$(file_serial etcd/peer)" "$(served_serial 10.123.0.41:2380)"
assert_eq "manifests back byte-identical" "$MANIFESTS" "$(manifests_sum)"
assert_eq "manifests keep mode 0600" "600 600 600 600" "$(stat -c %a "$MAN"/*.yaml | xargs)"
assert_eq "nothing left in the holding directory" "" "$(ls -A "$R/etc/kubernetes/tmp/kkadm-restart")"
check "API server healthy" healthy "https://$API/livez"
check "controller-manager healthy" healthy https://127.0.0.1:10257/healthz
check "scheduler healthy" healthy https://127.0.0.1:10259/healthz
assert_not_contains "kkadm status: no drift (the manifests moved back as they were)" \
  "$(node_kkadm status 2>&1)" "Files changed or missing"
# The restarted API server, on the restarted etcd, answers the renewed admin.conf.
get_node() { node_exec kubectl --kubeconfig "$R/etc/kubernetes/admin.conf" get node node-1 >/dev/null; }
check "kubectl with the renewed admin.conf" get_node

# ---- renewing what no static Pod uses restarts nothing ----
for c in $COMPONENTS; do BEFORE[$c]=$(starts "$c"); done
out=$(node_kkadm certs renew admin.conf --restart-control-plane 2>&1) || fail "renew admin.conf: $out"
assert_contains "admin.conf: nothing to restart" "$out" \
  "[control-plane-restart] No static Pod uses the renewed files: nothing to restart"
for c in $COMPONENTS; do assert_eq "admin.conf: $c not restarted" "${BEFORE[$c]}" "$(starts "$c")"; done

# ---- a hung kubelet never stops the API server: bounded wait, clear error, manifest back ----
{ node_init_config; cat <<CFG; } > "$WORK/short.yaml"
timeouts:
  controlPlaneComponentHealthCheck: 5s
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
etcd:
  local:
    imageTag: 3.4.23-0
CFG
node_systemctl kill --kill-whom=main --signal=SIGSTOP kubelet.service
SERVED=$(served_serial "$API")
start=$(date +%s)
rc=0; node_kkadm certs renew apiserver --restart-control-plane --config "$WORK/short.yaml" \
  >"$WORK/hung.out" 2>&1 || rc=$?
took=$(( $(date +%s) - start ))
node_systemctl kill --kill-whom=main --signal=SIGCONT kubelet.service
HUNG=$(cat "$WORK/hung.out")
assert_eq "hung kubelet: exit code 1" 1 "$rc"
assert_contains "hung kubelet: the error names the component and the wait" "$HUNG" \
  "restarting kube-apiserver: the kubelet did not stop it within 5s (its manifest is back): https://$API/livez still answers (HTTP 200)"
check "hung kubelet: bounded by controlPlaneComponentHealthCheck (took $took s)" test "$took" -lt 30
assert_eq "hung kubelet: manifests back byte-identical" "$MANIFESTS" "$(manifests_sum)"
assert_eq "hung kubelet: nothing held" "" "$(ls -A "$R/etc/kubernetes/tmp/kkadm-restart")"
check "hung kubelet: the API server still healthy" healthy "https://$API/livez"
assert_eq "hung kubelet: still the certificate it had" "$SERVED" "$(served_serial "$API")"
# The kubelet back, the same command finishes the job.
rc=0; out=$(node_kkadm certs renew apiserver --restart-control-plane 2>&1) || rc=$?
assert_eq "renew again with the kubelet back ($out)" 0 "$rc"
assert_eq "now serves the newest apiserver.crt" "$(file_serial apiserver)" "$(served_serial "$API")"
finish
