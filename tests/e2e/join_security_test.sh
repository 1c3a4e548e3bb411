#!/usr/bin/env bash
# `kkadm join`'s trust checks against a real `kkadm init` on a sandbox node (lib/sandbox_node.sh):
# a joiner with its own empty --rootfs, in the node's network namespace, is given a wrong CA pin, a
# tampered cluster-info signature, an expired token and a truncated token. Each must fail naming the
# cause, write nothing, and - by the stand-in API server's audit log - send no credential (only
# anonymous GETs of cluster-info, or nothing at all for the truncated token). Then a real join that
# stops before kubelet-start reads the cluster's configuration with the bootstrap token, only after
# the anonymous cluster-info requests, and writes nothing; a --dry-run join goes through kubelet-start.
# (A full worker join needs a second node with its own systemd: the multi-node test does that.)
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"
source "$(dirname "$0")/lib/pki.sh"

node_boot node-1 10.123.0.11
AUDIT=$NODE_DIR/logs/audit.log
{ node_init_config; cat <<CFG; } > "$WORK/init.yaml"
bootstrapTokens:
- token: abcdef.0123456789abcdef
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
encryptionAlgorithm: ECDSA-P256
apiServer:
  extraArgs:
  - name: sandbox-audit-log
    value: $AUDIT
CFG
node_init "$WORK/init.yaml"

ADMIN=$NODE_ROOT/etc/kubernetes/admin.conf
k() { node_exec kubectl --kubeconfig "$ADMIN" "$@"; }
PIN=$(cert_pin "$NODE_ROOT/etc/kubernetes/pki/ca.crt")
make_token() { python3 "$KKADM_SOURCE_DIR/tests/e2e/lib/join_token.py" --endpoint 10.123.0.11:6443 "$@"; }
TOKEN=$(make_token --token abcdef.0123456789abcdef --pin "$PIN")

JOINER=$WORK/joiner
mkdir -p "$JOINER"
# The joiner: kkadm with its own empty rootfs, in the node's network namespace.
joiner() {
  local rc=0
  node_exec "$KKADM" --rootfs "$JOINER" join "$@" >"$WORK/join.out" 2>"$WORK/join.err" || rc=$?
  echo "$rc"
}
audit_mark() { [ -f "$AUDIT" ] && wc -l < "$AUDIT" || echo 0; }
# What a joiner may have sent since line N of the audit log: every request that was not
# authenticated, and every one made as a bootstrap token ("<user> <method> <path>").
joiner_requests() {
  tail -n +$(( $1 + 1 )) "$AUDIT" | python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    if not e["authenticated"] or e["user"].startswith("system:bootstrap:"):
        print(e["user"] or "<failed authentication>", e["method"], e["path"].split("?")[0])'
}
CLUSTER_INFO=/api/v1/namespaces/kube-public/configmaps/cluster-info
only_anonymous_cluster_info() {  # what requests
  local other
  other=$(echo "$2" | grep -v "^system:anonymous GET $CLUSTER_INFO\$" | grep . || true)
  assert_eq "$1: nothing but anonymous GETs of cluster-info reached the API server" "" "$other"
}
rootfs_untouched() { assert_eq "$1: the joiner's rootfs stays empty" "" "$(find "$JOINER" -mindepth 1 | head -3)"; }
one_error_line() { assert_eq "$1: one error line ($(cat "$WORK/join.err"))" 1 "$(grep -c . "$WORK/join.err")"; }
IGNORE=(--ignore-preflight-errors all --node-name joiner-1)

# 1. A wrong CA pin: the pin of some other key.
openssl ecparam -name prime256v1 -genkey -noout -out "$WORK/other.key"
openssl req -x509 -new -key "$WORK/other.key" -subj /CN=other -days 1 -out "$WORK/other.crt"
mark=$(audit_mark)
rc=$(joiner "$(make_token --token abcdef.0123456789abcdef --pin "$(cert_pin "$WORK/other.crt")")" "${IGNORE[@]}")
assert_eq "wrong pin: exit code" 1 "$rc"
one_error_line "wrong pin"
assert_contains "wrong pin: message" "$(cat "$WORK/join.err")" \
  "couldn't validate the identity of the API Server: cluster CA found in cluster-info ConfigMap is invalid: none of the public keys \"$PIN\" are pinned"
sent=$(joiner_requests "$mark")
assert_contains "wrong pin: cluster-info was read" "$sent" "system:anonymous GET $CLUSTER_INFO"
only_anonymous_cluster_info "wrong pin" "$sent"
rootfs_untouched "wrong pin"

# 2. A tampered signature: the controller-manager (which would re-sign at once) is stopped, and the
#    admin rewrites the token's JWS in cluster-info.
mv "$NODE_ROOT/etc/kubernetes/manifests/kube-controller-manager.yaml" "$WORK/"
for _ in $(seq 1 100); do pgrep -f "controller_manager.py.*$NODE_ROOT" >/dev/null || break; sleep 0.1; done
check "the controller-manager stopped" test -z "$(pgrep -f "controller_manager.py.*$NODE_ROOT" || true)"
GOOD=$(k -n kube-public get cm cluster-info -o jsonpath='{.data.jws-kubeconfig-abcdef}')
BAD=${GOOD%????}AAAA; [ "$BAD" != "$GOOD" ] || BAD=${GOOD%????}BBBB
k -n kube-public patch cm cluster-info --type merge -p "{\"data\":{\"jws-kubeconfig-abcdef\":\"$BAD\"}}" >/dev/null
mark=$(audit_mark)
rc=$(joiner "$TOKEN" "${IGNORE[@]}")
assert_eq "tampered signature: exit code" 1 "$rc"
one_error_line "tampered signature"
assert_contains "tampered signature: message" "$(cat "$WORK/join.err")" \
  "the signature for token ID \"abcdef\" does not match the cluster-info kubeconfig"
assert_not_contains "tampered signature: the secret is not shown" "$(cat "$WORK/join.out" "$WORK/join.err")" "0123456789abcdef"
only_anonymous_cluster_info "tampered signature" "$(joiner_requests "$mark")"
rootfs_untouched "tampered signature"
mv "$WORK/kube-controller-manager.yaml" "$NODE_ROOT/etc/kubernetes/manifests/"
for _ in $(seq 1 100); do
  [ "$(k -n kube-public get cm cluster-info -o jsonpath='{.data.jws-kubeconfig-abcdef}')" = "$GOOD" ] && break; sleep 0.2
done
assert_eq "the restarted controller-manager signs cluster-info again" "$GOOD" \
  "$(k -n kube-public get cm cluster-info -o jsonpath='{.data.jws-kubeconfig-abcdef}')"

# 3. An expired token (kubeadm's flag form with a config file, for a short discovery timeout).
k -n kube-system create secret generic bootstrap-token-exp123 --type bootstrap.kubernetes.io/token \
  --from-literal=token-id=exp123 --from-literal=token-secret=0123456789abcdef \
  --from-literal=expiration=2020-01-01T00:00:00Z --from-literal=usage-bootstrap-authentication=true \
  --from-literal=usage-bootstrap-signing=true >/dev/null
cat > "$WORK/join-expired.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
discovery:
  bootstrapToken:
    token: exp123.0123456789abcdef
    apiServerEndpoint: 10.123.0.11:6443
    caCertHashes: [$PIN]
nodeRegistration:
  name: joiner-1
  ignorePreflightErrors: [all]
timeouts:
  discovery: 3s
CFG
mark=$(audit_mark)
start=$(date +%s)
rc=$(joiner --config "$WORK/join-expired.yaml")
assert_eq "expired token: exit code" 1 "$rc"
one_error_line "expired token"
assert_contains "expired token: message" "$(cat "$WORK/join.err")" \
  "token id \"exp123\" is invalid for this cluster or it has expired. Use \"kkadm token create\" on the control-plane node to create a new valid token"
assert_contains "expired token: the wait is explained at once" "$(cat "$WORK/join.out")" \
  "[discovery] The cluster-info ConfigMap has no JWS signature for token ID \"exp123\" yet"
check "expired token: gave up after the discovery timeout ($(( $(date +%s) - start )) s)" test $(( $(date +%s) - start )) -le 10
only_anonymous_cluster_info "expired token" "$(joiner_requests "$mark")"
rootfs_untouched "expired token"

# 4. A truncated token: refused before any network traffic.
mark=$(audit_mark)
rc=$(joiner "${TOKEN:0:60}" "${IGNORE[@]}")
assert_eq "truncated token: exit code" 3 "$rc"
one_error_line "truncated token"
assert_contains "truncated token: message" "$(cat "$WORK/join.err")" "invalid join token"
assert_eq "truncated token: no output" "" "$(cat "$WORK/join.out")"
assert_eq "truncated token: nothing reached the API server" "" "$(joiner_requests "$mark")"
rootfs_untouched "truncated token"

# 5. A good token, up to (not including) kubelet-start: the configuration is read with the token,
#    after the anonymous, verified discovery; nothing is written.
mark=$(audit_mark)
rc=$(joiner "$TOKEN" --skip-phases kubelet-start "${IGNORE[@]}")
assert_eq "good token: exit code ($(cat "$WORK/join.err"))" 0 "$rc"
OUT=$(cat "$WORK/join.out")
assert_contains "good token: config read" "$OUT" "[preflight] Reading configuration from the cluster..."
assert_contains "good token: honest ending" "$OUT" "kubelet-start was skipped: this node has not joined the cluster yet"
sent=$(joiner_requests "$mark")
assert_eq "good token: what was sent, in order" "system:anonymous GET $CLUSTER_INFO
system:anonymous GET $CLUSTER_INFO
system:bootstrap:abcdef GET /api/v1/namespaces/kube-system/configmaps/kubeadm-config
system:bootstrap:abcdef GET /api/v1/namespaces/kube-system/configmaps/kubelet-config
system:bootstrap:abcdef GET /api/v1/nodes/joiner-1" "$sent"
rootfs_untouched "good token"

# 6. The same join as a dry run goes through kubelet-start into a temporary directory.
export KKADM_JOIN_DRYRUN_DIR=$WORK/dry
rc=$(joiner "$TOKEN" --dry-run "${IGNORE[@]}")
unset KKADM_JOIN_DRYRUN_DIR
assert_eq "dry run: exit code ($(cat "$WORK/join.err"))" 0 "$rc"
check "dry run: the kubelet's config was written to the dry-run directory" test -s "$WORK/dry/var/lib/kubelet/config.yaml"
assert_contains "dry run: the cluster's kubelet configuration" "$(cat "$WORK/dry/var/lib/kubelet/config.yaml")" "clusterDNS"
check "dry run: the bootstrap credential was removed again" test ! -e "$WORK/dry/etc/kubernetes/bootstrap-kubelet.conf"
check "dry run: the CA was written" cmp -s "$WORK/dry/etc/kubernetes/pki/ca.crt" "$NODE_ROOT/etc/kubernetes/pki/ca.crt"
rootfs_untouched "dry run"

node_stop
finish
