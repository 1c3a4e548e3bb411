#!/usr/bin/env bash
# `kkadm certs check-expiration` and `kkadm certs renew` on a PKI made by `kkadm init phase certs
# all` and `init phase kubeconfig all` with short validity periods in the configuration, checked
# by openssl and kubectl: kubeadm's tables (one certificate signed with dates in the past by
# `openssl ca`, one kubeconfig missing), its JSON/YAML document; every renewed certificate chains
# to its CA and keeps its subject, SANs and usages with a new serial, a new key and the configured
# validity; the CAs are byte-identical; an expired certificate renews; no API server is needed.
# Bad input gives one line, a non-zero exit and leaves the node as it was.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/pki.sh"

R=$WORK/root
P=$R/etc/kubernetes/pki
mkdir -p "$R"
cat > "$WORK/cfg.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  name: node-1
localAPIEndpoint:
  advertiseAddress: 127.0.0.1
  bindPort: 1
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
certificateValidityPeriod: 48h
caCertificateValidityPeriod: 240h
apiServer:
  certSANs: [extra.example.internal, 203.0.113.7]
CFG
"$KKADM" --rootfs "$R" init phase certs all --config "$WORK/cfg.yaml" >/dev/null
"$KKADM" --rootfs "$R" init phase kubeconfig all --config "$WORK/cfg.yaml" >/dev/null
rm "$R/etc/kubernetes/super-admin.conf"

# apiserver-kubelet-client replaced by one `openssl ca` signed valid in 2024 only.
expire_kubelet_client() {
  local d=$WORK/ca-db; mkdir -p "$d"; : > "$d/index.txt"; echo 1000 > "$d/serial"
  cat > "$d/ca.cnf" <<CNF
[ca]
default_ca = ca_default
[ca_default]
database = $d/index.txt
new_certs_dir = $d
serial = $d/serial
default_md = sha256
policy = any
unique_subject = no
[any]
organizationName = optional
commonName = supplied
[ext]
keyUsage = critical,digitalSignature,keyEncipherment
extendedKeyUsage = clientAuth
basicConstraints = critical,CA:FALSE
CNF
  openssl req -new -key "$P/apiserver-kubelet-client.key" -out "$d/csr" \
    -subj "/O=kubeadm:cluster-admins/CN=kube-apiserver-kubelet-client"
  openssl ca -batch -notext -preserveDN -config "$d/ca.cnf" -extensions ext -cert "$P/ca.crt" \
    -keyfile "$P/ca.key" -in "$d/csr" -out "$P/apiserver-kubelet-client.crt" \
    -startdate 20240101000000Z -enddate 20250101000000Z 2>/dev/null
}
expire_kubelet_client

# --- check-expiration, text ---
out=$("$KKADM" --rootfs "$R" certs check-expiration --config "$WORK/cfg.yaml" 2>"$WORK/err")
leaf_date=$(date -u -d "$(openssl x509 -in "$P/apiserver.crt" -noout -enddate | cut -d= -f2)" '+%b %d, %Y %H:%M UTC')
ca_date=$(date -u -d "$(openssl x509 -in "$P/ca.crt" -noout -enddate | cut -d= -f2)" '+%b %d, %Y %H:%M UTC')
admin_date=$(kubectl config view --raw --kubeconfig "$R/etc/kubernetes/admin.conf" \
  -o jsonpath='{.users[0].user.client-certificate-data}' | base64 -d |
  openssl x509 -noout -enddate | cut -d= -f2)
admin_date=$(date -u -d "$admin_date" '+%b %d, %Y %H:%M UTC')
row() { printf '%-29s%-25s%-16s%-24s%s\n' "$@"; }
carow() { printf '%-24s%-25s%-16s%s\n' "$@"; }
expected=$(
  row CERTIFICATE EXPIRES "RESIDUAL TIME" "CERTIFICATE AUTHORITY" "EXTERNALLY MANAGED"
  row admin.conf "$admin_date" 1d ca "no      "
  row apiserver "$leaf_date" 1d ca "no      "
  row apiserver-etcd-client "$leaf_date" 1d etcd-ca "no      "
  row apiserver-kubelet-client "Jan 01, 2025 00:00 UTC" "<invalid>" ca "no      "
  row controller-manager.conf "$admin_date" 1d ca "no      "
  row etcd-healthcheck-client "$leaf_date" 1d etcd-ca "no      "
  row etcd-peer "$leaf_date" 1d etcd-ca "no      "
  row etcd-server "$leaf_date" 1d etcd-ca "no      "
  row front-proxy-client "$leaf_date" 1d front-proxy-ca "no      "
  row scheduler.conf "$admin_date" 1d ca "no      "
  row "!MISSING! super-admin.conf" "" "" "" ""
  echo
  carow "CERTIFICATE AUTHORITY" EXPIRES "RESIDUAL TIME" "EXTERNALLY MANAGED"
  carow ca "$ca_date" 9d "no      "
  carow etcd-ca "$ca_date" 9d "no      "
  carow front-proxy-ca "$ca_date" 9d "no      "
)
assert_eq "check-expiration text" "$expected" "$out"
assert_contains "warns that kubelet.conf is not rotated" "$(cat "$WORK/err")" \
  "WARNING: /etc/kubernetes/kubelet.conf does not point at /var/lib/kubelet/pki/kubelet-client-current.pem: the kubelet's client certificate is not rotated"
kubelet_date=$(kubectl config view --raw --kubeconfig "$R/etc/kubernetes/kubelet.conf" \
  -o jsonpath='{.users[0].user.client-certificate-data}' | base64 -d | openssl x509 -noout -enddate | cut -d= -f2)
assert_contains "with its expiry" "$(cat "$WORK/err")" \
  "Its embedded client certificate expires $(date -u -d "$kubelet_date" '+%b %d, %Y %H:%M UTC') (1d)."
cp "$R/etc/kubernetes/kubelet.conf" "$WORK/kubelet.conf"
kubectl config set-credentials system:node:node-1 --kubeconfig "$R/etc/kubernetes/kubelet.conf" \
  --client-certificate=/var/lib/kubelet/pki/kubelet-client-current.pem \
  --client-key=/var/lib/kubelet/pki/kubelet-client-current.pem >/dev/null
"$KKADM" --rootfs "$R" certs check-expiration --config "$WORK/cfg.yaml" >/dev/null 2>"$WORK/err"
assert_eq "no warning once kubelet.conf points at the rotated certificate" "" "$(cat "$WORK/err")"
cp "$WORK/kubelet.conf" "$R/etc/kubernetes/kubelet.conf"

# --- check-expiration, json and yaml: kubeadm's CertificateExpirationInfo ---
for fmt in json yaml; do
  "$KKADM" --rootfs "$R" certs check-expiration --config "$WORK/cfg.yaml" -o "$fmt" > "$WORK/out.$fmt" 2>"$WORK/err"
  assert_eq "-o $fmt: nothing on stderr (the kubelet.conf warning is text only)" "" "$(cat "$WORK/err")"
  check "check-expiration -o $fmt is kubeadm's document" python3 - "$WORK/out.$fmt" "$fmt" <<'PY'
import json, sys, yaml
text = open(sys.argv[1]).read()
doc = json.loads(text) if sys.argv[2] == "json" else yaml.safe_load(text)
assert doc["kind"] == "CertificateExpirationInfo" and doc["apiVersion"] == "output.kubeadm.k8s.io/v1alpha3", doc
certs = {c["name"]: c for c in doc["certificates"]}
assert list(certs) == sorted(certs) and len(certs) == 11, list(certs)
for name, c in certs.items():
    keys = {"name", "expirationDate", "residualTime", "externallyManaged", "missing"} | ({"caName"} if not c["missing"] else set())
    assert set(c) == keys, (name, c)
assert certs["super-admin.conf"]["missing"] is True and certs["super-admin.conf"]["expirationDate"] is None
assert certs["apiserver-kubelet-client"]["residualTime"] < 0
assert certs["apiserver-kubelet-client"]["expirationDate"] == "2025-01-01T00:00:00Z"
assert 47 * 3600 < certs["apiserver"]["residualTime"] <= 48 * 3600, certs["apiserver"]
assert certs["etcd-peer"]["caName"] == "etcd-ca"
cas = [c["name"] for c in doc["certificateAuthorities"]]
assert cas == ["ca", "etcd-ca", "front-proxy-ca"], cas
assert all("caName" not in c for c in doc["certificateAuthorities"])
if sys.argv[2] == "json":
    assert list(doc) == ["kind", "apiVersion", "certificates", "certificateAuthorities"]
    assert list(doc["certificates"][0]) == ["name", "expirationDate", "residualTime", "externallyManaged", "caName", "missing"]
PY
done

# --- no API server: the ConfigMap cannot be read, kubeadm's defaults are used ---
out=$("$KKADM" --rootfs "$R" certs check-expiration 2>/dev/null)
assert_contains "falls back without an API server" "$out" \
  '[check-expiration] Error reading configuration from the Cluster. Falling back to default configuration'
assert_contains "and still prints the table" "$out" "apiserver-kubelet-client   "

# --- renew all ---
declare -A serial pub
leaves="apiserver apiserver-kubelet-client front-proxy-client apiserver-etcd-client etcd/server etcd/peer etcd/healthcheck-client"
for c in $leaves; do
  serial[$c]=$(openssl x509 -in "$P/$c.crt" -noout -serial)
  pub[$c]=$(openssl x509 -in "$P/$c.crt" -noout -pubkey)
  cp "$P/$c.crt" "$WORK/old-${c//\//_}.crt"
done
kc_serial=$(kubectl config view --raw --kubeconfig "$R/etc/kubernetes/admin.conf" \
  -o jsonpath='{.users[0].user.client-certificate-data}' | base64 -d | openssl x509 -noout -serial)
ca_sums=$(cd "$P" && sha256sum ca.crt ca.key front-proxy-ca.crt front-proxy-ca.key etcd/ca.crt etcd/ca.key sa.key sa.pub)
out=$("$KKADM" --rootfs "$R" certs renew all --config "$WORK/cfg.yaml" 2>"$WORK/err")
assert_eq "renew all prints kubeadm's lines" "certificate embedded in the kubeconfig file for the admin to use and for kubeadm itself renewed
certificate for serving the Kubernetes API renewed
certificate the apiserver uses to access etcd renewed
certificate for the API server to connect to kubelet renewed
certificate embedded in the kubeconfig file for the controller manager to use renewed
certificate for liveness probes to healthcheck etcd renewed
certificate for etcd nodes to communicate with each other renewed
certificate for serving etcd renewed
certificate for the front proxy client renewed
certificate embedded in the kubeconfig file for the scheduler manager to use renewed
MISSING! certificate embedded in the kubeconfig file for the super-admin

Done renewing certificates. You must restart the kube-apiserver, kube-controller-manager, kube-scheduler and etcd, so that they can use the new certificates." "$out"
assert_contains "renew all warns on stderr that kubelet.conf is not rotated" "$(cat "$WORK/err")" \
  "WARNING: /etc/kubernetes/kubelet.conf does not point at /var/lib/kubelet/pki/kubelet-client-current.pem: the kubelet's client certificate is not rotated, and neither kkadm nor kubeadm renews it."
assert_eq "CA files and sa keys are byte-identical" "$ca_sums" \
  "$(cd "$P" && sha256sum ca.crt ca.key front-proxy-ca.crt front-proxy-ca.key etcd/ca.crt etcd/ca.key sa.key sa.pub)"
ca_of() { case $1 in etcd/*|apiserver-etcd-client) echo etcd/ca ;; front-proxy-client) echo front-proxy-ca ;; *) echo ca ;; esac; }
for c in $leaves; do
  old=$WORK/old-${c//\//_}.crt
  check "$c chains to its CA" cert_verifies "$P/$(ca_of "$c").crt" "$P/$c.crt"
  assert_eq "$c subject" "$(cert_subject "$old")" "$(cert_subject "$P/$c.crt")"
  assert_eq "$c SANs" "$(cert_sans "$old")" "$(cert_sans "$P/$c.crt")"
  assert_eq "$c extended key usage" "$(cert_ext_key_usage "$old")" "$(cert_ext_key_usage "$P/$c.crt")"
  assert_eq "$c key usage" "$(cert_key_usage "$old")" "$(cert_key_usage "$P/$c.crt")"
  check "$c has a new serial" test "${serial[$c]}" != "$(openssl x509 -in "$P/$c.crt" -noout -serial)"
  check "$c has a new key" test "${pub[$c]}" != "$(openssl x509 -in "$P/$c.crt" -noout -pubkey)"
  assert_eq "$c key matches its certificate" "$(openssl pkey -in "$P/$c.key" -pubout)" \
    "$(openssl x509 -in "$P/$c.crt" -noout -pubkey)"
  assert_eq "$c lives the configured 48h (after a 5-minute backdate)" $((48 * 3600 + 300)) "$(cert_lifetime "$P/$c.crt")"
  check "$c is 0600/0644" test "$(stat -c %a "$P/$c.key")/$(stat -c %a "$P/$c.crt")" = 600/644
done
assert_eq "the expired certificate is valid again" "" "$(openssl x509 -in "$P/apiserver-kubelet-client.crt" -noout -checkend 86400 >/dev/null || echo expiring)"
assert_eq "no pending renewal file is left" "" "$(find "$P" -name '*.kkadm-renewal')"
for k in admin.conf controller-manager.conf scheduler.conf; do
  f=$R/etc/kubernetes/$k
  kubectl config view --raw --kubeconfig "$f" -o jsonpath='{.users[0].user.client-certificate-data}' | base64 -d > "$WORK/kc.crt"
  kubectl config view --raw --kubeconfig "$f" -o jsonpath='{.users[0].user.client-key-data}' | base64 -d > "$WORK/kc.key"
  check "$k client certificate chains to ca (read by kubectl)" cert_verifies "$P/ca.crt" "$WORK/kc.crt"
  assert_eq "$k client key matches" "$(openssl pkey -in "$WORK/kc.key" -pubout)" "$(openssl x509 -in "$WORK/kc.crt" -noout -pubkey)"
  assert_eq "$k lives 48h" $((48 * 3600 + 300)) "$(cert_lifetime "$WORK/kc.crt")"
  assert_eq "$k server kept" "https://127.0.0.1:1" "$(kubectl config view --kubeconfig "$f" -o jsonpath='{.clusters[0].cluster.server}')"
done
kc_serial2=$(kubectl config view --raw --kubeconfig "$R/etc/kubernetes/admin.conf" \
  -o jsonpath='{.users[0].user.client-certificate-data}' | base64 -d | openssl x509 -noout -serial)
check "admin.conf has a new client serial" test "$kc_serial" != "$kc_serial2"
assert_eq "scheduler.conf client subject kept" "CN=system:kube-scheduler" "$(cert_subject "$WORK/kc.crt")"

# --- one name; an external CA is skipped with kubeadm's line ---
out=$("$KKADM" --rootfs "$R" certs renew etcd-server --config "$WORK/cfg.yaml" 2>&1)
assert_eq "renew etcd-server" "certificate for serving etcd renewed" "$out"
mv "$P/front-proxy-ca.key" "$WORK/front-proxy-ca.key"
before=$(sha256sum "$P/front-proxy-client.crt")
out=$("$KKADM" --rootfs "$R" certs renew front-proxy-client --config "$WORK/cfg.yaml" 2>&1)
assert_eq "external CA is skipped" "Detected external front-proxy-ca, certificate for the front proxy client can't be renewed" "$out"
assert_eq "external CA: nothing written" "$before" "$(sha256sum "$P/front-proxy-client.crt")"
out=$("$KKADM" --rootfs "$R" certs check-expiration --config "$WORK/cfg.yaml" 2>&1)
assert_contains "external CA shows as externally managed" "$out" "front-proxy-ca          "
assert_contains "external CA row says yes" "$(grep '^front-proxy-ca ' <<<"$out")" "yes     "
mv "$WORK/front-proxy-ca.key" "$P/front-proxy-ca.key"

# --- bad input: one line, non-zero, nothing written ---
bad() {  # WHAT EXPECTED-TEXT ARGS...
  local what=$1 text=$2; shift 2
  local before rc=0 err
  before=$(node_fingerprint "$R")
  err=$("$KKADM" --rootfs "$R" "$@" 2>&1 >/dev/null) || rc=$?
  check "$what: non-zero exit" test "$rc" -ne 0
  assert_eq "$what: one line" 1 "$(printf '%s\n' "$err" | wc -l)"
  assert_contains "$what: says what" "$err" "$text"
  assert_eq "$what: nothing written" "$before" "$(node_fingerprint "$R")"
}
bad "unknown name" 'unknown command "nosuch" for "kkadm certs renew"' certs renew nosuch --config "$WORK/cfg.yaml"
bad "renew a CA" 'unknown command "ca" for "kkadm certs renew"' certs renew ca --config "$WORK/cfg.yaml"
bad "no PKI" "no PKI at $WORK/root/nowhere" certs renew all --cert-dir /nowhere --config "$WORK/cfg.yaml"
bad "no PKI (check-expiration)" "no PKI at" certs check-expiration --cert-dir /nowhere --config "$WORK/cfg.yaml"
cp "$P/apiserver.crt" "$WORK/apiserver.crt"; echo garbage > "$P/apiserver.crt"
bad "unreadable certificate" "/etc/kubernetes/pki/apiserver.crt" certs renew apiserver --config "$WORK/cfg.yaml"
bad "unreadable certificate (check-expiration)" "/etc/kubernetes/pki/apiserver.crt" certs check-expiration --config "$WORK/cfg.yaml"
cp "$WORK/apiserver.crt" "$P/apiserver.crt"
bad "bad output format" "json" certs check-expiration -o xml --config "$WORK/cfg.yaml"

finish
