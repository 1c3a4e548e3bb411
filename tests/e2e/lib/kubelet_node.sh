# shellcheck shell=bash
# Fixtures of tests/e2e/sandbox_kubelet_test.sh: a node's PKI (ECDSA P-256, openssl CLI) and the
# files kkadm writes for its kubelet (config.yaml, bootstrap-kubelet.conf, static Pod manifests).
# Source it; the functions use R (the node's rootfs), PKI, IP, TOKEN and REC of the caller.

# shellcheck source=pki.sh
source "$(dirname "${BASH_SOURCE[0]}")/pki.sh"

mk_leaf() {  # dir ca name subject eku [san]: a leaf beside its CA
  cert_make_leaf "$1" "$2" "$1" "$3" "$4" "$5" "${6:-}"
}

# Cluster CA, API server certificate, etcd CA and etcd certificates under $PKI; sets CA_DATA.
make_node_pki() {
  mkdir -p "$PKI/etcd"
  SAN="DNS:localhost,DNS:node-a,IP:127.0.0.1,IP:$IP"
  cert_make_ca "$PKI" ca kubernetes
  mk_leaf "$PKI" ca apiserver /CN=kube-apiserver serverAuth "$SAN"
  cert_make_ca "$PKI/etcd" ca etcd-ca
  mk_leaf "$PKI/etcd" ca server /CN=node-a serverAuth,clientAuth "$SAN"
  mk_leaf "$PKI/etcd" ca peer /CN=node-a serverAuth,clientAuth "$SAN"
  mk_leaf "$PKI/etcd" ca healthcheck-client /CN=kube-etcd-healthcheck-client clientAuth
  CA_DATA=$(base64 -w0 "$PKI/ca.crt")
}

long_manifest() {  # mark
  cat <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: long
  namespace: kube-system
spec:
  containers:
  - command:
    - /bin/sh
    - -c
    - echo "\$MARK \$\$" > "\$1/state.tmp" && mv "\$1/state.tmp" "\$1/state" && exec sleep 600
    - sh
    - /var/tmp/long
    env:
    - name: MARK
      value: "$1"
    name: long
  volumes:
  - hostPath:
      path: /var/tmp/long
      type: DirectoryOrCreate
    name: work
EOF
}

# The KubeletConfiguration kkadm writes, its static Pod path the node's manifests.
write_kubelet_config() {
cat > "$R/var/lib/kubelet/config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
authentication:
  anonymous:
    enabled: false
  webhook:
    cacheTTL: 2m0s
    enabled: true
  x509:
    clientCAFile: /etc/kubernetes/pki/ca.crt
authorization:
  mode: Webhook
cgroupDriver: systemd
clusterDNS:
  - 10.96.0.10
clusterDomain: cluster.local
healthzBindAddress: 127.0.0.1
healthzPort: 10248
kind: KubeletConfiguration
readOnlyPort: 0
rotateCertificates: true
staticPodPath: /etc/kubernetes/manifests
EOF
}

# bootstrap-kubelet.conf for the TLS bootstrap with $TOKEN against $IP:6443 (CA $CA_DATA).
write_bootstrap_kubeconfig() {
cat > "$R/etc/kubernetes/bootstrap-kubelet.conf" <<EOF
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: $CA_DATA
    server: https://$IP:6443
  name: kubernetes
contexts:
- context:
    cluster: kubernetes
    user: tls-bootstrap-token-user
  name: tls-bootstrap-token-user@kubernetes
current-context: tls-bootstrap-token-user@kubernetes
kind: Config
preferences: {}
users:
- name: tls-bootstrap-token-user
  user:
    token: $TOKEN
EOF
chmod 0600 "$R/etc/kubernetes/bootstrap-kubelet.conf"
}

# The etcd static Pod as kkadm writes it for node-a at $IP.
write_etcd_manifest() {
cat > "$R/etc/kubernetes/manifests/etcd.yaml" <<EOF
apiVersion: v1
kind: Pod
metadata:
  annotations:
    kubeadm.kubernetes.io/etcd.advertise-client-urls: https://$IP:2379
  creationTimestamp: null
  labels:
    component: etcd
    tier: control-plane
  name: etcd
  namespace: kube-system
spec:
  containers:
  - command:
    - etcd
    - --advertise-client-urls=https://$IP:2379
    - --cert-file=/etc/kubernetes/pki/etcd/server.crt
    - --client-cert-auth=true
    - --data-dir=/var/lib/etcd
    - --initial-advertise-peer-urls=https://$IP:2380
    - --initial-cluster=node-a=https://$IP:2380
    - --key-file=/etc/kubernetes/pki/etcd/server.key
    - --listen-client-urls=https://127.0.0.1:2379,https://$IP:2379
    - --listen-metrics-urls=http://127.0.0.1:2381
    - --listen-peer-urls=https://$IP:2380
    - --name=node-a
    - --peer-cert-file=/etc/kubernetes/pki/etcd/peer.crt
    - --peer-client-cert-auth=true
    - --peer-key-file=/etc/kubernetes/pki/etcd/peer.key
    - --peer-trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt
    - --snapshot-count=10000
    - --trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt
    image: registry.k8s.io/etcd:3.5.16-0
    imagePullPolicy: IfNotPresent
    name: etcd
    volumeMounts:
    - mountPath: /var/lib/etcd
      name: etcd-data
    - mountPath: /etc/kubernetes/pki/etcd
      name: etcd-certs
  hostNetwork: true
  priorityClassName: system-node-critical
  volumes:
  - hostPath:
      path: /etc/kubernetes/pki/etcd
      type: DirectoryOrCreate
    name: etcd-certs
  - hostPath:
      path: /var/lib/etcd
      type: DirectoryOrCreate
    name: etcd-data
status: {}
EOF
}

# Two test Pods: one that keeps exiting (short) and one that runs (long, v1).
write_test_pods() {
# A process that exits after 0.3 s; its bare /var/tmp/short argument lies under a hostPath volume,
# so the kubelet hands it over under the rootfs.
cat > "$R/etc/kubernetes/manifests/short.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata:
  name: short
  namespace: kube-system
spec:
  containers:
  - command:
    - /bin/sh
    - -c
    - 'echo "run" >> "$1/count"; sleep 0.3'
    - sh
    - /var/tmp/short
    name: short
  volumes:
  - hostPath:
      path: /var/tmp/short
      type: DirectoryOrCreate
    name: work
EOF
long_manifest v1 > "$R/etc/kubernetes/manifests/long.yaml"
}

# config.yaml, bootstrap-kubelet.conf and the manifests etcd.yaml, short.yaml and long.yaml (v1).
# (The writers' bodies are not indented: they are mostly heredocs.)
write_node_files() {
  mkdir -p "$R/var/lib/kubelet" "$R/etc/kubernetes/manifests" "$REC"
  chmod 0700 "$R/etc/kubernetes/manifests"
  write_kubelet_config
  write_bootstrap_kubeconfig
  write_etcd_manifest
  write_test_pods
}
