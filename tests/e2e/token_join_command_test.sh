#!/usr/bin/env bash
# `kkadm token create --print-join-command` prints kubeadm's join command on ONE line, so that
# Ansible (`stdout_lines[0]`) and Terraform, which keep the first line of the output, get all of
# it. Against a real `kkadm init` on a sandbox node: the output is exactly one line; its first line,
# run as it is (a joiner with its own empty --rootfs in the node's network namespace, stopping before
# kubelet-start), discovers the cluster with the printed CA pin and reads its configuration with the
# printed token; the control-plane form ends with --control-plane --certificate-key <key> on the
# same line, and that key opens the kubeadm-certs Secret.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"
source "$(dirname "$0")/lib/pki.sh"

node_boot node-1 10.123.0.31
{ node_init_config; cat <<CFG; } > "$WORK/init.yaml"
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
controlPlaneEndpoint: 10.123.0.31:6443
encryptionAlgorithm: ECDSA-P256
CFG
node_init "$WORK/init.yaml"
CA=$NODE_ROOT/etc/kubernetes/pki/ca.crt
PIN=$(cert_pin "$CA")

# print_join ARGS...: `kkadm token create --print-join-command ARGS` on the node; the output in
# $WORK/join.out, and $LINE is what Ansible's stdout_lines[0] would hold.
print_join() {
  local rc=0
  node_kkadm token create --print-join-command "$@" >"$WORK/join.out" 2>"$WORK/join.err" || rc=$?
  assert_eq "token create --print-join-command $*: exit code ($(cat "$WORK/join.err"))" 0 "$rc"
  assert_eq "token create --print-join-command $*: exactly one line" 1 "$(wc -l < "$WORK/join.out")"
  LINE=$(head -n1 "$WORK/join.out")
}

# ---- 1. a worker's command ------------------------------------------------------------------------
print_join
read -ra WORDS <<< "$LINE"
assert_eq "worker: kubeadm's words" "kkadm join 10.123.0.31:6443 --token TOKEN --discovery-token-ca-cert-hash $PIN" \
  "${WORDS[*]:0:4} TOKEN ${WORDS[*]:5}"
check "worker: a bootstrap token (${WORDS[4]:-none})" grep -qE '^[a-z0-9]{6}\.[a-z0-9]{16}$' <<<"${WORDS[4]:-}"
assert_eq "worker: kubeadm's line, trailing space and all" "kkadm join 10.123.0.31:6443 --token ${WORDS[4]:-} --discovery-token-ca-cert-hash $PIN " "$LINE"

# Run the first line as a playbook's shell step would, with kkadm on the "PATH" (a function that
# gives it the joiner's empty --rootfs) and the joiner's own flags appended.
JOINER=$WORK/joiner
mkdir -p "$JOINER"
rc=0
KKADM=$KKADM JOINER=$JOINER node_exec bash -c \
  'kkadm() { "$KKADM" --rootfs "$JOINER" "$@"; }; '"$LINE"' --skip-phases kubelet-start --ignore-preflight-errors all --node-name joiner-1' \
  </dev/null >"$WORK/joined.out" 2>"$WORK/joined.err" || rc=$?
assert_eq "the line runs as a join (stderr: $(cat "$WORK/joined.err"))" 0 "$rc"
assert_contains "the join discovered the cluster and read its configuration with the token" \
  "$(cat "$WORK/joined.out")" "[preflight] Reading configuration from the cluster..."
assert_eq "the joiner's rootfs stays empty" "" "$(find "$JOINER" -mindepth 1 | head -3)"

# ---- 2. a control-plane node's command, kubeadm's way (--certificate-key) and kkadm's (--control-plane) --
KEY=$(openssl rand -hex 32)
print_join --certificate-key "$KEY"
assert_contains "control plane: one line ending with the key" "$LINE" \
  " --discovery-token-ca-cert-hash $PIN --control-plane --certificate-key $KEY"
print_join --control-plane
read -ra WORDS <<< "$LINE"
assert_eq "--control-plane: the flags at the end" "--control-plane --certificate-key" "${WORDS[*]:7:2}"
GENERATED=${WORDS[9]:-}
check "--control-plane: a fresh 64-hex key" grep -qE '^[0-9a-f]{64}$' <<<"$GENERATED"
# The key of the line decrypts the certificates the command uploaded (Node.js crypto).
blob=$(node_exec kubectl --kubeconfig "$NODE_ROOT/etc/kubernetes/admin.conf" -n kube-system \
  get secret kubeadm-certs -o jsonpath='{.data.ca\.crt}')
kubeadm_certs_decrypt "$GENERATED" "$blob" > "$WORK/ca.decrypted" 2>"$WORK/node.err" || fail "kubeadm-certs does not decrypt: $(cat "$WORK/node.err")"
check "the key of the line opens kubeadm-certs: ca.crt" cmp -s "$WORK/ca.decrypted" "$CA"

node_stop
finish
