#!/usr/bin/env bash
# Several sandbox nodes on one switch (lib/sandbox_node.sh), before `kkadm join` exists: `kkadm
# init` on cp1; then by hand what join does. cp2 and cp3 join the real etcd cluster as learners
# (member add over mTLS with cp1's certificates, kkadm-made certificates from a copied etcd CA,
# kkadm's etcd manifest edited to the existing-cluster flags, run by the node's stand-in kubelet,
# promoted): 3 voting members. cp2 gets the control plane too (a second stand-in API server and
# controller-manager on the same etcd cluster). w1 and w2 do the kubelet's TLS bootstrap against
# the API server of another node. The controller-managers elect a leader through the kube-system
# Lease: each CSR is signed exactly once, and after the leader stops the other one takes over.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"
verifies() { openssl verify -CAfile "$1" "$2" >/dev/null 2>&1; }  # CA-FILE CERT-FILE

node_boot cp1 10.123.0.1 cp2 10.123.0.2 cp3 10.123.0.3 w1 10.123.0.11 w2 10.123.0.12
echo "nodes booted after $(elapsed)"
CP1=$(node_root cp1) CP2=$(node_root cp2) PKI2=$(node_root cp2)/etc/kubernetes/pki W1=$(node_root w1) W2=$(node_root w2)
PKI1=$CP1/etc/kubernetes/pki

config() {  # NAME ADDRESS: kkadm's configuration for a control-plane node of this cluster
  cat <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
bootstrapTokens:
- token: abcdef.0123456789abcdef
nodeRegistration:
  name: $1
  ignorePreflightErrors: [all]
localAPIEndpoint:
  advertiseAddress: $2
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
controlPlaneEndpoint: 10.123.0.1:6443
encryptionAlgorithm: ECDSA-P256
CFG
}
config cp1 10.123.0.1 > "$WORK/cp1.yaml"
config cp2 10.123.0.2 > "$WORK/cp2.yaml"
config cp3 10.123.0.3 > "$WORK/cp3.yaml"

# ---- 1. kkadm init on cp1 -----------------------------------------------------------------------------
rc=0; node_kkadm_on cp1 init --config "$WORK/cp1.yaml" >"$WORK/init.out" 2>&1 || rc=$?
assert_eq "kkadm init on cp1 (output: $(cat "$WORK/init.out"))" 0 "$rc"
echo "kkadm init on cp1 done after $(elapsed)"
stop_on_failure
assert_contains "join command names the control-plane endpoint" "$(cat "$WORK/init.out")" "kkadm join 10.123.0.1:6443"
K1=(node_exec_on cp1 kubectl --kubeconfig "$CP1/etc/kubernetes/admin.conf" --request-timeout=20s)

# ---- 2. the network: nodes reach each other, the root namespace reaches none ----------------------------
healthz() {  # FROM-NODE ADDRESS: the API server's /healthz, its certificate verified with the cluster CA
  node_exec_on "$1" curl -sS --max-time 10 --cacert "$PKI1/ca.crt" "https://$2:6443/healthz"
}
assert_eq "cp1's API server from cp2's namespace (TLS, cluster CA)" ok "$(healthz cp2 10.123.0.1 2>&1)"
assert_eq "cp1's API server from w1's namespace" ok "$(healthz w1 10.123.0.1 2>&1)"
rc=0; out=$(curl -sS --max-time 3 --cacert "$PKI1/ca.crt" https://10.123.0.1:6443/healthz 2>&1) || rc=$?
check "cp1 is unreachable from the root namespace (curl rc $rc: $out)" test "$rc" -ne 0
assert_contains "root namespace: blackhole route" "$(ip route show 10.123.0.0/16)" "blackhole"
assert_eq "node hostname" cp2 "$(node_exec_on cp2 hostname)"

# ---- 3. cp2 joins etcd by hand: learner, existing-cluster manifest, promotion -----------------------------
etcdctl_on() {  # NODE PKI-DIR ENDPOINT-ADDRESS ARGS...: etcdctl over mTLS
  local node=$1 pki=$2 ep=$3; shift 3
  node_exec_on "$node" etcdctl --endpoints "https://$ep:2379" --cacert "$pki/etcd/ca.crt" \
    --cert "$pki/apiserver-etcd-client.crt" --key "$pki/apiserver-etcd-client.key" --dial-timeout=5s "$@"
}
members() {  # NODE: "<peer URL>=<name>:<voter|learner>:<started|unstarted>" per member, sorted,
             # through cp1's certificates and endpoint (an unstarted member has no name yet)
  etcdctl_on "$1" "$PKI1" 10.123.0.1 member list -w json | python3 -c '
import json, sys
for m in json.load(sys.stdin)["members"]:
    print("%s=%s:%s:%s" % (m["peerURLs"][0], m.get("name", ""), "learner" if m.get("isLearner") else "voter",
                           "started" if m.get("clientURLs") else "unstarted"))' | sort | tr '\n' ' ' | sed 's/ $//'
}
# cp2's and cp3's kubelets: the KubeletConfiguration from the cluster (as join downloads it) and a
# bootstrap kubeconfig; they run the etcd manifest and bootstrap their identity.
bootstrap_node() {  # NODE ROOTFS SERVER TOKEN
  local kc=$2/etc/kubernetes/bootstrap-kubelet.conf
  mkdir -p "$2/etc/kubernetes/pki" "$2/var/lib/kubelet"
  cp "$PKI1/ca.crt" "$2/etc/kubernetes/pki/ca.crt"
  "${K1[@]}" get cm -n kube-system kubelet-config -o jsonpath='{.data.kubelet}' > "$2/var/lib/kubelet/config.yaml"
  kubectl config set-cluster kubernetes --server="https://$3:6443" --certificate-authority="$PKI1/ca.crt" \
    --embed-certs --kubeconfig="$kc" >/dev/null
  kubectl config set-credentials tls-bootstrap-token-user --token="$4" --kubeconfig="$kc" >/dev/null
  kubectl config set-context tls-bootstrap-token-user@kubernetes --cluster=kubernetes \
    --user=tls-bootstrap-token-user --kubeconfig="$kc" >/dev/null
  kubectl config use-context tls-bootstrap-token-user@kubernetes --kubeconfig="$kc" >/dev/null
  chmod 0600 "$kc"
  node_start_kubelet_on "$1"
}

# etcd_join NODE ADDRESS: by hand, what `kkadm join --control-plane` does for a stacked etcd member.
etcd_join() {
  local node=$1 addr=$2 root pki before out id cluster c
  root=$(node_root "$node") pki=$(node_root "$node")/etc/kubernetes/pki
  before=$(members "$node")
  # etcd 3.4 refuses even a learner ("unhealthy cluster") until every voting member has been
  # connected for 5 s: retried, as join must.
  add_member() {
    etcdctl_on "$node" "$PKI1" 10.123.0.1 member add "$node" --learner --peer-urls="https://$addr:2380" -w json \
      >"$WORK/add-$node.out" 2>&1
  }
  wait_for 30 add_member || fail "etcdctl member add $node (from $node, cp1's certificates): $(cat "$WORK/add-$node.out")"
  out=$(cat "$WORK/add-$node.out")
  id=$(echo "$out" | python3 -c 'import json,sys; print("%x" % json.load(sys.stdin)["member"]["ID"])' 2>/dev/null || true)
  # --initial-cluster as join builds it: every member, the new one under its name.
  cluster=$(echo "$out" | python3 -c 'import json,sys; print(",".join("%s=%s" % (m.get("name") or sys.argv[1], m["peerURLs"][0]) for m in json.load(sys.stdin)["members"]))' "$node" 2>/dev/null || true)
  check "$node added as a learner (member id '$id')" test -n "$id"
  assert_eq "members after adding $node" "$before https://$addr:2380=:learner:unstarted" "$(members "$node")"
  stop_on_failure
  # The etcd CA travels to the node (as join's certificate download does); kkadm makes its certs.
  mkdir -p "$pki/etcd"
  cp -p "$PKI1/etcd/ca.crt" "$PKI1/etcd/ca.key" "$pki/etcd/"
  for c in etcd-server etcd-peer etcd-healthcheck-client; do
    out=$(node_kkadm_on "$node" init phase certs "$c" --config "$WORK/$node.yaml" 2>&1) ||
      fail "kkadm init phase certs $c on $node: $out"
  done
  for c in server peer healthcheck-client; do
    check "$node's etcd/$c.crt is signed by the etcd CA" verifies "$PKI1/etcd/ca.crt" "$pki/etcd/$c.crt"
  done
  assert_contains "$node's etcd peer certificate names its address" \
    "$(openssl x509 -in "$pki/etcd/peer.crt" -noout -ext subjectAltName 2>&1)" "IP Address:$addr"
  # kkadm's manifest for a new cluster, edited to what `kkadm join --control-plane` writes.
  out=$(node_kkadm_on "$node" init phase etcd local --config "$WORK/$node.yaml" 2>&1) ||
    fail "kkadm init phase etcd local on $node: $out"
  sed -i -e "s|--initial-cluster=$node=https://$addr:2380\$|--initial-cluster=$cluster|" \
    -e '/--initial-cluster=/a\    - --initial-cluster-state=existing' "$root/etc/kubernetes/manifests/etcd.yaml"
  assert_eq "$node's edited etcd.yaml" "$(printf '    - --initial-cluster=%s\n    - --initial-cluster-state=existing' "$cluster")" \
    "$(grep -A1 -- '--initial-cluster=' "$root/etc/kubernetes/manifests/etcd.yaml")"
  bootstrap_node "$node" "$root" 10.123.0.1 abcdef.0123456789abcdef
  learner_started() { [ "$(members "$node")" = "$before https://$addr:2380=$node:learner:started" ]; }
  check "$node's etcd member starts (as a learner)" wait_for 60 learner_started
  promote() { etcdctl_on "$node" "$PKI1" 10.123.0.1 member promote "$id"; }
  check "$node's member promoted" wait_for 60 promote
  assert_eq "members after promoting $node" "$before https://$addr:2380=$node:voter:started" "$(members "$node")"
  # The new member serves linearizable reads of what cp1's API server stored (its own certificates).
  out=$(node_exec_on "$node" etcdctl --endpoints "https://$addr:2379" --cacert "$pki/etcd/ca.crt" \
    --cert "$pki/etcd/healthcheck-client.crt" --key "$pki/etcd/healthcheck-client.key" \
    get /registry/namespaces/kube-system --print-value-only 2>&1)
  assert_contains "kube-system Namespace read from $node's member" "$out" '"name":"kube-system"'
  stop_on_failure
}
M1=https://10.123.0.1:2380=cp1:voter:started M2=https://10.123.0.2:2380 M3=https://10.123.0.3:2380
etcd_join cp2 10.123.0.2
assert_eq "2 started voting members" "$M1 $M2=cp2:voter:started" "$(members cp1)"
echo "etcd: 2 voting members after $(elapsed)"

# ---- 4. cp2's control plane: a second API server and controller-manager on the shared etcd ---------------
for f in ca.crt ca.key front-proxy-ca.crt front-proxy-ca.key sa.key sa.pub; do cp -p "$PKI1/$f" "$PKI2/$f"; done
for step in "certs all" "kubeconfig controller-manager" "kubeconfig scheduler" "kubeconfig admin" "control-plane all"; do
  # shellcheck disable=SC2086
  out=$(node_kkadm_on cp2 init phase $step --config "$WORK/cp2.yaml" 2>&1) || fail "kkadm init phase $step on cp2: $out"
done
check "cp2's API server is healthy (from w1's namespace)" wait_for 60 healthz w1 10.123.0.2
stop_on_failure
K2=(node_exec_on cp2 kubectl --kubeconfig "$CP2/etc/kubernetes/admin.conf" --server https://10.123.0.2:6443 --request-timeout=20s)
assert_eq "cp1's Node through cp2's API server" cp1 "$("${K2[@]}" get node cp1 -o jsonpath='{.metadata.name}' 2>&1)"
check "Node cp2 registered (cp2's kubelet bootstrapped against cp1)" wait_for 30 "${K1[@]}" get node cp2
"${K2[@]}" create configmap shared -n default --from-literal=k=v1 >/dev/null 2>&1 || fail "create through cp2"
rv1=$("${K1[@]}" get cm shared -n default -o jsonpath='{.metadata.resourceVersion}')
assert_eq "same resourceVersion through both API servers" "$rv1" "$("${K2[@]}" get cm shared -n default -o jsonpath='{.metadata.resourceVersion}')"
"${K1[@]}" get cm shared -n default -o json > "$WORK/stale.json"
"${K2[@]}" patch cm shared -n default --type=merge -p '{"data":{"k":"v2"}}' >/dev/null || fail "patch through cp2"
out=$("${K1[@]}" replace -f "$WORK/stale.json" 2>&1) && fail "stale replace through cp1 succeeded"
assert_contains "stale update through cp1 after cp2's write: Conflict" "$out" "the object has been modified"
assert_eq "cp2's write seen through cp1" v2 "$("${K1[@]}" get cm shared -n default -o jsonpath='{.data.k}')"
holder() { "${K1[@]}" get lease -n kube-system kube-controller-manager -o jsonpath='{.spec.holderIdentity}'; }
assert_contains "controller-manager Lease held by cp1" "$(holder)" "cp1_"
KCM_LOG=kube-system_kube-controller-manager_kube-controller-manager.log
check "cp2's controller-manager waits for cp1's Lease" wait_for 10 grep -q "held by cp1_" "$(node_logs cp2)/$KCM_LOG"
echo "cp2's control plane serving after $(elapsed)"

# cp3 joins etcd now: etcd 3.4 accepts a new member only after every voting member has been
# connected for 5 s, which cp2's control plane steps above have taken.
etcd_join cp3 10.123.0.3
assert_eq "3 started voting members" "$M1 $M2=cp2:voter:started $M3=cp3:voter:started" "$(members cp1)"
out=$(etcdctl_on cp1 "$PKI1" 10.123.0.1 endpoint health --cluster 2>&1)
assert_eq "all 3 members healthy" 3 "$(grep -c 'is healthy' <<<"$out")"
check "Node cp3 registered (cp3's kubelet bootstrapped against cp1)" wait_for 30 "${K1[@]}" get node cp3
echo "etcd: 3 voting members after $(elapsed)"

# ---- 5. worker TLS bootstrap across nodes: w1 against cp2's API server ----------------------------------
# The bare bootstrap token (kkadm token create prints a join token around it).
TOKEN=$("$KKADM" token generate)
node_kkadm_on cp1 token create "$TOKEN" >/dev/null 2>"$WORK/token.err" || fail "kkadm token create: $(cat "$WORK/token.err")"
check "kkadm token generate printed a token ($TOKEN)" grep -Eq '^[a-z0-9]{6}\.[a-z0-9]{16}$' <<<"$TOKEN"
bootstrap_node w1 "$W1" 10.123.0.2 "$TOKEN"
bootstrapped() { [ -s "$1/etc/kubernetes/kubelet.conf" ] && [ -s "$1/var/lib/kubelet/pki/kubelet-client-current.pem" ]; }
check "w1's kubelet bootstrapped" wait_for 60 bootstrapped "$W1"
stop_on_failure
worker_checks() {  # NODE ROOTFS SERVER
  local pem=$2/var/lib/kubelet/pki/kubelet-client-current.pem
  check "$1's client certificate is signed by the cluster CA" verifies "$PKI1/ca.crt" "$pem"
  assert_eq "$1's client certificate subject" "subject=O = system:nodes, CN = system:node:$1" \
    "$(openssl x509 -in "$pem" -noout -subject 2>&1)"
  check "$1's pem holds the matching key" \
    test "$(openssl x509 -in "$pem" -noout -pubkey | sha256sum)" = "$(openssl pkey -in "$pem" -pubout | sha256sum)"
  local kc=$2/etc/kubernetes/kubelet.conf
  assert_eq "$1's kubelet.conf client certificate" "/var/lib/kubelet/pki/kubelet-client-current.pem" \
    "$(kubectl config view --kubeconfig "$kc" -o jsonpath='{.users[0].user.client-certificate}')"
  assert_eq "$1's kubelet.conf server" "https://$3:6443" "$(kubectl config view --kubeconfig "$kc" -o jsonpath='{.clusters[0].cluster.server}')"
  check "Node $1 registered and Ready (kubectl on cp1)" wait_for 30 node_ready "$1"
}
node_ready() {
  [ "$("${K1[@]}" get node "$1" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" = True ]
}
worker_checks w1 "$W1" 10.123.0.2
echo "w1 bootstrapped after $(elapsed)"

# ---- 6. controller-manager failover: cp1's stops (Lease released), cp2's signs w2's CSR -------------------
mv "$CP1/etc/kubernetes/manifests/kube-controller-manager.yaml" "$WORK/"
lease_moved() { [[ "$(holder)" == cp2_* ]]; }
check "Lease taken over by cp2" wait_for 20 lease_moved
bootstrap_node w2 "$W2" 10.123.0.1 "$TOKEN"
check "w2's kubelet bootstrapped" wait_for 60 bootstrapped "$W2"
stop_on_failure
worker_checks w2 "$W2" 10.123.0.1
csr_of() { "${K1[@]}" get csr -o jsonpath="{range .items[?(@.spec.username==\"system:bootstrap:${TOKEN%%.*}\")]}{.metadata.name} {end}"; }
signed() { cat "$(node_logs cp1)/$KCM_LOG" "$(node_logs cp2)/$KCM_LOG" | grep -c "csrsigning: signed CSR $1 " || true; }
CSRS=$(csr_of)
assert_eq "two worker CSRs" 2 "$(wc -w <<<"$CSRS")"
for csr in $CSRS $("${K1[@]}" get csr -o jsonpath='{range .items[?(@.spec.username=="system:bootstrap:abcdef")]}{.metadata.name} {end}'); do
  assert_eq "CSR $csr signed exactly once" 1 "$(signed "$csr")"
done
assert_contains "w2's CSR signed by cp2's controller-manager" \
  "$(grep "csrsigning: signed CSR" "$(node_logs cp2)/$KCM_LOG")" "(system:node:w2)"
echo "w2 bootstrapped after $(elapsed)"

# ---- 7. teardown leaves nothing behind -------------------------------------------------------------------
node_stop_on w2
check "no process of w2 is left" test -z "$(pgrep -f "$(node_dir w2)/" || true)"
check "cp1 still serves after w2 stopped" test "$(healthz w1 10.123.0.1 2>&1)" = ok
SWITCH=$(cat "$SANDBOX_DIR/switch") DIR=$SANDBOX_DIR
sandbox_teardown "$SANDBOX_DIR"
check "no process of the sandbox is left" test -z "$(pgrep -f "$DIR/" || true)"
check "switch namespace removed" test -z "$(ip netns list | grep -w "$SWITCH" || true)"
check "sandbox directory removed" test ! -e "$DIR"
no_cgroup_left() { ! compgen -G "/sys/fs/cgroup/*/kk-sd-sd-${DIR##*-}-*" >/dev/null; }
check "no cgroup left" no_cgroup_left
echo "sandbox_multinode_test took $(elapsed)"
finish
