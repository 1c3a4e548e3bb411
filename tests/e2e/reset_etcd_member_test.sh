#!/usr/bin/env bash
# `kkadm reset phase remove-etcd-member` against a real two-member etcd 3.4 cluster with mutual TLS,
# started by hand in a network namespace this script creates (members at 10.123.9.1 and 10.123.9.2,
# a blackhole route for 10.123.9.0/24 in the root namespace). The node's --rootfs holds member 2's
# etcd.yaml and the node certificates (pki/apiserver-etcd-client, pki/etcd/ca.crt) as kubeadm lays
# them out; no kubeadm-config is reachable, so kkadm works from the manifest alone. Checks: member 2
# leaves the cluster (etcdctl on member 1 agrees), its data directory is emptied, a second run finds
# nothing to do (its own etcd is gone: it asks member 1), and the last member of a cluster is left in.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (network namespaces)"; exit 77; }
for tool in etcd etcdctl openssl ip curl; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed"; exit 1; }
done

NS=kkadm-reset-etcd-$$
M1=10.123.9.1 M2=10.123.9.2
PKI=$WORK/pki
in_ns() { ip netns exec "$NS" "$@"; }

# ---- PKI: an etcd CA, one server/peer certificate for both members, a client certificate -------
mkdir -p "$PKI"
openssl ecparam -name prime256v1 -genkey -noout -out "$PKI/ca.key"
openssl req -x509 -new -key "$PKI/ca.key" -sha256 -days 1 -subj "/CN=etcd-ca" -out "$PKI/ca.crt" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
issue() {  # name cn eku [san]
  openssl ecparam -name prime256v1 -genkey -noout -out "$PKI/$1.key"
  openssl req -new -key "$PKI/$1.key" -subj "/CN=$2" -out "$PKI/$1.csr" 2>/dev/null
  printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=%s\n%s\n' \
    "$3" "${4:-}" > "$PKI/$1.ext"
  openssl x509 -req -in "$PKI/$1.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial -days 1 \
    -sha256 -extfile "$PKI/$1.ext" -out "$PKI/$1.crt" 2>/dev/null
}
issue member kube-etcd serverAuth,clientAuth "subjectAltName=IP:127.0.0.1,IP:$M1,IP:$M2"
issue client kube-apiserver-etcd-client clientAuth

# ---- the namespace and two members ----------------------------------------------------------
ip netns add "$NS"; on_exit "ip netns del '$NS'"
ip -n "$NS" link set lo up
ip -n "$NS" addr add "$M1/32" dev lo
ip -n "$NS" addr add "$M2/32" dev lo
ip route add blackhole 10.123.9.0/24; on_exit "ip route del blackhole 10.123.9.0/24"

ETCDCTL=(env ETCDCTL_API=3 etcdctl --cacert "$PKI/ca.crt" --cert "$PKI/client.crt" --key "$PKI/client.key"
         --endpoints "https://$M1:2379" --command-timeout=5s)
start_member() {  # name ip data-dir state cluster
  in_ns etcd --name "$1" --data-dir "$3" --listen-client-urls "https://$2:2379" \
    --advertise-client-urls "https://$2:2379" --listen-peer-urls "https://$2:2380" \
    --initial-advertise-peer-urls "https://$2:2380" --initial-cluster "$5" --initial-cluster-state "$4" \
    --cert-file "$PKI/member.crt" --key-file "$PKI/member.key" --trusted-ca-file "$PKI/ca.crt" \
    --client-cert-auth --peer-cert-file "$PKI/member.crt" --peer-key-file "$PKI/member.key" \
    --peer-trusted-ca-file "$PKI/ca.crt" --peer-client-cert-auth \
    --heartbeat-interval 50 --election-timeout 500 >"$WORK/$1.log" 2>&1 &
  on_exit "kill $! 2>/dev/null; wait $! 2>/dev/null"
  eval "PID_$1=$!"
}
healthy() {  # ip
  in_ns curl -s --max-time 2 --cacert "$PKI/ca.crt" --cert "$PKI/client.crt" --key "$PKI/client.key" \
    "https://$1:2379/health" | grep -q '"health":"true"'
}
wait_healthy() {
  for _ in $(seq 150); do healthy "$1" && return 0; sleep 0.2; done
  echo "FAIL: etcd at $1 is not healthy: $(tail -5 "$WORK"/*.log)"; exit 1
}
members() { in_ns "${ETCDCTL[@]}" member list 2>&1 | awk -F', ' '{print $3 "=" $4}' | sort | tr '\n' ' '; }

start_member m1 "$M1" "$WORK/m1-data" new "m1=https://$M1:2380"
wait_healthy "$M1"
in_ns "${ETCDCTL[@]}" member add m2 --peer-urls="https://$M2:2380" >"$WORK/add.out" 2>&1 \
  || { echo "FAIL: member add: $(cat "$WORK/add.out")"; exit 1; }

# ---- member 2's node, as kubeadm leaves it -------------------------------------------------
R=$WORK/node2
mkdir -p "$R/etc/kubernetes/manifests" "$R/etc/kubernetes/pki/etcd" "$R/var/lib/etcd"
chmod 0700 "$R/var/lib/etcd"
cp "$PKI/ca.crt" "$R/etc/kubernetes/pki/etcd/ca.crt"
cp "$PKI/client.crt" "$R/etc/kubernetes/pki/apiserver-etcd-client.crt"
cp "$PKI/client.key" "$R/etc/kubernetes/pki/apiserver-etcd-client.key"
manifest() {  # name ip initial-cluster
  cat <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: etcd
  namespace: kube-system
spec:
  containers:
  - command:
    - etcd
    - --advertise-client-urls=https://$2:2379
    - --data-dir=/var/lib/etcd
    - --initial-advertise-peer-urls=https://$2:2380
    - --initial-cluster=$3
    - --initial-cluster-state=existing
    - --listen-client-urls=https://$2:2379
    - --name=$1
    - --trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt
    image: registry.k8s.io/etcd:3.5.16-0
    name: etcd
  volumes:
  - hostPath:
      path: /var/lib/etcd
      type: DirectoryOrCreate
    name: etcd-data
YAML
}
CLUSTER="m1=https://$M1:2380,m2=https://$M2:2380"
manifest m2 "$M2" "$CLUSTER" > "$R/etc/kubernetes/manifests/etcd.yaml"
start_member m2 "$M2" "$R/var/lib/etcd" existing "$CLUSTER"
wait_healthy "$M2"
for _ in $(seq 50); do [[ $(members) == *"m2=https://$M2:2380"* ]] && break; sleep 0.2; done
assert_eq "two members before the reset" "m1=https://$M1:2380 m2=https://$M2:2380 " "$(members)"
check "member 2 has data" test -n "$(ls -A "$R/var/lib/etcd")"

# ---- reset member 2's node ------------------------------------------------------------------
rc=0; in_ns "$KKADM" --rootfs "$R" reset phase remove-etcd-member >"$WORK/out" 2>&1 || rc=$?
OUT=$(cat "$WORK/out")
assert_eq "remove-etcd-member exit code (output: $OUT)" 0 "$rc"
assert_eq "member 2 left the cluster" "m1=https://$M1:2380 " "$(members)"
assert_contains "data directory emptied" "$OUT" "[reset] Deleted contents of the etcd data directory: /var/lib/etcd"
for _ in $(seq 100); do kill -0 "$PID_m2" 2>/dev/null || break; sleep 0.1; done
check "the removed member stopped itself" test ! -e "/proc/$PID_m2"
check "member 2's data directory is empty" test -d "$R/var/lib/etcd" -a -z "$(ls -A "$R/var/lib/etcd")"
check "member 1 is still healthy" healthy "$M1"

# Again: member 2's etcd is gone; member 1 (from --initial-cluster) says it is no member any more.
start=$(date +%s)
rc=0; in_ns "$KKADM" --rootfs "$R" reset phase remove-etcd-member >"$WORK/out" 2>&1 || rc=$?
assert_eq "second run exit code (output: $(cat "$WORK/out"))" 0 "$rc"
check "second run is quick" [ $(( $(date +%s) - start )) -lt 10 ]
assert_eq "still one member" "m1=https://$M1:2380 " "$(members)"

# ---- the last member stays in its cluster ---------------------------------------------------
R1=$WORK/node1
mkdir -p "$R1/etc/kubernetes/manifests" "$R1/var/lib/etcd/member"
cp -r "$R/etc/kubernetes/pki" "$R1/etc/kubernetes/"
echo stale > "$R1/var/lib/etcd/member/stale"
manifest m1 "$M1" "m1=https://$M1:2380" > "$R1/etc/kubernetes/manifests/etcd.yaml"
rc=0; in_ns "$KKADM" --rootfs "$R1" reset phase remove-etcd-member >"$WORK/out" 2>&1 || rc=$?
assert_eq "last member: exit code (output: $(cat "$WORK/out"))" 0 "$rc"
assert_eq "the only member is not removed" "m1=https://$M1:2380 " "$(members)"
check "last member: its data directory is emptied" test -z "$(ls -A "$R1/var/lib/etcd")"

finish
