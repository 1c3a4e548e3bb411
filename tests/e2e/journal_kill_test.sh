#!/usr/bin/env bash
# A key and its certificate are one unit: `kkadm init phase certs all` is killed (SIGKILL, from
# strace's fault injection) at each rename and at every Nth write of its run in turn, and fails
# with a full disk (ENOSPC injected) at every Nth write; after each, the same command run again
# exits 0, openssl verifies every certificate against its CA and matches every key to its
# certificate, and no temporary file is left; killed at its first write, the journal is never left
# empty. The journal undoes what the interrupted attempt of a phase made before the phase runs
# again. KKADM_KILL_STRIDE (default 7) sets N for writes.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/pki.sh"
source "$(dirname "$0")/lib/journal_certs.sh"
command -v strace >/dev/null || { echo "needs strace"; exit 77; }
STRIDE=${KKADM_KILL_STRIDE:-7}

interrupt_and_resume() {  # WHAT STRACE-INJECTION
  local root; root=$(mktemp -d "$WORK/root.XXXXXX")
  local rc=0 out
  out=$(certs "$root" -e "inject=$2" 2>&1) && rc=0 || rc=$?
  [ "$rc" -ne 0 ] || { pass; return 0; }  # the run ended before the injection
  rc=0; out=$(certs "$root" 2>&1) || rc=$?
  assert_eq "$1: the re-run exits 0 ($out)" 0 "$rc"
  local why; why=$(pki_whole "$root") || fail "$1: $why"
  pass
  rm -rf "$root"
}

# How many renames and writes an uninterrupted run makes (worker threads included).
count() {  # SYSCALL
  local root; root=$(mktemp -d "$WORK/count.XXXXXX")
  strace -f -qq -c -S calls -e "trace=$1" -o "$WORK/count" -- "$KKADM" --rootfs "$root" init phase certs all --config "$WORK/init.yaml" >/dev/null
  awk -v s="$1" '$NF == s {print $4}' "$WORK/count"
}
# Files are renamed into place relative to their directory (renameat: the node root is a root).
RENAMES=$(count renameat) WRITES=$(count write)
echo "an uninterrupted run makes $RENAMES renames and $WRITES writes"
[ "${RENAMES:-0}" -ge 22 ] || fail "expected at least 22 renames, counted '$RENAMES'"

# strace counts calls per thread: renames are the write-behind threads', so few reach N > 6.
for ((n = 1; n <= RENAMES; n++)); do
  interrupt_and_resume "SIGKILL at rename $n" "renameat:signal=SIGKILL:when=$n"
done
for ((n = 1; n <= WRITES; n += STRIDE)); do
  interrupt_and_resume "SIGKILL at write $n" "write:signal=SIGKILL:when=$n"
  interrupt_and_resume "ENOSPC at write $n" "write:error=ENOSPC:when=$n"
done
# The journal is made whole: killed at the first write to it, a run leaves it absent or holding
# records, never empty (a node whose journal records nothing would be reset as if kkadm had made
# nothing on it).
root=$(mktemp -d "$WORK/journal.XXXXXX")
journal=$root/var/lib/kkadm/journal
rc=0; certs "$root" -P "$journal" -e trace=write -e inject=write:signal=SIGKILL:when=1 >/dev/null 2>&1 || rc=$?
assert_eq "killed at the journal's first write" 137 "$rc"
check "the journal is there and not empty" test -s "$journal"
rc=0; out=$(certs "$root" 2>&1) || rc=$?
assert_eq "the re-run exits 0 ($out)" 0 "$rc"
why=$(pki_whole "$root") || fail "after a kill at the journal's first write: $why"
rm -rf "$root"

# SIGKILL at random instants of the run (its first ~40 ms).
for ((i = 0; i < ${KKADM_KILL_RANDOM:-30}; i++)); do
  root=$(mktemp -d "$WORK/random.XXXXXX")
  "$KKADM" --rootfs "$root" init phase certs all --config "$WORK/init.yaml" >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf "0.%03d" $((RANDOM % 40)))"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rc=0; out=$(certs "$root" 2>&1) || rc=$?
  assert_eq "random kill $i: the re-run exits 0 ($out)" 0 "$rc"
  why=$(pki_whole "$root") || fail "random kill $i: $why"
  rm -rf "$root"
done
finish
