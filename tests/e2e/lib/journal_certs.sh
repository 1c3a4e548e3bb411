# The certs phase of a journaled node and what a whole PKI is, for the tests that interrupt it
# (journal_kill, journal_full_disk). Needs lib/common.sh; writes $WORK/init.yaml.

cat > "$WORK/init.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration: {name: node-1}
localAPIEndpoint: {advertiseAddress: 192.0.2.10}
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.31.0
encryptionAlgorithm: ECDSA-P256
CFG

certs() {  # ROOT [strace args...]: kkadm init phase certs all on ROOT
  local root=$1; shift
  if [ $# -gt 0 ]; then
    strace -f -qq -o /dev/null "$@" -- "$KKADM" --rootfs "$root" init phase certs all --config "$WORK/init.yaml"
  else
    "$KKADM" --rootfs "$root" init phase certs all --config "$WORK/init.yaml"
  fi
}

# The node's PKI is whole: each certificate verifies against its CA, each key is its
# certificate's, sa.key and sa.pub are a pair, no temporary file is left.
pki_whole() {  # ROOT
  local pki=$1/etc/kubernetes/pki f
  for f in apiserver apiserver-kubelet-client front-proxy-client etcd/server etcd/peer \
    etcd/healthcheck-client apiserver-etcd-client; do
    local ca=$pki/ca.crt
    case $f in front-proxy-client) ca=$pki/front-proxy-ca.crt ;; etcd/* | apiserver-etcd-client) ca=$pki/etcd/ca.crt ;; esac
    openssl verify -CAfile "$ca" "$pki/$f.crt" >/dev/null 2>&1 || { echo "$f does not verify"; return 1; }
  done
  for f in ca front-proxy-ca etcd/ca apiserver etcd/server etcd/peer; do
    [ "$(openssl pkey -in "$pki/$f.key" -pubout 2>/dev/null)" = "$(openssl x509 -in "$pki/$f.crt" -noout -pubkey)" ] ||
      { echo "$f.key is not $f.crt's"; return 1; }
  done
  [ "$(openssl pkey -in "$pki/sa.key" -pubout)" = "$(cat "$pki/sa.pub")" ] || { echo "sa.pub is not sa.key's"; return 1; }
  local temp; temp=$(find "$1" -name '*.kkadm-tmp-*')
  [ -z "$temp" ] || { echo "temporary files left: $temp"; return 1; }
}

