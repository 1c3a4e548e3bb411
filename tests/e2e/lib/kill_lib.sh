# shellcheck shell=bash
# Kill anywhere (issue 14), shared by tests/e2e/journal_kill_node_test.sh (CI's share) and
# scripts/kill_test.sh (the full count), so both run the same code. A kkadm command on a sandbox
# node (lib/sandbox_node.sh: real systemd, real etcd, the stand-in API server) is SIGKILLed at one
# instant; then no file of the node is torn, the same command run again exits 0, and the node
# ends as after an uninterrupted run: the same paths, a PKI that verifies, kubelet.service
# active, the same etcd members and the same API objects (their keys in etcd). Between instants
# the node is put back as it was before the command (its new paths removed, its kubelet stopped,
# the cluster's objects and etcd member it added removed): no kkadm involved, so a bug of reset
# cannot hide one of init or join. Source after lib/common.sh and lib/sandbox_node.sh.
#
#   kill_scenario NAME NODE CLUSTER ARGS...  the command `kkadm ARGS` on NODE; CLUSTER is the
#                                node whose etcd holds the cluster (NODE itself for init)
#   kill_reference [count]       runs it uninterrupted: timed (what the node must end as, and the
#                                phases' times); with "count" once more under strace, its calls
#                                counted, and the node must end the same
#   kill_at_random COUNT [LEAVE_OUT]  COUNT instants: odd ones a delay uniform over the whole run,
#                                even ones uniform within a phase drawn uniformly (short phases
#                                too); LEAVE_OUT, a regex of phases, keeps instants before them
#   kill_at_delay MS             SIGKILL MS milliseconds after the launch
#   kill_at_call SYSCALL N       SIGKILL at the N-th SYSCALL of a thread (strace's injection)
#   kill_phase_start PHASE       when PHASE started in the uninterrupted run (ms)
#   kill_calls SYSCALL [STEP]    kill_at_call for each N up to the calls counted, in STEP passes
#   kill_summary                 instants, kills, failures and phases hit, per scenario
# KILL_FINDINGS (a file) gets each failure's reproducer; KILL_KEEP (a directory) the node's files.
KILL_LOG=$WORK/kill-instants.log
: >"$KILL_LOG"
RANDOM=${KKADM_KILL_SEED:-$$}

kill_scenario() {  # NAME NODE CLUSTER ARGS...
  KILL_NAME=$1 KILL_NODE=$2 KILL_CLUSTER=$3
  shift 3
  KILL_ARGS=("$@")
  KILL_DIR=$WORK/kill-$KILL_NAME KILL_BROKEN=0
  KILL_ROOT=$(node_root "$KILL_NODE")
  mkdir -p "$KILL_DIR" "$KILL_ROOT/run"  # a running system has /run: kkadm's status goes there
  (cd "$KILL_ROOT" && find . | LC_ALL=C sort) >"$KILL_DIR/baseline.list"
  [ "$KILL_CLUSTER" = "$KILL_NODE" ] || _kill_keys >"$KILL_DIR/baseline.keys"
}

# `kkadm --rootfs ROOT ARGS` on the scenario's node, behind PREFIX (timeout, strace).
_kill_kkadm() {  # [PREFIX...] -- ARGS...
  local -a prefix=()
  while [ "$1" != -- ]; do prefix+=("$1"); shift; done
  shift
  KKADM_SYSTEM_BUS_ADDRESS=$(node_bus "$KILL_NODE") PATH="$(node_dir "$KILL_NODE")/bin:$PATH" \
    node_exec_on "$KILL_NODE" "${prefix[@]}" "$KKADM" --rootfs "$KILL_ROOT" "$@"
}

_kill_etcdctl() {  # ARGS...: etcdctl on the cluster's first member, with its API server's client
  local pki addr
  pki=$(node_root "$KILL_CLUSTER")/etc/kubernetes/pki addr=$(node_address "$KILL_CLUSTER")
  node_exec_on "$KILL_CLUSTER" etcdctl --endpoints "https://$addr:2379" --cacert "$pki/etcd/ca.crt" \
    --cert "$pki/apiserver-etcd-client.crt" --key "$pki/apiserver-etcd-client.key" \
    --dial-timeout=5s --command-timeout=10s "$@"
}

_kill_keys() { _kill_etcdctl get /registry --prefix --keys-only | grep . | LC_ALL=C sort; }

# The API objects: their keys, a CSR's generated name left out (a re-run's kubelet may send one),
# and the Leases left out: the components' own leader-election and heartbeat records, which they
# take seconds after kkadm ends, whenever their loop comes round (CI saw the controller-manager's
# missing after one run and present after another).
_kill_objects() {
  _kill_etcdctl get /registry --prefix --keys-only | grep . | grep -v '^/registry/coordination\.k8s\.io/leases/' |
    sed -E 's#(/certificatesigningrequests/).*#\1<generated>#' | LC_ALL=C sort -u
}

_kill_members() {  # "<name>:<voter|learner>:<started|unstarted>" per member, sorted
  _kill_etcdctl member list -w json | python3 -c '
import json, sys
for m in json.load(sys.stdin).get("members", []):
    print("%s:%s:%s" % (m.get("name", ""), "learner" if m.get("isLearner") else "voter",
                        "started" if m.get("clientURLs") else "unstarted"))' | LC_ALL=C sort
}

# The node's paths, etcd's own data left out and the kubelet's dated certificate file named
# without its date (both differ between two uninterrupted runs), and the kubelet's pending TLS
# bootstrap key (kubelet-client.key.tmp) left out: the kubelet's own, kept across its restarts
# until its bootstrap ends (seen once in 50 worker joins after kkadm's run ended; kill_intact
# leaves it out too).
_kill_paths() {
  (cd "$KILL_ROOT" && find . -path ./var/lib/etcd/member -prune -o -path './var/lib/kubelet/pki/*.tmp' -prune -o -print) |
    sed -E 's#kubelet-client-[0-9]{4}(-[0-9]{2}){5}\.pem$#kubelet-client-<date>.pem#' | LC_ALL=C sort
}

# What the node is after a finished run, in DIR: paths, members, objects, kubelet.service.
_kill_state() {  # DIR
  mkdir -p "$1"
  _kill_paths >"$1/paths"
  _kill_members >"$1/members" 2>&1 || echo "etcdctl member list failed" >>"$1/members"
  _kill_objects >"$1/objects" 2>&1 || echo "etcdctl get failed" >>"$1/objects"
  node_systemctl_on "$KILL_NODE" is-active kubelet.service >"$1/kubelet" 2>&1 || true
}

# Puts the node back as before the command: the cluster's etcd member for the node removed
# (before its etcd stops: two voters with one down have no quorum), kubelet.service stopped (the
# static Pods are its children), every new path removed, the objects the command added removed.
kill_wipe() {
  local peer id
  if [ "$KILL_CLUSTER" != "$KILL_NODE" ]; then
    peer=https://$(node_address "$KILL_NODE"):2380
    id=$(_kill_etcdctl member list -w json 2>/dev/null | python3 -c '
import json, sys
for m in json.load(sys.stdin).get("members", []):
    if sys.argv[1] in m.get("peerURLs", []): print("%x" % m["ID"])' "$peer") || true
    # etcd refuses to remove a voter until it has been connected for 5 s (its HealthInterval);
    # one that is down (its kubelet stopped) leaves two voters without quorum: it comes back first.
    if [ -n "$id" ] && ! wait_for 30 _kill_etcdctl member remove "$id"; then
      node_systemctl_on "$KILL_NODE" start kubelet.service >/dev/null 2>&1 || true
      if ! wait_for 90 _kill_etcdctl member remove "$id"; then
        fail "$KILL_NAME: cannot remove the etcd member $id of $KILL_NODE: the cluster is left broken"
        KILL_BROKEN=1
      fi
    fi
  fi
  node_systemctl_on "$KILL_NODE" stop kubelet.service >/dev/null 2>&1 || true
  (cd "$KILL_ROOT" && find . | LC_ALL=C sort) | LC_ALL=C comm -13 "$KILL_DIR/baseline.list" - |
    LC_ALL=C sort -r | (cd "$KILL_ROOT" && xargs -r -d '\n' rm -rf --)
  node_systemctl_on "$KILL_NODE" daemon-reload
  node_systemctl_on "$KILL_NODE" reset-failed >/dev/null 2>&1 || true
  if [ "$KILL_CLUSTER" != "$KILL_NODE" ]; then
    _kill_keys | LC_ALL=C comm -23 - "$KILL_DIR/baseline.keys" |
      while read -r key; do _kill_etcdctl del "$key" >/dev/null; done
  fi
  ! pgrep -f -- "--data-dir=$KILL_ROOT/var/lib/etcd" >/dev/null || { fail "$KILL_NAME: etcd runs after kill_wipe"; KILL_BROKEN=1; }
}

# The run's phases (leaf phases with their times in the journal) as "PHASE START_MS END_MS",
# relative to LAUNCH_MS (epoch milliseconds).
_kill_phase_windows() {  # JOURNAL LAUNCH_MS
  python3 - "$1" "$2" <<'PY'
import json, sys
from datetime import datetime
launch, windows = int(sys.argv[2]), {}
def ms(t): return int(datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp() * 1000) - launch
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    try: r = json.loads(line.split(" ", 1)[1])
    except Exception: continue
    if r.get("record") != "phase" or "time" not in r: continue
    if r["state"] == "started": windows[r["phase"]] = [ms(r["time"]), None]
    elif r["phase"] in windows and r["state"] != "skipped": windows[r["phase"]][1] = ms(r["time"])
for phase, (start, end) in windows.items():
    if end is not None: print(phase, max(start, 0), max(end, start + 1))
PY
}

# The phase the journal says was running ("between" phases; "-": no journal, the node untouched).
_kill_phase_hit() {
  [ -e "$KILL_ROOT/var/lib/kkadm/journal" ] || { echo -; return; }
  python3 - "$KILL_ROOT/var/lib/kkadm/journal" <<'PY'
import json, sys
running = {}  # started and not ended, in the order started
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    try: r = json.loads(line.split(" ", 1)[1])
    except Exception: continue
    if r.get("record") == "phase":
        running.pop(r["phase"], None)
        if r.get("state") == "started": running[r["phase"]] = 1
print(list(running)[-1] if running else "between")
PY
}

kill_reference() {
  local start rc=0 ref=$KILL_DIR/reference
  start=$(date +%s%3N)
  _kill_kkadm -- "${KILL_ARGS[@]}" >"$KILL_DIR/reference.out" 2>&1 || rc=$?
  KILL_DURATION=$(($(date +%s%3N) - start))
  assert_eq "$KILL_NAME: uninterrupted run (output: $(tail -15 "$KILL_DIR/reference.out"))" 0 "$rc"
  [ "$rc" -eq 0 ] || return 1
  _kill_state "$ref"
  cp "$KILL_ROOT/var/lib/kkadm/journal" "$KILL_DIR/reference.journal"
  _kill_phase_windows "$KILL_DIR/reference.journal" "$start" >"$KILL_DIR/windows"
  [ -s "$KILL_DIR/windows" ] || { fail "$KILL_NAME: no phase times in the journal"; return 1; }
  check "$KILL_NAME: kubelet.service active after an uninterrupted run" grep -qx active "$ref/kubelet"
  echo "$KILL_NAME: uninterrupted run $KILL_DURATION ms, $(wc -l <"$KILL_DIR/windows") phases," \
    "$(wc -l <"$ref/paths") paths, $(wc -l <"$ref/objects") objects, members: $(tr '\n' ' ' <"$ref/members")"
  kill_wipe
  [ "${1:-}" = count ] || return 0
  # Again under strace: how many calls each thread makes (strace counts injections per thread).
  _kill_kkadm strace -f -qq -o "$KILL_DIR/calls.trace" -e trace=rename,renameat,renameat2,fsync,fdatasync,openat,write \
    -- "${KILL_ARGS[@]}" >"$KILL_DIR/counted.out" 2>&1 || { fail "$KILL_NAME: run under strace failed: $(tail -5 "$KILL_DIR/counted.out")"; return 1; }
  # Two uninterrupted runs end alike: what the comparison below relies on.
  _kill_state "$KILL_DIR/counted"
  _kill_same "$KILL_NAME: a second uninterrupted run" "$KILL_DIR/counted" || return 1
  grep -E '^[0-9]+ +[a-z0-9_]+\(' "$KILL_DIR/calls.trace" | sed -E 's/^([0-9]+) +([a-z0-9_]+)\(.*/\1 \2/' |
    sort | uniq -c | awk '{if ($1 > max[$3]) max[$3] = $1} END {for (s in max) print s, max[s]}' \
    >"$KILL_DIR/counts"
  echo "$KILL_NAME: calls of the busiest thread: $(sort "$KILL_DIR/counts" | tr '\n' ' ')"
  kill_wipe
}

# DIR's state equals the reference's; each difference is named.
_kill_same() {  # WHAT DIR
  local f ok=0
  for f in paths members objects kubelet; do
    if ! diff -q "$KILL_DIR/reference/$f" "$2/$f" >/dev/null; then
      fail "$1: $f differ from an uninterrupted run's: $(diff "$KILL_DIR/reference/$f" "$2/$f" | grep '^[<>]' | head -8 | tr '\n' ';')"
      ok=1
    fi
  done
  return $ok
}

# No file under the node root is torn or invalid: openssl parses every certificate and key,
# kubectl every kubeconfig, YAML every manifest and configuration, JSON the status file; no file
# is empty (none is after an uninterrupted run). kkadm's temporary files may be left, no more.
kill_intact() {  # ROOT: prints what is wrong
  local f bad=0
  while IFS= read -r -d '' f; do
    case $f in
      # kkadm's temporary files, and the kubelet's (its TLS bootstrap's key, written as it runs).
      *.kkadm-tmp-* | */var/lib/kubelet/pki/*.tmp) continue ;;
      *.crt) openssl x509 -noout -in "$f" 2>/dev/null || { echo "not a certificate: $f"; bad=1; } ;;
      *.key) openssl pkey -noout -in "$f" 2>/dev/null || { echo "not a key: $f"; bad=1; } ;;
      *.pub) openssl pkey -pubin -noout -in "$f" 2>/dev/null || { echo "not a public key: $f"; bad=1; } ;;
      *.pem) { openssl x509 -noout -in "$f" && openssl pkey -noout -in "$f"; } 2>/dev/null ||
        { echo "not a certificate and key: $f"; bad=1; } ;;
      */etc/kubernetes/*.conf)
        [ -n "$(kubectl config view --raw --kubeconfig "$f" -o jsonpath='{.clusters[0].cluster.server}' 2>/dev/null)" ] ||
          { echo "not a kubeconfig: $f"; bad=1; } ;;
    esac
    [ -s "$f" ] || [[ $f == */var/lib/etcd/* ]] || { echo "empty: $f"; bad=1; }
  done < <(find "$1" -type f -print0)
  python3 - "$1" <<'PY' || bad=1
import glob, json, sys, yaml
root, bad = sys.argv[1], 0
for f in glob.glob(root + "/etc/kubernetes/manifests/*.yaml") + glob.glob(root + "/var/lib/kubelet/*.yaml"):
    if ".kkadm-tmp-" in f: continue
    try:
        doc = yaml.safe_load(open(f))
        assert isinstance(doc, dict) and doc.get("kind"), "no kind"
    except Exception as e:
        print("not YAML with a kind: %s (%s)" % (f, str(e).splitlines()[0] if str(e) else type(e).__name__)); bad = 1
for f in glob.glob(root + "/run/kkadm/*.json"):
    try: json.load(open(f))
    except Exception as e: print("not JSON: %s (%s)" % (f, e)); bad = 1
sys.exit(bad)
PY
  return $bad
}

# The PKI verifies: each certificate against its CA, each key is its certificate's, sa.key and
# sa.pub are a pair, the kubelet's client certificate is the cluster CA's and holds its key.
kill_pki_whole() {  # ROOT: prints what is wrong
  local pki=$1/etc/kubernetes/pki f ca name pem=$1/var/lib/kubelet/pki/kubelet-client-current.pem bad=0
  while IFS= read -r f; do
    name=${f#"$pki"/} name=${name%.crt} ca=$pki/ca.crt
    case $name in front-proxy-*) ca=$pki/front-proxy-ca.crt ;; etcd/* | apiserver-etcd-client) ca=$pki/etcd/ca.crt ;; esac
    openssl verify -CAfile "$ca" "$f" >/dev/null 2>&1 || { echo "$name.crt does not verify against $ca"; bad=1; }
    [ ! -e "$pki/$name.key" ] ||
      [ "$(openssl pkey -in "$pki/$name.key" -pubout 2>&1)" = "$(openssl x509 -in "$f" -noout -pubkey 2>&1)" ] ||
      { echo "$name.key is not $name.crt's"; bad=1; }
  done < <(find "$pki" -name '*.crt' 2>/dev/null)
  [ ! -e "$pki/sa.key" ] || [ "$(openssl pkey -in "$pki/sa.key" -pubout 2>&1)" = "$(cat "$pki/sa.pub" 2>&1)" ] ||
    { echo "sa.pub is not sa.key's"; bad=1; }
  if [ -e "$pem" ]; then
    openssl verify -CAfile "$pki/ca.crt" "$pem" >/dev/null 2>&1 || { echo "the kubelet's certificate does not verify"; bad=1; }
    [ "$(openssl pkey -in "$pem" -pubout 2>&1)" = "$(openssl x509 -in "$pem" -noout -pubkey 2>&1)" ] ||
      { echo "the kubelet's key is not its certificate's"; bad=1; }
  fi
  return $bad
}

# One instant: the command killed as PREFIX says, then checked, run again, compared, wiped.
_kill_instant() {  # LABEL [PREFIX...]
  local label=$1 rc=0 phase why start
  shift
  start=$(date +%s%3N)
  _kill_kkadm "$@" -- "${KILL_ARGS[@]}" >"$KILL_DIR/killed.out" 2>&1 || rc=$?
  phase=$(_kill_phase_hit)
  if [ "$rc" -eq 0 ]; then phase=finished; fi
  local result=ok rerun=0
  why=$(kill_intact "$KILL_ROOT") || { result=torn; _kill_failed "$label" "$rc" "$phase" "a file is torn: $why"; }
  {
    _kill_kkadm -- "${KILL_ARGS[@]}" >"$KILL_DIR/rerun.out" 2>&1 || rerun=$?
    if [ "$rerun" -ne 0 ]; then
      result+=,rerun-failed
      _kill_failed "$label" "$rc" "$phase" "the re-run exits $rerun: $(grep -v '^[WI][0-9]\{4\} ' "$KILL_DIR/rerun.out" | tail -4)"
    else
      _kill_state "$KILL_DIR/after"
      local temp
      temp=$(find "$KILL_ROOT" -name '*.kkadm-tmp-*' | head -3)
      why=$(kill_pki_whole "$KILL_ROOT") || { result+=,pki; _kill_failed "$label" "$rc" "$phase" "$why"; }
      [ -z "$temp" ] || { result+=,temp-left; _kill_failed "$label" "$rc" "$phase" "temporary files left: $temp"; }
      _kill_same "$KILL_NAME $label (killed in $phase)" "$KILL_DIR/after" ||
        { result+=,differs; _kill_failed "$label" "$rc" "$phase" "the node differs from an uninterrupted run's" quiet; }
    fi
  }
  result=${result#ok,}
  [ "$result" != ok ] || pass
  printf '%s\t%s\t%s\t%s\t%s\t%d\n' "$KILL_NAME" "$label" "$rc" "$phase" "$result" \
    $(($(date +%s%3N) - start)) >>"$KILL_LOG"
  kill_wipe
}

_kill_failed() {  # LABEL KILL_RC PHASE WHY [quiet]
  [ -n "${5:-}" ] || fail "$KILL_NAME $1 (exit $2, in phase $3): $4"
  local n
  n=$(($(wc -l <"$KILL_LOG") + 1))
  if [ -n "${KILL_KEEP:-}" ]; then
    mkdir -p "$KILL_KEEP/$KILL_NAME-$n"
    (cd "$KILL_ROOT" && find . -path ./var/lib/etcd/member -prune -o -printf '%p %s %m\n' | LC_ALL=C sort) \
      >"$KILL_KEEP/$KILL_NAME-$n/tree"
    cp -r "$KILL_DIR/killed.out" "$KILL_DIR/rerun.out" "$KILL_ROOT/var/lib/kkadm" "$KILL_KEEP/$KILL_NAME-$n/" 2>/dev/null || true
    [ ! -d "$KILL_DIR/after" ] || cp -r "$KILL_DIR/after" "$KILL_KEEP/$KILL_NAME-$n/" 2>/dev/null || true
  fi
  [ -n "${KILL_FINDINGS:-}" ] || return 0
  {
    echo "### $(date -u +%FT%TZ) kill: $KILL_NAME, $1"
    echo "- command: \`kkadm ${KILL_ARGS[*]}\` on sandbox node $KILL_NODE; killed (exit $2) in phase $3"
    echo "- found: $4"
    [ -z "${5:-}" ] || echo "- differences: see the test's FAIL line above; state kept in ${KILL_KEEP:-(not kept)}/$KILL_NAME-$n"
    echo "- reproduce: \`sudo KKADM_KILL_SCENARIOS=$KILL_NAME KKADM_KILL_AT='$1' scripts/kill_test.sh\`"
    echo '```'
    grep -v '^[WI][0-9]\{4\} ' "$KILL_DIR/rerun.out" 2>/dev/null | tail -8
    echo '```'
  } >>"$KILL_FINDINGS"
}

_kill_random() { echo $(( ((RANDOM << 15) | RANDOM) % ($1 > 0 ? $1 : 1) )); }

# When PHASE started in the uninterrupted run, in ms from its launch.
kill_phase_start() { awk -v p="$1" '$1 == p {print $2}' "$KILL_DIR/windows"; }

# An instant's checks are not cut short by an unexpected error (the || keeps errexit off in it).
kill_at_delay() {  # MS
  _kill_instant "delay=${1}ms" timeout -s KILL "$(printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)))" ||
    fail "$KILL_NAME delay=${1}ms: the instant's checks stopped short"
}

kill_at_call() {  # SYSCALL N
  _kill_instant "$1=$2" strace -f -qq -o /dev/null -e "trace=$1" \
    -e "inject=$1:signal=KILL:when=$2" || fail "$KILL_NAME $1=$2: the instant's checks stopped short"
}

# LEAVE_OUT (a regular expression of phases) keeps the instants before the first such phase.
kill_at_random() {  # COUNT [LEAVE_OUT]
  local i phase from to until=$KILL_DURATION
  local -a phases=()
  if [ -n "${2:-}" ]; then
    mapfile -t phases < <(awk -v re="$2" '$1 !~ re' "$KILL_DIR/windows")
    # Runs vary: the uniform instants end well before the first phase left out.
    until=$(awk -v re="$2" '$1 ~ re {print int($2 * 0.8); exit}' "$KILL_DIR/windows")
  else
    mapfile -t phases <"$KILL_DIR/windows"
  fi
  for ((i = 1; i <= $1 && ${KILL_BROKEN:-0} == 0; i++)); do
    if ((i % 2)); then
      kill_at_delay "$(_kill_random "${until:-$KILL_DURATION}")"
    else
      read -r phase from to <<<"${phases[$(_kill_random ${#phases[@]})]}"
      kill_at_delay $((from + $(_kill_random $((to - from)))))
    fi
  done
}

# Every N from 1 to the calls counted, in STEP passes (1, 1+STEP, ...; 2, 2+STEP, ...): a sweep
# cut short has still covered the whole run, more coarsely.
kill_calls() {  # SYSCALL [STEP]
  local n max pass step=${2:-1}
  max=$(awk -v s="$1" '$1 == s {print $2}' "$KILL_DIR/counts")
  [ -n "$max" ] || { echo "$KILL_NAME: no $1 call in the run"; return 0; }
  for ((pass = 1; pass <= step; pass++)); do
    for ((n = pass; n <= max && ${KILL_BROKEN:-0} == 0; n += step)); do kill_at_call "$1" "$n"; done
  done
}

# Per scenario: instants, how many killed the command, failures, and the phases hit.
kill_summary() {
  awk -F'\t' '{n[$1]++; if ($3 != 0) k[$1]++; if ($5 != "ok") f[$1]++; t[$1] += $6; p[$1 "\t" $4]++}
    END {for (s in n) printf "%s: %d instants, %d killed the command, %d failed, %.0f s\n", s, n[s], k[s], f[s], t[s] / 1000
         for (x in p) {split(x, a, "\t"); h[a[1]] = h[a[1]] " " a[2] "=" p[x]}
         for (s in h) print s ": phases hit:" h[s]}' "$KILL_LOG" | sort
}
