#!/usr/bin/env bash
# `kkadm join` and `kkadm reset` across five sandbox nodes (lib/sandbox_node.sh), each a network
# namespace with its own --rootfs, systemd and stand-in kubelet:
#   - `kkadm init --upload-certs` on cp1;
#   - cp2 and cp3 join as control-plane nodes with ONE argument (a `kkadm token create
#     --control-plane` token): the real etcd cluster grows to 3 voting members (etcdctl over mTLS),
#     each new member running from its kkadm-written manifest;
#   - w1 and w2 join as workers with one argument: their kubelet.conf comes from the TLS bootstrap
#     (client certificate signed by the cluster CA, CN system:node:<name>), bootstrap-kubelet.conf
#     is gone afterwards;
#   - `kkadm reset --force` on cp3: etcd is back to 2 members, cp3's kkadm files are gone, and the
#     other nodes keep working; the same for w2.
# Join times go to $KKADM_JOIN_TIMES when set (bench/join_bench.sh); they are not asserted here.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
record_time() {  # WHAT MILLISECONDS
  echo "$1: $2 ms"
  [ -z "${KKADM_JOIN_TIMES:-}" ] || echo "$1 $2" >> "$KKADM_JOIN_TIMES"
}

node_boot cp1 10.123.0.1 cp2 10.123.0.2 cp3 10.123.0.3 w1 10.123.0.11 w2 10.123.0.12
echo "nodes booted after $(elapsed)"
PKI1=$(node_root cp1)/etc/kubernetes/pki
cat > "$WORK/init.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  name: cp1
  ignorePreflightErrors: [all]
localAPIEndpoint:
  advertiseAddress: 10.123.0.1
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
controlPlaneEndpoint: 10.123.0.1:6443
encryptionAlgorithm: ECDSA-P256
CFG

# ---- 1. init on cp1, and the two one-argument tokens ---------------------------------------------------
rc=0; node_kkadm_on cp1 init --config "$WORK/init.yaml" --upload-certs >"$WORK/init.out" 2>&1 || rc=$?
assert_eq "kkadm init on cp1 (output: $(tail -20 "$WORK/init.out"))" 0 "$rc"
stop_on_failure
echo "cp1 initialised after $(elapsed)"
K1=(node_exec_on cp1 kubectl --kubeconfig "$(node_root cp1)/etc/kubernetes/admin.conf" --request-timeout=20s)
CP_TOKEN=$(node_kkadm_on cp1 token create --control-plane 2>"$WORK/cp-token.err") || fail "token create --control-plane: $(cat "$WORK/cp-token.err")"
# At -v 5 the API client logs every request: to stderr, so stdout is the token alone.
WORKER_TOKEN=$(node_kkadm_on cp1 -v 5 token create 2>"$WORK/w-token.err") || fail "token create: $(cat "$WORK/w-token.err")"
stop_on_failure
check "the control-plane token is one shell word" test "$(printf '%q' "$CP_TOKEN")" = "$CP_TOKEN"
check "the worker token is one shell word" test "$(printf '%q' "$WORKER_TOKEN")" = "$WORKER_TOKEN"

# ---- 2. two control-plane nodes join with one argument ----------------------------------------------------
etcd_members() {  # "<name>:<voter|learner>:<started|unstarted>" per member, sorted, asked of cp1's etcd
  node_exec_on cp1 etcdctl --endpoints https://10.123.0.1:2379 --cacert "$PKI1/etcd/ca.crt" \
    --cert "$PKI1/apiserver-etcd-client.crt" --key "$PKI1/apiserver-etcd-client.key" --dial-timeout=5s \
    member list -w json | python3 -c '
import json, sys
for m in json.load(sys.stdin)["members"]:
    print("%s:%s:%s" % (m.get("name", ""), "learner" if m.get("isLearner") else "voter",
                        "started" if m.get("clientURLs") else "unstarted"))' | sort | tr '\n' ' ' | sed 's/ $//'
}
etcd_member_id() {  # NAME: the member's ID in hex, as etcdctl's table shows it
  node_exec_on cp1 etcdctl --endpoints https://10.123.0.1:2379 --cacert "$PKI1/etcd/ca.crt" \
    --cert "$PKI1/apiserver-etcd-client.crt" --key "$PKI1/apiserver-etcd-client.key" --dial-timeout=5s \
    member list -w json | python3 -c '
import json, sys
print("".join("%x" % m["ID"] for m in json.load(sys.stdin)["members"] if m.get("name") == sys.argv[1]))' "$1"
}
join_control_plane() {  # NODE ADDRESS [FLAGS...]
  local start rc=0 node=$1 address=$2
  shift 2
  start=$(now_ms)
  node_kkadm_on "$node" join "$CP_TOKEN" --apiserver-advertise-address "$address" --ignore-preflight-errors all \
    "$@" >"$WORK/join-$node.out" 2>&1 || rc=$?
  set -- "$node" "$address"
  assert_eq "kkadm join <token> on $1 (output: $(tail -25 "$WORK/join-$1.out"))" 0 "$rc"
  record_time "control-plane join $1" $(( $(now_ms) - start ))
  stop_on_failure
  local root manifest
  root=$(node_root "$1") manifest=$(node_root "$1")/etc/kubernetes/manifests/etcd.yaml
  assert_contains "$1's etcd manifest joins the existing cluster" "$(cat "$manifest")" "--initial-cluster-state=existing"
  check "$1's etcd runs from its kkadm-written manifest" \
    wait_for 30 pgrep -f "etcd .*--data-dir=$root/var/lib/etcd"
  for f in admin.conf controller-manager.conf scheduler.conf pki/ca.key pki/apiserver.crt pki/etcd/peer.crt manifests/kube-apiserver.yaml; do
    check "$1 has /etc/kubernetes/$f" test -s "$root/etc/kubernetes/$f"
  done
  check "$1's bootstrap-kubelet.conf is removed" test ! -e "$root/etc/kubernetes/bootstrap-kubelet.conf"
  assert_eq "$1's journal records the etcd member it added, by etcd's ID" "$(etcd_member_id "$1")" \
    "$(journal_field "$root" etcd-member id)"
  assert_eq "$1's CA is the cluster's" "$(sha256sum < "$PKI1/ca.crt")" "$(sha256sum < "$root/etc/kubernetes/pki/ca.crt")"
}
join_control_plane cp2 10.123.0.2
assert_eq "etcd after cp2 joined" "cp1:voter:started cp2:voter:started" "$(etcd_members)"
# cp3 joins with --patches: its control-plane and etcd manifests and its kubelet configuration
# carry them (kubeadm patches every one of them on a control-plane join).
CP_PATCHES=$WORK/cp3-patches
mkdir -p "$CP_PATCHES"
printf 'metadata:\n  labels:\n    patched-on: cp3\n' > "$CP_PATCHES/etcd.yaml"
printf 'metadata:\n  annotations:\n    patched-on: cp3\n' > "$CP_PATCHES/kube-apiserver+merge.yaml"
printf 'maxPods: 77\n' > "$CP_PATCHES/kubeletconfiguration.yaml"
join_control_plane cp3 10.123.0.3 --patches "$CP_PATCHES"
for target in etcd kube-apiserver kubeletconfiguration; do
  assert_contains "cp3's join patched $target" "$(cat "$WORK/join-cp3.out")" "to target \"$target\""
done
CP3=$(node_root cp3)
assert_contains "cp3's etcd.yaml is patched" "$(cat "$CP3/etc/kubernetes/manifests/etcd.yaml")" "patched-on: cp3"
assert_contains "cp3's kube-apiserver.yaml is patched" \
  "$(cat "$CP3/etc/kubernetes/manifests/kube-apiserver.yaml")" "patched-on: cp3"
assert_contains "cp3's kubelet config is patched" "$(cat "$CP3/var/lib/kubelet/config.yaml")" "maxPods: 77"
assert_eq "etcd after cp3 joined: 3 voting members" "cp1:voter:started cp2:voter:started cp3:voter:started" "$(etcd_members)"
check "cp3's API server answers (TLS, cluster CA) from w1" \
  wait_for 30 node_exec_on w1 curl -sSf --max-time 5 --cacert "$PKI1/ca.crt" https://10.123.0.3:6443/healthz
assert_contains "cp3 is labelled a control-plane node" \
  "$("${K1[@]}" get node cp3 -o jsonpath='{.metadata.labels}' 2>&1)" "node-role.kubernetes.io/control-plane"
stop_on_failure
echo "control plane of 3 after $(elapsed)"

# ---- 3. two workers join with one argument ----------------------------------------------------------------
join_worker() {  # NODE
  local start rc=0 root
  root=$(node_root "$1")
  start=$(now_ms)
  node_kkadm_on "$1" join "$WORKER_TOKEN" --ignore-preflight-errors all >"$WORK/join-$1.out" 2>&1 || rc=$?
  assert_eq "kkadm join <token> on $1 (output: $(tail -25 "$WORK/join-$1.out"))" 0 "$rc"
  record_time "worker join $1" $(( $(now_ms) - start ))
  stop_on_failure
  assert_contains "$1 says it joined" "$(cat "$WORK/join-$1.out")" "This node has joined the cluster"
  check "$1's kubelet.conf exists" test -s "$root/etc/kubernetes/kubelet.conf"
  check "$1's bootstrap-kubelet.conf is removed" test ! -e "$root/etc/kubernetes/bootstrap-kubelet.conf"
  local pem=$root/var/lib/kubelet/pki/kubelet-client-current.pem
  check "$1's client certificate is signed by the cluster CA" openssl verify -CAfile "$PKI1/ca.crt" "$pem"
  assert_contains "$1's client certificate names the node" \
    "$(openssl x509 -in "$pem" -noout -subject 2>&1)" "CN = system:node:$1"
  check "$1 holds no control-plane secret" test ! -e "$root/etc/kubernetes/pki/ca.key"
  check "Node $1 registered" wait_for 30 "${K1[@]}" get node "$1"
}
join_worker w1
join_worker w2
assert_eq "nodes of the cluster" "cp1 cp2 cp3 w1 w2" \
  "$("${K1[@]}" get nodes -o jsonpath='{range .items[*]}{.metadata.name} {end}' | xargs -n1 | sort | xargs)"
echo "workers joined after $(elapsed)"

# ---- 4. reset a control-plane node and a worker: the rest keeps working ---------------------------------
KKADM_FILES=(etc/kubernetes/admin.conf etc/kubernetes/kubelet.conf etc/kubernetes/controller-manager.conf
             etc/kubernetes/scheduler.conf etc/kubernetes/manifests/etcd.yaml etc/kubernetes/pki/ca.key
             var/lib/kubelet/config.yaml)
reset_node() {  # NODE
  local rc=0 root f
  root=$(node_root "$1")
  node_kkadm_on "$1" reset --force >"$WORK/reset-$1.out" 2>&1 || rc=$?
  assert_eq "kkadm reset --force on $1 (output: $(tail -20 "$WORK/reset-$1.out"))" 0 "$rc"
  for f in "${KKADM_FILES[@]}"; do check "$1: /$f is gone" test ! -e "$root/$f"; done
  check "$1: no file left in /etc/kubernetes/pki" test -z "$(find "$root/etc/kubernetes/pki" -type f 2>/dev/null)"
  check "$1: etcd data directory empty" test -z "$(ls -A "$root/var/lib/etcd" 2>/dev/null)"
}
reset_node cp3
assert_eq "etcd after cp3's reset: 2 members" "cp1:voter:started cp2:voter:started" "$(etcd_members)"
no_etcd_on() { ! pgrep -f "etcd .*--data-dir=$(node_root "$1")/var/lib/etcd" >/dev/null; }
check "no etcd of cp3 left" wait_for 20 no_etcd_on cp3
check "cp2's API server still serves" \
  node_exec_on w1 curl -sSf --max-time 5 --cacert "$PKI1/ca.crt" https://10.123.0.2:6443/healthz
check "the cluster still answers through cp1" "${K1[@]}" get nodes w1
reset_node w2
check "the cluster still answers after w2's reset" "${K1[@]}" get nodes cp2
check "w1 still holds its kubelet identity" test -s "$(node_root w1)/etc/kubernetes/kubelet.conf"
echo "join_multinode_test took $(elapsed)"
finish
