#!/usr/bin/env bash
# How fast and how small kkadm refuses the hostile files of issue 19 (target: each in under
# 100 ms, with a bounded peak RSS). Each file (tests/e2e/lib/hostile_files.sh) is given to
# `kkadm config validate` and to `kkadm init --rootfs DIR`, which must refuse it with exit code 3;
# command_bench prints wall time (min / median / max) and peak RSS over RUNS runs.
#   hostile_input_bench.sh KKADM COMMAND_BENCH [RUNS]
set -euo pipefail
KKADM=$(readlink -f "$1") BENCH=$(readlink -f "$2") RUNS=${3:-20}
SRC=$(cd "$(dirname "$0")/.." && pwd)
source "$SRC/tests/e2e/lib/hostile_files.sh"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
mkdir "$DIR/files"
hostile_files "$DIR/files"
# One row per file and command: the refusal kkadm prints, then the figures of RUNS runs.
bench() {  # FILE LABEL ARGS...
  local file=$1 label=$2
  shift 2
  printf '%-11s %-16s %s\n' "$file" "$label" "$("$KKADM" "$@" 2>&1 >/dev/null | head -1)"
  printf '%-28s %s\n' "" "$("$BENCH" "$RUNS" --exit=3 "$DIR/root" -- "$KKADM" "$@" 2>/dev/null ||
    echo "FAILED: not refused with exit code 3 in every run")"
}
for f in bomb7 bomb9 bomb20 bytes-bomb deep-flow deep-map deep-block big many utf8-key \
  utf8-value utf8-kind; do
  bench "$f" "config validate" config validate --config "$DIR/files/$f.yaml"
  bench "$f" init init --rootfs "$DIR/root" --ignore-preflight-errors=all \
    --config "$DIR/files/$f.yaml"
done
