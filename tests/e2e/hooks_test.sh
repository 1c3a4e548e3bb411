#!/usr/bin/env bash
# Hooks around phases (docs/hooks.md) through the binary, on a node root of its own (no systemd
# needed: `init phase certs all`): pre and post hooks of nested phases run in order around their
# phase, their binding context on stdin and in $KKADM_BINDING_CONTEXT checked field by field, their
# environment without kkadm's (no secret of the config or of kkadm's environment reaches them), a
# failing pre hook stops its phase with its stderr in the one error, a hook that outlives its
# timeout is killed with everything it started, a non-fatal one only warns, --dry-run lists and
# runs none, --skip-hooks runs none, --hooks-dir moves the directory. Post hooks are told what
# their phase made (the journal's files with their SHA-256, created directories) and, after a
# failure, its error with secrets redacted; every hook's run is a HookStarted and a HookFinished
# event (Ajv-valid) holding its output lines, bounded and redacted. The sandbox half (a real
# CRI race, kubectl against the API server) is hooks_sandbox_test.sh.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/events_validator.sh"

R=$WORK/root
HOOKS=$R/etc/kkadm/hooks.d/init
OUT=$WORK/seen   # where the hooks write what they saw (a host path: hooks may write anywhere)
mkdir -p "$R" "$OUT"
TOKEN=abcdef.0123456789abcdef
CERT_KEY=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
cat > "$WORK/init.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
bootstrapTokens:
- token: $TOKEN
certificateKey: $CERT_KEY
nodeRegistration:
  name: node-1
localAPIEndpoint:
  advertiseAddress: 192.0.2.10
CFG

hook() {  # PATH-UNDER-HOOKS BODY: an executable shell hook
  mkdir -p "$(dirname "$HOOKS/$1")"
  printf '#!/bin/bash\n%s\n' "$2" > "$HOOKS/$1"
  chmod 755 "$HOOKS/$1"
}
# A hook that records its stdin, its context file, its environment and whether ca.crt exists yet.
recorder() {  # PATH-UNDER-HOOKS TAG
  hook "$1" "cat > '$OUT/$2.stdin'; cp \"\$KKADM_BINDING_CONTEXT\" '$OUT/$2.file'
env > '$OUT/$2.env'; test -e '$R/etc/kubernetes/pki/ca.crt' && echo present > '$OUT/$2.ca' || echo absent > '$OUT/$2.ca'
echo \"said by $2\"; echo \"warned by $2\" >&2
echo $2 >> '$OUT/order'"
}
kkadm_certs() { "$KKADM" init phase certs all --config "$WORK/init.yaml" --rootfs "$R" "$@"; }

recorder pre-certs.d/10-rec pre-certs
recorder pre-certs/ca.d/10-rec pre-ca
recorder pre-certs/ca.d/20-rec pre-ca-2
recorder post-certs/ca.d/10-rec post-ca
hook post-certs/ca.d/20-noisy "echo 'read from a file: $TOKEN and $CERT_KEY'; for i in \$(seq 150); do echo \"line \$i\"; done"
recorder post-certs.d/10-rec post-certs
recorder pre.d/10-rec pre-init          # the command's own: not run by a phase subcommand
hook pre-certs/ca.d/15-notes.yaml 'not a hook: a dot in its name'
printf '#!/bin/bash\ntouch %s/plain-ran\n' "$OUT" > "$HOOKS/pre-certs/ca.d/30-plain"  # no x bit

# ---- a run with hooks: order, binding context, environment, output in the log -------------------
rc=0
SECRET_TOKEN=$TOKEN KKADM_CERT_KEY=$CERT_KEY kkadm_certs -v 2 --events "$WORK/run.events" \
  >"$WORK/run.out" 2>"$WORK/run.err" || rc=$?
assert_eq "certs with hooks exits 0 ($(tail -5 "$WORK/run.err"))" 0 "$rc"
assert_eq "hooks in order, a parent's post hooks after its children's" \
  "pre-certs pre-ca pre-ca-2 post-ca post-certs" "$(tr '\n' ' ' < "$OUT/order" | sed 's/ $//')"
assert_eq "pre-certs/ca ran before ca.crt was written" absent "$(cat "$OUT/pre-ca.ca")"
assert_eq "post-certs/ca ran after it" present "$(cat "$OUT/post-ca.ca")"
check "a file without an execute bit is no hook" test ! -e "$OUT/plain-ran"
assert_contains "kkadm says it runs each hook" "$(cat "$WORK/run.out")" "[hooks] Running pre-certs/ca hook 10-rec"
assert_contains "the hook's stdout in the log" "$(cat "$WORK/run.err")" "[hooks] 10-rec: said by pre-ca"
assert_contains "the hook's stderr in the log" "$(cat "$WORK/run.err")" "[hooks] 10-rec (stderr): warned by post-ca"

validate_events "the hooks' events" "$WORK/run.events"
hook_event() {  # KIND PHASE HOOK FIELD (a Python expression over e)
  python3 - "$WORK/run.events" "$@" <<'PY'
import json, sys
path, kind, phase, hook, expr = sys.argv[1:]
for line in open(path):
    e = json.loads(line)
    if e["kind"] == kind and e["phase"] == phase and e["hook"] == hook:
        v = eval(expr)
        print(json.dumps(v) if not isinstance(v, str) else v)
        break
PY
}
assert_eq "HookStarted: stage and path" "pre /etc/kkadm/hooks.d/init/pre-certs/ca.d/20-rec" \
  "$(hook_event HookStarted certs/ca 20-rec 'e["stage"] + " " + e["path"]')"
assert_eq "HookFinished: how it ended" '["succeeded", 0, true, 0]' \
  "$(hook_event HookFinished certs/ca 20-rec '[e["result"], e["exitCode"], e["fatal"], e["outputLinesDropped"]]')"
assert_eq "HookFinished: its output lines, stream by stream" \
  '[["stdout", "said by pre-ca-2"], ["stderr", "warned by pre-ca-2"]]' \
  "$(hook_event HookFinished certs/ca 20-rec '[[o["stream"], o["line"]] for o in e["output"]]')"
check "HookFinished: a duration" test -n "$(hook_event HookFinished certs/ca 20-rec 'e["durationSeconds"]')"
assert_eq "a noisy hook: its last 100 lines, the 51 before dropped" '[100, 51, "line 51", "line 150"]' \
  "$(hook_event HookFinished certs/ca 20-noisy '[len(e["output"]), e["outputLinesDropped"], e["output"][0]["line"], e["output"][-1]["line"]]')"
assert_contains "a token and a key a hook prints are redacted in its log line" "$(cat "$WORK/run.err")" \
  "[hooks] 20-noisy: read from a file: <redacted> and <redacted>"
for secret in "$TOKEN" 0123456789abcdef "$CERT_KEY"; do
  assert_not_contains "no event holds [$secret]" "$(cat "$WORK/run.events")" "$secret"
  assert_not_contains "no log line holds [$secret]" "$(cat "$WORK/run.err")" "$secret"
done

ctx() {  # TAG FIELD (a Python expression over c)
  python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); v = eval(sys.argv[2]); print(json.dumps(v) if not isinstance(v, str) else v)' "$OUT/$1.stdin" "$2"
}
assert_eq "stdin and the context file hold the same JSON" "$(cat "$OUT/pre-ca.stdin")" "$(cat "$OUT/pre-ca.file")"
assert_eq "one JSON object on one line" 1 "$(wc -l < "$OUT/post-ca.stdin")"
assert_eq "apiVersion" hooks.kkadm.io/v1alpha1 "$(ctx pre-ca 'c["apiVersion"]')"
assert_eq "kind" HookBindingContext "$(ctx pre-ca 'c["kind"]')"
assert_eq "command" init "$(ctx pre-ca 'c["command"]')"
assert_eq "phase of a nested phase" certs/ca "$(ctx pre-ca 'c["phase"]')"
assert_eq "phase of its parent" certs "$(ctx post-certs 'c["phase"]')"
assert_eq "stage pre" pre "$(ctx pre-ca 'c["stage"]')"
assert_eq "stage post" post "$(ctx post-ca 'c["stage"]')"
assert_eq "hook" '{"name": "20-rec", "path": "/etc/kkadm/hooks.d/init/pre-certs/ca.d/20-rec", "timeout": "5m0s", "fatal": true}' "$(ctx pre-ca-2 'c["hook"]')"
assert_eq "rootfs" "$R" "$(ctx pre-ca 'c["rootfs"]')"
assert_eq "dryRun" false "$(ctx pre-ca 'c["dryRun"]')"
assert_eq "configFile" "$WORK/init.yaml" "$(ctx pre-ca 'c["configFile"]')"
assert_eq "hooksDir" /etc/kkadm/hooks.d "$(ctx pre-ca 'c["hooksDir"]')"
assert_eq "paths" '{"adminKubeconfig": "/etc/kubernetes/admin.conf", "kubeconfigDir": "/etc/kubernetes", "certificatesDir": "/etc/kubernetes/pki", "manifestsDir": "/etc/kubernetes/manifests"}' "$(ctx pre-ca 'c["paths"]')"
assert_eq "no result before the phase" false "$(ctx pre-ca '"result" in c')"
assert_eq "result after it" Succeeded "$(ctx post-ca 'c["result"]')"
assert_eq "no other field" "apiVersion command configFile dryRun hook hooksDir kind outputs paths phase result rootfs stage" \
  "$(ctx post-ca '" ".join(sorted(c))')"
assert_eq "no outputs before the phase" false "$(ctx pre-ca '"outputs" in c')"
assert_eq "outputs: the files certs/ca wrote, with their modes" \
  '["/etc/kubernetes/pki/ca.crt 0644", "/etc/kubernetes/pki/ca.key 0600"]' \
  "$(ctx post-ca 'sorted(f["path"] + " " + f["mode"] for f in c["outputs"]["files"])')"
assert_eq "outputs: each file's SHA-256 is of what the phase left" \
  "$(sha256sum "$R/etc/kubernetes/pki/ca.crt" | cut -d' ' -f1)" \
  "$(ctx post-ca '[f["sha256"] for f in c["outputs"]["files"] if f["path"].endswith("/ca.crt")][0]')"
assert_contains "outputs: the directories it created" "$(ctx post-ca 'c["outputs"]["directories"]')" '"/etc/kubernetes/pki"'
assert_eq "outputs: nothing beyond files" '[[], [], [], []]' \
  "$(ctx post-ca '[c["outputs"][k] for k in ("unitsStarted", "unitsEnabled", "objects", "etcdMembers")]')"
assert_eq "outputs of a parent: its sub-phases' files" \
  "$(cd "$R" && find etc/kubernetes/pki -type f | sed 's|^|/|' | sort | paste -sd' ')" \
  "$(ctx post-certs '" ".join(sorted(f["path"] for f in c["outputs"]["files"]))')"
envof() { grep "^$2=" "$OUT/$1.env" | cut -d= -f2-; }
assert_eq "KKADM_COMMAND" init "$(envof pre-ca KKADM_COMMAND)"
assert_eq "KKADM_PHASE" certs/ca "$(envof pre-ca KKADM_PHASE)"
assert_eq "KKADM_STAGE" post "$(envof post-ca KKADM_STAGE)"
assert_eq "KKADM_HOOK" 20-rec "$(envof pre-ca-2 KKADM_HOOK)"
assert_eq "KKADM_ROOTFS" "$R" "$(envof pre-ca KKADM_ROOTFS)"
assert_eq "KKADM_DRY_RUN" false "$(envof pre-ca KKADM_DRY_RUN)"
assert_eq "PATH passed on" "$PATH" "$(envof pre-ca PATH)"
check "the context file is gone after the hook" test ! -e "$(envof pre-ca KKADM_BINDING_CONTEXT)"
ALL_SEEN=$(cat "$OUT"/*.stdin "$OUT"/*.file "$OUT"/*.env)
assert_not_contains "no bootstrap token seen by hooks" "$ALL_SEEN" "$TOKEN"
assert_not_contains "no token secret seen by hooks" "$ALL_SEEN" 0123456789abcdef
assert_not_contains "no kkadm environment variable of the caller" "$ALL_SEEN" SECRET_TOKEN
check "the command's own pre hook does not run for a phase subcommand" test ! -e "$OUT/pre-init.stdin"

# ---- a failing pre hook stops its phase, with its stderr in the one error ------------------------
rm -rf "$R/etc/kubernetes" "$R/var/lib/kkadm" "$OUT"/*
hook pre-certs/sa.d/10-fail 'echo "token '"$TOKEN"'" >&2; echo "checking the disk" >&2; echo "sa refused: /srv is not mounted" >&2; exit 3'
hook pre-certs/sa.d/20-after 'touch '"$OUT"'/after-ran'
rc=0; kkadm_certs >"$WORK/fail.out" 2>&1 || rc=$?
assert_eq "a failing pre hook fails the command" 1 "$rc"
assert_contains "one error naming the phase, the hook and how it ended" "$(cat "$WORK/fail.out")" \
  "error execution phase certs/sa: pre-certs/sa hook \"10-fail\" (/etc/kkadm/hooks.d/init/pre-certs/sa.d/10-fail) exited with status 3; the end of its stderr:"
assert_contains "its last stderr lines in the error" "$(cat "$WORK/fail.out")" "$(printf '  checking the disk\n  sa refused: /srv is not mounted')"
check "the phase did not run" test ! -e "$R/etc/kubernetes/pki/sa.key"
check "the phases before it did" test -e "$R/etc/kubernetes/pki/ca.key"
check "the hooks after the failed one did not run" test ! -e "$OUT/after-ran"
assert_not_contains "the token the hook printed is redacted in kkadm's error" "$(cat "$WORK/fail.out")" "$TOKEN"
assert_contains "the error shows where it was" "$(cat "$WORK/fail.out")" "  token <redacted>"
assert_eq "the parent's post hook is told Failed" Failed "$(ctx post-certs 'c["result"]')"
assert_contains "with the error" "$(ctx post-certs 'c["error"]')" 'pre-certs/sa hook "10-fail"'
assert_contains "its secrets redacted" "$(ctx post-certs 'c["error"]')" "token <redacted>"
assert_not_contains "no token in the binding context" "$(cat "$OUT/post-certs.stdin")" "$TOKEN"
assert_contains "and what its sub-phases made before the failure" \
  "$(ctx post-certs '[f["path"] for f in c["outputs"]["files"]]')" '"/etc/kubernetes/pki/ca.key"'
assert_not_contains "but nothing of the failed one" \
  "$(ctx post-certs '[f["path"] for f in c["outputs"]["files"]]')" '"/etc/kubernetes/pki/sa.key"'
assert_eq "a post hook of a phase that succeeded has no error" false "$(ctx post-ca '"error" in c')"
assert_eq "the journal records the phase failed" failed "$(python3 - "$R/var/lib/kkadm/journal" <<'PY'
import json, sys
state = ""
for line in open(sys.argv[1]):
    r = json.loads(line.split(" ", 1)[1])
    if r.get("record") == "phase" and r.get("phase") == "certs/sa":
        state = r.get("state", "")
print(state)
PY
)"

# ---- a non-fatal hook only warns ---------------------------------------------------------------
printf 'fatal: false\n' > "$HOOKS/pre-certs/sa.d/10-fail.yaml"
rc=0; kkadm_certs >"$WORK/nonfatal.out" 2>&1 || rc=$?
assert_eq "a failing non-fatal hook: exit 0 ($(tail -3 "$WORK/nonfatal.out"))" 0 "$rc"
assert_contains "its failure is a warning" "$(cat "$WORK/nonfatal.out")" "exited with status 3"
check "the phase ran" test -e "$R/etc/kubernetes/pki/sa.key"
rm -rf "$HOOKS/pre-certs/sa.d"

# ---- a hook that outlives its timeout is killed, with what it started ---------------------------
rm -rf "$R/etc/kubernetes" "$R/var/lib/kkadm"
MARK=kkadm-e2e-hook-$$
hook pre-certs/ca.d/40-slow "trap '' TERM
bash -c 'exec -a $MARK-child sleep 300' &
exec -a $MARK-main sleep 300"
printf 'timeout: 1s\n' > "$HOOKS/pre-certs/ca.d/40-slow.yaml"
on_exit "pkill -KILL -f $MARK"
start=$(date +%s%N)
rc=0; kkadm_certs >"$WORK/slow.out" 2>&1 || rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
assert_eq "a hook past its timeout fails the command" 1 "$rc"
assert_contains "the error says it was killed" "$(cat "$WORK/slow.out")" \
  "pre-certs/ca hook \"40-slow\" (/etc/kkadm/hooks.d/init/pre-certs/ca.d/40-slow) did not end within its timeout of 1s and was killed with its process group"
check "killed at once after the timeout and the grace (${took} ms)" test "$took" -lt 8000
sleep 0.5
assert_eq "no process of the hook is left (it and its child ignored SIGTERM)" "" "$(pgrep -af "$MARK" || true)"
rm -f "$HOOKS/pre-certs/ca.d/40-slow" "$HOOKS/pre-certs/ca.d/40-slow.yaml"

# ---- --dry-run lists the hooks and runs none; --skip-hooks runs none -----------------------------
rm -rf "$R/etc/kubernetes" "$R/var/lib/kkadm" "$OUT"/*
rc=0; kkadm_certs --dry-run >"$WORK/dry.out" 2>&1 || rc=$?
assert_eq "dry run exit 0 ($(tail -3 "$WORK/dry.out"))" 0 "$rc"
assert_contains "dry run lists a hook" "$(cat "$WORK/dry.out")" \
  "[hooks] Would run pre-certs/ca hook /etc/kkadm/hooks.d/init/pre-certs/ca.d/10-rec"
assert_contains "dry run lists a parent's post hook" "$(cat "$WORK/dry.out")" \
  "[hooks] Would run post-certs hook /etc/kkadm/hooks.d/init/post-certs.d/10-rec"
check "dry run runs no hook" test ! -e "$OUT/order"
rc=0; kkadm_certs --skip-hooks >"$WORK/skip.out" 2>&1 || rc=$?
assert_eq "--skip-hooks exit 0 ($(tail -3 "$WORK/skip.out"))" 0 "$rc"
check "--skip-hooks runs no hook" test ! -e "$OUT/order"
assert_not_contains "--skip-hooks says nothing of hooks" "$(cat "$WORK/skip.out")" "[hooks]"
check "the phases ran" test -e "$R/etc/kubernetes/pki/ca.crt"

# ---- --hooks-dir: another node directory; not an absolute path: refused -------------------------
rm -rf "$R/etc/kubernetes" "$R/var/lib/kkadm" "$OUT"/*
mkdir -p "$R/srv/hooks/init"
mv "$HOOKS/pre-certs" "$R/srv/hooks/init/"   # pre-certs.d stays in the default directory
rc=0; kkadm_certs --hooks-dir /srv/hooks >"$WORK/dir.out" 2>&1 || rc=$?
assert_eq "--hooks-dir exit 0 ($(tail -3 "$WORK/dir.out"))" 0 "$rc"
assert_eq "only the hooks of --hooks-dir ran" "pre-ca pre-ca-2" "$(tr '\n' ' ' < "$OUT/order" | sed 's/ $//')"
assert_eq "their context names it" /srv/hooks "$(ctx pre-ca 'c["hooksDir"]')"
rc=0; out=$(kkadm_certs --hooks-dir srv/hooks 2>&1) || rc=$?
assert_eq "a relative --hooks-dir is refused (bad input: exit 3)" 3 "$rc"
assert_contains "saying why" "$out" '--hooks-dir "srv/hooks": must be an absolute path'

finish
