#!/usr/bin/env bash
# `kkadm token create --print-cloud-init` against a real `kkadm init` on a sandbox node
# (lib/sandbox_node.sh): the worker and control-plane user-data pass the REAL cloud-init's
# `cloud-init schema` (a deliberately broken document fails it, so the check can fail), the join
# token in runcmd decodes to this cluster, and the runcmd script, as cloud-init itself turns it into
# shell (cloudinit.util.shellify), guards an already-joined node, waits for the CRI socket (bounded)
# and runs `kkadm join <token>` non-interactively (a recording stand-in for kkadm; /etc is an
# overlay in a private mount namespace, so the machine is not touched).
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces, mounts)"; exit 77; }
command -v cloud-init >/dev/null || { echo "SKIP: cloud-init is not installed"; exit 77; }
CI_PY=/usr/bin/python3  # cloud-init's own interpreter and modules
"$CI_PY" -c 'import cloudinit.util, yaml' 2>/dev/null || { echo "SKIP: cloud-init's python modules are missing"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"
source "$(dirname "$0")/lib/pki.sh"

# `cloud-init schema --config-file` only reads; prove it by the state it would write to.
cloud_init_state() {
  local p
  for p in /var/lib/cloud /run/cloud-init /var/log/cloud-init.log /var/log/cloud-init-output.log; do
    [ -e "$p" ] && find "$p" -printf '%p %s %T@\n' | sort
  done
  true
}
CI_STATE_BEFORE=$(cloud_init_state)

node_boot node-1 10.123.0.21
{ node_init_config; cat <<CFG; } > "$WORK/init.yaml"
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
encryptionAlgorithm: ECDSA-P256
controlPlaneEndpoint: 10.123.0.21:6443
CFG
node_init "$WORK/init.yaml"
ADMIN=$NODE_ROOT/etc/kubernetes/admin.conf
k() { node_exec kubectl --kubeconfig "$ADMIN" "$@"; }

user_data() {  # NAME ARGS...: kkadm token create --print-cloud-init ARGS > $WORK/NAME.yaml
  local name=$1 rc=0; shift
  node_kkadm token create --print-cloud-init "$@" >"$WORK/$name.yaml" 2>"$WORK/$name.err" || rc=$?
  assert_eq "token create --print-cloud-init $* (stderr: $(cat "$WORK/$name.err"))" 0 "$rc"
}
user_data worker
user_data control-plane --control-plane
assert_contains "control-plane: certificates uploaded (stderr)" "$(cat "$WORK/control-plane.err")" \
  '[upload-certs] Storing the certificates in Secret "kubeadm-certs"'

# ---- cloud-init's own schema check --------------------------------------------------------------
schema() { cloud-init schema --config-file "$1" >"$WORK/schema.out" 2>&1; }
for name in worker control-plane; do
  check "$name user-data passes cloud-init schema: $(cat "$WORK/schema.out" 2>/dev/null)" schema "$WORK/$name.yaml"
  assert_eq "$name user-data starts with #cloud-config" "#cloud-config" "$(head -1 "$WORK/$name.yaml")"
done
# The same document with runcmd as a map instead of a list must fail: the check can fail.
"$CI_PY" -c '
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
doc["runcmd"] = {"join": " ".join(doc["runcmd"][0][:2])}
open(sys.argv[2], "w").write("#cloud-config\n" + yaml.safe_dump(doc))' "$WORK/worker.yaml" "$WORK/broken.yaml"
rc=0; schema "$WORK/broken.yaml" || rc=$?
check "broken user-data (runcmd as a map) fails cloud-init schema" [ "$rc" -ne 0 ]
assert_contains "cloud-init names the broken key" "$(cat "$WORK/schema.out")" "runcmd"
assert_eq "cloud-init schema left no state behind" "$CI_STATE_BEFORE" "$(cloud_init_state)"

# ---- the join token in runcmd -------------------------------------------------------------------
runcmd_arg() {  # FILE INDEX: an argument of the runcmd entry, as cloud-init loads it
  "$CI_PY" -c 'import sys; from cloudinit import util
print(util.load_yaml(open(sys.argv[1]).read())["runcmd"][0][int(sys.argv[2])])' "$1" "$2"
}
inspect_field() {  # TOKEN FIELD
  "$KKADM" token inspect -o json "$1" | python3 -c 'import json, sys
v = json.load(sys.stdin)[sys.argv[1]]; print(" ".join(v) if isinstance(v, list) else json.dumps(v).strip("\""))' "$2"
}
CA_PIN=$(cert_pin "$NODE_ROOT/etc/kubernetes/pki/ca.crt")
for name in worker control-plane; do
  token=$(runcmd_arg "$WORK/$name.yaml" 4)
  id=$(inspect_field "$token" tokenID)
  assert_eq "$name: token endpoint" "10.123.0.21:6443" "$(inspect_field "$token" endpoints)"
  assert_eq "$name: token pin" "$CA_PIN" "$(inspect_field "$token" caCertHashes)"
  assert_eq "$name: the token's Secret exists" "$id" \
    "$(k -n kube-system get secret "bootstrap-token-$id" -o jsonpath='{.data.token-id}' | base64 -d)"
  for usage in signing authentication; do
    assert_eq "$name: the token's usage $usage" true \
      "$(k -n kube-system get secret "bootstrap-token-$id" -o jsonpath="{.data.usage-bootstrap-$usage}" | base64 -d)"
  done
  assert_eq "$name: the token's group" system:bootstrappers:kubeadm:default-node-token \
    "$(k -n kube-system get secret "bootstrap-token-$id" -o jsonpath='{.data.auth-extra-groups}' | base64 -d)"
  assert_eq "$name: CRI socket (the node's annotation)" "unix:///var/run/containerd/containerd.sock" "$(runcmd_arg "$WORK/$name.yaml" 5)"
  assert_eq "$name: socket wait" 300 "$(runcmd_arg "$WORK/$name.yaml" 6)"
done
assert_eq "worker token: worker" false "$(inspect_field "$(runcmd_arg "$WORK/worker.yaml" 4)" controlPlane)"
assert_eq "control-plane token: control plane" true "$(inspect_field "$(runcmd_arg "$WORK/control-plane.yaml" 4)" controlPlane)"
assert_eq "kubeadm-certs Secret exists" kubeadm-certs "$(k -n kube-system get secret kubeadm-certs -o jsonpath='{.metadata.name}')"
assert_eq "kubeadm-certs owned by a bootstrap token Secret" "Secret:bootstrap-token-" \
  "$(k -n kube-system get secret kubeadm-certs -o jsonpath='{.metadata.ownerReferences[0].kind}:{.metadata.ownerReferences[0].name}' | cut -c1-23)"
node_stop

# ---- the runcmd script as cloud-init runs it ----------------------------------------------------
ETC_BEFORE=$(ls -la /etc/kubernetes 2>&1 || true)
# A user-data with a socket under $WORK; cloud-init's shellify makes the script it would run.
SOCK=$WORK/run/cri.sock
mkdir -p "$WORK/run" "$WORK/bin" "$WORK/fastbin"
"$CI_PY" -c '
import sys; from cloudinit import util
c = util.load_yaml(open(sys.argv[1]).read())
c["runcmd"][0][5] = "unix://" + sys.argv[2]
sys.stdout.write(util.shellify(c["runcmd"]))' "$WORK/worker.yaml" "$SOCK" >"$WORK/runcmd.sh"
TOKEN=$(runcmd_arg "$WORK/worker.yaml" 4)
cat > "$WORK/bin/kkadm" <<STUB
#!/bin/sh
# Records how the user-data ran kkadm.
printf '%s\n' "\$@" > "$WORK/kkadm.args"
cat > "$WORK/kkadm.stdin"
exit \${STUB_EXIT:-0}
STUB
chmod +x "$WORK/bin/kkadm"
printf '#!/bin/sh\nexit 0\n' >"$WORK/fastbin/sleep"  # 300 one-second waits, instantly
chmod +x "$WORK/fastbin/sleep"
run_user_data() {  # PATH-PREFIX [kubelet.conf]: runs runcmd.sh with /etc as a throwaway overlay
  mkdir -p "$WORK/etc-up" "$WORK/etc-work"
  rm -rf "$WORK/etc-up"/* "$WORK/kkadm.args" "$WORK/kkadm.stdin"
  echo "from the terminal" | unshare -m --propagation private sh -c '
    mount -t overlay overlay -o "lowerdir=/etc,upperdir=$1,workdir=$2" /etc || exit 99
    if [ "$4" = kubelet.conf ]; then mkdir -p /etc/kubernetes && echo joined >/etc/kubernetes/kubelet.conf
    else rm -f /etc/kubernetes/kubelet.conf; fi
    PATH="$3:/usr/sbin:/usr/bin:/sbin:/bin" exec sh "$5"' sh "$WORK/etc-up" "$WORK/etc-work" "$1" "${2:-}" "$WORK/runcmd.sh" \
    >"$WORK/run.out" 2>&1
}
rc=0; run_user_data "$WORK/bin:$WORK/fastbin" || rc=$?
assert_eq "no socket: exits 1 after the bounded wait ($(cat "$WORK/run.out"))" 1 "$rc"
assert_contains "no socket: says so" "$(cat "$WORK/run.out")" "[kkadm cloud-init] the container runtime socket $SOCK did not appear within 300 s"
check "no socket: kkadm was not run" test ! -e "$WORK/kkadm.args"
"$CI_PY" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$SOCK"
rc=0; run_user_data "$WORK/bin" || rc=$?
assert_eq "socket ready: exit code ($(cat "$WORK/run.out"))" 0 "$rc"
assert_eq "kkadm join <token> --cri-socket <socket>" "join $TOKEN --cri-socket unix://$SOCK" "$(tr '\n' ' ' <"$WORK/kkadm.args" | sed 's/ $//')"
assert_eq "kkadm join runs without standard input" "" "$(cat "$WORK/kkadm.stdin")"
assert_contains "logged to cloud-init's output" "$(cat "$WORK/run.out")" "[kkadm cloud-init] kkadm join succeeded"
rc=0; STUB_EXIT=3 run_user_data "$WORK/bin" || rc=$?
assert_eq "a failed join: kkadm's exit code" 3 "$rc"
assert_contains "a failed join is logged" "$(cat "$WORK/run.out")" "[kkadm cloud-init] kkadm join failed with exit code 3"
rc=0; run_user_data "$WORK/bin" kubelet.conf || rc=$?
assert_eq "already joined: exit 0" 0 "$rc"
assert_contains "already joined: says so" "$(cat "$WORK/run.out")" "this node has already joined"
check "already joined: kkadm was not run" test ! -e "$WORK/kkadm.args"
rc=0; run_user_data "$WORK/fastbin" || rc=$?
assert_eq "kkadm missing: exit 1" 1 "$rc"
assert_contains "kkadm missing: says so" "$(cat "$WORK/run.out")" "kkadm is not installed"
assert_eq "the machine's /etc was never touched" "$ETC_BEFORE" "$(ls -la /etc/kubernetes 2>&1 || true)"
finish
