#!/usr/bin/env bash
# Join times on the sandbox (not a test): runs tests/e2e/join_multinode_test.sh RUNS times and
# reports, per kind of join, the wall time of `kkadm join <token>` from start to exit — for a
# worker that includes the stand-in kubelet's TLS bootstrap, for a control-plane node the etcd
# learner add, manifest, catch-up and promotion. Usage: join_bench.sh KKADM [RUNS]
set -euo pipefail
KKADM=$(readlink -f "$1") RUNS=${2:-3}
SRC=$(cd "$(dirname "$0")/.." && pwd)
TIMES=$(mktemp); trap 'rm -f "$TIMES"' EXIT
for _ in $(seq 1 "$RUNS"); do
  KKADM=$KKADM KKADM_SOURCE_DIR=$SRC KKADM_JOIN_TIMES=$TIMES \
    bash "$SRC/tests/e2e/join_multinode_test.sh" >/dev/null
done
summary() {  # KIND
  grep "^$1 " "$TIMES" | awk '{print $NF}' | sort -n |
    awk -v kind="$1" '{v[NR]=$1} END {printf "%-20s n=%d  min %d ms  median %d ms  max %d ms\n", kind, NR, v[1], v[int((NR+1)/2)], v[NR]}'
}
summary "worker join"
summary "control-plane join"
