#!/usr/bin/env bash
# kkadm's whole job, on this machine: `kkadm init` of a control-plane node, then `kkadm join
# <join token>` of a worker, each in a throwaway sandbox node (tests/e2e/lib/sandbox_node.sh): a
# real systemd in its own namespaces starts the kubelet stand-in, which runs the real etcd and the
# stand-in API server from kkadm's manifests. Ends with `kubectl get nodes` listing both nodes and
# the time each step took. Removes everything it made (nodes, namespaces, route, processes,
# directories), on failure too; exits 1 when init, join or the node listing fails.
# Needs root (systemd as PID 1 in a namespace, network namespaces).
source "$(dirname "$0")/lib.sh"
ensure_packages "${KKADM_BUILD_PACKAGES[@]}" "${KKADM_TEST_PACKAGES[@]}"
ensure_validator
# The demo runs the binary alone: the unit tests and benchmarks are scripts/test.sh's to build.
build_kkadm kkadm

export KKADM=$KKADM_BUILD/kkadm KKADM_SOURCE_DIR=$KKADM_ROOT
source "$KKADM_ROOT/tests/e2e/lib/common.sh"
source "$KKADM_ROOT/tests/e2e/lib/sandbox_node.sh"
CP=demo-cp CP_ADDRESS=10.123.0.11 WORKER=demo-worker WORKER_ADDRESS=10.123.0.12
[ "$(id -u)" -eq 0 ] || { log "the demo needs root (systemd, network namespaces)"; exit 1; }

# run_stamped LOG CMD...: runs CMD, its output shown as it comes and kept in LOG with the time of
# each line (and of the start and the end); returns CMD's exit status.
run_stamped() {
  local log=$1 line rc
  shift
  printf '%s\t\n' "$EPOCHREALTIME" >"$log"
  "$@" 2>&1 | while IFS= read -r line; do
    printf '%s\n' "$line"
    printf '%s\t%s\n' "$EPOCHREALTIME" "$line" >>"$log"
  done
  rc=${PIPESTATUS[0]}
  printf '%s\t\n' "$EPOCHREALTIME" >>"$log"
  return "$rc"
}

# section_times TITLE LOG: seconds per section of a run_stamped LOG (a section starts at the first
# line of a new [prefix]), and the total.
section_times() {
  echo
  echo "$1"
  awk -F'\t' '
    { prefix = ($2 ~ /^\[[a-z-]+\]/) ? substr($2, 2, index($2, "]") - 2) : "" }
    NR == 1 { start = $1; last = $1 }
    prefix != "" && prefix != current {  # the time before the first section counts in it
      if (current != "") { printf "  %-22s %6.2f s\n", current, $1 - last; last = $1 }
      current = prefix
    }
    { end = $1 }
    END { printf "  %-22s %6.2f s\n  %-22s %6.2f s\n", current, end - last, "total", end - start }' "$2"
  echo
}
seconds() { awk -F'\t' 'NR == 1 { s = $1 } { e = $1 } END { printf "%.2f", e - s }' "$1"; }

log "booting two sandbox nodes, each with its own systemd: $CP ($CP_ADDRESS), $WORKER ($WORKER_ADDRESS)"
printf '%s\t\n' "$EPOCHREALTIME" >"$WORK/boot.log"
node_boot "$CP" "$CP_ADDRESS" "$WORKER" "$WORKER_ADDRESS" || exit 1
printf '%s\t\n' "$EPOCHREALTIME" >>"$WORK/boot.log"
log "sandbox: $SANDBOX_DIR (removed at exit)"
cat >"$WORK/kkadm.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  name: $CP
  # The sandbox has no container runtime, and its CPU/memory/tool checks are not the point here.
  ignorePreflightErrors: [all]
localAPIEndpoint:
  advertiseAddress: $CP_ADDRESS
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
controlPlaneEndpoint: $CP_ADDRESS:6443
encryptionAlgorithm: ECDSA-P256
# kkadm's own version: the default, stable-1, would be looked up on the internet (docs/config.md).
kubernetesVersion: $("$KKADM" version -o json | sed -n 's/.*"kubernetesVersion": "\(.*\)".*/\1/p')
CFG

log "on $CP: kkadm init --rootfs $(node_root "$CP") --config kkadm.yaml --upload-certs"
rc=0
run_stamped "$WORK/init.log" node_kkadm_on "$CP" init --config "$WORK/kkadm.yaml" --upload-certs ||
  rc=$?
# On a failure: the nodes' static Pod logs and kubelet journals, then the end (exit status 1).
[ "$rc" -eq 0 ] || fail "kkadm init exited with $rc"
stop_on_failure
section_times "Time per section of kkadm init on $CP:" "$WORK/init.log"

# The worker joins with the one-argument join token init printed for worker nodes.
TOKEN=$(cut -f2- "$WORK/init.log" | sed -n 's/^kkadm join \(kk1\.[^ ]*\)$/\1/p' | tail -1)
[ -n "$TOKEN" ] || { fail "kkadm init printed no worker join token"; stop_on_failure; }
# The sandbox node is no real machine either (no container runtime, no swap policy, ...).
log "on $WORKER: kkadm join --rootfs $(node_root "$WORKER") ${TOKEN:0:12}… --ignore-preflight-errors all"
run_stamped "$WORK/join.log" node_kkadm_on "$WORKER" join "$TOKEN" --ignore-preflight-errors all ||
  rc=$?
[ "$rc" -eq 0 ] || fail "kkadm join exited with $rc"
stop_on_failure
section_times "Time per section of kkadm join on $WORKER:" "$WORK/join.log"

ADMIN_CONF=$(node_root "$CP")/etc/kubernetes/admin.conf
# The stand-in API server serves no Table, which would leave kubectl's default columns at NAME and
# AGE: the columns a kubeadm user looks at are asked for by name.
COLUMNS_WANTED='NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status'
COLUMNS_WANTED+=',INTERNAL-IP:.status.addresses[?(@.type=="InternalIP")].address'
COLUMNS_WANTED+=',VERSION:.status.nodeInfo.kubeletVersion,TAINTS:.spec.taints[*].key'
log "on $CP: kubectl --kubeconfig $ADMIN_CONF get nodes" \
  "-o custom-columns=NAME,READY,INTERNAL-IP,VERSION,TAINTS"
KUBECTL=(node_exec_on "$CP" kubectl --kubeconfig "$ADMIN_CONF" --request-timeout=20s)
# The worker's kubelet registers its Node right after its TLS bootstrap, which join waited for.
both_listed() {
  local names
  names=$("${KUBECTL[@]}" get nodes -o jsonpath='{.items[*].metadata.name}') || return 1
  [[ " $names " == *" $CP "* && " $names " == *" $WORKER "* ]]
}
printf '%s\t\n' "$EPOCHREALTIME" >"$WORK/nodes.log"
wait_for 30 both_listed || rc=$?
printf '%s\t\n' "$EPOCHREALTIME" >>"$WORK/nodes.log"
"${KUBECTL[@]}" get nodes -o custom-columns="$COLUMNS_WANTED" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "kubectl get nodes did not list both $CP and $WORKER"
stop_on_failure

echo
echo "Time per step:"
printf '  %-34s %6s s\n' "boot two sandbox nodes" "$(seconds "$WORK/boot.log")" \
  "kkadm init ($CP)" "$(seconds "$WORK/init.log")" \
  "kkadm join ($WORKER)" "$(seconds "$WORK/join.log")" \
  "both Nodes listed by kubectl" "$(seconds "$WORK/nodes.log")"
echo
log "stopping the sandbox nodes and removing them"
