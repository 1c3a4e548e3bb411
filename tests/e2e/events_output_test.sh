#!/usr/bin/env bash
# -o json, --events and the timing table without a sandbox (docs/events.md): a phase subcommand's
# stdout is JSON Lines only and prints no table; --events keeps stdout byte for byte as without it;
# a bad -o value and an event file that cannot be created are refused before anything is written;
# a failed init's events end with PhaseFailed and CommandFinished failed, and its stderr ends with
# the error, no table after it; a dry-run init's table marks a skipped phase.
source "$(dirname "$0")/lib/common.sh"

json_lines() {  # FILE: every line parses as a JSON object
  python3 -c 'import json, sys; [json.loads(l)["kind"] for l in open(sys.argv[1])]' "$1"
}

R=$WORK/a; mkdir -p "$R"
rc=0; "$KKADM" --rootfs "$R" init phase certs ca --kubernetes-version v1.32.0 -o json \
  >"$WORK/ca.jsonl" 2>"$WORK/ca.err" || rc=$?
assert_eq "init phase certs ca -o json ($(cat "$WORK/ca.err"))" 0 "$rc"
check "a phase's stdout is JSON Lines only" json_lines "$WORK/ca.jsonl"
assert_eq "the phase's events" "CommandStarted PhaseStarted PhaseFinished CommandFinished" \
  "$(python3 -c 'import json, sys; print(" ".join(json.loads(l)["kind"] for l in open(sys.argv[1])))' "$WORK/ca.jsonl")"
assert_contains "the human line went to stderr" "$(cat "$WORK/ca.err")" '[certs] Generating "ca" certificate and key'
assert_not_contains "a phase subcommand prints no timing table" "$(cat "$WORK/ca.err")" "[timing]"
check "the CA was written" test -s "$R/etc/kubernetes/pki/ca.crt"

# --events FILE: stdout as without it.
for run in plain events; do
  R=$WORK/$run; mkdir -p "$R"
  extra=(); [ "$run" = plain ] || extra=(--events "$WORK/events.jsonl")
  "$KKADM" --rootfs "$R" init phase certs ca --kubernetes-version v1.32.0 "${extra[@]}" \
    >"$WORK/$run.out" 2>"$WORK/$run.err" || fail "init phase certs ca ($run): $(cat "$WORK/$run.err")"
done
assert_eq "--events leaves stdout as it was" "$(cat "$WORK/plain.out")" "$(cat "$WORK/events.out")"
assert_contains "  ... kubeadm's line" "$(cat "$WORK/events.out")" '[certs] Generating "ca" certificate and key'
check "the event file holds JSON Lines" json_lines "$WORK/events.jsonl"
assert_eq "the event file is private" 600 "$(stat -c %a "$WORK/events.jsonl")"

# Refused before anything is written.
R=$WORK/refused; mkdir -p "$R"
rc=0; "$KKADM" --rootfs "$R" init phase certs ca -o yaml >"$WORK/yaml.out" 2>"$WORK/yaml.err" || rc=$?
assert_eq "-o yaml: exit 3" 3 "$rc"
assert_eq "-o yaml: one line" 1 "$(grep -c . "$WORK/yaml.err")"
rc=0; "$KKADM" --rootfs "$R" init phase certs ca --events "$WORK/no/such/dir/events" \
  >"$WORK/nofile.out" 2>"$WORK/nofile.err" || rc=$?
assert_eq "--events in a missing directory: refused" 1 "$rc"
assert_contains "--events: the error names the file" "$(cat "$WORK/nofile.err")" "$WORK/no/such/dir/events"
check "nothing was written when refused" test -z "$(find "$R" -mindepth 1 -print -quit)"

# A failing init: the failed phase and the command's end are events; stderr (the human lines,
# with -o json) ends with the error and holds no table.
# (The manifests directory is a file: the etcd phase cannot write its manifest.)
R=$WORK/failing; mkdir -p "$R/etc/kubernetes"
touch "$R/etc/kubernetes/manifests"
rc=0; "$KKADM" --rootfs "$R" init --kubernetes-version v1.32.0 --skip-phases preflight -o json \
  >"$WORK/fail.jsonl" 2>"$WORK/fail.err" || rc=$?
check "init without a manifests directory fails" test "$rc" -ne 0
check "the failing run's stdout is JSON Lines only" json_lines "$WORK/fail.jsonl"
LAST=$(tail -1 "$WORK/fail.jsonl")
assert_contains "the last event: CommandFinished" "$LAST" '"kind":"CommandFinished"'
assert_contains "  ... failed" "$LAST" '"result":"failed"'
assert_contains "  ... in etcd/local" "$LAST" '"failedPhase":"etcd/local"'
FAILED=$(grep '"kind":"PhaseFailed"' "$WORK/fail.jsonl" || true)
assert_contains "PhaseFailed etcd/local" "$FAILED" '"phase":"etcd/local"'
assert_contains "PhaseFailed etcd, its parent" "$FAILED" '"phase":"etcd"}'
assert_not_contains "a failed run prints no timing table" "$(cat "$WORK/fail.err")" "[timing]"
assert_contains "a failed run's stderr ends with its error" "$(tail -1 "$WORK/fail.err")" \
  "error execution phase etcd/local"

# A run that succeeds prints the table, a skipped phase marked so.
R=$WORK/dry-run; mkdir -p "$R"
rc=0; "$KKADM" --rootfs "$R" init --dry-run --kubernetes-version v1.32.0 --skip-phases preflight \
  >"$WORK/dry.out" 2>"$WORK/dry.err" || rc=$?
assert_eq "a dry-run init succeeds" 0 "$rc"
check "the table marks the skipped preflight" grep -qE '^preflight +skipped$' "$WORK/dry.err"
check "the table has the phases run" grep -qE '^certs +[0-9.]+s$' "$WORK/dry.err"
finish
