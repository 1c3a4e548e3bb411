#!/usr/bin/env bash
# KubeletConfiguration and KubeProxyConfiguration documents through the binary, decoded as kubeadm
# 1.32 does: an unknown field (top level, nested, in a list item) is an error for `config validate`
# and a warning for init and join, worded like kkadm's messages for kubeadm's own kinds; a value of
# the wrong type fails both; every 1.32 field and kkadm's own printed defaults are accepted.
source "$(dirname "$0")/lib/common.sh"

HEAD='apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
localAPIEndpoint:
  advertiseAddress: 192.0.2.10
nodeRegistration:
  name: cp-1
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
---'
KUBELET='apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration'
PROXY='apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration'

# write NAME DOC-HEADER BODY: a config file with the kubeadm documents and one component config.
write() { printf '%s\n%s\n%s\n' "$HEAD" "$2" "$3" > "$WORK/$1.yaml"; }

# validate NAME EXPECTED-RC FRAGMENT
validate() {
  local rc=0
  "$KKADM" config validate --config "$WORK/$1.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
  assert_eq "$1: config validate exit code ($(cat "$WORK/err"))" "$2" "$rc"
  assert_contains "$1: config validate" "$(cat "$WORK/out" "$WORK/err")" "$3"
}

# init_phase NAME EXPECTED-RC FRAGMENT: `init phase certs ca` reads the whole file first.
init_phase() {
  local rc=0 root=$WORK/$1.root
  mkdir -p "$root"
  "$KKADM" init phase certs ca --rootfs "$root" --config "$WORK/$1.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
  assert_eq "$1: init exit code ($(cat "$WORK/err"))" "$2" "$rc"
  assert_contains "$1: init" "$(cat "$WORK/err")" "$3"
}

unknown() {  # NAME DOC-HEADER BODY MESSAGE
  write "$1" "$2" "$3"
  validate "$1" 3 "$4"
  init_phase "$1" 0 "$4"
  check "$1: init went on" test -f "$WORK/$1.root/etc/kubernetes/pki/ca.crt"
}

D="(document 3)"
unknown top "$KUBELET" 'maxPod: 110' "$WORK/top.yaml: KubeletConfiguration $D: maxPod: unknown field"
unknown nested "$KUBELET" $'authentication:\n  x509:\n    clientCAfile: /etc/kubernetes/pki/ca.crt' \
  "$WORK/nested.yaml: KubeletConfiguration $D: authentication.x509.clientCAfile: unknown field"
unknown list-item "$KUBELET" $'shutdownGracePeriodByPodPriority:\n- priority: 100\n  shutdownGracePeriodSecond: 30' \
  "$WORK/list-item.yaml: KubeletConfiguration $D: shutdownGracePeriodByPodPriority[0].shutdownGracePeriodSecond: unknown field"
unknown proxy "$PROXY" $'mode: ipvs\nipvs:\n  strictArp: true' \
  "$WORK/proxy.yaml: KubeProxyConfiguration $D: ipvs.strictArp: unknown field"

# join warns too (the kubelet configuration of a join file is decoded as well).
printf 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\ndiscovery:\n  bootstrapToken:\n    apiServerEndpoint: 10.123.0.1:6443\n    token: abcdef.0123456789abcdef\n    unsafeSkipCAVerification: true\n---\n%s\nmaxPod: 1\n' \
  "$KUBELET" > "$WORK/join.yaml"
rc=0; "$KKADM" --rootfs "$WORK/join-root" join phase preflight --config "$WORK/join.yaml" --dry-run \
  >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_contains "join warns" "$(cat "$WORK/err")" "$WORK/join.yaml: KubeletConfiguration (document 2): maxPod: unknown field"

wrong_type() {  # NAME DOC-HEADER BODY MESSAGE
  write "$1" "$2" "$3"
  validate "$1" 3 "$4"
  init_phase "$1" 3 "$4"
  check "$1: init wrote nothing" test ! -e "$WORK/$1.root/etc/kubernetes"
}
wrong_type max-pods "$KUBELET" 'maxPods: lots' \
  "$WORK/max-pods.yaml: KubeletConfiguration $D: maxPods: invalid value \"lots\": must be an integer"
wrong_type duration "$KUBELET" 'shutdownGracePeriod: 30' \
  "$WORK/duration.yaml: KubeletConfiguration $D: shutdownGracePeriod: invalid value \"30\": must be a duration string"
wrong_type proxy-int "$PROXY" $'conntrack:\n  maxPerCore: many' \
  "$WORK/proxy-int.yaml: KubeProxyConfiguration $D: conntrack.maxPerCore: invalid value \"many\": must be an integer"

# Free-form maps keep any key; kubeadm's own fields of every kind pass.
write free-maps "$KUBELET" $'evictionHard:\n  memory.available: 100Mi\n  imagefs.available: "15%"\nfeatureGates:\n  AnyGate: true\nsystemReserved:\n  cpu: 500m'
validate free-maps 0 ok
validate_file() {  # NAME FILE
  local rc=0
  "$KKADM" config validate --config "$2" >"$WORK/out" 2>"$WORK/err" || rc=$?
  assert_eq "$1: exit code ($(cat "$WORK/err"))" 0 "$rc"
  assert_eq "$1: no warning" "" "$(cat "$WORK/err")"
}
validate_file every-1.32-field "$KKADM_SOURCE_DIR/tests/config/testdata/component_configs_1.32.yaml"
"$KKADM" config print init-defaults --component-configs KubeletConfiguration,KubeProxyConfiguration \
  > "$WORK/defaults.yaml"
validate_file printed-defaults "$WORK/defaults.yaml"

finish
