#!/usr/bin/env bash
# Prints the build-time figures: a clean build of everything (kkadm, unit tests, benchmarks) in a
# new build directory with ccache off; then, after one .cc file is edited, the rebuild plus every
# unit test (scripts/unit.sh's loop); and the compiler warnings of the clean build.
# Usage: scripts/build_times.sh [file.cc to edit, default app/phases/certs/cert_list.cc]
source "$(dirname "$0")/lib.sh"
ensure_packages "${KKADM_BUILD_PACKAGES[@]}"
edited=$KKADM_ROOT/${1:-app/phases/certs/cert_list.cc}
KKADM_BUILD=$(mktemp -d "$KKADM_ROOT/build-times.XXXXXX")
log_file=$KKADM_BUILD/times.log
backup=$KKADM_BUILD/edited.bak
cp -p "$edited" "$backup"
trap 'cp -p "$backup" "$edited"; rm -rf "$KKADM_BUILD"' EXIT
export CCACHE_DISABLE=1

# Runs "$@" with its output in $log_file and prints the seconds it took; fails as the command did.
timed() {
  local start=$SECONDS rc=0
  "$@" >"$log_file" 2>&1 || rc=$?
  echo $((SECONDS - start))
  return $rc
}
rebuild_and_test() { build_kkadm && run_unit_tests; }

clean=$(timed build_kkadm) || { cat "$log_file"; exit 1; }
warnings=$(grep -c 'warning:' "$log_file" || true)
# (No warning is the good case: grep's status 1 must not end the script under pipefail.)
{ grep -A3 'warning:' "$log_file" || true; } | head -40
# An edit changes the file's bytes as well as its time: a trailing comment, undone on exit.
echo "// edited by scripts/build_times.sh" >>"$edited"
incremental=$(timed rebuild_and_test) || { cat "$log_file"; exit 1; }

echo "clean build of everything, $(nproc) cores, no ccache: ${clean} s"
echo "edit ${edited#"$KKADM_ROOT"/}, rebuild + all unit tests: ${incremental} s"
echo "compiler warnings in the clean build: ${warnings}"
