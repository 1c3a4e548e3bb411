#!/usr/bin/env bash
# kkadm reads and writes YAML as kubeadm's sigs.k8s.io/yaml (go-yaml v2) does, in every dialect,
# through one adapter (app/util/yaml). Before it, three readers and four emitters disagreed; each
# case here is one of those disagreements, settled the kubeadm way:
# - a configuration file's plain scalars are YAML 1.1: y/n are booleans, 014400 is octal (6400);
# - /var/lib/kubelet/config.yaml does not indent sequences under their key;
# - multi-line strings in printed objects are literal blocks, as in kubeadm's kube-proxy
#   ConfigMap (data.config.conf: |-).
# Also a copy outside YAML settled the same way: kube-proxy's kubeconfig server comes from the rule
# of admin.conf's (kubeadm's GetControlPlaneEndpoint), so an IPv6 address is written canonically.
source "$(dirname "$0")/lib/common.sh"

V4='apiVersion: kubeadm.k8s.io/v1beta4'

# ---- configuration files: YAML 1.1 plain scalars ------------------------------------------------
cat > "$WORK/bool-name.yaml" <<CFG
$V4
kind: InitConfiguration
nodeRegistration:
  name: y
CFG
rc=0
"$KKADM" config validate --config "$WORK/bool-name.yaml" >"$WORK/out" 2>"$WORK/err" || rc=$?
check "name: y is a boolean, as in kubeadm: config validate fails" test "$rc" -ne 0
assert_contains "name: y names the field and its type" "$(cat "$WORK/err")" \
  'nodeRegistration.name: invalid value "true": must be a string'

ROOT=$WORK/rootfs
DRY=$WORK/dry
mkdir -p "$ROOT"
cat > "$WORK/init.yaml" <<CFG
$V4
kind: InitConfiguration
localAPIEndpoint:
  advertiseAddress: 192.0.2.10
  bindPort: 014400
nodeRegistration:
  name: cp-1
---
$V4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
CFG
rc=0
KKADM_INIT_DRYRUN_DIR=$DRY "$KKADM" init --dry-run --rootfs "$ROOT" --config "$WORK/init.yaml" \
  --ignore-preflight-errors all >"$WORK/init.out" 2>"$WORK/init.err" </dev/null || rc=$?
assert_eq "init --dry-run exit code ($(tail -3 "$WORK/init.err"))" 0 "$rc"
APISERVER=$DRY/etc/kubernetes/manifests/kube-apiserver.yaml
check "the API server manifest was written to the dry-run directory" test -s "$APISERVER"
assert_contains "bindPort: 014400 is octal 6400, as in kubeadm" "$(cat "$APISERVER" 2>/dev/null)" \
  "- --secure-port=6400"

# ---- written and printed YAML: kubeadm's layout -------------------------------------------------
KUBELET_CONFIG=$DRY/var/lib/kubelet/config.yaml
check "the kubelet configuration was written to the dry-run directory" test -s "$KUBELET_CONFIG"
assert_contains "config.yaml: sequences sit at their key's indentation" \
  "$(cat "$KUBELET_CONFIG" 2>/dev/null)" $'\nclusterDNS:\n- 10.96.0.10\nclusterDomain: cluster.local\n'
rc=0
"$KKADM" init phase addon kube-proxy --print-manifest --rootfs "$ROOT" --config "$WORK/init.yaml" \
  >"$WORK/proxy.out" 2>"$WORK/proxy.err" || rc=$?
assert_eq "init phase addon kube-proxy --print-manifest exit code ($(cat "$WORK/proxy.err"))" 0 "$rc"
assert_contains "the printed kube-proxy ConfigMap holds config.conf as a literal block" \
  "$(cat "$WORK/proxy.out")" $'\ndata:\n  config.conf: |-\n    apiVersion: kubeproxy.config.k8s.io/v1alpha1\n'

# kube-proxy's kubeconfig names admin.conf's server: the advertise address in canonical form.
rc=0
"$KKADM" init phase addon kube-proxy --print-manifest --rootfs "$ROOT" \
  --apiserver-advertise-address fd00:0:0::10 --kubernetes-version v1.32.0 \
  >"$WORK/proxy6.out" 2>"$WORK/proxy6.err" || rc=$?
assert_eq "addon kube-proxy with an IPv6 address exit code ($(cat "$WORK/proxy6.err"))" 0 "$rc"
assert_contains "kube-proxy's server is the canonical IPv6 address" "$(cat "$WORK/proxy6.out")" \
  "server: https://[fd00::10]:6443"

finish
