#!/usr/bin/env bash
# The sandbox's stand-in kube-apiserver, kube-controller-manager and kube-scheduler against the REAL
# etcd (mutual TLS), REAL kubectl, REAL openssl and the independent schema validator: CRUD, status
# codes, x509 and bootstrap-token authentication, RBAC + Node authorization, validation (422),
# cluster-info JWS signing and node CSR approval + signing. Everything runs on 127.0.0.1.
export KKADM=${KKADM:-unused}  # this test does not need kkadm itself
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/pki.sh"

SRC=$KKADM_SOURCE_DIR
SANDBOX=$SRC/tests/sandbox
PY=/usr/bin/python3
for tool in etcd kubectl openssl node curl; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done

# The validator's pinned dependencies (installed once; serialised like schema_validator_test.sh).
VALIDATOR=$SRC/tests/validator
if [ ! -d "$VALIDATOR/node_modules/kubernetes-models" ]; then
  (
    flock 9
    [ -d "$VALIDATOR/node_modules/kubernetes-models" ] ||
      npm ci --prefix "$VALIDATOR" --no-audit --no-fund --loglevel=error >/dev/null
  ) 9>"${TMPDIR:-/tmp}/kkadm-validator-install.lock"
fi

# The stand-ins' pure helpers (YAML subset, patches, selectors, RBAC rules, protobuf, JWS).
out=$(cd "$SANDBOX" && $PY -m lib.selftest 2>&1) || fail "lib self-test: $out"

# ---- PKI (openssl, ECDSA P-256) under a node rootfs -------------------------------------------
R=$WORK/root
P=$R/etc/kubernetes/pki
mkdir -p "$P/etcd"
mkca() {  # dir name cn: the stand-in API server's CAs also sign (digitalSignature)
  cert_make_ca "$1" "$2" "$3" keyCertSign,cRLSign,digitalSignature
}
mkleaf() {  # cadir dir name subject eku [san]
  cert_make_leaf "$1" ca "$2" "$3" "$4" "$5" "${6:-}"
}
{
  mkca "$P/etcd" ca etcd-ca
  mkleaf "$P/etcd" "$P/etcd" server /CN=kube-etcd serverAuth,clientAuth "DNS:localhost,IP:127.0.0.1"
  mkleaf "$P/etcd" "$P/etcd" peer /CN=kube-etcd-peer serverAuth,clientAuth "DNS:localhost,IP:127.0.0.1"
  mkleaf "$P/etcd" "$P" apiserver-etcd-client /CN=kube-apiserver-etcd-client clientAuth
  mkca "$P" ca kubernetes
  mkleaf "$P" "$P" apiserver /CN=kube-apiserver serverAuth "DNS:kubernetes,DNS:localhost,IP:127.0.0.1"
  mkleaf "$P" "$P" admin "/O=kubeadm:cluster-admins/CN=kubernetes-admin" clientAuth
  mkleaf "$P" "$P" super-admin "/O=system:masters/CN=kubernetes-super-admin" clientAuth
  mkleaf "$P" "$P" kcm /CN=system:kube-controller-manager clientAuth
  mkleaf "$P" "$P" alice "/O=team-a/CN=alice" clientAuth
} >/dev/null 2>&1 || { fail "PKI generation failed"; finish; exit 1; }

read -r ETCD_PORT PEER_PORT API_PORT KCM_PORT SCHED_PORT KCM2_PORT < <($PY -c '
import socket
socks = [socket.socket() for _ in range(6)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')
API=https://127.0.0.1:$API_PORT

# ---- processes ----------------------------------------------------------------------------------
# stop_pid PID: SIGTERM, up to 10 s for the exit, then SIGKILL. Returns the exit code (137 when killed).
stop_pid() {
  local pid=$1 i rc=0
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || rc=$?
  return $rc
}
start() {  # name command... : runs in the background, logs to $WORK/<name>.log
  local name=$1; shift
  "$@" >"$WORK/$name.log" 2>&1 &
  eval "PID_$name=$!"
  on_exit "stop_pid $!"
}
dump_logs() { for f in "$WORK"/*.log; do echo "== $f" >&2; tail -20 "$f" >&2; done; }
wait_for() {  # seconds command... : polls every 100 ms
  local deadline=$(( $(date +%s) + $1 )); shift
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}

start etcd etcd --name m0 --data-dir "$WORK/etcd-data" \
  --listen-client-urls "https://127.0.0.1:$ETCD_PORT" --advertise-client-urls "https://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "https://127.0.0.1:$PEER_PORT" --initial-advertise-peer-urls "https://127.0.0.1:$PEER_PORT" \
  --initial-cluster "m0=https://127.0.0.1:$PEER_PORT" --listen-metrics-urls "" \
  --cert-file "$P/etcd/server.crt" --key-file "$P/etcd/server.key" --trusted-ca-file "$P/etcd/ca.crt" \
  --client-cert-auth --peer-cert-file "$P/etcd/peer.crt" --peer-key-file "$P/etcd/peer.key" \
  --peer-trusted-ca-file "$P/etcd/ca.crt" --peer-client-cert-auth --heartbeat-interval 10 --election-timeout 100 \
  --logger zap --log-outputs stderr

# The stand-in gets kube-apiserver's flags exactly as kkadm's manifest writes them (node paths).
K=/etc/kubernetes/pki
AUDIT=$WORK/audit.log
start apiserver $PY "$SANDBOX/apiserver.py" kube-apiserver --advertise-address=127.0.0.1 \
  --allow-privileged=true --authorization-mode=Node,RBAC --client-ca-file=$K/ca.crt \
  --enable-admission-plugins=NodeRestriction --enable-bootstrap-token-auth=true \
  --etcd-cafile=$K/etcd/ca.crt --etcd-certfile=$K/apiserver-etcd-client.crt \
  --etcd-keyfile=$K/apiserver-etcd-client.key --etcd-servers="https://127.0.0.1:$ETCD_PORT" \
  --kubelet-client-certificate=$K/apiserver-kubelet-client.crt --kubelet-client-key=$K/apiserver-kubelet-client.key \
  --kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname \
  --requestheader-allowed-names=front-proxy-client --requestheader-client-ca-file=$K/front-proxy-ca.crt \
  --secure-port="$API_PORT" --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file=$K/sa.pub --service-cluster-ip-range=10.96.0.0/12 \
  --tls-cert-file=$K/apiserver.crt --tls-private-key-file=$K/apiserver.key \
  --sandbox-rootfs="$R" --sandbox-audit-log="$AUDIT"

CURL=(curl -sS --max-time 10 --cacert "$P/ca.crt")
ANON=("${CURL[@]}")
ADMIN=("${CURL[@]}" --cert "$P/super-admin.crt" --key "$P/super-admin.key")
if ! wait_for 20 "${ANON[@]}" -f "$API/readyz"; then
  dump_logs; fail "the stand-in API server did not become ready"; finish; exit 1
fi

kubeconfig() {  # file cert-name
  local f=$1
  kubectl config set-cluster kubernetes --server="$API" --certificate-authority="$P/ca.crt" --embed-certs --kubeconfig="$f"
  kubectl config set-credentials user --client-certificate="$P/$2.crt" --client-key="$P/$2.key" --embed-certs --kubeconfig="$f"
  kubectl config set-context ctx --cluster=kubernetes --user=user --kubeconfig="$f"
  kubectl config use-context ctx --kubeconfig="$f"
} >/dev/null
kubeconfig "$WORK/super-admin.conf" super-admin
kubeconfig "$WORK/admin.conf" admin
kubeconfig "$WORK/alice.conf" alice
kubeconfig "$R/etc/kubernetes/controller-manager.conf" kcm
KC=(kubectl --kubeconfig "$WORK/super-admin.conf" --request-timeout=10s)
ALICE=(kubectl --kubeconfig "$WORK/alice.conf" --request-timeout=10s)

start_kcm() {  # name port
  start "$1" $PY "$SANDBOX/controller_manager.py" kube-controller-manager \
    --authentication-kubeconfig=/etc/kubernetes/controller-manager.conf \
    --authorization-kubeconfig=/etc/kubernetes/controller-manager.conf --bind-address=127.0.0.1 \
    --client-ca-file=$K/ca.crt --cluster-name=kubernetes --cluster-signing-cert-file=$K/ca.crt \
    --cluster-signing-key-file=$K/ca.key --controllers='*,bootstrapsigner,tokencleaner' \
    --kubeconfig=/etc/kubernetes/controller-manager.conf --leader-elect=true --root-ca-file=$K/ca.crt \
    --secure-port="$2" --use-service-account-credentials=true --sandbox-rootfs="$R"
}
start_kcm kcm "$KCM_PORT"
start scheduler $PY "$SANDBOX/scheduler.py" kube-scheduler --authentication-kubeconfig=/etc/kubernetes/scheduler.conf \
  --bind-address=127.0.0.1 --kubeconfig=/etc/kubernetes/scheduler.conf --leader-elect=true \
  --secure-port="$SCHED_PORT" --sandbox-rootfs="$R"

# ---- 1. health, version, discovery --------------------------------------------------------------
for p in healthz livez readyz; do assert_eq "anonymous /$p" ok "$("${ANON[@]}" "$API/$p")"; done
assert_contains "/version" "$("${ANON[@]}" "$API/version")" '"gitVersion": "v1.32.0"'
assert_contains "anonymous discovery is forbidden" "$("${ANON[@]}" "$API/api")" '"code": 403'
assert_eq "seeded namespaces" "default kube-node-lease kube-public kube-system" \
  "$("${KC[@]}" get namespaces -o jsonpath='{.items[*].metadata.name}')"
out=$("${KC[@]}" api-resources 2>&1) || fail "kubectl api-resources: $out"
assert_contains "api-resources" "$out" "certificatesigningrequests"

# ---- 2. ConfigMap/Secret CRUD with kubectl ----------------------------------------------------------
out=$("${KC[@]}" create configmap cm1 -n kube-system --from-literal=a=1 2>&1) || fail "create cm: $out"
out=$("${KC[@]}" create configmap cm1 -n kube-system --from-literal=a=1 2>&1) && fail "duplicate create succeeded"
assert_contains "AlreadyExists" "$out" 'configmaps "cm1" already exists'
assert_eq "get cm" 1 "$("${KC[@]}" get cm cm1 -n kube-system -o jsonpath='{.data.a}')"
assert_contains "kubectl get table" "$("${KC[@]}" get configmaps -n kube-system 2>&1)" "cm1"
"${KC[@]}" patch cm cm1 -n kube-system -p '{"data":{"b":"2"},"metadata":{"labels":{"tier":"x"}}}' >/dev/null ||
  fail "strategic merge patch"
"${KC[@]}" patch cm cm1 -n kube-system --type=merge -p '{"data":{"a":null}}' >/dev/null || fail "merge patch"
"${KC[@]}" patch cm cm1 -n kube-system --type=json -p '[{"op":"add","path":"/data/c","value":"3"},{"op":"test","path":"/data/b","value":"2"}]' \
  >/dev/null || fail "json patch"
out=$("${KC[@]}" patch cm cm1 -n kube-system --type=json -p '[{"op":"test","path":"/data/b","value":"9"}]' 2>&1) &&
  fail "failing JSON patch test op succeeded"
assert_eq "patched data" '{"b":"2","c":"3"}' "$("${KC[@]}" get cm cm1 -n kube-system -o jsonpath='{.data}')"
assert_eq "label selector" "configmap/cm1" "$("${KC[@]}" get cm -n kube-system -l tier=x -o name)"
assert_eq "label selector (no match)" "" "$("${KC[@]}" get cm -n kube-system -l tier=y -o name 2>/dev/null)"
# Optimistic concurrency: PUT with a stale resourceVersion is a 409 Conflict.
obj=$("${ADMIN[@]}" "$API/api/v1/namespaces/kube-system/configmaps/cm1")
stale=$(echo "$obj" | $PY -c 'import json,sys; o=json.load(sys.stdin); o["metadata"]["resourceVersion"]=str(int(o["metadata"]["resourceVersion"])-1); print(json.dumps(o))')
out=$("${ADMIN[@]}" -X PUT -H 'Content-Type: application/json' --data "$stale" "$API/api/v1/namespaces/kube-system/configmaps/cm1")
assert_contains "stale PUT" "$out" '"reason": "Conflict"'
code=$("${ADMIN[@]}" -o /dev/null -w '%{http_code}' -X PUT -H 'Content-Type: application/json' --data "$obj" \
  "$API/api/v1/namespaces/kube-system/configmaps/cm1")
assert_eq "fresh PUT" 200 "$code"
assert_contains "deleted" "$("${KC[@]}" delete cm cm1 -n kube-system 2>&1)" 'configmap "cm1" deleted'
out=$("${KC[@]}" get cm cm1 -n kube-system 2>&1) && fail "get after delete succeeded"
assert_contains "NotFound" "$out" 'configmaps "cm1" not found'
out=$("${KC[@]}" create secret generic s1 -n kube-system --from-literal=k=v 2>&1) || fail "create secret: $out"
assert_eq "secret data" v "$("${KC[@]}" get secret s1 -n kube-system -o jsonpath='{.data.k}' | base64 -d)"
out=$("${ADMIN[@]}" "$API/api/v1/namespaces/nope/configmaps/x")
assert_contains "404 Status body" "$out" '"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure"'

# ---- 3. validation by the independent validator ----------------------------------------------------
out=$("${ADMIN[@]}" -X POST -H 'Content-Type: application/json' \
  --data '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bad"},"data":5}' \
  "$API/api/v1/namespaces/default/configmaps")
assert_contains "ConfigMap data: 5 -> 422" "$out" '"code": 422'
assert_contains "422 message" "$out" 'ConfigMap \"bad\" is invalid: data: must be object'
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p1, namespace: default}\nspec:\n  hostNetwork: "yes"\n  containers: [{name: c, image: busybox}]\n' >"$WORK/pod.yaml"
out=$("${KC[@]}" create -f "$WORK/pod.yaml" 2>&1) && fail "invalid Pod accepted"
assert_contains "Pod hostNetwork: yes -> invalid" "$out" 'The Pod "p1" is invalid: spec.hostNetwork: must be boolean'
sed -i 's/"yes"/true/' "$WORK/pod.yaml"
out=$("${KC[@]}" apply -f "$WORK/pod.yaml" 2>&1) || fail "valid Pod rejected: $out"
# kubectl apply's strategic merge patch: containers merge by name; unknown fields are rejected.
sed -i 's/image: busybox}/image: busybox}, {name: d, image: "busybox:2"}/' "$WORK/pod.yaml"
out=$("${KC[@]}" apply -f "$WORK/pod.yaml" 2>&1) || fail "kubectl apply (second) failed: $out"
assert_eq "apply merged containers" "c=busybox d=busybox:2" \
  "$("${KC[@]}" get pod p1 -n default -o jsonpath='{range .spec.containers[*]}{.name}={.image} {end}' | sed 's/ $//')"
sed -i 's/name: d, image/name: d, imagee: x, image/' "$WORK/pod.yaml"
out=$("${KC[@]}" apply -f "$WORK/pod.yaml" 2>&1) && fail "unknown field accepted"
assert_contains "unknown field" "$out" 'spec.containers[1].imagee: unknown field "imagee"'

# ---- 4. RBAC with client certificates -----------------------------------------------------------
assert_eq "super-admin can-i" yes "$("${KC[@]}" auth can-i delete secrets -n kube-system)"
assert_eq "kubernetes-admin (kubeadm:cluster-admins) before CRB" no \
  "$(kubectl --kubeconfig "$WORK/admin.conf" auth can-i get secrets -n kube-system 2>/dev/null)"
"${KC[@]}" create clusterrolebinding kubeadm:cluster-admins --clusterrole=cluster-admin --group=kubeadm:cluster-admins >/dev/null
assert_eq "kubernetes-admin after CRB" yes "$(kubectl --kubeconfig "$WORK/admin.conf" auth can-i get secrets -n kube-system)"
assert_eq "alice cannot list secrets" no "$("${ALICE[@]}" auth can-i list secrets -n kube-system 2>/dev/null)"
out=$("${ALICE[@]}" get secrets -n kube-system 2>&1) && fail "alice listed secrets"
assert_contains "403 wording" "$out" 'secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "kube-system"'
"${KC[@]}" create role cm-reader -n default --verb=get,list --resource=configmaps --resource-name=cm2 >/dev/null
"${KC[@]}" create rolebinding cm-reader -n default --role=cm-reader --group=team-a >/dev/null
assert_eq "alice get cm2 via group binding" yes "$("${ALICE[@]}" auth can-i get configmaps/cm2 -n default)"
assert_eq "resourceNames limit" no "$("${ALICE[@]}" auth can-i get configmaps/other -n default 2>/dev/null)"
assert_eq "other namespace" no "$("${ALICE[@]}" auth can-i get configmaps/cm2 -n kube-system 2>/dev/null)"
assert_eq "impersonation (--as)" yes "$("${KC[@]}" auth can-i get configmaps/cm2 -n default --as=bob --as-group=team-a)"
out=$("${ALICE[@]}" get cm -n default --as=system:admin 2>&1) && fail "alice impersonated"
assert_contains "impersonation forbidden" "$out" 'cannot impersonate resource "users"'

# ---- 5. bootstrap tokens --------------------------------------------------------------------------
token_secret() {  # id secret expiration [extra data lines]
  printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: bootstrap-token-%s, namespace: kube-system}\ntype: bootstrap.kubernetes.io/token\nstringData:\n  token-id: "%s"\n  token-secret: "%s"\n  expiration: "%s"\n  auth-extra-groups: system:bootstrappers:kubeadm:default-node-token\n%s\n' \
    "$1" "$1" "$2" "$3" "${4:-}" >"$WORK/tok-$1.yaml"
  "${KC[@]}" create -f "$WORK/tok-$1.yaml" >/dev/null || fail "token secret $1 not created"
}
FUTURE=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%SZ)
PAST=$(date -u -d '-1 hour' +%Y-%m-%dT%H:%M:%SZ)
token_secret abcdef 0123456789abcdef "$FUTURE" $'  usage-bootstrap-authentication: "true"\n  usage-bootstrap-signing: "true"'
token_secret unused 0123456789abcdef "$FUTURE" '  usage-bootstrap-signing: "true"'
BT=("${CURL[@]}" -H "Authorization: Bearer abcdef.0123456789abcdef")
whoami=$("${BT[@]}" -X POST -H 'Content-Type: application/json' \
  --data '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}' "$API/apis/authentication.k8s.io/v1/selfsubjectreviews")
assert_contains "token user" "$whoami" '"username": "system:bootstrap:abcdef"'
assert_contains "token groups" "$whoami" '"groups": ["system:bootstrappers", "system:bootstrappers:kubeadm:default-node-token", "system:authenticated"]'
assert_contains "token: secrets forbidden" "$("${BT[@]}" "$API/api/v1/namespaces/kube-system/secrets")" \
  'User \"system:bootstrap:abcdef\" cannot list resource \"secrets\"'
assert_contains "token: CSRs forbidden before binding" \
  "$("${BT[@]}" "$API/apis/certificates.k8s.io/v1/certificatesigningrequests")" '"code": 403'
"${KC[@]}" create clusterrolebinding kubeadm:kubelet-bootstrap --clusterrole=system:node-bootstrapper \
  --group=system:bootstrappers:kubeadm:default-node-token >/dev/null
assert_contains "token: CSRs listed after binding" \
  "$("${BT[@]}" "$API/apis/certificates.k8s.io/v1/certificatesigningrequests")" '"kind": "CertificateSigningRequestList"'
code() { "${CURL[@]}" -o /dev/null -w '%{http_code}' "$@"; }
assert_eq "wrong token secret -> 401" 401 "$(code -H 'Authorization: Bearer abcdef.0123456789abcdee' "$API/version")"
assert_eq "token without usage-bootstrap-authentication -> 401" 401 \
  "$(code -H 'Authorization: Bearer unused.0123456789abcdef' "$API/version")"
assert_eq "garbage bearer token -> 401" 401 "$(code -H 'Authorization: Bearer x.y' "$API/version")"
assert_contains "401 body" "$("${CURL[@]}" -H 'Authorization: Bearer x.y' "$API/version")" '"reason": "Unauthorized"'

# ---- 6. anonymous cluster-info and the JWS signature ----------------------------------------------
"${KC[@]}" create configmap cluster-info -n kube-public \
  --from-literal=kubeconfig="$(printf 'apiVersion: v1\nclusters:\n- cluster:\n    server: %s\n  name: ""\nkind: Config\n' "$API")" >/dev/null
CI=$API/api/v1/namespaces/kube-public/configmaps/cluster-info
assert_eq "anonymous cluster-info before RBAC" 403 "$(code "$CI")"
"${KC[@]}" create role kubeadm:bootstrap-signer-clusterinfo -n kube-public --verb=get --resource=configmaps \
  --resource-name=cluster-info >/dev/null
"${KC[@]}" create rolebinding kubeadm:bootstrap-signer-clusterinfo -n kube-public \
  --role=kubeadm:bootstrap-signer-clusterinfo --user=system:anonymous >/dev/null
assert_eq "anonymous cluster-info after RBAC" 200 "$(code "$CI")"
assert_eq "anonymous still cannot read other configmaps" 403 "$(code "$API/api/v1/namespaces/kube-public/configmaps")"
# An expired signing token is deleted by the tokencleaner and never signs.
token_secret expire 0123456789abcdef "$PAST" '  usage-bootstrap-signing: "true"'
verify_jws() {  # verify_jws ID SECRET: the cluster-info signature of ID is HS256 over data.kubeconfig
  "${ANON[@]}" "$CI" | $PY -c '
import base64, hashlib, hmac, json, sys
cm = json.load(sys.stdin); tid, secret = sys.argv[1], sys.argv[2]
sig = cm["data"].get("jws-kubeconfig-" + tid)
if not sig: sys.exit(1)
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
hdr = b64(b"{\"alg\":\"HS256\",\"kid\":\"" + tid.encode() + b"\"}")
mac = hmac.new(secret.encode(), (hdr + "." + b64(cm["data"]["kubeconfig"].encode())).encode(), hashlib.sha256).digest()
sys.exit(0 if sig == hdr + ".." + b64(mac) else 2)' "$1" "$2"
}
check "cluster-info signed for abcdef (HS256 verified)" wait_for 5 verify_jws abcdef 0123456789abcdef
check "cluster-info signed for unused" verify_jws unused 0123456789abcdef
secret_gone() { [ "$(code --cert "$P/super-admin.crt" --key "$P/super-admin.key" "$API/api/v1/namespaces/kube-system/secrets/$1")" = 404 ]; }
no_signature() { ! "${ANON[@]}" "$CI" | grep -q "jws-kubeconfig-$1"; }
check "expired token Secret deleted by tokencleaner" wait_for 5 secret_gone bootstrap-token-expire
check "no signature for the expired token" no_signature expire
"${KC[@]}" delete secret bootstrap-token-unused -n kube-system >/dev/null
check "signature of a deleted token removed" wait_for 5 no_signature unused

# ---- 7. node CSR: bootstrap token -> auto-approval -> signed by the cluster CA ---------------------
"${KC[@]}" create clusterrolebinding kubeadm:node-autoapprove-bootstrap \
  --clusterrole=system:certificates.k8s.io:certificatesigningrequests:nodeclient \
  --group=system:bootstrappers:kubeadm:default-node-token >/dev/null
openssl ecparam -name prime256v1 -genkey -noout -out "$WORK/node.key"
openssl req -new -key "$WORK/node.key" -subj "/O=system:nodes/CN=system:node:worker-1" -out "$WORK/node.csr"
printf '{"apiVersion":"certificates.k8s.io/v1","kind":"CertificateSigningRequest","metadata":{"name":"node-csr-w1"},"spec":{"request":"%s","signerName":"kubernetes.io/kube-apiserver-client-kubelet","usages":["digital signature","client auth"]}}' \
  "$(base64 -w0 "$WORK/node.csr")" >"$WORK/csr.json"
out=$("${BT[@]}" -X POST -H 'Content-Type: application/json' --data @"$WORK/csr.json" \
  "$API/apis/certificates.k8s.io/v1/certificatesigningrequests")
assert_contains "CSR created by the token user" "$out" '"username": "system:bootstrap:abcdef"'
get_cert() {
  "${BT[@]}" "$API/apis/certificates.k8s.io/v1/certificatesigningrequests/node-csr-w1" | $PY -c '
import base64, json, sys
o = json.load(sys.stdin); c = (o.get("status") or {}).get("certificate")
sys.exit(1) if not c else sys.stdout.buffer.write(base64.b64decode(c))' >"$WORK/node.crt"
}
check "CSR approved and signed" wait_for 8 get_cert
assert_contains "Approved condition" "$("${KC[@]}" get csr node-csr-w1 -o jsonpath='{.status.conditions[0].type}:{.status.conditions[0].reason}')" \
  "Approved:AutoApproved"
check "node cert verifies against the cluster CA" cert_verifies "$P/ca.crt" "$WORK/node.crt"
assert_eq "node cert subject" "CN=system:node:worker-1,O=system:nodes" "$(cert_subject "$WORK/node.crt")"
assert_eq "node cert EKU" "TLS Web Client Authentication" "$(cert_ext_key_usage "$WORK/node.crt")"
# A CSR for another identity (not a node) stays pending.
openssl req -new -key "$WORK/node.key" -subj "/O=system:masters/CN=evil" -out "$WORK/evil.csr"
sed "s/node-csr-w1/evil/; s|\"request\":\"[^\"]*\"|\"request\":\"$(base64 -w0 "$WORK/evil.csr")\"|" "$WORK/csr.json" >"$WORK/evil.json"
"${BT[@]}" -X POST -H 'Content-Type: application/json' --data @"$WORK/evil.json" \
  "$API/apis/certificates.k8s.io/v1/certificatesigningrequests" >/dev/null

# The node authenticates with its certificate; the Node authorizer limits it to its own Node.
NODE=("${CURL[@]}" --cert "$WORK/node.crt" --key "$WORK/node.key" -H 'Content-Type: application/json')
node_json() { printf '{"apiVersion":"v1","kind":"Node","metadata":{"name":"%s","labels":{"kubernetes.io/hostname":"%s"}}}' "$1" "$1"; }
assert_eq "node creates its Node" 201 "$(code --cert "$WORK/node.crt" --key "$WORK/node.key" -H 'Content-Type: application/json' -X POST --data "$(node_json worker-1)" "$API/api/v1/nodes")"
"${KC[@]}" create -f <(node_json worker-2) >/dev/null
assert_eq "node cannot create another Node (NodeRestriction)" 403 "$(code --cert "$WORK/node.crt" --key "$WORK/node.key" -H 'Content-Type: application/json' -X POST --data "$(node_json worker-3)" "$API/api/v1/nodes")"
assert_eq "node patches its own Node" 200 "$(code --cert "$WORK/node.crt" --key "$WORK/node.key" -X PATCH -H 'Content-Type: application/strategic-merge-patch+json' --data '{"metadata":{"annotations":{"a":"b"}}}' "$API/api/v1/nodes/worker-1")"
assert_eq "node cannot patch another Node" 403 "$(code --cert "$WORK/node.crt" --key "$WORK/node.key" -X PATCH -H 'Content-Type: application/merge-patch+json' --data '{"metadata":{"annotations":{"a":"b"}}}' "$API/api/v1/nodes/worker-2")"
out=$("${KC[@]}" patch node worker-1 --type=merge -p '{"spec":{"taints":[{"key":"k","effect":"NoSchedule"}]},"metadata":{"labels":{"node-role.kubernetes.io/control-plane":""}}}' 2>&1) || fail "taint patch: $out"
assert_eq "taints" '[{"effect":"NoSchedule","key":"k"}]' "$("${KC[@]}" get node worker-1 -o jsonpath='{.spec.taints}')"
check "evil CSR not approved" test -z "$("${KC[@]}" get csr evil -o jsonpath='{.status.conditions}')"
out=$("${KC[@]}" certificate deny evil 2>&1) || fail "kubectl certificate deny: $out"
assert_eq "denied by kubectl (protobuf /approval)" "Denied" "$("${KC[@]}" get csr evil -o jsonpath='{.status.conditions[0].type}')"

# Renewal: the node asks for a new certificate (RSA key) with its current one; approved through
# selfnodeclient once kubeadm's rotation binding exists; RSA gets keyEncipherment too.
openssl genrsa -out "$WORK/node2.key" 2048 2>/dev/null
openssl req -new -key "$WORK/node2.key" -subj "/O=system:nodes/CN=system:node:worker-1" -out "$WORK/node2.csr"
sed "s/node-csr-w1/node-csr-w1-renew/; s|\"request\":\"[^\"]*\"|\"request\":\"$(base64 -w0 "$WORK/node2.csr")\"|; s/\"digital signature\"/\"digital signature\",\"key encipherment\"/" \
  "$WORK/csr.json" >"$WORK/renew.json"
assert_eq "node creates its renewal CSR" 201 "$(code --cert "$WORK/node.crt" --key "$WORK/node.key" -H 'Content-Type: application/json' -X POST --data @"$WORK/renew.json" "$API/apis/certificates.k8s.io/v1/certificatesigningrequests")"
renewed() { "${KC[@]}" get csr node-csr-w1-renew -o jsonpath='{.status.certificate}' | base64 -d >"$WORK/node2.crt" && [ -s "$WORK/node2.crt" ]; }
sleep 0.5
check "renewal pending without the rotation binding" test -z "$("${KC[@]}" get csr node-csr-w1-renew -o jsonpath='{.status.conditions}')"
"${KC[@]}" create clusterrolebinding kubeadm:node-autoapprove-certificate-rotation \
  --clusterrole=system:certificates.k8s.io:certificatesigningrequests:selfnodeclient --group=system:nodes >/dev/null
check "renewal approved (selfnodeclient) and signed" wait_for 8 renewed
check "renewed cert verifies" cert_verifies "$P/ca.crt" "$WORK/node2.crt"
assert_contains "RSA key usage" "$(cert_key_usage "$WORK/node2.crt")" "Digital Signature, Key Encipherment"

# ---- 8. leader election: one controller-manager works at a time; a clean stop hands over ----------------
lease_holder() { "${KC[@]}" get lease -n kube-system kube-controller-manager -o jsonpath='{.spec.holderIdentity}'; }
identity_of() { sed -n 's/.*leader election: acquired lease kube-system\/kube-controller-manager as \([^ ]*\).*/\1/p' "$WORK/$1.log" | tail -1; }
assert_eq "Lease held by the first controller-manager" "$(identity_of kcm)" "$(lease_holder)"
assert_eq "Lease duration" 15 "$("${KC[@]}" get lease -n kube-system kube-controller-manager -o jsonpath='{.spec.leaseDurationSeconds}')"
start_kcm kcm2 "$KCM2_PORT"
check "second controller-manager waits for the Lease" wait_for 10 grep -q "held by $(lease_holder): waiting" "$WORK/kcm2.log"
node_csr() {  # name node: a kubelet client CSR of the bootstrap token user
  openssl req -new -key "$WORK/node.key" -subj "/O=system:nodes/CN=system:node:$2" -out "$WORK/$1.csr" 2>/dev/null
  sed "s/node-csr-w1/$1/; s|\"request\":\"[^\"]*\"|\"request\":\"$(base64 -w0 "$WORK/$1.csr")\"|" "$WORK/csr.json" >"$WORK/$1.json"
  "${BT[@]}" -X POST -H 'Content-Type: application/json' --data @"$WORK/$1.json" \
    "$API/apis/certificates.k8s.io/v1/certificatesigningrequests" >/dev/null
}
has_cert() { [ -n "$("${KC[@]}" get csr "$1" -o jsonpath='{.status.certificate}')" ]; }
signed_by() { grep -l "csrsigning: signed CSR $1 " "$WORK/kcm.log" "$WORK/kcm2.log" 2>/dev/null | xargs -rn1 basename | tr '\n' ' '; }
node_csr node-csr-w5 worker-5
check "CSR signed while two controller-managers run" wait_for 8 has_cert node-csr-w5
assert_eq "signed once, by the leader" "kcm.log " "$(signed_by node-csr-w5)"
rc=0; stop_pid "$PID_kcm" || rc=$?
assert_eq "leader exits 0 on SIGTERM" 0 "$rc"
kcm2_leads() { local h; h=$(lease_holder); [ -n "$h" ] && [ "$h" = "$(identity_of kcm2)" ]; }
check "the leader released the Lease; the second took it" wait_for 8 kcm2_leads
node_csr node-csr-w6 worker-6
check "CSR signed after the handover" wait_for 8 has_cert node-csr-w6
assert_eq "signed once, by the new leader" "kcm2.log " "$(signed_by node-csr-w6)"
assert_eq "Lease transitions" 1 "$("${KC[@]}" get lease -n kube-system kube-controller-manager -o jsonpath='{.spec.leaseTransitions}')"

# ---- 9. controller-manager / scheduler health, audit log, clean shutdown ----------------------------
assert_eq "KCM healthz" ok "$(curl -sk "https://127.0.0.1:$KCM2_PORT/healthz")"
assert_eq "scheduler healthz" ok "$(curl -sk "https://127.0.0.1:$SCHED_PORT/healthz")"
assert_eq "scheduler livez" ok "$(curl -sk "https://127.0.0.1:$SCHED_PORT/livez")"
check "audit log names the bootstrap user" grep -q '"user": "system:bootstrap:abcdef"' "$AUDIT"
check "audit log records the node's Node create" grep -q '"code": 201.*"user": "system:node:worker-1"' "$AUDIT"
check "audit log records anonymous 403" grep -q '"code": 403.*"user": "system:anonymous"' "$AUDIT"
for name in scheduler kcm2 apiserver etcd; do
  pid_var=PID_$name
  rc=0; stop_pid "${!pid_var}" || rc=$?
  [ "$name" = etcd ] || assert_eq "$name exits 0 on SIGTERM" 0 "$rc"
done
[ "$E2E_FAILURES" -eq 0 ] || dump_logs
finish
