#!/bin/bash
# `kkadm etcd snapshot save|list|verify` against the real etcd (Debian's 3.4), run from the
# manifest `kkadm init phase etcd local` writes, with kubeadm's PKI layout, in a network namespace
# of its own (so 2379/2380 are free; only loopback and a blackholed test address are used):
# - save writes a backup etcdctl accepts (`snapshot status`), whose content is the cluster at the
#   time of the save (restored with `etcdctl snapshot restore` and served by a second etcd: a key
#   written before is there, one written after is not), with the node's PKI and manifests, 0600;
# - list shows it (text and -o json, the recorded SHA-256 being the file's);
# - verify accepts it and refuses a copy whose hash was corrupted, and a backup whose snapshot
#   was changed;
# - save refuses a snapshot stream whose trailing SHA-256 does not match (served over mutual TLS
#   by tests/util/servers/tls_echo.py on 127.0.0.1) and leaves no backup;
# - restore: a fresh node made from the backup alone (its node/ files, then `kkadm etcd snapshot
#   restore` with Debian's etcdctl) runs, from the manifest kkadm rewrote, a one-member etcd that
#   has the key written before the save and not the one written after; etcdctl without
#   --skip-revision-bump is refused;
# - retention: saves past --retention-count remove the oldest, --retention-age removes old ones;
# - etcd down: save fails with one line and exit 1, and leaves no directory; --dry-run does nothing.
# - events (docs/events.md), every line checked with Ajv (lib/events_validator.sh): save -o json
#   prints JSON Lines only (CommandStarted, EtcdSnapshot with the backup.json's figures,
#   CommandFinished succeeded) and its human lines on stderr; --events FILE keeps them on stdout;
#   verify and restore have the stream too; a save with etcd down ends CommandFinished failed.
set -euo pipefail

: "${KKADM:?KKADM must point at the kkadm binary}"
NS=kkadm-snap-$$
NS2=kkadm-snap2-$$
ADV=192.0.2.77
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kkadm-snapshot-e2e-XXXXXX")
ROOT=$WORK/root
PKI=$ROOT/etc/kubernetes/pki
BACKUPS=$ROOT/var/backups/kkadm/etcd
ETCD_PID=""
RESTORED_PID=""
NODE2_PID=""
FAKE_PID=""
SOURCE_DIR=${KKADM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
ROUTE=""

# shellcheck source=lib/pki.sh
source "$(dirname "$0")/lib/pki.sh"

fail() { echo "FAIL: $*" >&2; [[ -f $WORK/etcd.log ]] && tail -5 "$WORK/etcd.log" >&2; exit 1; }
# lib/events_validator.sh's validate_events, with this test's stop-at-the-first-failure checks.
KKADM_SOURCE_DIR=$SOURCE_DIR
assert_eq() { [[ $2 == "$3" ]] || fail "$1: expected '$2', got '$3'"; }
# shellcheck source=lib/events_validator.sh
source "$(dirname "$0")/lib/events_validator.sh"
# events FILE: "<first kind> <last kind> <CommandFinished's command and result> <EtcdSnapshots>".
events() {
  python3 - "$1" <<'PY'
import json, sys
e = [json.loads(line) for line in open(sys.argv[1])]
done = e[-1]
print(e[0]["kind"], done["kind"], done["command"].replace(" ", "-"), done["result"],
      sum(x["kind"] == "EtcdSnapshot" for x in e))
PY
}

stop_pid() {
  [[ -n $1 ]] || return 0
  kill -TERM "$1" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

cleanup() {
  stop_pid "$ETCD_PID"
  stop_pid "$RESTORED_PID"
  stop_pid "$NODE2_PID"
  stop_pid "$FAKE_PID"
  # Whatever else this test started in its namespaces (a failed step may have left one).
  local pid ns
  for ns in "$NS" "$NS2"; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do stop_pid "$pid"; done
    ip netns del "$ns" 2>/dev/null || true
  done
  [[ -n $ROUTE ]] && ip route del blackhole "$ROUTE" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

[[ $(id -u) == 0 ]] || fail "needs root (network namespaces)"
for tool in etcd etcdctl openssl ip python3 sha256sum; do
  command -v "$tool" >/dev/null || fail "$tool is not installed"
done

in_ns() { ip netns exec "$NS" "$@"; }
kk() { in_ns "$KKADM" "$@" --rootfs "$ROOT"; }
ctl() {
  ETCDCTL_API=3 in_ns etcdctl --endpoints https://127.0.0.1:2379 --cacert "$PKI/etcd/ca.crt" \
    --cert "$PKI/apiserver-etcd-client.crt" --key "$PKI/apiserver-etcd-client.key" "$@"
}
# The backup directories under the root, oldest first.
backups() { find "$BACKUPS" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2>/dev/null | sort; }

# The etcd manifest for an etcd 3.4 image, and kubeadm's etcd PKI.
mkdir -p "$ROOT"
cat > "$WORK/cfg.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
localAPIEndpoint:
  advertiseAddress: "$ADV"
nodeRegistration:
  name: cp-1
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
etcd:
  local:
    imageTag: "3.4.23-0"
CFG
"$KKADM" init phase etcd local --rootfs "$ROOT" --config "$WORK/cfg.yaml" > "$WORK/phase.out" 2>&1 ||
  fail "init phase etcd local: $(cat "$WORK/phase.out")"
mkdir -p "$PKI/etcd" "$ROOT/var/lib/etcd" && chmod 0700 "$ROOT/var/lib/etcd"
SAN="DNS:localhost,DNS:cp-1,IP:127.0.0.1,IP:$ADV"
cert_make_ca "$PKI/etcd" ca etcd-ca
cert_make_leaf "$PKI/etcd" ca "$PKI/etcd" server /CN=cp-1 serverAuth,clientAuth "$SAN"
cert_make_leaf "$PKI/etcd" ca "$PKI/etcd" peer /CN=cp-1 serverAuth,clientAuth "$SAN"
cert_make_leaf "$PKI/etcd" ca "$PKI" apiserver-etcd-client /CN=kube-apiserver-etcd-client clientAuth
chmod 0600 "$PKI"/etcd/*.key "$PKI"/*.key
echo "apiVersion: v1" > "$ROOT/etc/kubernetes/admin.conf"

# etcd as the manifest runs it, its node paths under ROOT.
mapfile -t CMD < <(awk '/^  - command:/ {on=1; next} on && /^    - / {sub(/^    - /, ""); print; next} on {exit}' \
  "$ROOT/etc/kubernetes/manifests/etcd.yaml")
[[ ${CMD[0]:-} == etcd ]] || fail "the manifest's command is not etcd: ${CMD[*]}"
ARGS=()
for arg in "${CMD[@]:1}"; do
  [[ $arg =~ ^(--[a-z-]+)=(/.*)$ ]] && arg="${BASH_REMATCH[1]}=$ROOT${BASH_REMATCH[2]}"
  ARGS+=("$arg")
done
ip netns add "$NS"
ip -n "$NS" link set lo up
ip -n "$NS" addr add "$ADV/32" dev lo
ip route add blackhole "$ADV/32"
ROUTE="$ADV/32"
# Not through in_ns: $! must be etcd's own pid (ip netns exec execs it), not a subshell's.
ip netns exec "$NS" etcd "${ARGS[@]}" > "$WORK/etcd.log" 2>&1 &
ETCD_PID=$!
for _ in $(seq 100); do ctl endpoint health >/dev/null 2>&1 && break; sleep 0.2; done
ctl endpoint health >/dev/null 2>&1 || fail "etcd did not become healthy"

echo "== save"
ctl put /kkadm/before written-before >/dev/null
kk etcd snapshot save > "$WORK/save.out" 2>&1 || fail "save: $(cat "$WORK/save.out")"
cat "$WORK/save.out"
ctl put /kkadm/after written-after >/dev/null
mapfile -t NAMES < <(backups)
[[ ${#NAMES[@]} == 1 ]] || fail "expected one backup, found: ${NAMES[*]}"
B=$BACKUPS/${NAMES[0]}
grep -q "Saving a snapshot of etcd at https://127.0.0.1:2379 to /var/backups/kkadm/etcd/${NAMES[0]}" \
  "$WORK/save.out" || fail "save did not say where it saved"
[[ $(stat -c %a "$B") == 700 && $(stat -c %a "$BACKUPS") == 700 ]] || fail "backup directories are not 0700"
for f in snapshot.db backup.json node/etc/kubernetes/pki/apiserver-etcd-client.key \
    node/etc/kubernetes/pki/etcd/ca.key node/etc/kubernetes/manifests/etcd.yaml \
    node/etc/kubernetes/admin.conf; do
  [[ -f $B/$f ]] || fail "the backup has no $f"
  [[ $(stat -c %a "$B/$f") == 600 ]] || fail "$f is $(stat -c %a "$B/$f"), not 0600"
done
cmp -s "$B/node/etc/kubernetes/pki/etcd/ca.key" "$PKI/etcd/ca.key" || fail "the PKI copy differs"

echo "== etcdctl accepts the file"
ETCDCTL_API=3 etcdctl snapshot status "$B/snapshot.db" -w json > "$WORK/status.json" ||
  fail "etcdctl snapshot status refused the file"
cat "$WORK/status.json"; echo
python3 - "$WORK/status.json" "$B/backup.json" "$B/snapshot.db" <<'PY' || fail "status/backup.json disagree"
import hashlib, json, sys
status, info = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
data = open(sys.argv[3], "rb").read()
assert status["totalKey"] >= 1, status
assert info["sha256"] == hashlib.sha256(data[:-32]).hexdigest(), "recorded sha256"
assert hashlib.sha256(data[:-32]).digest() == data[-32:], "trailing hash"
assert info["dbSize"] == len(data) - 32 == status["totalSize"], (info, status)
assert info["revision"] >= 2 and info["etcdVersion"].startswith("3.4"), info
PY

echo "== the file's content: restored, a key written before is there, one written after is not"
ETCDCTL_API=3 etcdctl snapshot restore "$B/snapshot.db" --name r0 --data-dir "$WORK/restored" \
  --initial-cluster r0=http://127.0.0.1:22380 --initial-advertise-peer-urls http://127.0.0.1:22380 \
  > "$WORK/restore.out" 2>&1 || fail "etcdctl snapshot restore: $(cat "$WORK/restore.out")"
ip netns exec "$NS" etcd --name r0 --data-dir "$WORK/restored" --listen-client-urls http://127.0.0.1:22379 \
  --advertise-client-urls http://127.0.0.1:22379 --listen-peer-urls http://127.0.0.1:22380 \
  --initial-advertise-peer-urls http://127.0.0.1:22380 --initial-cluster r0=http://127.0.0.1:22380 \
  --listen-metrics-urls http://127.0.0.1:22381 --logger zap --log-outputs stderr \
  > "$WORK/restored.log" 2>&1 &
RESTORED_PID=$!
rctl() { ETCDCTL_API=3 in_ns etcdctl --endpoints http://127.0.0.1:22379 "$@"; }
for _ in $(seq 100); do rctl endpoint health >/dev/null 2>&1 && break; sleep 0.2; done
[[ $(rctl get /kkadm/before --print-value-only) == written-before ]] || fail "the key written before is missing"
[[ -z $(rctl get /kkadm/after --print-value-only) ]] || fail "the key written after the save is there"
stop_pid "$RESTORED_PID"; RESTORED_PID=""
echo "restored: before=written-before, after absent"

echo "== list"
kk etcd snapshot list > "$WORK/list.out" || fail "list failed"
cat "$WORK/list.out"
REV=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["revision"])' "$B/backup.json")
grep -Eq "^${NAMES[0]} +[0-9T:-]+Z +[0-9]+ +$REV +[0-9a-f]{16}\$" "$WORK/list.out" ||
  fail "list does not show the backup with its revision"
kk etcd snapshot list -o json > "$WORK/list.json" || fail "list -o json failed"
python3 - "$WORK/list.json" "$B/backup.json" "${NAMES[0]}" <<'PY' || fail "list -o json is wrong"
import json, sys
entries, info = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert len(entries) == 1 and entries[0]["name"] == sys.argv[3], entries
assert entries[0]["complete"] and entries[0]["sha256"] == info["sha256"], entries
assert entries[0]["snapshotBytes"] == info["dbSize"] + 32, entries
PY

echo "== verify"
kk etcd snapshot verify "/var/backups/kkadm/etcd/${NAMES[0]}" > "$WORK/verify.out" ||
  fail "verify refused a good backup: $(cat "$WORK/verify.out")"
grep -q ": OK (" "$WORK/verify.out" || fail "verify did not say OK"
cp "$B/snapshot.db" "$ROOT/corrupt.db"
python3 - "$ROOT/corrupt.db" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(-1, 2); last = f.read(1); f.seek(-1, 2); f.write(bytes([last[0] ^ 1]))
PY
set +e
kk etcd snapshot verify /corrupt.db > "$WORK/bad.out" 2>&1; rc=$?
set -e
cat "$WORK/bad.out"
[[ $rc == 1 ]] || fail "verify of a corrupted hash exited $rc, not 1"
[[ $(wc -l < "$WORK/bad.out") == 1 ]] && grep -q "^error: .*integrity check failed" "$WORK/bad.out" ||
  fail "verify's error is not one line naming the integrity check"
# A backup whose database was changed (and its trailing hash made to match) is refused by the
# SHA-256 its backup.json recorded.
cp -a "$B" "$WORK/changed" && mv "$WORK/changed" "$BACKUPS/changed"
python3 - "$BACKUPS/changed/snapshot.db" <<'PY'
import hashlib, sys
data = bytearray(open(sys.argv[1], "rb").read()[:-32]); data[100] ^= 1
open(sys.argv[1], "wb").write(bytes(data) + hashlib.sha256(bytes(data)).digest())
PY
if kk etcd snapshot verify /var/backups/kkadm/etcd/changed > "$WORK/changed.out" 2>&1; then
  fail "verify accepted a backup whose snapshot was changed"
fi
grep -q "backup.json says" "$WORK/changed.out" || fail "verify's error: $(cat "$WORK/changed.out")"
rm -rf "$BACKUPS/changed"

echo "== events"
kk etcd snapshot save -o json > "$WORK/save.jsonl" 2> "$WORK/save.err" ||
  fail "save -o json: $(cat "$WORK/save.err")"
cat "$WORK/save.jsonl"
validate_events "save -o json" "$WORK/save.jsonl"
assert_eq "save -o json's events" "CommandStarted CommandFinished etcd-snapshot-save succeeded 1" \
  "$(events "$WORK/save.jsonl")"
grep -q "Saving a snapshot of etcd at" "$WORK/save.err" || fail "save's human lines are not on stderr"
python3 - "$WORK/save.jsonl" "$ROOT" <<'PY' || fail "the EtcdSnapshot event is not the backup's"
import json, sys
e = [json.loads(line) for line in open(sys.argv[1])]
snap = next(x for x in e if x["kind"] == "EtcdSnapshot")
info = json.load(open(sys.argv[2] + snap["path"] + "/backup.json"))
for key in ("dbSize", "revision", "sha256", "etcdVersion", "endpoint"):
    assert snap[key] == info[key], (key, snap, info)
assert snap["path"].startswith("/var/backups/kkadm/etcd/") and snap["removed"] == [], snap
PY
# saved_path FILE: the path of the backup FILE's EtcdSnapshot event names.
saved_path() {
  python3 -c 'import json,sys; print(next(e["path"] for e in map(json.loads, open(sys.argv[1])) if e["kind"] == "EtcdSnapshot"))' "$1"
}
SAVED=$(saved_path "$WORK/save.jsonl")
kk etcd snapshot save --events "$WORK/save.events" > "$WORK/save2.out" 2>&1 ||
  fail "save --events: $(cat "$WORK/save2.out")"
grep -q "^\[etcd-snapshot\] Saving a snapshot" "$WORK/save2.out" || fail "--events moved save's lines"
validate_events "save --events" "$WORK/save.events"
assert_eq "save --events' events" "CommandStarted CommandFinished etcd-snapshot-save succeeded 1" \
  "$(events "$WORK/save.events")"
kk etcd snapshot verify "$SAVED" -o json > "$WORK/verify.jsonl" 2> "$WORK/verify.err" ||
  fail "verify -o json: $(cat "$WORK/verify.err")"
grep -q ": OK (" "$WORK/verify.err" || fail "verify -o json: the OK line is not on stderr"
validate_events "verify -o json" "$WORK/verify.jsonl"
assert_eq "verify -o json's events" "CommandStarted CommandFinished etcd-snapshot-verify succeeded 0" \
  "$(events "$WORK/verify.jsonl")"
if kk etcd snapshot verify /corrupt.db -o json > "$WORK/badverify.jsonl" 2>/dev/null; then
  fail "verify -o json accepted a corrupted hash"
fi
validate_events "a failed verify" "$WORK/badverify.jsonl"
assert_eq "a failed verify's events" "CommandStarted CommandFinished etcd-snapshot-verify failed 0" \
  "$(events "$WORK/badverify.jsonl")"
rm -rf "$ROOT$SAVED" "$ROOT$(saved_path "$WORK/save.events")"
[[ $(backups | wc -l) == 1 ]] || fail "the events' backups were not cleaned up: $(backups)"

echo "== save refuses a stream whose hash does not match"
# The backup's own snapshot as etcd's gateway streams it, its last byte (of the hash) flipped.
python3 - "$B/snapshot.db" "$WORK/responses.json" <<'PY'
import base64, json, sys
data = bytearray(open(sys.argv[1], "rb").read()); data[-1] ^= 1
blob = lambda b: json.dumps({"result": {"blob": base64.b64encode(bytes(b)).decode()}}) + "\n"
status = json.dumps({"header": {"revision": "9"}, "version": "3.4.23"})
json.dump([{"status": 200, "body": status}, {"status": 200, "body": blob(data[:-32]) + blob(data[-32:])}],
          open(sys.argv[2], "w"))
PY
python3 "$SOURCE_DIR/tests/util/servers/tls_echo.py" --port-file "$WORK/fake.port" --log "$WORK/fake.log" \
  --responses "$WORK/responses.json" --cert "$PKI/etcd/server.crt" --key "$PKI/etcd/server.key" \
  --client-ca "$PKI/etcd/ca.crt" > "$WORK/fake.out" 2>&1 &
FAKE_PID=$!
for _ in $(seq 100); do [[ -s $WORK/fake.port ]] && break; sleep 0.1; done
[[ -s $WORK/fake.port ]] || fail "tls_echo.py did not start: $(cat "$WORK/fake.out")"
BEFORE=$(backups | wc -l)
set +e
"$KKADM" etcd snapshot save --endpoint "https://127.0.0.1:$(cat "$WORK/fake.port")" --rootfs "$ROOT" \
  > "$WORK/badstream.out" 2>&1; rc=$?
set -e
cat "$WORK/badstream.out"
[[ $rc == 1 ]] || fail "save of a stream with a wrong hash exited $rc, not 1"
grep -q "^error: snapshot integrity check failed" "$WORK/badstream.out" || fail "save's error does not name the check"
[[ $(backups | wc -l) == "$BEFORE" ]] || fail "a refused snapshot left a backup directory"
grep -q '"path": "/v3/maintenance/snapshot"' "$WORK/fake.log" || fail "the snapshot was not asked for: $(cat "$WORK/fake.log")"
stop_pid "$FAKE_PID"; FAKE_PID=""

echo "== restore into a fresh node made from the backup"
ROOT2=$WORK/node2
mkdir -p "$ROOT2/var/backups/kkadm/etcd"
cp -a "$B/node/." "$ROOT2/"
cp -a "$B" "$ROOT2/var/backups/kkadm/etcd/"
mkdir -p "$ROOT2/var/lib/etcd"  # the old data directory, left as it is
k2() { "$KKADM" "$@" --rootfs "$ROOT2"; }
if k2 etcd snapshot restore "/var/backups/kkadm/etcd/${NAMES[0]}" --etcd-tool "$(command -v etcdctl)" \
    > "$WORK/nobump.out" 2>&1; then
  fail "etcdctl was allowed to restore without a revision bump"
fi
grep -q "^error: etcdctl cannot bump the revision" "$WORK/nobump.out" || fail "$(cat "$WORK/nobump.out")"
k2 etcd snapshot restore "/var/backups/kkadm/etcd/${NAMES[0]}" --etcd-tool "$(command -v etcdctl)" \
  --skip-revision-bump --data-dir /var/lib/etcd-restored --events "$WORK/restore.events" \
  > "$WORK/restore2.out" 2>&1 || fail "restore: $(cat "$WORK/restore2.out")"
cat "$WORK/restore2.out"
validate_events "restore --events" "$WORK/restore.events"
assert_eq "restore's events" "CommandStarted CommandFinished etcd-snapshot-restore succeeded 0" \
  "$(events "$WORK/restore.events")"
M2=$ROOT2/etc/kubernetes/manifests/etcd.yaml
grep -qx '      path: /var/lib/etcd-restored' "$M2" || fail "the manifest's etcd-data is not the new directory"
grep -qx '    - --initial-cluster=cp-1=https://192.0.2.77:2380' "$M2" || fail "--initial-cluster not rewritten"
[[ -d $ROOT2/var/lib/etcd-restored/member ]] || fail "no restored data directory"
# etcd as the kubelet would run it: the etcd-data volume (now the restored directory) at
# --data-dir, the PKI that came from the backup.
mapfile -t CMD2 < <(awk '/^  - command:/ {on=1; next} on && /^    - / {sub(/^    - /, ""); print; next} on {exit}' "$M2")
ARGS2=()
for arg in "${CMD2[@]:1}"; do
  if [[ $arg == --data-dir=* ]]; then arg="--data-dir=$ROOT2/var/lib/etcd-restored"
  elif [[ $arg =~ ^(--[a-z-]+)=(/.*)$ ]]; then arg="${BASH_REMATCH[1]}=$ROOT2${BASH_REMATCH[2]}"; fi
  ARGS2+=("$arg")
done
ip netns add "$NS2"
ip -n "$NS2" link set lo up
ip -n "$NS2" addr add "$ADV/32" dev lo
ip netns exec "$NS2" etcd "${ARGS2[@]}" > "$WORK/node2.log" 2>&1 &
NODE2_PID=$!
P2=$ROOT2/etc/kubernetes/pki
c2() {
  ETCDCTL_API=3 ip netns exec "$NS2" etcdctl --endpoints https://127.0.0.1:2379 --cacert "$P2/etcd/ca.crt" \
    --cert "$P2/apiserver-etcd-client.crt" --key "$P2/apiserver-etcd-client.key" "$@"
}
for _ in $(seq 100); do c2 endpoint health >/dev/null 2>&1 && break; sleep 0.2; done
c2 endpoint health >/dev/null 2>&1 || { tail -5 "$WORK/node2.log"; fail "the restored etcd is not healthy"; }
[[ $(c2 get /kkadm/before --print-value-only) == written-before ]] || fail "restored node: the key written before is missing"
[[ -z $(c2 get /kkadm/after --print-value-only) ]] || fail "restored node: the key written after is there"
[[ $(c2 member list | wc -l) == 1 ]] || fail "restored node: not a one-member cluster: $(c2 member list)"
stop_pid "$NODE2_PID"; NODE2_PID=""
echo "restored node: before=written-before, after absent, one member"

echo "== retention"
# An old backup (made by hand from the first, dated a year ago) and a killed save's leftovers.
OLD=20251101T000000.000Z
cp -a "$B" "$BACKUPS/$OLD"
python3 - "$BACKUPS/$OLD/backup.json" <<'PY'
import json, sys
info = json.load(open(sys.argv[1])); info["created"] = "2025-11-01T00:00:00.000Z"
json.dump(info, open(sys.argv[1], "w"))
PY
mkdir -p "$BACKUPS/20251102T000000.000Z" && echo half > "$BACKUPS/20251102T000000.000Z/snapshot.db"
sleep 0.01
kk etcd snapshot save --retention-count 0 --retention-age 720h > "$WORK/age.out" 2>&1 ||
  fail "save: $(cat "$WORK/age.out")"
[[ ! -e $BACKUPS/$OLD ]] || fail "--retention-age kept a backup a year old"
[[ ! -e $BACKUPS/20251102T000000.000Z ]] || fail "a killed save's leftovers were kept"
[[ -d $B ]] || fail "--retention-age removed a new backup"
grep -q "Removed old backup $OLD (retention)" "$WORK/age.out" || fail "save did not say what it removed"
for _ in 1 2 3; do
  kk etcd snapshot save --retention-count 2 > "$WORK/count.out" 2>&1 || fail "save: $(cat "$WORK/count.out")"
  cat "$WORK/count.out"
done
mapfile -t LEFT < <(backups)
[[ ${#LEFT[@]} == 2 ]] || fail "--retention-count 2 left ${#LEFT[@]} backups: ${LEFT[*]}"
[[ ! -e $B ]] || fail "the oldest backup survived the count"
echo "left: ${LEFT[*]}"

echo "== dry run, and etcd down"
kk etcd snapshot save --dry-run > "$WORK/dry.out" 2>&1 || fail "dry run: $(cat "$WORK/dry.out")"
grep -q "Would save a snapshot of etcd at https://127.0.0.1:2379" "$WORK/dry.out" || fail "dry run said: $(cat "$WORK/dry.out")"
[[ $(backups | wc -l) == 2 ]] || fail "the dry run made a backup"
stop_pid "$ETCD_PID"; ETCD_PID=""
set +e
kk etcd snapshot save > "$WORK/down.out" 2>&1; rc=$?
set -e
cat "$WORK/down.out"
[[ $rc == 1 ]] || fail "save with etcd down exited $rc, not 1"
[[ $(grep -c '^error: ' "$WORK/down.out") == 1 ]] || fail "no one-line error"
[[ $(backups | wc -l) == 2 ]] || fail "a failed save left a directory: $(backups)"
set +e
kk etcd snapshot save -o json > "$WORK/down.jsonl" 2> "$WORK/down.err"; rc=$?
set -e
[[ $rc == 1 ]] || fail "save -o json with etcd down exited $rc, not 1"
grep -q '^error: ' "$WORK/down.err" || fail "save -o json with etcd down: no error on stderr"
validate_events "a failed save" "$WORK/down.jsonl"
assert_eq "a failed save's events" "CommandStarted CommandFinished etcd-snapshot-save failed 0" \
  "$(events "$WORK/down.jsonl")"
python3 - "$WORK/down.jsonl" <<'PY' || fail "the failed save's CommandFinished has no error"
import json, sys
done = [json.loads(line) for line in open(sys.argv[1])][-1]
assert "etcd" in done["error"], done
PY
echo "PASS"
