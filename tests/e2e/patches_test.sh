#!/usr/bin/env bash
# kubeadm's --patches / patches.directory through the binary: `kkadm init` patches every target
# kubeadm patches (etcd, the three control-plane Pods, the KubeletConfiguration, the CoreDNS
# Deployment) with every patch type, in file-name order, printing kubeadm's [patches] lines; the
# patched manifests pass the independent schema validator and the real Debian etcd runs from the
# patched etcd.yaml (with the kkadm-made PKI) and honours the patch. A patch that does not apply,
# an unknown target or a missing directory is a one-line error naming the file, exit code 3, and
# nothing is written. The real etcd runs in a network namespace this script makes, with a
# blackhole route for its address in the root namespace; both are removed on exit.
source "$(dirname "$0")/lib/common.sh"
V=$KKADM_SOURCE_DIR/tests/validator
[ -d "$V/node_modules" ] || (cd "$V" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
ADV=192.0.2.31
NS=kkadm-patches-$$

cat > "$WORK/init.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration: {name: cp-1}
localAPIEndpoint: {advertiseAddress: $ADV}
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
networking: {podSubnet: 10.244.0.0/16}
CFG

# ---- the patch directory: every target, every type, two patches for one target -------------------
# kubeadm refuses --patches beside --config: a config file names the directory in patches.directory.
P=$WORK/patches
sed "s|^nodeRegistration:|patches: {directory: $P}\nnodeRegistration:|" "$WORK/init.yaml" > "$WORK/init-patched.yaml"
mkdir -p "$P/more"
cat > "$P/etcd.yaml" <<'EOF'
metadata:
  labels:
    patched-by: kkadm-e2e
EOF
# Go's flag parsing keeps the last value: etcd serves its metrics (and /health) on 23810 instead.
cat > "$P/etcd+json.yaml" <<'EOF'
- op: add
  path: /spec/containers/0/command/-
  value: --listen-metrics-urls=http://127.0.0.1:23810
EOF
cat > "$P/kube-apiserver0+merge.json" <<'EOF'
{"metadata": {"annotations": {"patched-first": "merge"}}}
EOF
cat > "$P/more/kube-apiserver1+json.json" <<'EOF'
[{"op": "add", "path": "/spec/containers/0/command/-", "value": "--audit-log-maxage=7"},
 {"op": "test", "path": "/metadata/annotations/patched-first", "value": "merge"}]
EOF
cat > "$P/kube-controller-manager.yaml" <<'EOF'
spec:
  containers:
  - name: kube-controller-manager
    resources:
      requests:
        cpu: 300m
EOF
printf 'metadata:\n  labels:\n    tier: patched\n---\nspec:\n  priority: 2000001000\n' > "$P/kube-scheduler.yaml"
printf 'maxPods: 77\nevictionHard:\n  memory.available: 7%%\n' > "$P/kubeletconfiguration.yaml"
printf 'spec:\n  replicas: 3\n' > "$P/corednsdeployment+merge.yaml"
echo "# notes" > "$P/README.md"

# ---- 1. init writes patched manifests -------------------------------------------------------------
R=$WORK/root
mkdir -p "$R"
SKIP=preflight,kubelet-start,wait-control-plane,upload-config,upload-certs,mark-control-plane,bootstrap-token,kubelet-finalize,addon,show-join-command
out=$("$KKADM" init --rootfs "$R" --config "$WORK/init-patched.yaml" --skip-phases=$SKIP 2>&1) ||
  fail "init with patches failed: $out"
assert_eq "the patch directory is described once" 1 "$(grep -c '^\[patches\] Reading patches from path' <<<"$out")"
assert_contains "kubeadm's reading line" "$out" "[patches] Reading patches from path \"$P\""
assert_contains "kubeadm's ignored-file note" "$out" \
  "[patches] Ignoring file \"README.md\": the file extension must be one of [json yaml]"
assert_contains "patch files in kubeadm's walk order" "$out" \
  "[patches] Found the following patch files: [corednsdeployment+merge.yaml etcd+json.yaml etcd.yaml kube-apiserver0+merge.json kube-controller-manager.yaml kube-scheduler.yaml kubeletconfiguration.yaml kube-apiserver1+json.json]"
for line in \
  'Applied patch of type "application/json-patch+json" to target "etcd"' \
  'Applied patch of type "application/strategic-merge-patch+json" to target "etcd"' \
  'Applied patch of type "application/merge-patch+json" to target "kube-apiserver"' \
  'Applied patch of type "application/json-patch+json" to target "kube-apiserver"' \
  'Applied patch of type "application/strategic-merge-patch+json" to target "kube-controller-manager"'; do
  assert_contains "[patches] $line" "$out" "[patches] $line"
done
# Two documents in kube-scheduler.yaml: two patches applied.
assert_eq "one line per scheduler patch document" 2 \
  "$(grep -c 'Applied patch of type "application/strategic-merge-patch+json" to target "kube-scheduler"' <<<"$out")"

M=$R/etc/kubernetes/manifests
for m in etcd kube-apiserver kube-controller-manager kube-scheduler; do
  res=$(node "$V/validate.js" "$M/$m.yaml" 2>&1) && pass || fail "patched $m.yaml: $res"
done
assert_contains "etcd label" "$(cat "$M/etcd.yaml")" "patched-by: kkadm-e2e"
assert_contains "apiserver merge patch" "$(cat "$M/kube-apiserver.yaml")" "patched-first: merge"
assert_contains "apiserver JSON patch after the merge patch" "$(cat "$M/kube-apiserver.yaml")" "- --audit-log-maxage=7"
assert_contains "controller-manager container merged by name" "$(cat "$M/kube-controller-manager.yaml")" "cpu: 300m"
assert_contains "controller-manager keeps its image" "$(cat "$M/kube-controller-manager.yaml")" "image: registry.k8s.io/kube-controller-manager:"
assert_contains "scheduler document 1" "$(cat "$M/kube-scheduler.yaml")" "tier: patched"
assert_contains "scheduler document 2" "$(cat "$M/kube-scheduler.yaml")" "priority: 2000001000"

# ---- 2. the real etcd runs from the patched manifest ----------------------------------------------
# The container command, one argument per line, with the node paths moved under the root.
mapfile -t cmd < <(awk '/^  - command:/ {on=1; next} on && /^    - / {sub(/^    - /, ""); print; next} on {exit}' "$M/etcd.yaml")
[ "${cmd[0]:-}" = etcd ] || { fail "etcd.yaml has no etcd command: ${cmd[*]}"; finish; exit 1; }
args=()
for arg in "${cmd[@]:1}"; do
  if [[ $arg =~ ^(--[a-z-]+)=(/.*)$ ]]; then arg="${BASH_REMATCH[1]}=$R${BASH_REMATCH[2]}"; fi
  args+=("$arg")
done
mkdir -p "$R/var/lib/etcd" && chmod 0700 "$R/var/lib/etcd"
ip netns add "$NS"
on_exit "ip netns del $NS"
ip -n "$NS" link set lo up
ip -n "$NS" addr add "$ADV/32" dev lo
ip route add blackhole "$ADV/32"
on_exit "ip route del blackhole $ADV/32"
ip netns exec "$NS" etcd "${args[@]}" >"$WORK/etcd.log" 2>&1 &
ETCD_PID=$!
on_exit "kill -KILL $ETCD_PID; wait $ETCD_PID"
PKI=$R/etc/kubernetes/pki/etcd
healthy() {
  ip netns exec "$NS" curl -sS --max-time 2 --cacert "$PKI/ca.crt" --cert "$PKI/healthcheck-client.crt" \
    --key "$PKI/healthcheck-client.key" "https://$ADV:2379/health" 2>/dev/null | grep -q '"health":"true"'
}
for _ in $(seq 100); do healthy && break; kill -0 $ETCD_PID 2>/dev/null || break; sleep 0.2; done
check "the real etcd serves from the patched manifest (log: $(tail -5 "$WORK/etcd.log"))" healthy
assert_contains "the patched metrics listener answers" \
  "$(ip netns exec "$NS" curl -sS --max-time 3 http://127.0.0.1:23810/health 2>&1)" '"health":"true"'
check "the unpatched metrics port is not served" \
  bash -c "! ip netns exec $NS curl -sS --max-time 2 http://127.0.0.1:2381/health >/dev/null 2>&1"

# ---- 3. kubelet-start patches the KubeletConfiguration (dry-run: no systemd needed) ---------------
D=$WORK/dry
mkdir -p "$D"
# Flags alone this time: --patches.
out=$(KKADM_INIT_DRYRUN_DIR=$D "$KKADM" init phase kubelet-start --rootfs "$R" --node-name cp-1 \
  --patches "$P" --dry-run 2>&1) || fail "kubelet-start --patches --dry-run failed: $out"
assert_contains "kubeletconfiguration patched" "$out" \
  '[patches] Applied patch of type "application/strategic-merge-patch+json" to target "kubeletconfiguration"'
K=$D/var/lib/kubelet/config.yaml
assert_contains "maxPods from the patch" "$(cat "$K" 2>&1)" "maxPods: 77"
assert_contains "evictionHard from the patch" "$(cat "$K" 2>&1)" "memory.available: 7%"
res=$(node "$V/validate.js" "$K" 2>&1) && pass || fail "patched KubeletConfiguration: $res"

# ---- 4. the CoreDNS Deployment is patched (patches.directory from the config file) ----------------
out=$("$KKADM" init phase addon coredns --print-manifest --rootfs "$R" --config "$WORK/init-patched.yaml" 2>&1) ||
  fail "addon coredns --print-manifest failed: $out"
assert_contains "corednsdeployment patched" "$out" \
  '[patches] Applied patch of type "application/merge-patch+json" to target "corednsdeployment"'
assert_contains "the printed Deployment has the patched replicas" "$out" "replicas: 3"

# ---- 5. bad patches: one line naming the file, exit 3, nothing written -----------------------------
expect_refused() {  # what patches-dir expected-message
  local what=$1 patches=$2 want=$3 root=$WORK/refused-$RANDOM rc=0 before err
  mkdir -p "$root"
  before=$(tree_fingerprint "$root")
  "$KKADM" init --rootfs "$root" --kubernetes-version v1.32.0 --node-name cp-1 \
    --apiserver-advertise-address "$ADV" --patches "$patches" >/dev/null 2>"$WORK/refused.err" || rc=$?
  err=$(cat "$WORK/refused.err")
  assert_eq "$what: exit code" 3 "$rc"
  assert_eq "$what: one line on stderr ($err)" 1 "$(wc -l <<<"$err")"
  assert_contains "$what: message" "$err" "$want"
  assert_eq "$what: nothing written" "$before" "$(tree_fingerprint "$root")"
}
B=$WORK/bad
mkdir -p "$B"
printf -- '- {op: replace, path: /spec/noSuchField, value: 1}\n' > "$B/kube-apiserver+json.yaml"
expect_refused "a JSON patch that does not apply" "$B" \
  "error execution phase control-plane/apiserver: patching the \"kube-apiserver\" manifest: $B/kube-apiserver+json.yaml: invalid JSON patch: operation 1 (\"replace\" /spec/noSuchField): path not found"
# Only the phases that run are checked: etcd alone does not patch kube-apiserver.
R3=$WORK/etcd-only
mkdir -p "$R3"
sed "s|^nodeRegistration:|patches: {directory: $B}\nnodeRegistration:|" "$WORK/init.yaml" > "$WORK/init-bad.yaml"
out=$("$KKADM" init phase etcd local --rootfs "$R3" --config "$WORK/init-bad.yaml" 2>&1) ||
  fail "etcd local with an unrelated bad patch failed: $out"
check "etcd.yaml written" test -s "$R3/etc/kubernetes/manifests/etcd.yaml"
# As kubeadm, a phase that patches nothing never reads the directory: certs alone works with a
# patches.directory that does not exist.
sed "s|^nodeRegistration:|patches: {directory: $WORK/no-such-dir}\nnodeRegistration:|" "$WORK/init.yaml" > "$WORK/init-missing.yaml"
mkdir -p "$WORK/certs-only"
out=$("$KKADM" init phase certs all --rootfs "$WORK/certs-only" --config "$WORK/init-missing.yaml" 2>&1) ||
  fail "certs with a missing patches directory failed: $out"
B2=$WORK/bad-kubelet
mkdir -p "$B2"
printf 'maxPods: [1, 2]\n---\n- not a map\n' > "$B2/kubeletconfiguration.yaml"
expect_refused "a kubelet patch that does not apply" "$B2" "$B2/kubeletconfiguration.yaml"
B3=$WORK/bad-target
mkdir -p "$B3"
echo 'a: b' > "$B3/kube-proxy.yaml"
expect_refused "an unknown target" "$B3" "$B3/kube-proxy.yaml: unknown patch target \"kube-proxy\""
expect_refused "a missing directory" "$WORK/no-such-dir" \
  "could not list patch files for path \"$WORK/no-such-dir\": No such file or directory"
finish
