#!/usr/bin/env bash
# Kubernetes version labels looked up as kubeadm looks them up, against a local HTTPS release
# bucket (Python's http.server on 127.0.0.1, a certificate made here by openssl, trusted through
# SSL_CERT_FILE as kubeadm's Go TLS would): a served label gives its version to `config images
# list`, `init phase control-plane` and `config validate`, through a redirect like dl.k8s.io's; a
# 404, an untrusted certificate and a server that never answers (given up after kubeadm's 10 s)
# give kubeadm's two warnings and kkadm's own version; a label of a newer minor falls back to
# kkadm's minor and says so; `config print init-defaults` looks nothing up.
source "$(dirname "$0")/lib/common.sh"

OWN=$("$KKADM" version -o json | python3 -c 'import json, sys; print(json.load(sys.stdin)["clientVersion"]["kubernetesVersion"])')
OWN_MINOR=$(echo "$OWN" | cut -d. -f1,2 | tr -d v)

# ---- the bucket: /release/<label>.txt; stable-1.31 redirects, as dl.k8s.io redirects to its CDN ----
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$WORK/bucket.key" -out "$WORK/bucket.crt" 2>/dev/null
mkdir -p "$WORK/www/release" "$WORK/www/cdn/release"
echo v1.31.4 > "$WORK/www/cdn/release/stable-1.31.txt"
echo "v$OWN_MINOR.3" > "$WORK/www/release/stable-1.txt"
echo v1.99.1 > "$WORK/www/release/stable.txt"
echo "v$OWN_MINOR.7" > "$WORK/www/release/stable-$OWN_MINOR.txt"
cat > "$WORK/bucket.py" <<'PY'
import http.server, socket, ssl, sys, threading
root, cert, key, log = sys.argv[1:5]
class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=root, **kwargs)
    def do_GET(self):
        with open(log, "a") as f:
            f.write(self.path + "\n")
        if self.path == "/release/stable-1.31.txt":
            self.send_response(302)
            self.send_header("Location", "/cdn/release/stable-1.31.txt")
            self.end_headers()
            return
        super().do_GET()
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server.socket = context.wrap_socket(server.socket, server_side=True)
# A second port that accepts connections and never answers (not even the TLS handshake).
silent = socket.socket()
silent.bind(("127.0.0.1", 0))
silent.listen(16)
print(server.server_address[1], silent.getsockname()[1], flush=True)
server.serve_forever()
PY
python3 "$WORK/bucket.py" "$WORK/www" "$WORK/bucket.crt" "$WORK/bucket.key" "$WORK/requests.log" \
  > "$WORK/ports" 2>"$WORK/bucket.err" &
BUCKET_PID=$!
on_exit "kill $BUCKET_PID"
for _ in $(seq 1 50); do [ -s "$WORK/ports" ] && break; sleep 0.1; done
read -r PORT SILENT_PORT < "$WORK/ports" || { fail "the bucket did not start: $(cat "$WORK/bucket.err")"; finish; exit 1; }
BUCKET=https://127.0.0.1:$PORT
: > "$WORK/requests.log"

# kk ENV... -- ARGS...: kkadm with the given environment; stdout in $WORK/out, stderr in $WORK/err,
# exit code in $RC, wall seconds in $SECONDS_TAKEN.
kk() {
  local env=()
  while [ "$1" != "--" ]; do env+=("$1"); shift; done; shift
  local start; start=$(date +%s%N)
  RC=0; env "${env[@]}" "$KKADM" "$@" >"$WORK/out" 2>"$WORK/err" || RC=$?
  SECONDS_TAKEN=$(( ($(date +%s%N) - start) / 1000000000 ))
}
TRUSTED=(KKADM_RELEASE_URL="$BUCKET" SSL_CERT_FILE="$WORK/bucket.crt")
apiserver_image() { head -n1 "$WORK/out"; }
warnings() { grep -c '^W' "$WORK/err" || true; }

# ---- 1. a served label, through the redirect ----------------------------------------------------------
kk "${TRUSTED[@]}" -- config images list --kubernetes-version stable-1.31
assert_eq "images list stable-1.31: exit code ($(cat "$WORK/err"))" 0 "$RC"
assert_eq "images list stable-1.31: the label's version" "registry.k8s.io/kube-apiserver:v1.31.4" "$(apiserver_image)"
assert_eq "images list stable-1.31: no warning" "" "$(cat "$WORK/err")"
assert_eq "the bucket was asked for the label, then its CDN" "/release/stable-1.31.txt
/cdn/release/stable-1.31.txt" "$(cat "$WORK/requests.log")"

R=$WORK/rootfs
mkdir -p "$R"
kk "${TRUSTED[@]}" -- init phase control-plane apiserver --rootfs "$R" --kubernetes-version stable-1.31 \
  --apiserver-advertise-address 192.0.2.10
assert_eq "init phase control-plane with stable-1.31: exit code ($(cat "$WORK/err"))" 0 "$RC"
assert_contains "init says the version" "$(cat "$WORK/out")" "[init] Using Kubernetes version: v1.31.4"
assert_contains "the kube-apiserver manifest runs the label's version" \
  "$(cat "$R/etc/kubernetes/manifests/kube-apiserver.yaml" 2>&1)" "image: registry.k8s.io/kube-apiserver:v1.31.4"

# No version at all is kubeadm's default label, stable-1.
kk "${TRUSTED[@]}" -- config images list
assert_eq "images list without a version: stable-1" "registry.k8s.io/kube-apiserver:v$OWN_MINOR.3" "$(apiserver_image)"

cat > "$WORK/cluster.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: stable-1.31
CFG
: > "$WORK/requests.log"
kk "${TRUSTED[@]}" -- config validate --config "$WORK/cluster.yaml"
assert_eq "config validate with a label: ok" "0 ok" "$RC $(cat "$WORK/out")"
assert_contains "config validate looked the label up" "$(cat "$WORK/requests.log")" "/release/stable-1.31.txt"

# ---- 2. a label of a newer minor than kkadm's: kkadm's minor, said on stderr -----------------------------
kk "${TRUSTED[@]}" -- config images list --kubernetes-version stable
assert_eq "stable (v1.99.1 served): kkadm's minor" "registry.k8s.io/kube-apiserver:v$OWN_MINOR.7" "$(apiserver_image)"
assert_contains "stable: says why" "$(cat "$WORK/err")" \
  "remote version is much newer: v1.99.1; falling back to: stable-$OWN_MINOR"

# ---- 3. 404: kubeadm's two warnings, kkadm's own version ---------------------------------------------
kk "${TRUSTED[@]}" -- config images list --kubernetes-version stable-1.30
assert_eq "404: exit code" 0 "$RC"
assert_eq "404: kkadm's own version" "registry.k8s.io/kube-apiserver:$OWN" "$(apiserver_image)"
assert_eq "404: two warnings, nothing else ($(cat "$WORK/err"))" "2 2" "$(warnings) $(grep -c . "$WORK/err")"
assert_contains "404: the first warning" "$(sed -n 1p "$WORK/err")" \
  "could not fetch a Kubernetes version from the internet: unable to fetch file. URL: \"$BUCKET/release/stable-1.30.txt\", status: 404 Not Found"
assert_contains "404: the second warning" "$(sed -n 2p "$WORK/err")" "falling back to the local client version: $OWN"
check "404: the warnings are klog-style W lines" grep -q '^W[0-9]\{4\} [0-9:.]\{15\} could not fetch' "$WORK/err"

# ---- 4. an untrusted certificate (the system's store only) is a failed fetch ----------------------------
kk KKADM_RELEASE_URL="$BUCKET" -- config images list --kubernetes-version stable-1.31
assert_eq "untrusted bucket: kkadm's own version" "registry.k8s.io/kube-apiserver:$OWN" "$(apiserver_image)"
assert_contains "untrusted bucket: warned" "$(cat "$WORK/err")" \
  "could not fetch a Kubernetes version from the internet: unable to get URL \"$BUCKET/release/stable-1.31.txt\""

# ---- 5. a bucket that never answers: given up after 10 s ---------------------------------------------
kk KKADM_RELEASE_URL="https://127.0.0.1:$SILENT_PORT" SSL_CERT_FILE="$WORK/bucket.crt" -- \
  init phase control-plane apiserver --rootfs "$R" --apiserver-advertise-address 192.0.2.10
assert_eq "silent bucket: exit code ($(cat "$WORK/err"))" 0 "$RC"
check "silent bucket: gave up after kubeadm's 10 s (took $SECONDS_TAKEN s)" \
  test "$SECONDS_TAKEN" -ge 9 -a "$SECONDS_TAKEN" -le 20
assert_contains "silent bucket: warned" "$(cat "$WORK/err")" \
  "could not fetch a Kubernetes version from the internet: unable to get URL \"https://127.0.0.1:$SILENT_PORT/release/stable-1.txt\""
assert_contains "silent bucket: fell back" "$(cat "$WORK/err")" "falling back to the local client version: $OWN"
assert_contains "silent bucket: init uses kkadm's own version" "$(cat "$WORK/out")" "[init] Using Kubernetes version: $OWN"

# ---- 6. print-defaults looks nothing up; versions are not looked up -------------------------------------
: > "$WORK/requests.log"
kk "${TRUSTED[@]}" -- config print init-defaults
assert_contains "print init-defaults: kkadm's version" "$(cat "$WORK/out")" "kubernetesVersion: $OWN"
kk "${TRUSTED[@]}" -- config images list --kubernetes-version 1.31.2
assert_eq "a version is used as is" "registry.k8s.io/kube-apiserver:v1.31.2" "$(apiserver_image)"
assert_eq "neither asked the bucket" "" "$(cat "$WORK/requests.log")"

finish
