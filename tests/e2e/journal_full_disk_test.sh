#!/usr/bin/env bash
# A key and its certificate are one unit, also on a disk that fills up: the node root is a small
# real tmpfs, and `kkadm init phase certs all` runs with it filled so that only K more pages fit,
# for every K from none to what an uninterrupted run needs (each write of the phase in turn is
# the one that finds the disk full). Each run fails with one line naming the full disk, or
# succeeds; then the filler is removed and the same command run again exits 0 with a whole PKI:
# each certificate verifies against its CA, each key is its certificate's, no temporary file.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/pki.sh"
source "$(dirname "$0")/lib/journal_certs.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (mounts a tmpfs)"; exit 77; }

ROOT=$WORK/node
mkdir -p "$ROOT"
mount -t tmpfs -o size=4m,mode=0755 kkadm-full-disk-test "$ROOT" || { echo "cannot mount a tmpfs"; exit 77; }
on_exit "umount -l '$ROOT'"

free_pages() { df -B4096 --output=avail "$ROOT" | tail -1 | tr -d ' '; }
wipe() { find "$ROOT" -mindepth 1 -delete; }

# What an uninterrupted run takes, in pages (the journal and the status file included).
EMPTY=$(free_pages)
out=$(certs "$ROOT" 2>&1) || { fail "an uninterrupted run on the tmpfs failed: $out"; finish; exit 1; }
NEEDED=$((EMPTY - $(free_pages)))
echo "an uninterrupted run takes $NEEDED pages of the tmpfs"
[ "$NEEDED" -ge 24 ] || fail "expected at least 24 pages (22 certificates and keys, the journal), got $NEEDED"
wipe

full_runs=0
for ((k = 0; k <= NEEDED + 2; k++)); do
  # Leave k pages: a filler takes the rest (tmpfs allocates it at once with fallocate).
  fallocate -l $((($(free_pages) - k) * 4096)) "$ROOT/filler" || { fail "K=$k: cannot fill the tmpfs"; continue; }
  rc=0
  out=$(certs "$ROOT" 2>&1) || rc=$?
  if [ "$rc" -ne 0 ]; then
    full_runs=$((full_runs + 1))
    assert_contains "K=$k: the failure names the full disk" "$out" "No space left on device"
    assert_not_contains "K=$k: no internal error" "$out" "internal error"
  fi
  rm -f "$ROOT/filler"
  rc=0
  out=$(certs "$ROOT" 2>&1) || rc=$?
  assert_eq "K=$k: the re-run with room exits 0 ($(echo "$out" | tail -3))" 0 "$rc"
  why=$(pki_whole "$ROOT") || fail "K=$k: $why"
  pass
  wipe
done
echo "$full_runs of $((NEEDED + 3)) runs found the disk full"
# The runs with too little room failed, those with enough did not.
[ "$full_runs" -ge $((NEEDED - 2)) ] || fail "expected about $NEEDED runs to fail for room, got $full_runs"
finish
