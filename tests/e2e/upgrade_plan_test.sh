#!/usr/bin/env bash
# `kkadm upgrade plan` against a sandbox cluster that kkadm initialised at the previous minor
# (v1.31.4; kkadm's own is v1.32.0), offline ($KKADM_RELEASE_URL is a closed port): kkadm's own
# version is the target, the text tables and the UpgradePlan document (read by python3) list the
# cluster's components, and kubeadm's version skew policy refuses two minors up, a version newer
# than kkadm and a kubelet four minors behind, each on one line with exit code 1.
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (systemd, network namespaces)"; exit 77; }
source "$(dirname "$0")/lib/sandbox_node.sh"

node_boot node-1 10.123.0.41
R=$(node_root node-1)
{ node_init_config; cat <<CFG; } > "$WORK/init.yaml"
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.31.4
CFG
node_init "$WORK/init.yaml"
ADMIN=$R/etc/kubernetes/admin.conf
k() { node_exec_on node-1 kubectl --kubeconfig "$ADMIN" "$@"; }
plan() { node_kkadm upgrade plan "$@"; }

# kubeadm reads the control plane's versions from the kubelet's mirror Pods: none yet (the
# stand-in kubelet does not make them), so the plan cannot be made.
rc=0; out=$(plan 2>&1) || rc=$?
assert_eq "no mirror Pods: exit code" 1 "$rc"
assert_contains "no mirror Pods: error" "$out" 'error: cannot find pods for component "kube-apiserver"'

# The mirror Pods the real kubelet would post for the node's static Pods.
for c in etcd kube-apiserver kube-controller-manager kube-scheduler; do
  python3 - "$R/etc/kubernetes/manifests/$c.yaml" > "$WORK/$c-mirror.json" <<'PY'
import json, sys, yaml
pod = yaml.safe_load(open(sys.argv[1]))
pod["metadata"]["name"] += "-node-1"
pod["spec"]["nodeName"] = "node-1"
print(json.dumps(pod))
PY
  out=$(k create -f - < "$WORK/$c-mirror.json" 2>&1) || fail "mirror Pod $c: $out"
done

rc=0; out=$(plan 2>&1) || rc=$?
assert_eq "plan exit code (output: $out)" 0 "$rc"
for line in '[upgrade/versions] Cluster version: v1.31.4' '[upgrade/versions] kkadm version: v1.32.0' \
  'could not fetch a Kubernetes version from the internet' '[upgrade/versions] Latest stable version: v1.32.0' \
  'Upgrade to the latest stable version:' \
  "$(printf 'You can now apply the upgrade by executing the following command:\n\n\tkkadm upgrade apply v1.32.0')" \
  'kubeproxy.config.k8s.io'; do
  assert_contains "plan output" "$out" "$line"
done
check "kube-apiserver row" grep -Eq '^kube-apiserver +node-1 +v1\.31\.4 +v1\.32\.0$' <<<"$out"
# The etcd kkadm ran for v1.31.4 (its manifest's tag), and the one kubeadm 1.32 pairs with v1.32.0.
ETCD_TAG=$(sed -n 's|.*image: .*/etcd:\([^ "]*\).*|\1|p' "$R/etc/kubernetes/manifests/etcd.yaml")
check "etcd row" grep -Eq "^etcd +node-1 +$ETCD_TAG +3\.5\.16-0$" <<<"$out"
check "kube-proxy row (no node)" grep -Eq '^kube-proxy +v1\.31\.4 +v1\.32\.0$' <<<"$out"
check "CoreDNS row" grep -Eq '^CoreDNS +v1\.11\.[0-9]+ +v1\.11\.3$' <<<"$out"
# The stand-in kubelet reports v1.32.0: no kubelet to upgrade, no table for them.
assert_not_contains "no kubelet table" "$out" "Components that must be upgraded manually"
assert_not_contains "no kubeadm command suggested" "$out" "kubeadm upgrade apply"

# -o json: the UpgradePlan document alone on stdout.
rc=0; node_kkadm upgrade plan -o json > "$WORK/plan.json" 2>"$WORK/plan.err" || rc=$?
assert_eq "json exit code ($(cat "$WORK/plan.err"))" 0 "$rc"
summary=$(python3 - "$WORK/plan.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["apiVersion"] == "output.kubeadm.k8s.io/v1alpha3" and doc["kind"] == "UpgradePlan", doc
(up,) = doc["availableUpgrades"]
print(up["description"])
for c in up["components"]:
    print(c["name"], c.get("nodeName", "-"), c["currentVersion"], c["newVersion"])
print(" ".join(sorted(g["group"] for g in doc["configVersions"])))
PY
) || fail "plan.json is no UpgradePlan: $(head -c 400 "$WORK/plan.json")"
for row in 'stable version' 'kubelet node-1 v1.32.0 v1.32.0' 'kube-apiserver node-1 v1.31.4 v1.32.0' \
  'kube-controller-manager node-1 v1.31.4 v1.32.0' 'kube-scheduler node-1 v1.31.4 v1.32.0' \
  'kube-proxy - v1.31.4 v1.32.0' 'kubeadm - v1.32.0 v1.32.0' "etcd node-1 $ETCD_TAG 3.5.16-0" \
  'kubelet.config.k8s.io kubeproxy.config.k8s.io'; do
  assert_contains "json components" "$summary" "$row"
done
assert_contains "json: progress on stderr" "$(cat "$WORK/plan.err")" "[upgrade/versions] Cluster version: v1.31.4"
out=$(node_kkadm upgrade plan -o yaml 2>/dev/null) || fail "yaml plan failed"
assert_contains "yaml document" "$out" "kind: UpgradePlan"

# --etcd-upgrade=false: no etcd rows.
out=$(node_kkadm upgrade plan -o json --etcd-upgrade=false 2>/dev/null) || fail "--etcd-upgrade=false failed"
assert_not_contains "no etcd rows" "$out" '"etcd"'

refused() {  # WHAT EXPECTED-MESSAGE ARGS...
  local what=$1 want=$2 rc=0 out; shift 2
  out=$(plan "$@" 2>&1) || rc=$?
  assert_eq "$what: exit code" 1 "$rc"
  assert_contains "$what: message" "$out" "$want"
  assert_eq "$what: one error line" 1 "$(grep -c '^error:' <<<"$out")"
  assert_not_contains "$what: no table" "$out" "COMPONENT"
}
refused "two minors up" 'Specified version to upgrade to "v1.34.0" is too high; kkadm can upgrade only 1 minor version at a time' v1.34.0
refused "newer minor than kkadm" 'is at least one minor release higher than the kkadm minor release (33 > 32). Such an upgrade is not supported' v1.33.0
refused "newer patch than kkadm" 'is higher than the kkadm version "v1.32.0". Upgrade kkadm first' v1.32.5
out=$(plan v1.32.5 --force 2>&1) || fail "--force did not bypass the skippable error: $out"
assert_contains "forced plan" "$out" "kkadm upgrade apply v1.32.5"
refused "downgrade" 'kkadm version v1.32.0 can only be used to upgrade to Kubernetes version 1.32' v1.31.2

# A Node whose kubelet is four minors behind the target.
k create -f - >/dev/null <<'NODE' || fail "cannot create Node old-1"
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "old-1"}}
NODE
old_kubelet() {  # VERSION: old-1's status is node-1's, with another kubelet version
  k get node node-1 -o json | python3 -c '
import json, sys
info = json.load(sys.stdin)["status"]["nodeInfo"]
info["kubeletVersion"] = sys.argv[1]
print(json.dumps({"status": {"nodeInfo": info}}))' "$1" > "$WORK/old-status.json"
  k patch node old-1 --subresource=status --type=merge --patch-file "$WORK/old-status.json" >/dev/null
}
old_kubelet v1.28.9 || fail "cannot set old-1's kubelet version"
assert_eq "old-1's kubelet version" v1.28.9 "$(k get node old-1 -o jsonpath='{.status.nodeInfo.kubeletVersion}')"
refused "kubelet 4 minors behind" 'There are kubelets in this cluster that are too old that have these versions [v1.28.9]'
# Three minors behind is allowed, and the kubelet table appears.
old_kubelet v1.29.0 || fail "cannot set old-1's kubelet version to v1.29.0"
out=$(plan 2>&1) || fail "kubelet 3 minors behind refused: $out"
assert_contains "kubelet table" "$out" "Components that must be upgraded manually after you have upgraded the control plane with 'kkadm upgrade apply':"
check "old-1 kubelet row" grep -Eq '^kubelet +old-1 +v1\.29\.0 +v1\.32\.0$' <<<"$out"

finish
