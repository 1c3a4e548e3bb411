#!/usr/bin/env bash
# The whole `kkadm init` on a sandbox node (lib/sandbox_node.sh): real systemd starts the stand-in
# kubelet, which runs the real etcd and the stand-in API server from kkadm's own manifests. Then
# the real kubectl reads back the objects of reference §11 and compares them field by field; a
# bootstrap token is shown to be gated by RBAC; the kubeadm-certs Secret decrypts (with Node.js's
# AES-256-GCM, independently of kkadm) to the exact CA files; the printed one-argument join
# command's token decodes (`kkadm token inspect -o json`) to the node's endpoint, the token Secret
# and the pin openssl computes from ca.crt.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"

node_boot node-1 10.123.0.11
R=$(node_root node-1)
cat > "$WORK/init.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
bootstrapTokens:
- token: abcdef.0123456789abcdef
nodeRegistration:
  name: node-1
  ignorePreflightErrors: [all]
localAPIEndpoint:
  advertiseAddress: 10.123.0.11
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
encryptionAlgorithm: ECDSA-P256
networking:
  podSubnet: 10.244.0.0/16
CFG
start=$(date +%s)
rc=0; node_kkadm_on node-1 init --config "$WORK/init.yaml" --upload-certs >"$WORK/init.out" 2>&1 || rc=$?
OUT=$(cat "$WORK/init.out")
assert_eq "kkadm init exit code (output: $OUT)" 0 "$rc"
echo "kkadm init took $(( $(date +%s) - start )) s"
for line in '[kubelet-start] Starting the kubelet' '[api-check] The API server is healthy after' \
  '[upload-config] Storing the configuration used in ConfigMap "kubeadm-config" in the "kube-system" Namespace' \
  '[mark-control-plane] Marking the node node-1 as control-plane' '[bootstrap-token] Using token: abcdef.0123456789abcdef' \
  'Your Kubernetes control-plane has initialized successfully!' 'kkadm join 10.123.0.11:6443 --token abcdef.0123456789abcdef'; do
  assert_contains "init output" "$OUT" "$line"
done
KEY=$(grep -A1 '\[upload-certs\] Using certificate key:' "$WORK/init.out" | tail -1)

# show-join-command: the one-argument command for workers, with kubeadm's form beneath it.
assert_contains "kubeadm's form offered beneath" "$OUT" "or, with kubeadm's flags:"
JOIN_TOKENS=$(grep -o 'kkadm join kk1\.[A-Za-z0-9_-]*' "$WORK/init.out" | cut -d' ' -f3 || true)
assert_eq "one join token printed (no controlPlaneEndpoint: workers only)" 1 "$(grep -c . <<<"$JOIN_TOKENS")"
JOIN_TOKEN=$(head -1 <<<"$JOIN_TOKENS")

ADMIN=$R/etc/kubernetes/admin.conf
k() { node_exec_on node-1 kubectl --kubeconfig "$ADMIN" "$@"; }
jp() { k get "$@" 2>&1; }

# upload-config
assert_contains "kubeadm-config" "$(jp -n kube-system cm kubeadm-config -o jsonpath='{.data.ClusterConfiguration}')" "kind: ClusterConfiguration"
assert_eq "kubeadm:nodes-kubeadm-config rule" "get configmaps kubeadm-config" \
  "$(jp -n kube-system role kubeadm:nodes-kubeadm-config -o jsonpath='{.rules[0].verbs[0]} {.rules[0].resources[0]} {.rules[0].resourceNames[0]}')"
assert_eq "kubeadm:nodes-kubeadm-config subjects" "Group:system:bootstrappers:kubeadm:default-node-token Group:system:nodes" \
  "$(jp -n kube-system rolebinding kubeadm:nodes-kubeadm-config -o jsonpath='{range .subjects[*]}{.kind}:{.name} {end}' | sed 's/ $//')"
assert_contains "kubelet-config" "$(jp -n kube-system cm kubelet-config -o jsonpath='{.data.kubelet}')" "kind: KubeletConfiguration"
assert_eq "kubeadm:kubelet-config rule" "get configmaps kubelet-config" \
  "$(jp -n kube-system role kubeadm:kubelet-config -o jsonpath='{.rules[0].verbs[0]} {.rules[0].resources[0]} {.rules[0].resourceNames[0]}')"
assert_eq "node CRI socket annotation" "unix:///var/run/containerd/containerd.sock" \
  "$(jp node node-1 -o jsonpath='{.metadata.annotations.kubeadm\.alpha\.kubernetes\.io/cri-socket}')"
# mark-control-plane
assert_eq "control-plane labels" "|" \
  "$(jp node node-1 -o jsonpath='{.metadata.labels.node-role\.kubernetes\.io/control-plane}|{.metadata.labels.node\.kubernetes\.io/exclude-from-external-load-balancers}')"
assert_eq "control-plane label selects the node" "node/node-1" \
  "$(jp nodes -l node-role.kubernetes.io/control-plane,node.kubernetes.io/exclude-from-external-load-balancers -o name)"
assert_eq "control-plane taint" "node-role.kubernetes.io/control-plane:NoSchedule" \
  "$(jp node node-1 -o jsonpath='{range .spec.taints[*]}{.key}:{.effect}{end}')"
# bootstrap-token
S="-n kube-system secret bootstrap-token-abcdef"
assert_eq "token secret type" "bootstrap.kubernetes.io/token" "$(jp $S -o jsonpath='{.type}')"
dec() { jp $S -o jsonpath="{.data.$1}" | base64 -d; }
assert_eq "token-id" abcdef "$(dec token-id)"
assert_eq "token-secret" 0123456789abcdef "$(dec token-secret)"
assert_eq "usage-bootstrap-signing" true "$(dec usage-bootstrap-signing)"
assert_eq "usage-bootstrap-authentication" true "$(dec usage-bootstrap-authentication)"
assert_eq "auth-extra-groups" system:bootstrappers:kubeadm:default-node-token "$(dec auth-extra-groups)"
assert_eq "description" "The default bootstrap token generated by 'kubeadm init'." "$(dec description)"
# The printed join token decodes (offline) to this cluster: endpoint, the token Secret, the CA's pin.
rc=0; INSPECT=$("$KKADM" token inspect -o json "$JOIN_TOKEN" 2>&1) || rc=$?
assert_eq "token inspect of the printed join token ($INSPECT)" 0 "$rc"
field() { python3 -c 'import json, sys; v = json.loads(sys.argv[2])[sys.argv[1]]; print(" ".join(v) if isinstance(v, list) else json.dumps(v).strip("\""))' "$1" "$INSPECT"; }
assert_eq "join token endpoint" "10.123.0.11:6443" "$(field endpoints)"
assert_eq "join token id = the token Secret's token-id" "$(dec token-id)" "$(field tokenID)"
assert_eq "join token: secret redacted" "$(dec token-id).<redacted>" "$(field bootstrapToken)"
CA_PIN=sha256:$(openssl x509 -in "$R/etc/kubernetes/pki/ca.crt" -pubkey -noout | openssl pkey -pubin -outform der | sha256sum | cut -d' ' -f1)
assert_eq "join token pin = SPKI SHA-256 of ca.crt (openssl)" "$CA_PIN" "$(field caCertHashes)"
assert_eq "worker join token" false "$(field controlPlane)"
assert_eq "format version" 1 "$(field formatVersion)"
assert_contains "kubeadm's form has the same pin" "$OUT" "--discovery-token-ca-cert-hash $CA_PIN"
expires=$(date -d "$(dec expiration)" +%s); expected=$(( start + 86400 ))
check "token expires 24h after init ($expires vs $expected)" test $(( expires - expected )) -ge -5 -a $(( expires - expected )) -le 120
crb() { jp clusterrolebinding "$1" -o jsonpath='{.roleRef.name} {range .subjects[*]}{.kind}:{.name}{end}'; }
assert_eq "kubeadm:kubelet-bootstrap" "system:node-bootstrapper Group:system:bootstrappers:kubeadm:default-node-token" "$(crb kubeadm:kubelet-bootstrap)"
assert_eq "kubeadm:node-autoapprove-bootstrap" "system:certificates.k8s.io:certificatesigningrequests:nodeclient Group:system:bootstrappers:kubeadm:default-node-token" "$(crb kubeadm:node-autoapprove-bootstrap)"
assert_eq "kubeadm:node-autoapprove-certificate-rotation" "system:certificates.k8s.io:certificatesigningrequests:selfnodeclient Group:system:nodes" "$(crb kubeadm:node-autoapprove-certificate-rotation)"
assert_eq "kubeadm:get-nodes" "kubeadm:get-nodes Group:system:bootstrappers:kubeadm:default-node-token" "$(crb kubeadm:get-nodes)"
assert_eq "kubeadm:get-nodes rule" "get nodes" "$(jp clusterrole kubeadm:get-nodes -o jsonpath='{.rules[0].verbs[0]} {.rules[0].resources[0]}')"
assert_eq "kubeadm:cluster-admins" "cluster-admin Group:kubeadm:cluster-admins" "$(crb kubeadm:cluster-admins)"
CI=$(jp -n kube-public cm cluster-info -o jsonpath='{.data.kubeconfig}')
assert_contains "cluster-info kubeconfig" "$CI" "server: https://10.123.0.11:6443"
assert_contains "cluster-info signed by the controller-manager" "$(jp -n kube-public cm cluster-info -o jsonpath='{.data}')" "jws-kubeconfig-abcdef"
assert_eq "kubeadm:bootstrap-signer-clusterinfo" "User:system:anonymous" \
  "$(jp -n kube-public rolebinding kubeadm:bootstrap-signer-clusterinfo -o jsonpath='{range .subjects[*]}{.kind}:{.name}{end}')"
# addons
assert_eq "kube-dns service" "10.96.0.10 53/UDP 53/TCP 9153/TCP" \
  "$(jp -n kube-system svc kube-dns -o jsonpath='{.spec.clusterIP} {range .spec.ports[*]}{.port}/{.protocol} {end}' | sed 's/ $//')"
assert_eq "coredns replicas" 2 "$(jp -n kube-system deployment coredns -o jsonpath='{.spec.replicas}')"
assert_contains "Corefile" "$(jp -n kube-system cm coredns -o jsonpath='{.data.Corefile}')" "kubernetes cluster.local in-addr.arpa ip6.arpa"
assert_eq "system:coredns binding" "system:coredns ServiceAccount:coredns" "$(crb system:coredns)"
assert_contains "kube-proxy config" "$(jp -n kube-system cm kube-proxy -o jsonpath='{.data.config\.conf}')" "clusterCIDR: 10.244.0.0/16"
assert_eq "kube-proxy daemonset" "kube-proxy" "$(jp -n kube-system ds kube-proxy -o jsonpath='{.metadata.name}')"
assert_eq "kubeadm:node-proxier" "system:node-proxier ServiceAccount:kube-proxy" "$(crb kubeadm:node-proxier)"

# upload-certs: the Secret decrypts with the printed key to the exact files (Node.js crypto).
for f in ca.crt ca.key front-proxy-ca.crt front-proxy-ca.key sa.pub sa.key etcd-ca.crt etcd-ca.key; do
  file=${f/etcd-/etcd\/}
  blob=$(jp -n kube-system secret kubeadm-certs -o jsonpath="{.data.${f//./\\.}}")
  node -e '
    const c = require("crypto"); const key = Buffer.from(process.argv[1], "hex");
    const data = Buffer.from(process.argv[2], "base64");
    const d = c.createDecipheriv("aes-256-gcm", key, data.subarray(0, 12));
    d.setAuthTag(data.subarray(data.length - 16));
    process.stdout.write(Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]));
  ' "$KEY" "$blob" > "$WORK/decrypted" 2>"$WORK/node.err" || fail "kubeadm-certs $f does not decrypt: $(cat "$WORK/node.err")"
  check "kubeadm-certs $f equals pki/$file" cmp -s "$WORK/decrypted" "$R/etc/kubernetes/pki/$file"
done

# RBAC really gates a bootstrap token.
API=https://10.123.0.11:6443
code() { node_exec_on node-1 curl -s -o /dev/null -w '%{http_code}' --cacert "$R/etc/kubernetes/pki/ca.crt" "$@"; }
TOKEN="Authorization: Bearer abcdef.0123456789abcdef"
assert_eq "anonymous reads cluster-info" 200 "$(code $API/api/v1/namespaces/kube-public/configmaps/cluster-info)"
assert_eq "anonymous cannot read kubeadm-config" 403 "$(code $API/api/v1/namespaces/kube-system/configmaps/kubeadm-config)"
assert_eq "token reads kubeadm-config" 200 "$(code -H "$TOKEN" $API/api/v1/namespaces/kube-system/configmaps/kubeadm-config)"
assert_eq "token reads the kubeadm-certs Secret" 200 "$(code -H "$TOKEN" $API/api/v1/namespaces/kube-system/secrets/kubeadm-certs)"
assert_eq "token cannot list secrets" 403 "$(code -H "$TOKEN" $API/api/v1/namespaces/kube-system/secrets)"
assert_eq "token cannot read other configmaps" 403 "$(code -H "$TOKEN" $API/api/v1/namespaces/kube-system/configmaps/coredns)"
assert_eq "wrong token is unauthenticated" 401 "$(code -H "Authorization: Bearer abcdef.ffffffffffffffff" $API/api/v1/namespaces/kube-public/configmaps/cluster-info)"

# Everything stops with the node, and nothing of it is left running.
node_stop_on node-1
check "no process of the node is left" test -z "$(pgrep -f "$(node_dir node-1)/" || true)"
finish
