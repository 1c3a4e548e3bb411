#!/usr/bin/env bash
# Builds kkadm as it was at COMMIT in DIR, for benchmarks that compare with an earlier kkadm (e.g.
# 4c65a3c^, from before the node's journal): the commit's tree comes from `git archive`, so the
# working tree is not touched; niced, since it is no one's build to wait for. Prints the binary's
# path; a DIR built from the same commit, build type and patch is only brought up to date. PATCH
# (a `diff -u` of a/ and b/ trees) is applied to the commit's tree first: bench/without_journal.patch
# makes today's kkadm without its journal, the fair baseline of what the journal costs. A DIR built
# before from another commit or patch (same build type) is brought up to date incrementally.
#   build_at.sh COMMIT DIR [BUILD_TYPE] [PATCH]
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
COMMIT=$(git -C "$SRC" rev-parse --verify "$1^{commit}")
DIR=$2 TYPE=${3:-Release} PATCH=${4:+$(readlink -f "$4")}
BUILT_FROM="$COMMIT $TYPE${PATCH:+ $(sha256sum <"$PATCH" | cut -c1-16)}"
if [ "$(cat "$DIR/built-from" 2>/dev/null)" != "$BUILT_FROM" ]; then
  # The tree goes to a scratch directory first; into DIR/src only the files that differ are
  # copied (and the ones gone removed), so a DIR built from another commit is rebuilt
  # incrementally, not from scratch.
  NEW=$(mktemp -d)
  trap 'rm -rf "$NEW"' EXIT
  git -C "$SRC" archive "$COMMIT" | tar -x -C "$NEW"
  [ -z "$PATCH" ] || git -C "$NEW" apply -p1 "$PATCH"
  [ -f "$DIR/build/build.ninja" ] && [ "$(cut -d' ' -f2 "$DIR/built-from" 2>/dev/null)" = "$TYPE" ] ||
    rm -rf "$DIR"
  mkdir -p "$DIR/src"
  (cd "$DIR/src" && find . -type f) | while read -r f; do [ -e "$NEW/$f" ] || rm -f "$DIR/src/$f"; done
  (cd "$NEW" && find . -type f) | while read -r f; do
    cmp -s "$NEW/$f" "$DIR/src/$f" || { mkdir -p "$(dirname "$DIR/src/$f")" && cp -p "$NEW/$f" "$DIR/src/$f" && touch "$DIR/src/$f"; }
  done
  nice -n 15 cmake -S "$DIR/src" -B "$DIR/build" -G Ninja -DCMAKE_BUILD_TYPE="$TYPE" >/dev/null
fi
nice -n 15 cmake --build "$DIR/build" --target kkadm >/dev/null
echo "$BUILT_FROM" >"$DIR/built-from"
echo "$DIR/build/kkadm"
