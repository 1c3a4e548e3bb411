#!/usr/bin/env bash
# `kkadm status [-o text|json|yaml]` through the binary: a node without a journal (the sentence,
# an empty document); after `kkadm init phase certs all`, every phase done with its times, inputs
# and files; a certificate edited and a key removed by hand are named as drift; a run killed half
# way (SIGKILL from strace's fault injection) shows its phase started and never ended; a damaged
# journal line is counted and warned about; -o xml is refused as a usage error (exit 3). Status
# writes nothing: the node's tree (content, modes and times) is the same before and after.
source "$(dirname "$0")/lib/common.sh"

cat > "$WORK/init.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration: {name: node-1}
localAPIEndpoint: {advertiseAddress: 192.0.2.10}
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.31.0
encryptionAlgorithm: ECDSA-P256
CFG

# Every path with its type, mode, size, modification time and content: status must change none.
tree_with_times() {
  (cd "$1" && find . -printf '%p %y %m %s %T@\n' | sort && find . -type f -print0 | sort -z | xargs -0r sha256sum)
}
# Runs kkadm status on ROOT with ARGS; sets RC, OUT (stdout) and ERR (stderr); fails the test if
# the node's tree changed.
status() {  # ROOT ARGS...
  local root=$1; shift
  local before; before=$(tree_with_times "$root")
  RC=0; "$KKADM" --rootfs "$root" status "$@" >"$WORK/out" 2>"$WORK/err" || RC=$?
  OUT=$(cat "$WORK/out") ERR=$(cat "$WORK/err")
  assert_eq "status $* wrote nothing" "$before" "$(tree_with_times "$root")"
}
# Reads the JSON document on stdin and prints what the python expression EXPR gives for it (d).
query() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }

# ---- no journal ---------------------------------------------------------------------------------
R=$WORK/node
mkdir -p "$R"
status "$R"
assert_eq "no journal: exit code" 0 "$RC"
assert_eq "no journal: text" "No kkadm journal on this node (/var/lib/kkadm/journal): kkadm has not initialised or joined it, or it was reset." "$OUT"
status "$R" -o json
assert_eq "no journal: json exit code" 0 "$RC"
assert_eq "no journal: empty document" "[] [] 0" "$(query 'd["phases"], d["runs"], d["ignoredRecords"]' <<< "$OUT" | tr -d ',()')"
status "$R" -o yaml
assert_contains "no journal: yaml" "$OUT" "phases: []"
check "no journal: status made no directory" test -z "$(ls -A "$R")"

# ---- after init phase certs all -----------------------------------------------------------------
rc=0; "$KKADM" --rootfs "$R" init phase certs all --config "$WORK/init.yaml" >"$WORK/certs.out" 2>&1 || rc=$?
assert_eq "certs all exit code ($(tail -3 "$WORK/certs.out"))" 0 "$rc"
status "$R"
assert_eq "text: exit code ($ERR)" 0 "$RC"
assert_contains "text: the command and its run" "$OUT" "init: 1 run, the last started "
header=$(grep '^PHASE' <<< "$OUT" | tr -s ' ')
assert_eq "text: the header" "PHASE STATE STARTED DURATION INPUTS MADE DRIFT" "$header"
ca_row=$(grep '^certs/ca ' <<< "$OUT" | tr -s ' ')
assert_contains "text: certs/ca done" "$ca_row" "certs/ca done "
# Its key and certificate, and /etc, /etc/kubernetes and its pki directory on the empty root.
assert_contains "text: certs/ca made, no drift" "$ca_row" " 2 files, 3 dirs -"
assert_not_contains "text: no drift yet" "$OUT" "Files changed or missing"

status "$R" -o json
assert_eq "json: exit code" 0 "$RC"
assert_eq "json: one run of init" "init" "$(query '",".join(r["command"] for r in d["runs"])' <<< "$OUT")"
assert_eq "json: every phase done" "done" "$(query '" ".join(sorted({p["state"] for p in d["phases"]}))' <<< "$OUT")"
for phase in certs/ca certs/apiserver certs/etcd-ca certs/sa certs/front-proxy-client; do
  assert_eq "json: $phase recorded" "True" "$(query "any(p['phase'] == '$phase' for p in d['phases'])" <<< "$OUT")"
done
ca() { query "[p for p in d['phases'] if p['phase'] == 'certs/ca'][0]$1" <<< "$OUT"; }
assert_eq "json: certs/ca command" "init" "$(ca '["command"]')"
assert_eq "json: certs/ca ended after it started" "True" "$(ca '["ended"] >= [p for p in d["phases"] if p["phase"] == "certs/ca"][0]["started"]')"
assert_eq "json: certs/ca's certificatesDir input" "/etc/kubernetes/pki" \
  "$(ca '["inputs"]' | python3 -c 'import ast, sys; print([i["value"] for i in ast.literal_eval(sys.stdin.read()) if i["name"] == "certificatesDir"][0])')"
assert_eq "json: certs/ca made" "{'files': 2, 'directories': 3, 'units': 0, 'objects': 0, 'etcdMembers': 0}" "$(ca '["made"]')"
assert_eq "json: certs/ca fingerprint" "64" "$(ca '["fingerprint"].__len__()')"
status "$R" -o yaml
assert_contains "yaml: the phase" "$OUT" "phase: certs/ca"
assert_contains "yaml: its state" "$OUT" "state: done"

# ---- drift: a certificate edited, a key removed ---------------------------------------------------
PKI=$R/etc/kubernetes/pki
echo "# edited" >> "$PKI/apiserver.crt"
rm "$PKI/front-proxy-client.key"
status "$R"
assert_eq "drift: exit code" 0 "$RC"
assert_contains "drift: the edited certificate" "$OUT" "  changed  /etc/kubernetes/pki/apiserver.crt  (written by init certs/apiserver)"
assert_contains "drift: the removed key" "$OUT" "  missing  /etc/kubernetes/pki/front-proxy-client.key  (written by init certs/front-proxy-client)"
assert_contains "drift: in the table" "$(grep '^certs/apiserver ' <<< "$OUT")" "1 changed"
status "$R" -o json
assert_eq "drift: json" "[{'path': '/etc/kubernetes/pki/apiserver.crt', 'change': 'changed'}] [{'path': '/etc/kubernetes/pki/front-proxy-client.key', 'change': 'missing'}]" \
  "$(query '" ".join(str(p["drift"]) for p in d["phases"] if p["drift"])' <<< "$OUT")"

# ---- a damaged journal line -----------------------------------------------------------------------
echo "0000 {\"record\": \"torn" >> "$R/var/lib/kkadm/journal"
status "$R"
assert_eq "damaged: exit code" 0 "$RC"
assert_contains "damaged: warned" "$ERR" "1 damaged or torn lines of the journal /var/lib/kkadm/journal were ignored"
status "$R" -o json
assert_eq "damaged: counted" "1" "$(query 'd["ignoredRecords"]' <<< "$OUT")"

# ---- bad usage --------------------------------------------------------------------------------------
status "$R" -o xml
assert_eq "-o xml: exit code" 3 "$RC"
assert_contains "-o xml: the error" "$ERR" "xml"
RC=0; "$KKADM" --rootfs "$WORK/none" status >/dev/null 2>"$WORK/err" || RC=$?
assert_eq "missing --rootfs: exit code" 3 "$RC"

# ---- a run killed half way --------------------------------------------------------------------------
if command -v strace >/dev/null; then
  K=$WORK/killed
  mkdir -p "$K"
  rc=0
  strace -f -qq -o /dev/null -e inject=write:signal=SIGKILL:when=40 -- \
    "$KKADM" --rootfs "$K" init phase certs all --config "$WORK/init.yaml" >/dev/null 2>&1 || rc=$?
  assert_eq "killed run: killed" 137 "$rc"
  status "$K" -o json
  assert_eq "killed: exit code" 0 "$RC"
  started=$(query '" ".join(p["phase"] for p in d["phases"] if p["state"] == "started" and "ended" not in p)' <<< "$OUT")
  check "killed: a phase started and never ended ($OUT)" test -n "$started"
  last=$(query 'max((p for p in d["phases"] if p["state"] == "started"), key=lambda p: p["started"])["phase"]' <<< "$OUT")
  status "$K"
  assert_contains "killed: said in text, naming where" "$OUT" "started and never ended, the last $last at "
  assert_contains "killed: said in text" "$OUT" ": their run was killed there, or is running now"
  assert_eq "killed: no duration for a phase that never ended" "started -" \
    "$(grep "^$last " <<< "$OUT" | tr -s ' ' | cut -d' ' -f2,4)"
  # Finished by running it again: every phase done.
  "$KKADM" --rootfs "$K" init phase certs all --config "$WORK/init.yaml" >/dev/null 2>&1
  status "$K" -o json
  assert_eq "killed then re-run: every phase done" "done" "$(query '" ".join(sorted({p["state"] for p in d["phases"]}))' <<< "$OUT")"
  assert_eq "killed then re-run: two runs" "2" "$(query 'len(d["runs"])' <<< "$OUT")"
else
  echo "strace missing: the killed run is not tested"
fi

# ---- the command is listed ----------------------------------------------------------------------------
assert_contains "kkadm --help lists status" "$("$KKADM" --help 2>&1)" "status"
assert_contains "bash completion has status" "$("$KKADM" completion bash)" "status"
finish
