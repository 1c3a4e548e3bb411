# shellcheck shell=bash
# The steps of tests/e2e/docs_pages_test.sh (source it after lib/common.sh and lib/sandbox_node.sh):
# doc_block, doc_file, doc_run, doc_block_end and doc_error, called by the output of
# lib/doc_steps.py, run each block of a page the way its annotation says. The conventions are
# documented atop docs_pages_test.sh.
DOC_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DOC_DIR=$WORK/docs  # the commands' working directory: the pages' files are written here
mkdir -p "$DOC_DIR"
# The sandbox's two nodes, booted when a block first needs one.
DOC_CP=cp1 DOC_CP_IP=10.123.0.1 DOC_WORKER=worker1 DOC_WORKER_IP=10.123.0.2
# Preflight errors a prepared node would not have but this test machine has: no container runtime
# (there is none here, so no image can be pulled), no iptables (Debian's test machines lack it). Scenarios may take them out.
DOC_MACHINE_IGNORES=(CRI ImagePull FileExisting-iptables)
# Placeholders of command lines: fixed ones here, the others captured from outputs (doc_capture).
declare -gA DOC_VALUES=([control-plane-ip]=$DOC_CP_IP
  [other-hash]=sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef)
declare -gA DOC_SCENARIOS_USED=()
DOC_RUNS=0 DOC_SCRATCHES=0

doc_fail() { fail "$DOC_WHERE: $*"; }
doc_error() { DOC_WHERE=$1; doc_fail "$2"; }

doc_block() {  # WHERE ATTRS
  DOC_WHERE=$1 DOC_NODE='' DOC_EXIT=0 DOC_SCENARIO='' DOC_AS_USER='' DOC_LISTEN=- DOC_FORWARD=1
  DOC_IGNORES=("${DOC_MACHINE_IGNORES[@]}") DOC_PATH=$PATH DOC_NO_KUBELET=''
  local attr
  for attr in $2; do
    case $attr in
      node=*) DOC_NODE=${attr#node=} ;;
      exit=*) DOC_EXIT=${attr#exit=} ;;
      scenario=*) DOC_SCENARIO=${attr#scenario=} ;;
    esac
  done
  case $DOC_NODE in
    '') return 0 ;;
    scratch) DOC_SCRATCHES=$((DOC_SCRATCHES + 1)); DOC_ROOT=$WORK/scratch-$DOC_SCRATCHES
             mkdir -p "$DOC_ROOT" ;;
    "$DOC_CP" | "$DOC_WORKER") doc_sandbox_up || return 1; DOC_ROOT=$(node_root "$DOC_NODE") ;;
    *) doc_fail "unknown node '$DOC_NODE' (scratch, $DOC_CP, $DOC_WORKER)"; DOC_NODE='' ;;
  esac
  [ -n "$DOC_SCENARIO" ] || return 0
  if declare -F "scenario_$DOC_SCENARIO" >/dev/null; then
    DOC_SCENARIOS_USED[$DOC_SCENARIO]=1
    "scenario_$DOC_SCENARIO"
  else
    doc_fail "unknown scenario '$DOC_SCENARIO'"; DOC_NODE=''
  fi
}

doc_block_end() { DOC_NODE=''; }  # a block's settings end with it

doc_file() {  # WHERE NAME CONTENT: placeholders are replaced as in command lines
  [[ "$2" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || { doc_fail "bad file name '$2'"; return; }
  doc_substitute "$3" || return 0
  printf '%s\n' "$DOC_SUBSTITUTED" > "$DOC_DIR/$2"
}

# Boots the control-plane and the worker node (once), as prepared by docs/getting-started.md: a
# default route (init finds its address through it) and IP forwarding on.
doc_sandbox_up() {
  [ -z "${DOC_SANDBOX_UP:-}" ] || return 0
  DOC_SANDBOX_UP=1
  node_boot "$DOC_CP" "$DOC_CP_IP" "$DOC_WORKER" "$DOC_WORKER_IP" ||
    { doc_fail "sandbox boot"; return 1; }
  local n
  for n in "$DOC_CP" "$DOC_WORKER"; do
    node_exec_on "$n" ip route add default dev eth0 &&
      node_exec_on "$n" sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward' || doc_fail "preparing $n"
  done
}

# One command line of a page, run as the reader would, on DOC_NODE; its exit code must be
# DOC_EXIT and its output must hold the expected lines.
doc_run() {  # WHERE COMMAND EXPECTED
  DOC_WHERE=$1
  [ -n "$DOC_NODE" ] || return 0
  local line rc=0 missing
  doc_substitute "$2" || return 0
  line=$DOC_SUBSTITUTED
  doc_runnable "$line" || { doc_fail "the test cannot run: $2"; return 0; }
  DOC_RUNS=$((DOC_RUNS + 1))
  local start
  start=$(date +%s%N)
  (cd "$DOC_DIR" && doc_eval "$line") >"$WORK/doc.out" 2>&1 </dev/null || rc=$?
  printf '%s [%s] %s: exit %d, %d ms\n' "$DOC_WHERE" "$DOC_NODE" "$2" "$rc" \
    $(( ($(date +%s%N) - start) / 1000000 ))
  assert_eq "$DOC_WHERE: exit code of '$2' (output: $(tail -15 "$WORK/doc.out"))" "$DOC_EXIT" "$rc"
  missing=$(printf '%s' "$3" | python3 "$DOC_LIB/doc_steps.py" --match "$WORK/doc.out")
  if [ -n "$missing" ]; then
    doc_fail "'$2' did not print: $missing
(output: $(tail -25 "$WORK/doc.out"))"
  else
    pass
  fi
  doc_capture "$WORK/doc.out"
}

# DOC_SUBSTITUTED: TEXT with its placeholders (<name>) replaced by DOC_VALUES; an unknown one
# fails the test.
doc_substitute() {  # TEXT
  local text=$1 name
  while [[ "$text" =~ \<([a-z][a-z0-9-]*)\> ]]; do
    name=${BASH_REMATCH[1]}
    [ -n "${DOC_VALUES[$name]:-}" ] || { doc_fail "no value for <$name> in: $1"; return 1; }
    text=${text//"<$name>"/${DOC_VALUES[$name]}}
  done
  DOC_SUBSTITUTED=$text
}

# Only kkadm and kubectl run (and echo, to answer a question on a pipe): nothing of the host is
# changed by a page. Words hold no quotes, so a "#" always starts a real comment: `kkadm 'x #'; cmd`
# cannot pass as kkadm with a comment.
doc_runnable() {  # LINE
  local word='[^][;&|<>`$()\\'"'\""']+'
  local answer='(echo [a-zA-Z]+ \| )?' stdin='( *< */dev/null)?' comment='( +#.*)?'
  [[ "$1" =~ ^$answer(sudo\ )?(kkadm|kubectl)(\ $word)*$stdin$comment$ ]]
}

doc_eval() {  # LINE: in a subshell; sudo, kkadm and kubectl are the functions below
  sudo() { "$@"; }
  kkadm() { doc_kkadm "$@"; }
  kubectl() { doc_kubectl "$@"; }
  eval "$1"
}

# kkadm ARGS on DOC_NODE: with --rootfs at the node's root (a --rootfs of the page is replaced)
# and, for init and join, the machine's preflight ignores.
doc_kkadm() {
  local -a args=() cmd=()
  local sub='' phase='' a
  while [ $# -gt 0 ]; do
    a=$1; shift
    case $a in
      --rootfs) shift; continue ;;
      --rootfs=*) continue ;;
      -v | --v) args+=("$a" "$1"); shift; continue ;;
      -*) ;;
      *) if [ -z "$sub" ]; then sub=$a; elif [ -z "$phase" ]; then phase=$a; fi ;;
    esac
    args+=("$a")
  done
  if [[ "$sub" =~ ^(init|join)$ ]] && [ ${#DOC_IGNORES[@]} -gt 0 ] &&
     { [ "$phase" != phase ] || [[ " ${args[*]} " == *" phase preflight "* ]]; }; then
    args+=("--ignore-preflight-errors=$(IFS=,; echo "${DOC_IGNORES[*]}")")
  fi
  cmd=(env PATH="$DOC_PATH")
  [ -z "$DOC_AS_USER" ] ||
    cmd+=(setpriv --reuid "$DOC_AS_USER" --regid "$DOC_AS_USER" --clear-groups)
  if [ "$DOC_NODE" = scratch ]; then
    unshare -n -u -m --propagation private bash "$DOC_LIB/doc_scratch.sh" scratch-node \
      "$DOC_FORWARD" "$DOC_LISTEN" -- "${cmd[@]}" "$KKADM" --rootfs "$DOC_ROOT" "${args[@]}"
  elif [ -n "$DOC_NO_KUBELET" ]; then  # node_kkadm_on without the node's kubelet in PATH
    KKADM_SYSTEM_BUS_ADDRESS=$(node_bus "$DOC_NODE") \
      node_exec_on "$DOC_NODE" "$KKADM" --rootfs "$(node_root "$DOC_NODE")" "${args[@]}"
  else
    node_kkadm_on "$DOC_NODE" "${args[@]}"
  fi
}

doc_kubectl() {
  [ "$DOC_NODE" = "$DOC_CP" ] || { echo "docs test: kubectl runs on $DOC_CP only" >&2; return 99; }
  node_exec_on "$DOC_CP" kubectl --kubeconfig "$(node_root "$DOC_CP")/etc/kubernetes/admin.conf" \
    --request-timeout=20s "$@"
}

# Values later lines may name: the last join token, bootstrap token and CA hash printed.
doc_capture() {  # OUTPUT-FILE
  local v
  v=$(grep -oE 'kk1\.[A-Za-z0-9_-]+' "$1" | tail -1) && DOC_VALUES[join-token]=$v
  v=$(grep -oE -- '--token [a-z0-9]{6}\.[a-z0-9]{16}' "$1" | tail -1) &&
    DOC_VALUES[token]=${v#--token }
  v=$(grep -oE 'sha256:[0-9a-f]{64}' "$1" | tail -1) && DOC_VALUES[ca-cert-hash]=$v
  return 0
}
