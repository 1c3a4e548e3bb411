#!/bin/bash
# Runs the real etcd (Debian's 3.4) with exactly the command of the etcd manifest that
# `kkadm init phase etcd local` writes for a configuration naming a 3.4 image tag, and checks that it
# serves: mTLS health on the advertise address, a client without a certificate refused, and every
# probe of the manifest answering HTTP 200 (etcd 3.4.23 has only /health, so the manifest must carry
# kubeadm 1.30's /health probes, not 1.32's /livez and /readyz). It also checks that the manifest
# made for the default image (etcd 3.5.16) carries kubeadm 1.32's probe blocks exactly.
# Each case runs in a network namespace this script creates (so 2379/2380/2381 are free), with a
# blackhole route for the advertise address in the root namespace; everything is removed on exit.
set -euo pipefail

: "${KKADM:?KKADM must point at the kkadm binary}"
NS=kkadm-etcd-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kkadm-etcd-e2e-XXXXXX")
ETCD_PID=""
ROUTE=""

# shellcheck source=lib/pki.sh
source "$(dirname "$0")/lib/pki.sh"

fail() { echo "FAIL: $*" >&2; [[ -f $WORK/etcd.log ]] && tail -20 "$WORK/etcd.log" >&2; exit 1; }

stop_etcd() {
  [[ -n $ETCD_PID ]] || return 0
  kill -TERM "$ETCD_PID" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$ETCD_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$ETCD_PID" 2>/dev/null || true
  wait "$ETCD_PID" 2>/dev/null || true
  ETCD_PID=""
}

cleanup() {
  stop_etcd
  ip netns del "$NS" 2>/dev/null || true
  [[ -n $ROUTE ]] && ip route del blackhole "$ROUTE" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

[[ $(id -u) == 0 ]] || fail "needs root (network namespaces)"
for tool in etcd openssl curl ip; do command -v "$tool" >/dev/null || fail "$tool is not installed"; done

# The container command of a manifest, one argument per line ("    - arg" under "  - command:").
manifest_command() {
  awk '/^  - command:/ {on=1; next} on && /^    - / {sub(/^    - /, ""); print; next} on {exit}' "$1"
}

# The etcd.yaml `kkadm init phase etcd local` writes under ROOT: make_manifest ROOT ADVERTISE [TAG]
make_manifest() {
  local root=$1 cfg=$1.yaml
  mkdir -p "$root"
  cat > "$cfg" <<EOF
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
localAPIEndpoint:
  advertiseAddress: "$2"
nodeRegistration:
  name: cp-1
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
EOF
  [[ -z ${3:-} ]] || printf 'etcd:\n  local:\n    imageTag: "%s"\n' "$3" >> "$cfg"
  "$KKADM" init phase etcd local --rootfs "$root" --config "$cfg" > "$root.out" 2>&1 ||
    fail "kkadm init phase etcd local: $(cat "$root.out")"
  [[ -s $root/etc/kubernetes/manifests/etcd.yaml ]] || fail "no etcd.yaml under $root"
}

# A probe block of a manifest, verbatim: probe_block FILE readinessProbe
probe_block() {
  awk -v probe="    $2:" '$0 == probe {print; on=1; next} on && /^    [a-zA-Z]/ {exit} on {print}' "$1"
}

# A field of a probe block: probe_field FILE livenessProbe path
probe_field() {
  awk -v probe="    $2:" -v key="$3" '
    $0 == probe {on=1; next}
    on && /^    [a-zA-Z]/ {exit}
    on { line=$0; sub(/^ +/, "", line); if (index(line, key ": ") == 1) { print substr(line, length(key) + 3); exit } }
  ' "$1"
}

make_pki() {  # dir advertise
  local d=$1 san="DNS:localhost,DNS:cp-1,IP:127.0.0.1,IP:::1,IP:$2"
  mkdir -p "$d"
  cert_make_ca "$d" ca etcd-ca
  cert_make_leaf "$d" ca "$d" server /CN=kube-etcd serverAuth,clientAuth "$san"
  cert_make_leaf "$d" ca "$d" peer /CN=kube-etcd-peer serverAuth,clientAuth "$san"
  cert_make_leaf "$d" ca "$d" healthcheck-client /CN=kube-etcd-healthcheck-client clientAuth
}

url_host() { [[ $1 == *:* ]] && echo "[$1]" || echo "$1"; }

# etcd_args NAME ROOT: the etcd command of ROOT's manifest (a 3.4 image), its node paths
# (--data-dir=/var/lib/etcd, ...) under ROOT, into the array ARGS.
etcd_args() {
  local manifest=$2/etc/kubernetes/manifests/etcd.yaml arg
  grep -qx '    image: registry.k8s.io/etcd:3.4.23-0' "$manifest" || fail "$1: image is not etcd 3.4.23-0"
  mapfile -t cmd < <(manifest_command "$manifest")
  [[ ${cmd[0]:-} == etcd ]] || fail "$1: command does not start with etcd: ${cmd[*]}"
  ARGS=()
  for arg in "${cmd[@]:1}"; do
    if [[ $arg =~ ^(--[a-z-]+)=(/.*)$ ]]; then arg="${BASH_REMATCH[1]}=$2${BASH_REMATCH[2]}"; fi
    ARGS+=("$arg")
  done
}

# start_etcd ADDRESS FAMILY ARGS...: etcd in the network namespace $NS, where ADDRESS (IPv4 or
# IPv6, by FAMILY) is on lo and the root namespace routes it nowhere.
start_etcd() {
  local adv=$1 family=$2; shift 2
  ip netns add "$NS"
  ip -n "$NS" link set lo up
  if [[ $family == 6 ]]; then
    ip -n "$NS" -6 addr add "$adv/128" dev lo nodad
    ip -6 route add blackhole "$adv/128"
  else
    ip -n "$NS" addr add "$adv/32" dev lo
    ip route add blackhole "$adv/32"
  fi
  ROUTE="$adv"
  ip netns exec "$NS" etcd "$@" > "$WORK/etcd.log" 2>&1 &
  ETCD_PID=$!
}

# expect_mtls_only NAME ADDRESS PKI: etcd answers /health over mutual TLS (within 20 s) and
# refuses a client without a certificate.
expect_mtls_only() {
  local host pki=$3 health="" i
  host=$(url_host "$2")
  for i in $(seq 100); do
    kill -0 "$ETCD_PID" 2>/dev/null || fail "$1: etcd exited (flags rejected?)"
    health=$(ip netns exec "$NS" curl -sS --max-time 2 --cacert "$pki/ca.crt" \
      --cert "$pki/healthcheck-client.crt" --key "$pki/healthcheck-client.key" \
      "https://$host:2379/health" 2>/dev/null) && [[ $health == *'"health":"true"'* ]] && break
    sleep 0.2
  done
  [[ $health == *'"health":"true"'* ]] || fail "$1: https://$host:2379/health answered '$health'"
  echo "mTLS health: $health"
  if ip netns exec "$NS" curl -sS --max-time 3 --cacert "$pki/ca.crt" "https://$host:2379/health" \
      > "$WORK/nocert.out" 2>&1; then
    fail "$1: a client without a certificate was served: $(cat "$WORK/nocert.out")"
  fi
  echo "client without certificate refused"
}

# expect_34_probes_answer NAME MANIFEST: etcd 3.4's probes (kubeadm 1.30's set, no readiness)
# are what the running etcd answers healthy on.
expect_34_probes_answer() {
  local manifest=$2 probe path phost pport scheme url code health
  [[ -z $(probe_block "$manifest" readinessProbe) ]] || fail "$1: a readinessProbe for etcd 3.4"
  [[ $(probe_field "$manifest" livenessProbe path) == '/health?exclude=NOSPACE&serializable=true' ]] ||
    fail "$1: livenessProbe path is $(probe_field "$manifest" livenessProbe path)"
  [[ $(probe_field "$manifest" startupProbe path) == '/health?serializable=false' ]] ||
    fail "$1: startupProbe path is $(probe_field "$manifest" startupProbe path)"
  for probe in livenessProbe startupProbe; do
    path=$(probe_field "$manifest" "$probe" path)
    phost=$(probe_field "$manifest" "$probe" host)
    pport=$(probe_field "$manifest" "$probe" port)
    scheme=$(probe_field "$manifest" "$probe" scheme)
    [[ -n $path && -n $phost && -n $pport && $scheme == HTTP ]] ||
      fail "$1: $probe has no host/port/path or is not HTTP"
    url="http://$(url_host "$phost"):$pport$path"
    # The kubelet counts 200-399 as success; etcd's health endpoints answer 200 or 503.
    code=$(ip netns exec "$NS" curl -sS --max-time 3 -o "$WORK/probe.out" -w '%{http_code}' "$url") ||
      fail "$1: $probe $url failed"
    health=$(cat "$WORK/probe.out")
    [[ $code == 200 && $health == *'"health":"true"'* ]] ||
      fail "$1: $probe $url answered $code '$health'"
    echo "$probe $url: $code $health"
  done
  # What kubeadm 1.32's probes would get here, for the record only (a newer etcd would answer 200).
  code=$(ip netns exec "$NS" curl -sS --max-time 3 -o /dev/null -w '%{http_code}' \
    "http://$(url_host "$phost"):$pport/livez" || true)
  echo "(this etcd answers /livez with HTTP $code)"
}

run_case() {  # name advertise-address family
  local adv=$2 family=$3 root=$WORK/$1.root
  echo "== $1 (advertise $adv, image tag 3.4.23-0)"
  make_manifest "$root" "$adv" 3.4.23-0
  etcd_args "$1" "$root"
  make_pki "$root/etc/kubernetes/pki/etcd" "$adv"
  mkdir -p "$root/var/lib/etcd" && chmod 0700 "$root/var/lib/etcd"
  start_etcd "$adv" "$family" "${ARGS[@]}"
  expect_mtls_only "$1" "$adv" "$root/etc/kubernetes/pki/etcd"
  expect_34_probes_answer "$1" "$root/etc/kubernetes/manifests/etcd.yaml"
  stop_etcd
  ip netns del "$NS"
  ip route del blackhole "$ROUTE" || true
  ROUTE=""
}

# The default image (etcd 3.5.16-0) gets kubeadm 1.32's probe set, block for block.
check_default_probes() {
  local root=$WORK/default.root
  local manifest=$root/etc/kubernetes/manifests/etcd.yaml expected=$WORK/probes.want probe
  make_manifest "$root" 192.0.2.10
  grep -qx '    image: registry.k8s.io/etcd:3.5.16-0' "$manifest" || fail "default: image is not etcd 3.5.16-0"
  cat > "$expected" <<'EOF'
    livenessProbe:
      failureThreshold: 8
      httpGet:
        host: 127.0.0.1
        path: /livez
        port: 2381
        scheme: HTTP
      initialDelaySeconds: 10
      periodSeconds: 10
      timeoutSeconds: 15
    readinessProbe:
      failureThreshold: 3
      httpGet:
        host: 127.0.0.1
        path: /readyz
        port: 2381
        scheme: HTTP
      periodSeconds: 1
      timeoutSeconds: 15
    startupProbe:
      failureThreshold: 24
      httpGet:
        host: 127.0.0.1
        path: /readyz
        port: 2381
        scheme: HTTP
      initialDelaySeconds: 10
      periodSeconds: 10
      timeoutSeconds: 15
EOF
  for probe in livenessProbe readinessProbe startupProbe; do probe_block "$manifest" "$probe"; done \
    > "$WORK/probes.got"
  diff -u "$expected" "$WORK/probes.got" || fail "default image: probes differ from kubeadm 1.32's"
  echo "== default image: kubeadm 1.32's probes (/livez, /readyz, /readyz)"
}

check_default_probes
run_case ipv4 192.0.2.10 4
if [[ -e /proc/net/if_inet6 ]]; then
  run_case ipv6 fd00::10 6
else
  echo "IPv6 is disabled in this kernel: the ipv6 case cannot run here" >&2
  exit 1
fi
echo PASS
