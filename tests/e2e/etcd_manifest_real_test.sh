#!/bin/bash
# Runs the real etcd (Debian's 3.4) with exactly the command of kkadm's generated etcd manifest and
# checks that it serves: mTLS health on the advertise address, a client without a certificate
# refused, and the manifest's liveness/startup probe URLs answering. The manifests are the golden
# files, which tests/phases/controlplane/manifests_test.cc proves equal to what kkadm generates.
# Each case runs in a network namespace this script creates (so 2379/2380/2381 are free), with a
# blackhole route for the advertise address in the root namespace; everything is removed on exit.
set -euo pipefail

SRC=${KKADM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
GOLDEN=$SRC/tests/phases/testdata/golden
NS=kkadm-etcd-$$
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kkadm-etcd-e2e-XXXXXX")
ETCD_PID=""
ROUTE=""

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
  openssl ecparam -name prime256v1 -genkey -noout -out "$d/ca.key"
  openssl req -x509 -new -key "$d/ca.key" -sha256 -days 1 -subj "/CN=etcd-ca" -out "$d/ca.crt" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
  local name cn eku ext
  while read -r name cn eku ext; do
    openssl ecparam -name prime256v1 -genkey -noout -out "$d/$name.key"
    openssl req -new -key "$d/$name.key" -subj "/CN=$cn" -out "$d/$name.csr"
    printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=%s\n%s\n' \
      "$eku" "$ext" > "$d/$name.ext"
    openssl x509 -req -in "$d/$name.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 1 \
      -sha256 -extfile "$d/$name.ext" -out "$d/$name.crt" 2>/dev/null
    rm -f "$d/$name.csr" "$d/$name.ext"
  done <<EOT
server kube-etcd serverAuth,clientAuth subjectAltName=$san
peer kube-etcd-peer serverAuth,clientAuth subjectAltName=$san
healthcheck-client kube-etcd-healthcheck-client clientAuth
EOT
}

url_host() { [[ $1 == *:* ]] && echo "[$1]" || echo "$1"; }

run_case() {  # golden-file advertise-address family
  local manifest=$GOLDEN/$1 adv=$2 family=$3 root=$WORK/$1.root
  echo "== $1 (advertise $adv)"
  mapfile -t cmd < <(manifest_command "$manifest")
  [[ ${cmd[0]:-} == etcd ]] || fail "$1: command does not start with etcd: ${cmd[*]}"
  local args=() arg
  for arg in "${cmd[@]:1}"; do
    # Node paths of the manifest (--data-dir=/var/lib/etcd, ...) live under this case's root.
    if [[ $arg =~ ^(--[a-z-]+)=(/.*)$ ]]; then arg="${BASH_REMATCH[1]}=$root${BASH_REMATCH[2]}"; fi
    args+=("$arg")
  done
  make_pki "$root/etc/kubernetes/pki/etcd" "$adv"
  mkdir -p "$root/var/lib/etcd" && chmod 0700 "$root/var/lib/etcd"

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

  ip netns exec "$NS" etcd "${args[@]}" > "$WORK/etcd.log" 2>&1 &
  ETCD_PID=$!
  local pki=$root/etc/kubernetes/pki/etcd host
  host=$(url_host "$adv")
  local health="" i
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

  local probe path phost pport url
  for probe in livenessProbe startupProbe; do
    path=$(probe_field "$manifest" "$probe" path)
    phost=$(probe_field "$manifest" "$probe" host)
    pport=$(probe_field "$manifest" "$probe" port)
    [[ -n $path && -n $phost && -n $pport ]] || fail "$1: $probe has no host/port/path"
    url="http://$(url_host "$phost"):$pport$path"
    health=$(ip netns exec "$NS" curl -sS --max-time 3 "$url") || fail "$1: $probe $url failed"
    [[ $health == *'"health":"true"'* ]] || fail "$1: $probe $url answered '$health'"
    echo "$probe $url: $health"
  done

  stop_etcd
  ip netns del "$NS"
  ip route del blackhole "$ROUTE" || true
  ROUTE=""
}

run_case v1beta3-etcd.yaml 192.0.2.10 4
if [[ -e /proc/net/if_inet6 ]]; then
  run_case ipv6-etcd.yaml fd00::10 6
else
  echo "IPv6 is disabled in this kernel: the ipv6-etcd.yaml case cannot run here" >&2
  exit 1
fi
echo PASS
