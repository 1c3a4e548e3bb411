#!/usr/bin/env bash
# The node root is a root (issue 19 §2): symbolic links planted in a --rootfs (absolute, as an
# image has them, and relative ones that climb with '..') on etc/kubernetes, its pki and
# manifests directories, a key file and var/lib/etcd resolve inside the node root as in a chroot.
# The init phases certs, kubeconfig, control-plane and etcd local, then reset, write and delete
# nothing outside it (a directory outside is hashed before and after); an absolute link
# etc/kubernetes -> /srv/k8s lands in ROOT/srv/k8s; a link whose target the node root does not
# have is refused on one line, as mkdir -p refuses it in a chroot; a link in a file's own place is
# replaced, never written through. A FIFO or a huge file where a node file should be is refused
# at once on one line naming it.
source "$(dirname "$0")/lib/common.sh"

OUT=$WORK/outside  # a directory of this machine that every link below names
mkdir -p "$OUT/k8s/pki" "$OUT/k8s/manifests" "$OUT/pki" "$OUT/manifests" "$OUT/etcd"
echo "this machine's CA key" > "$OUT/ca.key"
echo "this machine's admin.conf" > "$OUT/k8s/admin.conf"
echo "this machine's manifest" > "$OUT/manifests/kube-apiserver.yaml"
echo "this machine's etcd data" > "$OUT/etcd/db"
OUT_PRINT=$(tree_fingerprint "$OUT")
printf 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nkubernetesVersion: v1.32.0\nencryptionAlgorithm: ECDSA-P256\n' \
  > "$WORK/cluster.yaml"
UP=$(printf '../%.0s' $(seq 20))  # more '..' than any path here is deep

# phases ROOT: the init phases that write the node's files, one after the other; their output
# in $WORK/out, the exit code of the first that failed in $RC.
phases() {
  RC=0
  for phase in "certs all" "kubeconfig all" "control-plane all" "etcd local"; do
    # shellcheck disable=SC2086 # $phase is a list of words
    timeout 60 "$KKADM" --rootfs "$1" init phase $phase --config "$WORK/cluster.yaml" \
      >"$WORK/out" 2>&1 || { RC=$?; return 0; }
  done
}
verifies() { openssl verify -CAfile "$1" "$2" >/dev/null; }  # verifies CA_CERT CERT
regular_file() { [ -f "$1" ] && [ ! -L "$1" ]; }
outside_unchanged() { assert_eq "$1: nothing outside the node root changed" "$OUT_PRINT" "$(tree_fingerprint "$OUT")"; }
# The files of a node made by the phases, under DIR (the node's /etc/kubernetes, wherever it is).
has_node_files() {
  local f
  for f in pki/ca.key pki/ca.crt pki/etcd/ca.key admin.conf super-admin.conf manifests/kube-apiserver.yaml manifests/etcd.yaml; do
    regular_file "$1/$f" || { echo "missing $1/$f" >&2; return 1; }
  done
  verifies "$1/pki/ca.crt" "$1/pki/apiserver.crt"
}

# 1. Absolute links: etc/kubernetes, and var/lib/etcd, each to a directory of this machine.
R=$WORK/abs
mkdir -p "$R/etc" "$R/var/lib" "$R$OUT/k8s" "$R$OUT/etcd"
ln -s "$OUT/k8s" "$R/etc/kubernetes"
ln -s "$OUT/etcd" "$R/var/lib/etcd"
phases "$R"
assert_eq "absolute links: phases succeed ($(cat "$WORK/out"))" 0 "$RC"
check "absolute links: the node's files are in the node root's $OUT/k8s" has_node_files "$R$OUT/k8s"
check "absolute links: etcd's data directory is the node root's" [ -d "$R$OUT/etcd" ]
outside_unchanged "absolute links"

# 2. Relative links that climb: etc/kubernetes/pki and etc/kubernetes/manifests.
R=$WORK/rel
mkdir -p "$R/etc/kubernetes" "$R$OUT/pki" "$R$OUT/manifests"
ln -s "$UP${OUT#/}/pki" "$R/etc/kubernetes/pki"
ln -s "../../$UP${OUT#/}/manifests" "$R/etc/kubernetes/manifests"
phases "$R"
assert_eq "relative links: phases succeed ($(cat "$WORK/out"))" 0 "$RC"
check "relative links: the CA key is in the node root" [ -f "$R$OUT/pki/ca.key" ]
check "relative links: the manifests are in the node root" [ -f "$R$OUT/manifests/etcd.yaml" ]
outside_unchanged "relative links"

# 3. Links at files. The CA's two files link to absolute paths: the node root's (a real CA made
# here) are read, not this machine's (junk there, which would fail the phase). A manifest linked
# out with '..' is replaced by the node's own file, never written through.
R=$WORK/files
mkdir -p "$R/etc/kubernetes/pki" "$R/etc/kubernetes/manifests" "$R$OUT"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj /CN=kubernetes \
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,digitalSignature \
  -keyout "$R$OUT/ca.key" -out "$R$OUT/ca.crt" 2>/dev/null
ln -s "$OUT/ca.key" "$R/etc/kubernetes/pki/ca.key"
ln -s "$OUT/ca.crt" "$R/etc/kubernetes/pki/ca.crt"
ln -s "$UP${OUT#/}/manifests/kube-apiserver.yaml" "$R/etc/kubernetes/manifests/kube-apiserver.yaml"
phases "$R"
assert_eq "links at files: phases succeed ($(cat "$WORK/out"))" 0 "$RC"
check "links at files: the node root's CA signed the API server's certificate" \
  verifies "$R$OUT/ca.crt" "$R/etc/kubernetes/pki/apiserver.crt"
check "links at files: the manifest link replaced by the node's own file" \
  regular_file "$R/etc/kubernetes/manifests/kube-apiserver.yaml"
outside_unchanged "links at files"

# 4. A link whose target the node root does not have: refused on one line, as in a chroot.
R=$WORK/dangling
mkdir -p "$R/etc"
ln -s "$OUT/k8s" "$R/etc/kubernetes"
phases "$R"
assert_eq "dangling link: exit code ($(cat "$WORK/out"))" 1 "$RC"
assert_contains "dangling link: named" "$(cat "$WORK/out")" \
  "creating directory $R/etc/kubernetes: not a directory"
check "dangling link: still a link" [ -L "$R/etc/kubernetes" ]
outside_unchanged "dangling link"

# 5. A link whose target is inside the node root is followed there: /srv/k8s is ROOT/srv/k8s.
R=$WORK/in-root
mkdir -p "$R/etc" "$R/srv/k8s"
ln -s /srv/k8s "$R/etc/kubernetes"
srv_before=$( [ -e /srv/k8s ] && tree_fingerprint /srv/k8s || echo absent)
phases "$R"
assert_eq "in-root link: phases succeed ($(cat "$WORK/out"))" 0 "$RC"
check "in-root link: the node's files are in ROOT/srv/k8s" has_node_files "$R/srv/k8s"
assert_eq "in-root link: this machine's /srv/k8s untouched" "$srv_before" \
  "$( [ -e /srv/k8s ] && tree_fingerprint /srv/k8s || echo absent)"

# 6. reset of the linked nodes deletes nothing outside (links are removed, never followed).
for R in "$WORK/abs" "$WORK/rel" "$WORK/files"; do
  rc=0; timeout 60 "$KKADM" --rootfs "$R" reset --force </dev/null >"$WORK/out" 2>&1 || rc=$?
  check "reset $(basename "$R"): exit code 0 or 1, not $rc ($(cat "$WORK/out"))" [ "$rc" -le 1 ]
  outside_unchanged "reset $(basename "$R")"
done

# 7. A FIFO where admin.conf should be is refused at once (a read would wait for a writer forever)
# and so is a file past 64 MiB (sparse here), each on one line naming the file.
R=$WORK/fifo
mkdir -p "$R/etc/kubernetes"
mkfifo "$R/etc/kubernetes/admin.conf"
rc=0; timeout 20 "$KKADM" --rootfs "$R" token list >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "a FIFO at admin.conf: not left waiting" "" "$( [ $rc -eq 124 ] && echo timeout)"
check "a FIFO at admin.conf: an error ($rc)" [ "$rc" -ne 0 ]
assert_eq "a FIFO at admin.conf: one line ($(cat "$WORK/err"))" 1 "$(grep -c . "$WORK/err" || true)"
assert_contains "a FIFO at admin.conf" "$(cat "$WORK/err")" "reading $R/etc/kubernetes/admin.conf: a FIFO"
rm "$R/etc/kubernetes/admin.conf"
truncate -s 65M "$R/etc/kubernetes/admin.conf"
rc=0; timeout 20 "$KKADM" --rootfs "$R" token list >"$WORK/out" 2>"$WORK/err" || rc=$?
check "a 65 MiB admin.conf: an error ($rc)" [ "$rc" -ne 0 ]
assert_eq "a 65 MiB admin.conf: one line ($(cat "$WORK/err"))" 1 "$(grep -c . "$WORK/err" || true)"
assert_contains "a 65 MiB admin.conf" "$(cat "$WORK/err")" \
  "reading $R/etc/kubernetes/admin.conf: over the limit of 67108864 bytes"

finish
