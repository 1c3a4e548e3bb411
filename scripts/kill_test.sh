#!/usr/bin/env bash
# Kill anywhere, the full count (issue 14; CI runs a share of it, e2e.journal_kill_node, through
# the same tests/e2e/lib/kill_lib.sh). On sandbox nodes (real systemd, real etcd, the stand-in API
# server), SIGKILL at:
#   init-ecdsa, init-rsa     `kkadm init` (ECDSA-P256, RSA-2048): KKADM_KILL_RANDOM_INIT (100)
#                            random instants each
#   join-worker              `kkadm join <token>` of a worker: KKADM_KILL_RANDOM_JOIN (50) instants
#   join-control-plane       `kkadm join <token>` of a control-plane node: the same
#   init-calls               `kkadm init` (ECDSA-P256) killed at each renameat, fsync, fdatasync, write and
#                            openat of the run in turn (strace's injection at the N-th call of a
#                            thread, each N up to the calls counted, in KKADM_KILL_CALL_STEP passes:
#                            1, 1+STEP, ...; 2, 2+STEP, ...; so a sweep cut short spans the run)
# and checks each as lib/kill_lib.sh says. Needs root. Prints each failure and a summary; exits 1
# when one failed. Environment:
#   KKADM                  the binary (default: build/kkadm, copied so a rebuild cannot change it)
#   KKADM_KILL_SCENARIOS   which of the four to run (default: all, in the order above)
#   KKADM_KILL_CALLS       the calls init-calls sweeps (default: "renameat fsync fdatasync write openat")
#   KKADM_KILL_AT          one instant only, as the failures name it: "delay=1234ms" or "openat=17"
#   KKADM_KILL_SEED        the random instants' seed (printed)
#   KKADM_KILL_FINDINGS    a file each failure's reproducer is appended to
#   KKADM_KILL_KEEP        where each failure's node files and every instant's line (instants.tsv)
#                          are kept (default /var/tmp/kkadm-kill-*)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "kill_test.sh needs root (systemd, network namespaces)" >&2; exit 1; }
command -v strace >/dev/null || { echo "kill_test.sh needs strace" >&2; exit 1; }
BIN=$(mktemp -d /var/tmp/kkadm-kill-bin-XXXXXX)
cp "${KKADM:-$SRC/build/kkadm}" "$BIN/kkadm"
export KKADM=$BIN/kkadm KKADM_SOURCE_DIR=$SRC
export KKADM_KILL_SEED=${KKADM_KILL_SEED:-$RANDOM}
source "$SRC/tests/e2e/lib/common.sh"
on_exit "rm -rf '$BIN'"
source "$SRC/tests/e2e/lib/sandbox_node.sh"
source "$SRC/tests/e2e/lib/kill_lib.sh"
KILL_FINDINGS=${KKADM_KILL_FINDINGS:-}
KILL_KEEP=${KKADM_KILL_KEEP:-$(mktemp -d /var/tmp/kkadm-kill-XXXXXX)}
# Each instant's line outlives the run, stopped short or not (the work directory does not).
on_exit "cp '$KILL_LOG' '$KILL_KEEP/instants.tsv' 2>/dev/null || true"
SCENARIOS=${KKADM_KILL_SCENARIOS:-init-ecdsa init-rsa join-worker join-control-plane init-calls}
T0=$(date +%s)
echo "kill_test: seed $KKADM_KILL_SEED, $("$KKADM" version -o short 2>/dev/null || true), failures kept in $KILL_KEEP"

# The instants of one scenario: KKADM_KILL_AT's alone, or RANDOM_COUNT random ones and the calls.
instants() {  # RANDOM_COUNT [SYSCALL...]
  local count=$1
  shift
  case ${KKADM_KILL_AT:-} in
    '') ;;
    delay=*) local ms=${KKADM_KILL_AT#delay=}; kill_at_delay "${ms%ms}"; return ;;
    *=*) kill_at_call "${KKADM_KILL_AT%%=*}" "${KKADM_KILL_AT#*=}"; return ;;
  esac
  kill_at_random "$count"
  local call
  for call in "$@"; do kill_calls "$call" "${KKADM_KILL_CALL_STEP:-1}"; done
}

init_scenario() {  # NAME ALGORITHM RANDOM_COUNT [SYSCALL...]
  local name=$1 algorithm=$2 count=$3
  shift 3
  [ -n "${NODE_DIRS[node-1]:-}" ] || node_boot node-1 10.123.0.11
  node_use node-1
  { node_init_config; cat <<CFG; } >"$WORK/$name.yaml"
bootstrapTokens:
- token: abcdef.0123456789abcdef
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
encryptionAlgorithm: $algorithm
CFG
  kill_scenario "$name" node-1 node-1 init --config "$WORK/$name.yaml"
  kill_reference count || return 0
  instants "$count" "$@"
}

# cp1 initialised with --upload-certs; the tokens a worker and a control-plane node join with.
cluster() {
  [ -z "${CP_TOKEN:-}" ] || return 0
  node_boot cp1 10.123.0.1 w1 10.123.0.21 cp2 10.123.0.2
  node_use cp1
  { node_init_config; cat <<CFG; } >"$WORK/cp1.yaml"
bootstrapTokens:
- token: abcdef.0123456789abcdef
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
controlPlaneEndpoint: 10.123.0.1:6443
encryptionAlgorithm: ECDSA-P256
CFG
  node_init "$WORK/cp1.yaml" --upload-certs
  CP_TOKEN=$(node_kkadm_on cp1 token create --control-plane)
  WORKER_TOKEN=$(node_kkadm_on cp1 token create)
}

read -ra CALLS <<<"${KKADM_KILL_CALLS-renameat fsync fdatasync write openat}"
for scenario in $SCENARIOS; do
  case $scenario in
    init-ecdsa) init_scenario init-ecdsa ECDSA-P256 "${KKADM_KILL_RANDOM_INIT:-100}" ;;
    init-rsa) init_scenario init-rsa RSA-2048 "${KKADM_KILL_RANDOM_INIT:-100}" ;;
    init-calls) init_scenario init-calls ECDSA-P256 0 "${CALLS[@]}" ;;
    join-worker)
      cluster
      kill_scenario join-worker w1 cp1 join "$WORKER_TOKEN" --ignore-preflight-errors all
      kill_reference count && instants "${KKADM_KILL_RANDOM_JOIN:-50}" ;;
    join-control-plane)
      cluster
      kill_scenario join-control-plane cp2 cp1 join "$CP_TOKEN" --apiserver-advertise-address 10.123.0.2 \
        --ignore-preflight-errors all
      kill_reference count && instants "${KKADM_KILL_RANDOM_JOIN:-50}" ;;
    *) echo "kill_test: no scenario '$scenario'" >&2; exit 2 ;;
  esac
  kill_summary | grep "^$scenario:" || true
done
echo "== kill_test: summary (seed $KKADM_KILL_SEED, $(( ($(date +%s) - T0) / 60 )) min)"
kill_summary
[ "$E2E_FAILURES" -ne 0 ] || rmdir "$KILL_KEEP" 2>/dev/null || true
finish
