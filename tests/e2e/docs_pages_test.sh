#!/usr/bin/env bash
# Runs the pages a new user reads first (docs/getting-started.md, docs/from-kubeadm.md,
# docs/troubleshooting.md), so that they cannot rot: every kkadm command line in their fenced
# code blocks runs, with the exit code and output the page shows.
#
# How a page is written for this test (lib/doc_steps.py reads the pages, lib/doc_runner.sh runs
# them):
#   - A fenced block holding a kkadm command is preceded by an HTML comment (invisible when the
#     page is rendered), blank lines allowed in between:
#         <!-- test: node=NODE [exit=N] [scenario=NAME] -->
#     NODE is where its commands run:
#       scratch   an empty --rootfs on this machine, the command in private network, UTS and mount
#                 namespaces (lib/doc_scratch.sh): hostname scratch-node, eth0 192.168.1.10 with the
#                 default route, IP forwarding on, no listener on any port, no container runtime
#                 and no systemd;
#       cp1, worker1  two sandbox nodes (lib/sandbox_node.sh: real systemd, the stand-in kubelet
#                 running the real etcd and the stand-in API server), 10.123.0.1 and 10.123.0.2,
#                 booted when first named, with a default route and IP forwarding on. State carries
#                 over from block to block and page to page, in page order.
#     Every command of the block must exit with N (default 0). A block without the comment may
#     not hold a kkadm command: that is a page command this test cannot run, and fails it.
#   - In a block whose lines start with "$ ", those lines are the commands and the lines after
#     each, up to the next "$ ", are output it must print (each line found in some line of its
#     standard output or error; "<anything>" in them matches any text; "..." lines are skipped).
#     In a block without "$ ", every line that is not empty or a "# comment" is a command.
#   - Command lines are shell: "sudo" is dropped (the test runs as root), "kkadm" is build/kkadm
#     with --rootfs at the node's root (a --rootfs in the page is replaced by it), "kubectl" runs
#     on cp1 with its admin.conf. Nothing else runs: a line may only be `[echo WORD |] [sudo]
#     kkadm|kubectl ARGS [</dev/null] [# comment]`, without $, quotes' tricks, ; & | > or backticks.
#   - Placeholders in command lines: <join-token>, <token>, <ca-cert-hash> are the last join token,
#     bootstrap token (after --token) and sha256 hash printed by an earlier command;
#     <control-plane-ip> is cp1's address; <other-hash> a well-formed hash of no CA. Any other
#     <name> fails the test.
#   - <!-- test: file=NAME --> before a block writes the block (placeholders replaced) to NAME in
#     the commands' working directory, so `--config kubeadm.yaml` reads the file the page shows.
#   - scenario=NAME prepares a failure for the block (scenario_NAME below): a troubleshooting entry
#     runs its command against the cause it names.
# Preflight: this machine has no container runtime and may lack iptables, which a node prepared
# as the pages say has: init and join get --ignore-preflight-errors=CRI,ImagePull,FileExisting-iptables
# appended unless a scenario takes a check out of that list to show its failure.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (namespaces, systemd)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"
source "$(dirname "$0")/lib/doc_runner.sh"
PAGES=(getting-started.md from-kubeadm.md troubleshooting.md)
# KKADM_DOCS_DIR: read the pages from another directory (to try an edited copy).
DOCS=${KKADM_DOCS_DIR:-$KKADM_SOURCE_DIR/docs}

# ---- scenarios: the causes of the troubleshooting entries ----------------------------------------
# Without a container runtime: the CRI check is not ignored.
scenario_no_runtime() { DOC_IGNORES=(ImagePull FileExisting-iptables); }
# IP forwarding off.
scenario_no_forwarding() { DOC_FORWARD=0; }
# Something (here: a listener) holds the API server's port.
scenario_port_in_use() { DOC_LISTEN=6443; }
# Not root.
scenario_not_root() { DOC_AS_USER=65534; chmod 0711 "$WORK"; }
# No kubelet installed: kkadm runs without the sandbox node's kubelet in PATH, so the unit it
# writes starts /usr/bin/kubelet, which is not there.
scenario_no_kubelet() {
  DOC_NO_KUBELET=1
  [ ! -e /usr/bin/kubelet ] || doc_fail "this machine has a /usr/bin/kubelet: no kubelet to miss"
}
# A drop-in of the administrator's own sets the kubelet's ExecStart after kkadm's.
scenario_own_drop_in() {
  mkdir -p "$DOC_ROOT/etc/systemd/system/kubelet.service.d"
  printf '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --my-flags\n' \
    > "$DOC_ROOT/etc/systemd/system/kubelet.service.d/20-mine.conf"
}
# The kubeadm package is installed: its 10-kubeadm.conf, as the package ships it, in /usr/lib.
scenario_kubeadm_package() {
  local dir=$DOC_ROOT/usr/lib/systemd/system/kubelet.service.d
  mkdir -p "$dir"
  cp "$KKADM_SOURCE_DIR/tests/e2e/lib/10-kubeadm.conf" "$dir/10-kubeadm.conf"
}
# A deleted token: its signature has left cluster-info too, as the cluster's bootstrap signer
# removes it moments after the Secret (a token that expired long ago has none either).
scenario_token_gone() {
  local id=${DOC_VALUES[token]%%.*}
  unsigned() {
    local admin
    admin=$(node_root "$DOC_CP")/etc/kubernetes/admin.conf
    ! node_exec_on "$DOC_CP" kubectl --kubeconfig "$admin" -n kube-public \
      get configmap cluster-info -o jsonpath='{.data}' | grep -q "jws-kubeconfig-$1"
  }
  wait_for 30 unsigned "$id" || doc_fail "cluster-info still signs token $id"
}
# A PATH without iptables: its check is not ignored.
scenario_no_iptables() {
  DOC_IGNORES=(CRI)
  mkdir -p "$WORK/bin-no-iptables"
  local b
  for b in ip mount nsenter ethtool socat tc touch ebtables; do
    command -v "$b" >/dev/null && ln -sf "$(command -v "$b")" "$WORK/bin-no-iptables/$b"
  done
  DOC_PATH=$WORK/bin-no-iptables
}
steps=$(python3 "$(dirname "$0")/lib/doc_steps.py" "${PAGES[@]/#/$DOCS/}")
eval "$steps"

# The test itself: every page ran commands, every scenario served an entry, and a wrong message
# or exit code in a page is caught (the matcher and the exit check on a known output).
for page in "${PAGES[@]}"; do
  assert_contains "$page has commands this test runs" "$steps" "doc_run $page:"
done
for s in $(declare -F | sed -n 's/^declare -f scenario_\([a-z_]*\)$/\1/p'); do
  [ -n "${DOC_SCENARIOS_USED[$s]:-}" ] || fail "scenario $s is used by no page"
done
printf '[ERROR CRI]: container runtime is not running\n' > "$WORK/self.out"
wrong='[ERROR CRI]: container runtime is running'
assert_eq "the matcher finds a wrong message" "$wrong" \
  "$(printf '%s' "$wrong" | python3 "$DOC_LIB/doc_steps.py" --match "$WORK/self.out")"
echo "docs_pages_test: $DOC_RUNS page commands run in $(elapsed)"
finish
