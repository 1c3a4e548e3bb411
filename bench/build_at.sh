#!/usr/bin/env bash
# Builds kkadm as it was at COMMIT in DIR, for benchmarks that compare with an earlier kkadm (e.g.
# 4c65a3c^, from before the node's journal): the commit's tree comes from `git archive`, so the
# working tree is not touched; niced, since it is no one's build to wait for. Prints the binary's
# path; a DIR built from the same commit, build type and patch is only brought up to date. PATCH
# (a `diff -u` of a/ and b/ trees) is applied to the commit's tree first: bench/without_journal.patch
# makes today's kkadm without its journal, the fair baseline of what the journal costs.
#   build_at.sh COMMIT DIR [BUILD_TYPE] [PATCH]
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
COMMIT=$(git -C "$SRC" rev-parse --verify "$1^{commit}")
DIR=$2 TYPE=${3:-Release} PATCH=${4:+$(readlink -f "$4")}
BUILT_FROM="$COMMIT $TYPE${PATCH:+ $(sha256sum <"$PATCH" | cut -c1-16)}"
if [ "$(cat "$DIR/built-from" 2>/dev/null)" != "$BUILT_FROM" ]; then
  rm -rf "$DIR"
  mkdir -p "$DIR/src"
  git -C "$SRC" archive "$COMMIT" | tar -x -C "$DIR/src"
  [ -z "$PATCH" ] || git -C "$DIR/src" apply -p1 "$PATCH"
  nice -n 15 cmake -S "$DIR/src" -B "$DIR/build" -G Ninja -DCMAKE_BUILD_TYPE="$TYPE" >/dev/null
fi
nice -n 15 cmake --build "$DIR/build" --target kkadm >/dev/null
echo "$BUILT_FROM" >"$DIR/built-from"
echo "$DIR/build/kkadm"
