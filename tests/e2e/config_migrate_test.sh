#!/usr/bin/env bash
# `kkadm config migrate` and `kkadm config print reset-defaults|upgrade-defaults`: every
# kubeadm.k8s.io/v1beta3 file of the test corpus (and a file using every v1beta3 field kkadm reads)
# migrates to v1beta4 documents that `kkadm config validate` accepts and that keep every value of
# the old file, field by field (extraArgs maps as name/value lists sorted by name, the v1beta3
# timeouts in `timeouts`), with kubeadm's defaults filled and component configs dropped. Bad input
# is one line naming the file or field, and --new-config is not written.
source "$(dirname "$0")/lib/common.sh"

SRC=$KKADM_SOURCE_DIR
RICH=$WORK/rich_v1beta3.yaml
cat > "$RICH" <<'CFG'
apiVersion: kubeadm.k8s.io/v1beta3
kind: InitConfiguration
bootstrapTokens:
- token: abcdef.0123456789abcdef
  description: migrate test
  ttl: 2h0m0s
  usages: [signing, authentication]
  groups: [system:bootstrappers:kubeadm:default-node-token]
nodeRegistration:
  name: cp-1
  criSocket: unix:///run/containerd/containerd.sock
  taints:
  - key: dedicated
    value: infra
    effect: NoSchedule
  kubeletExtraArgs:
    max-pods: "50"
    cgroup-driver: systemd
  ignorePreflightErrors: [swap]
  imagePullPolicy: Always
localAPIEndpoint:
  advertiseAddress: 192.0.2.30
  bindPort: 6444
certificateKey: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
skipPhases: [addon/kube-proxy]
---
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
clusterName: prod
controlPlaneEndpoint: cp.example.internal:6444
certificatesDir: /etc/kubernetes/pki-prod
imageRepository: registry.example.internal/k8s
networking:
  serviceSubnet: 10.100.0.0/16
  podSubnet: 10.244.0.0/16
  dnsDomain: corp.local
etcd:
  local:
    dataDir: /var/lib/etcd-data
    extraArgs:
      snapshot-count: "5000"
      heartbeat-interval: "250"
    serverCertSANs: [etcd.example.internal]
    peerCertSANs: [10.0.0.9]
apiServer:
  timeoutForControlPlane: 3m30s
  certSANs: [api.example.internal]
  extraArgs:
    audit-log-path: /var/log/audit.log
    anonymous-auth: "false"
  extraVolumes:
  - name: audit
    hostPath: /var/log/audit
    mountPath: /var/log/audit
    readOnly: true
    pathType: DirectoryOrCreate
controllerManager:
  extraArgs:
    node-cidr-mask-size: "24"
    bind-address: 0.0.0.0
scheduler:
  extraArgs:
    bind-address: 0.0.0.0
dns:
  imageRepository: registry.example.internal/coredns
  imageTag: v1.11.3
---
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
CFG

# Every value of OLD (kubeadm kinds) is in NEW at its v1beta4 place; NEW has the v1beta4 defaults.
compare() {
  python3 - "$1" "$2" <<'PY'
import re, sys, yaml
old = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
new = [d for d in yaml.safe_load_all(open(sys.argv[2])) if d]
kinds = {d["kind"]: d for d in new}
problems = []
def dur(s):  # Go duration -> seconds
    total, n = 0.0, 0
    for num, unit in re.findall(r"([0-9.]+)(h|ms|m|s)", s):
        total += float(num) * {"h": 3600, "m": 60, "s": 1, "ms": 0.001}[unit]
    return total
def get(doc, path):
    for p in path:
        if isinstance(doc, dict) and p in doc: doc = doc[p]
        elif isinstance(doc, list) and isinstance(p, int) and p < len(doc): doc = doc[p]
        else: raise KeyError("/".join(map(str, path)))
    return doc
def same(a, b, path):
    if isinstance(a, str) and re.fullmatch(r"([0-9.]+(h|ms|m|s))+", a):
        return isinstance(b, str) and dur(a) == dur(b)
    if path[-1] == "kubernetesVersion" and not a.startswith("v"):  # a label: looked up
        return re.fullmatch(r"v1\.\d+\.\d+", b) is not None
    if "caCertHashes" in path:  # hex digits, lower-cased as kubeadm's pin set compares them
        return [h.lower() for h in a] == b
    return a == b
def walk(kind, value, path):
    if isinstance(value, dict) and path and path[-1] in ("extraArgs", "kubeletExtraArgs"):
        try: got = get(kinds[kind], path)
        except KeyError as e: problems.append(f"{kind}: {e} missing"); return
        names = [a["name"] for a in got]
        if names != sorted(names): problems.append(f"{kind}: {path} not sorted: {names}")
        want = [{"name": k, "value": str(v)} for k, v in sorted(value.items())]
        if got != want: problems.append(f"{kind}: {path}: {got} != {want}")
        return
    if isinstance(value, dict):
        for k, v in value.items(): walk(kind, v, path + [k])
        return
    if isinstance(value, list) and value and isinstance(value[0], dict):
        for i, v in enumerate(value): walk(kind, v, path + [i])
        return
    moved = {("ClusterConfiguration", "apiServer", "timeoutForControlPlane"):
                 ("InitConfiguration", ["timeouts", "controlPlaneComponentHealthCheck"]),
             ("JoinConfiguration", "discovery", "timeout"): ("JoinConfiguration", ["timeouts", "discovery"])}
    to_kind, to_path = moved.get(tuple([kind] + path), (kind, path))
    if path in (["apiVersion"], ["kind"]): return
    try: got = get(kinds[to_kind], to_path)
    except KeyError as e: problems.append(f"{to_kind}: {e} missing (was {kind} {path}={value!r})"); return
    if not same(value, got, to_path): problems.append(f"{to_kind} {to_path}: {got!r} != old {value!r}")
for d in old:
    if not d["apiVersion"].startswith("kubeadm.k8s.io/"): continue
    kind = d["kind"]
    if kind == "ClusterConfiguration" and "InitConfiguration" not in kinds: problems.append("no InitConfiguration")
    walk(kind, d, [])
for k, d in kinds.items():
    if d["apiVersion"] != "kubeadm.k8s.io/v1beta4": problems.append(f"{k}: apiVersion {d['apiVersion']}")
    if k in ("InitConfiguration", "JoinConfiguration") and sorted(d.get("timeouts", {})) != sorted(
        ["controlPlaneComponentHealthCheck", "kubeletHealthCheck", "kubernetesAPICall", "etcdAPICall",
         "tlsBootstrap", "discovery", "upgradeManifests"]): problems.append(f"{k}: timeouts not filled")
    if k in ("InitConfiguration", "JoinConfiguration") and d["nodeRegistration"].get("imagePullSerial") is not True:
        problems.append(f"{k}: imagePullSerial not defaulted")
    if k == "ClusterConfiguration":
        for f in ("encryptionAlgorithm", "certificateValidityPeriod", "caCertificateValidityPeriod"):
            if f not in d: problems.append(f"ClusterConfiguration: {f} not defaulted")
    if k not in ("InitConfiguration", "ClusterConfiguration", "JoinConfiguration", "ResetConfiguration"):
        problems.append(f"unexpected kind {k} (component configs are dropped)")
for p in problems: print(p)
sys.exit(1 if problems else 0)
PY
}

# --- every v1beta3 file of the corpus, and the rich one ---
files=$(grep -l 'kubeadm.k8s.io/v1beta3' "$SRC"/tests/config/testdata/*.yaml \
  "$SRC"/tests/fuzz/corpus/config_decode/*.yaml)
[ "$(wc -w <<<"$files")" -ge 2 ] && pass || fail "the corpus has no v1beta3 files: $files"
for f in $files "$RICH"; do
  n=$(basename "$f" .yaml)-$RANDOM; out=$WORK/$n.new.yaml
  err=$("$KKADM" config migrate --old-config "$f" --new-config "$out" 2>&1 >/dev/null) ||
    { fail "$f: migrate failed: $err"; continue; }
  check "$f: --new-config is 0644" test "$(stat -c %a "$out")" = 644
  res=$("$KKADM" config validate --config "$out" 2>&1) && assert_eq "$f: validate" ok "$(tail -1 <<<"$res")" ||
    fail "$f: the migrated file does not validate: $res"
  res=$(compare "$f" "$out") && pass || fail "$f: values not kept: $res"
  # Without --new-config the same documents go to stdout (a fresh token aside).
  "$KKADM" config migrate --old-config "$f" >"$WORK/$n.stdout" 2>/dev/null || fail "$f: stdout run failed"
  mask() { sed -E 's/token: [a-z0-9]{6}\.[a-z0-9]{16}/token: T/' "$1"; }
  assert_eq "$f: stdout is the file" "$(mask "$out")" "$(mask "$WORK/$n.stdout")"
done
new=$("$KKADM" config migrate --old-config "$RICH" 2>/dev/null)
assert_not_contains "component configs dropped" "$new" "KubeletConfiguration"
assert_contains "v1beta3 map as a sorted list" "$new" "apiServer:
  certSANs:
  - api.example.internal
  extraArgs:
  - name: anonymous-auth
    value: \"false\"
  - name: audit-log-path
    value: /var/log/audit.log"
assert_contains "timeoutForControlPlane moved" "$new" "  controlPlaneComponentHealthCheck: 3m30s"
join=$("$KKADM" config migrate --old-config "$SRC/tests/config/testdata/join_v1beta3.yaml" 2>/dev/null)
assert_contains "discovery.timeout moved" "$join" "  discovery: 2m0s"

# --- bad input: one line naming the file or field, nothing written ---
bad() {  # bad WHAT NEEDLE OLD-CONFIG...
  local what=$1 needle=$2; shift 2
  local o=$WORK/never.yaml out rc=0
  rm -f "$o"
  out=$("$KKADM" config migrate "$@" --new-config "$o" 2>&1) || rc=$?
  check "$what: fails" test "$rc" -ne 0
  assert_eq "$what: one line" 1 "$(grep -c . <<<"$out")"
  assert_contains "$what: says why" "$out" "$needle"
  check "$what: nothing written" test ! -e "$o"
}
bad "missing file" "$WORK/nope.yaml" --old-config "$WORK/nope.yaml"
bad "v1beta4 given" "v1beta4_full.yaml: apiVersion: no kubeadm.k8s.io/v1beta3 document" \
  --old-config "$SRC/tests/config/testdata/v1beta4_full.yaml"
sed 's/^    dataDir: /    dataDirectory: /' "$RICH" > "$WORK/unknown.yaml"
bad "unknown field" "unknown.yaml: ClusterConfiguration (document 2): etcd.local.dataDirectory" \
  --old-config "$WORK/unknown.yaml"
bad "no --old-config" "the --old-config flag is mandatory"
printf 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.32.0\nnetworking: {serviceSubnet: nonsense}\n' \
  > "$WORK/invalid.yaml"
bad "invalid value" "networking.serviceSubnet" --old-config "$WORK/invalid.yaml"

# --- print reset-defaults / upgrade-defaults: kubeadm 1.32's documents ---
timeouts='timeouts:
  controlPlaneComponentHealthCheck: 4m0s
  discovery: 5m0s
  etcdAPICall: 2m0s
  kubeletHealthCheck: 4m0s
  kubernetesAPICall: 1m0s
  tlsBootstrap: 5m0s
  upgradeManifests: 5m0s'
assert_eq "print reset-defaults" "apiVersion: kubeadm.k8s.io/v1beta4
certificatesDir: /etc/kubernetes/pki
criSocket: unix:///var/run/containerd/containerd.sock
kind: ResetConfiguration
$timeouts" "$("$KKADM" config print reset-defaults)"
assert_eq "print upgrade-defaults" "apiVersion: kubeadm.k8s.io/v1beta4
apply:
  certificateRenewal: true
  etcdUpgrade: true
  imagePullPolicy: IfNotPresent
  imagePullSerial: true
diff: {}
kind: UpgradeConfiguration
node:
  certificateRenewal: true
  etcdUpgrade: true
  imagePullPolicy: IfNotPresent
  imagePullSerial: true
plan: {}
$timeouts" "$("$KKADM" config print upgrade-defaults)"
"$KKADM" config print reset-defaults > "$WORK/reset.yaml"
assert_eq "reset-defaults validates" ok "$("$KKADM" config validate --config "$WORK/reset.yaml" 2>&1)"

finish
