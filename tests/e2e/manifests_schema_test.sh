#!/usr/bin/env bash
# Every static Pod manifest kkadm writes, and its KubeletConfiguration, pass the independent
# Kubernetes schema validator (tests/validator: npm kubernetes-models, unknown fields rejected).
source "$(dirname "$0")/lib/common.sh"
V=$KKADM_SOURCE_DIR/tests/validator
[ -d "$V/node_modules" ] || (cd "$V" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)

for v in v1beta3 v1beta4; do
  R=$WORK/root-$v; mkdir -p "$R"
  args='extraArgs: {v: "4"}'
  [ $v = v1beta4 ] && args='extraArgs: [{name: v, value: "4"}, {name: v, value: "5"}]'
  cat > "$WORK/$v.yaml" <<CFG
apiVersion: kubeadm.k8s.io/$v
kind: InitConfiguration
nodeRegistration: {name: node-1}
localAPIEndpoint: {advertiseAddress: 192.0.2.10}
---
apiVersion: kubeadm.k8s.io/$v
kind: ClusterConfiguration
networking: {podSubnet: 10.244.0.0/16}
apiServer:
  $args
  extraVolumes: [{name: audit, hostPath: /var/log/audit, mountPath: /var/log/audit, pathType: DirectoryOrCreate}]
CFG
  out=$("$KKADM" init --rootfs "$R" --config "$WORK/$v.yaml" \
    --skip-phases=preflight,kubelet-start,wait-control-plane,upload-config,upload-certs,mark-control-plane,bootstrap-token,kubelet-finalize,addon,show-join-command 2>&1) ||
    fail "$v: init failed: $out"
  for m in etcd kube-apiserver kube-controller-manager kube-scheduler; do
    res=$(node "$V/validate.js" "$R/etc/kubernetes/manifests/$m.yaml" 2>&1) && pass || fail "$v $m: $res"
  done
  # kubelet-start in dry-run writes its files into the dry-run directory and needs no systemd.
  D=$WORK/dry-$v; mkdir -p "$D"
  out=$(KKADM_INIT_DRYRUN_DIR=$D "$KKADM" init phase kubelet-start --rootfs "$R" --config "$WORK/$v.yaml" --dry-run 2>&1) ||
    fail "$v: kubelet-start dry-run failed: $out"
  res=$(node "$V/validate.js" "$D/var/lib/kubelet/config.yaml" 2>&1) && pass || fail "$v KubeletConfiguration: $res"
  check "$v: dry-run left the node's kubelet dir alone" test ! -e "$R/var/lib/kubelet/config.yaml"
done
# The validator is not a rubber stamp: a typo'd field in a generated manifest is refused.
sed 's/hostNetwork: true/hostNetwrok: true/' "$WORK/root-v1beta4/etc/kubernetes/manifests/etcd.yaml" > "$WORK/typo.yaml"
check "validator rejects an unknown field" bash -c "! node '$V/validate.js' '$WORK/typo.yaml' >/dev/null 2>&1"
finish
