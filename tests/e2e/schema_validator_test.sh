#!/bin/bash
# The independent schema validator (tests/validator/validate.js) accepts valid Kubernetes objects
# and rejects badly typed ones, unknown fields and a KubeletConfiguration passed off as a Pod.
set -euo pipefail

SRC="${KKADM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}"
VALIDATOR="$SRC/tests/validator"
fail() { echo "FAIL: $*" >&2; exit 1; }

# Install the pinned dependencies once (several tests may start at the same time: serialise).
if [ ! -d "$VALIDATOR/node_modules/kubernetes-models" ]; then
  (
    flock 9
    if [ ! -d "$VALIDATOR/node_modules/kubernetes-models" ]; then
      npm ci --prefix "$VALIDATOR" --no-audit --no-fund --loglevel=error >/dev/null ||
        fail "npm ci in $VALIDATOR failed and no node_modules exist (offline?)"
    fi
  ) 9>"${TMPDIR:-/tmp}/kkadm-validator-install.lock"
fi

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

validate() { node "$VALIDATOR/validate.js" "$@"; }

# expect RC FILE-OR-FLAGS... : runs the validator, checks its exit code, leaves output in $W/out.
expect() {
  local want=$1; shift
  local rc=0
  validate "$@" >"$W/out" 2>&1 || rc=$?
  [ "$rc" = "$want" ] || { cat "$W/out" >&2; fail "validate $* exited $rc, want $want"; }
}
contains() { grep -qF -- "$1" "$W/out" || { cat "$W/out" >&2; fail "output lacks: $1"; }; }

cat >"$W/pod.yaml" <<'YAML'
apiVersion: v1
kind: Pod
metadata:
  name: etcd
  namespace: kube-system
  labels: {component: etcd, tier: control-plane}
spec:
  hostNetwork: true
  priorityClassName: system-node-critical
  securityContext: {seccompProfile: {type: RuntimeDefault}}
  containers:
  - name: etcd
    image: registry.k8s.io/etcd:3.5.16-0
    command: [etcd, --data-dir=/var/lib/etcd]
    resources: {requests: {cpu: 100m, memory: 100Mi}}
    livenessProbe:
      httpGet: {host: 127.0.0.1, path: /health, port: 2381, scheme: HTTP}
      initialDelaySeconds: 10
    volumeMounts: [{mountPath: /var/lib/etcd, name: etcd-data}]
  volumes:
  - {name: etcd-data, hostPath: {path: /var/lib/etcd, type: DirectoryOrCreate}}
status: {}
YAML

# 1. A valid Pod passes.
expect 0 "$W/pod.yaml"
contains "$W/pod.yaml: OK"

# 2. A badly typed Pod fails, naming each bad field.
sed 's/hostNetwork: true/hostNetwork: "yes"/; s/initialDelaySeconds: 10/initialDelaySeconds: ten/' \
  "$W/pod.yaml" >"$W/badtype.yaml"
expect 1 "$W/badtype.yaml"
contains "$W/badtype.yaml: INVALID: /spec/hostNetwork must be boolean"
contains "$W/badtype.yaml: INVALID: /spec/containers/0/livenessProbe/initialDelaySeconds must be integer"

# 3. Unknown fields fail, at the top of the spec and deep inside a container.
sed 's/hostNetwork: true/hostNetwrok: true/; s/image: registry/imagee: x\n    image: registry/' \
  "$W/pod.yaml" >"$W/unknown.yaml"
expect 1 "$W/unknown.yaml"
contains "$W/unknown.yaml: INVALID: /spec/hostNetwrok unknown field \"hostNetwrok\""
contains "$W/unknown.yaml: INVALID: /spec/containers/0/imagee unknown field \"imagee\""
# ... while free keys of maps (labels, resources) stay allowed: the valid Pod above has them.

# 4. KubeletConfiguration: valid passes, bad types/unknown fields fail, and as a Pod it is rejected.
cat >"$W/kubelet.yaml" <<'YAML'
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: {enabled: false}
  webhook: {cacheTTL: 0s, enabled: true}
  x509: {clientCAFile: /etc/kubernetes/pki/ca.crt}
authorization:
  mode: Webhook
  webhook: {cacheAuthorizedTTL: 0s, cacheUnauthorizedTTL: 0s}
cgroupDriver: systemd
clusterDNS: [10.96.0.10]
clusterDomain: cluster.local
healthzBindAddress: 127.0.0.1
healthzPort: 10248
readOnlyPort: 0
resolvConf: /run/systemd/resolve/resolv.conf
rotateCertificates: true
staticPodPath: /etc/kubernetes/manifests
logging: {flushFrequency: 0, options: {json: {infoBufferSize: "0"}}, verbosity: 0}
YAML
expect 0 "$W/kubelet.yaml"
sed 's/cgroupDriver: systemd/cgroupDriver: docker/; s/healthzPort: 10248/healthzPort: "10248"/;
     s/clusterDNS: \[10.96.0.10\]/clusterDNS: 10.96.0.10/; s/rotateCertificates: true/rotateCertificate: true/;
     s/mode: Webhook/mode: RBAC/' "$W/kubelet.yaml" >"$W/kubelet-bad.yaml"
expect 1 "$W/kubelet-bad.yaml"
contains "/cgroupDriver must be equal to one of the allowed values: systemd, cgroupfs"
contains "/healthzPort must be integer"
contains "/clusterDNS must be array"
contains "/rotateCertificate unknown field \"rotateCertificate\""
contains "/authorization/mode must be equal to one of the allowed values: AlwaysAllow, Webhook"
sed 's|^apiVersion: kubelet.config.k8s.io/v1beta1|apiVersion: v1|; s/^kind: KubeletConfiguration/kind: Pod/' \
  "$W/kubelet.yaml" >"$W/kubelet-as-pod.yaml"
expect 1 "$W/kubelet-as-pod.yaml"
contains "$W/kubelet-as-pod.yaml: INVALID: /staticPodPath unknown field \"staticPodPath\""

# 5. Several documents in one file, an unknown kind, and --stdin (JSON) with --json output.
{ cat "$W/pod.yaml"; echo "---"; printf 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n'; } >"$W/multi.yaml"
expect 1 "$W/multi.yaml"
contains "$W/multi.yaml#1: OK"
contains "$W/multi.yaml#2: INVALID: / no model for apiVersion \"kubeadm.k8s.io/v1beta4\" kind \"ClusterConfiguration\""
expect 0 --stdin <<<'{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"a":"b"}}'
contains "<stdin>: OK"
expect 1 --stdin --json <"$W/unknown.yaml"
contains '"path":"/spec/hostNetwrok","message":"unknown field \"hostNetwrok\""'

echo PASS
