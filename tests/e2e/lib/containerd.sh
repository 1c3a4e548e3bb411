# A real container runtime and registry for e2e tests: containerd (Debian's, with runc) with its
# CRI plugin on a private socket, a docker-registry on loopback, a flaky proxy in front of it and
# an independent CRI client. Source it after common.sh; everything it starts is stopped and
# removed at exit (on_exit). Only 127.0.0.1 is used.
#
#   containerd_start                Starts containerd in $WORK/containerd, or in $CTRD_DIR when
#                                   set (e.g. a node root's /run/containerd: root, state, socket,
#                                   CNI and hosts directories of its own) with the CRI plugin.
#                                   Sets CTRD_DIR, CTRD_SOCK (the CRI socket: unix path),
#                                   CTRD_CERTS_D (its registry hosts directory) and
#                                   CTRD_SANDBOX_IMAGE (default registry.k8s.io/pause:3.10, a
#                                   pause image built here and imported, so RunPodSandbox works
#                                   offline; set the variable before calling to choose another
#                                   name). Containers' cgroups go under $KK_CRI_CGROUP_PARENT.
#   ctrd_ctr ARGS...                containerd's own ctr on that socket, namespace k8s.io.
#   containerd_allow_http HOST:PORT Makes the CRI plugin pull from HOST:PORT over plain HTTP
#                                   (a hosts.toml under CTRD_CERTS_D, read at each pull).
#   cri ARGS...                     The independent CRI client (cri_client.py: version, status,
#                                   run-pod, create-container, pods, containers, images, pull,
#                                   image-status, remove-image, stop-pod, remove-pod) on
#                                   CTRD_SOCK; stubs are generated into $WORK on first use.
#   kk_make_image OUT.tar REF [tiny|busybox|pause]
#                                   An OCI image-layout tar named REF, built with tar and
#                                   sha256sum: tiny (one ~100-byte file, not runnable), busybox
#                                   (busybox-static; runs sh, sleep, ...) or pause (busybox that
#                                   sleeps until SIGTERM).
#   registry_start                  Starts docker-registry on a free 127.0.0.1 port with storage
#                                   in $WORK; sets REGISTRY (127.0.0.1:PORT) and REGISTRY_LOG (its
#                                   access log); allows plain HTTP to it in containerd if started.
#   registry_push TAR REF           Pushes an image tar to REF with skopeo.
#   registry_push_images REF...     Builds a tiny image for each REF and pushes it.
#   registry_requests [NAME]        How many GET/HEAD requests from containerd the registry served
#                                   (for repository NAME, or all); registry_manifest_gets [NAME]
#                                   and registry_blob_gets [NAME] count manifests and blobs.
#   flaky_proxy_start N [503|reset] Starts flaky_proxy.py in front of REGISTRY, failing its first
#                                   N connections; sets FLAKY (127.0.0.1:PORT) and FLAKY_LOG, and
#                                   allows plain HTTP to FLAKY.
#   kk_free_port                    Prints a free 127.0.0.1 TCP port.
# Needs: containerd runc skopeo docker-registry busybox-static python3-grpcio python3-grpc-tools
# (scripts/lib.sh's test packages). Tests skip (exit 77) without them.

KK_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KK_PY=/usr/bin/python3  # Debian's python3: python3-grpcio is installed for it, not for others

kk_require_runtime_tools() {
  local t
  for t in containerd containerd-shim-runc-v2 runc ctr skopeo docker-registry busybox; do
    command -v "$t" >/dev/null || { echo "SKIP: $t is not installed" >&2; exit 77; }
  done
  "$KK_PY" -c 'import grpc, grpc_tools' 2>/dev/null ||
    { echo "SKIP: python3-grpcio/python3-grpc-tools are not installed" >&2; exit 77; }
  [ "$(id -u)" -eq 0 ] || { echo "SKIP: containerd needs root" >&2; exit 77; }
}

kk_free_port() {
  "$KK_PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# Waits up to $2 seconds (default 10) for command $1 to succeed.
kk_wait_for() {
  local i limit=$(( ${2:-10} * 10 ))
  for ((i = 0; i < limit; i++)); do eval "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}

# kk_make_image OUT.tar REF [tiny|busybox|pause]: an OCI image layout in a tar.
kk_make_image() {
  local out=$1 ref=$2 kind=${3:-tiny} w
  w=$(mktemp -d "$WORK/image-XXXXXX")
  mkdir -p "$w/rootfs/etc" "$w/oci/blobs/sha256"
  local cmd='["/bin/sh"]'
  if [ "$kind" = tiny ]; then
    printf 'kkadm test image %s\n' "$ref" >"$w/rootfs/etc/kkadm-test-image"
  else
    mkdir -p "$w/rootfs/bin" "$w/rootfs/tmp"
    cp "$(command -v busybox)" "$w/rootfs/bin/busybox"
    for a in sh ls cat echo sleep hostname id ps true; do ln -s busybox "$w/rootfs/bin/$a"; done
    [ "$kind" = pause ] &&
      cmd='["/bin/sh","-c","trap \"exit 0\" TERM INT; while :; do sleep 3600 & wait $!; done"]'
  fi
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$w/rootfs" -cf "$w/layer.tar" .
  gzip -n -c "$w/layer.tar" >"$w/layer.tar.gz"
  local diff_id layer layer_size config config_size manifest manifest_size
  diff_id=$(sha256sum <"$w/layer.tar" | cut -d' ' -f1)
  layer=$(kk_blob "$w" "$w/layer.tar.gz")
  layer_size=$(stat -c %s "$w/layer.tar.gz")
  printf '{"architecture":"amd64","os":"linux","config":{"Cmd":%s,"Env":["PATH=/bin"]},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
    "$cmd" "$diff_id" >"$w/config.json"
  config=$(kk_blob "$w" "$w/config.json")
  config_size=$(stat -c %s "$w/config.json")
  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"sha256:%s","size":%s}]}' \
    "$config" "$config_size" "$layer" "$layer_size" >"$w/manifest.json"
  manifest=$(kk_blob "$w" "$w/manifest.json")
  manifest_size=$(stat -c %s "$w/manifest.json")
  printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"annotations":{"io.containerd.image.name":"%s","org.opencontainers.image.ref.name":"%s"}}]}' \
    "$manifest" "$manifest_size" "$ref" "${ref##*:}" >"$w/oci/index.json"
  echo '{"imageLayoutVersion":"1.0.0"}' >"$w/oci/oci-layout"
  tar -C "$w/oci" -cf "$out" oci-layout index.json blobs
  rm -rf "$w"
}

# Copies a file into the layout's blobs under its digest; prints the hex digest.
kk_blob() {
  local digest
  digest=$(sha256sum <"$2" | cut -d' ' -f1)
  cp "$2" "$1/oci/blobs/sha256/$digest"
  echo "$digest"
}

ctrd_ctr() { ctr --address "$CTRD_SOCK" -n k8s.io "$@"; }

cri() { "$KK_PY" "$KK_LIB_DIR/cri_client.py" --socket "$CTRD_SOCK" --work "$WORK" "$@"; }

containerd_write_config() {
  local d=$1
  containerd config default >"$d/config.toml"
  sed -i -e "s|^root = .*|root = \"$d/root\"|" -e "s|^state = .*|state = \"$d/state\"|" \
    -e "s|address = \"/run/containerd/containerd.sock\"|address = \"$d/containerd.sock\"|" \
    -e "s|bin_dir = \"/opt/cni/bin\"|bin_dir = \"/usr/lib/cni\"|" \
    -e "s|conf_dir = \"/etc/cni/net.d\"|conf_dir = \"$d/cni\"|" \
    -e "s|path = \"/opt/containerd\"|path = \"$d/opt\"|" \
    -e "s|sandbox_image = .*|sandbox_image = \"$CTRD_SANDBOX_IMAGE\"|" \
    -e "s|config_path = \"\"|config_path = \"$d/certs.d\"|" \
    -e "s|restrict_oom_score_adj = false|restrict_oom_score_adj = true|" \
    -e "s|^\( *\)Root = \"\"|\1Root = \"$d/runc\"|" "$d/config.toml"
}

containerd_start() {
  kk_require_runtime_tools
  CTRD_DIR=${CTRD_DIR:-$WORK/containerd}
  CTRD_SOCK=$CTRD_DIR/containerd.sock
  CTRD_CERTS_D=$CTRD_DIR/certs.d
  CTRD_SANDBOX_IMAGE=${CTRD_SANDBOX_IMAGE:-registry.k8s.io/pause:3.10}
  export KK_CRI_CGROUP_PARENT=/kkadm-e2e-$$
  mkdir -p "$CTRD_DIR/cni" "$CTRD_CERTS_D" "$CTRD_DIR/opt"
  containerd_write_config "$CTRD_DIR"
  containerd --config "$CTRD_DIR/config.toml" >"$CTRD_DIR/containerd.log" 2>&1 &
  CTRD_PID=$!
  on_exit containerd_stop
  kk_wait_for "ctrd_ctr version" 20 || { tail -20 "$CTRD_DIR/containerd.log" >&2; return 1; }
  kk_make_image "$CTRD_DIR/pause.tar" "$CTRD_SANDBOX_IMAGE" pause
  ctrd_ctr images import "$CTRD_DIR/pause.tar" >/dev/null
}

containerd_allow_http() {
  mkdir -p "$CTRD_CERTS_D/$1"
  printf 'server = "http://%s"\n\n[host."http://%s"]\n  capabilities = ["pull", "resolve"]\n' \
    "$1" "$1" >"$CTRD_CERTS_D/$1/hosts.toml"
}

# Stops every container and sandbox, containerd and its shims, and removes their mounts and
# cgroups: nothing of the test's runtime outlives it.
containerd_stop() {
  local id pid
  for id in $(ctrd_ctr tasks ls -q 2>/dev/null); do
    ctrd_ctr tasks kill -s SIGKILL "$id" >/dev/null 2>&1 || true
    ctrd_ctr tasks delete -f "$id" >/dev/null 2>&1 || true
  done
  for id in $(ctrd_ctr containers ls -q 2>/dev/null); do
    ctrd_ctr containers rm "$id" >/dev/null 2>&1 || true
  done
  if kill "$CTRD_PID" 2>/dev/null && ! kk_wait_for "! kill -0 $CTRD_PID" 10; then
    kill -9 "$CTRD_PID" 2>/dev/null || true
  fi
  for pid in $(pgrep -f -- "-address $CTRD_SOCK" || true); do kill -9 "$pid" 2>/dev/null || true; done
  awk -v d="$CTRD_DIR/" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo | sort -r |
    while read -r m; do umount -l "$m" 2>/dev/null || true; done
  find /sys/fs/cgroup -depth -type d -path "*${KK_CRI_CGROUP_PARENT}*" -exec rmdir {} + 2>/dev/null ||
    true
}

registry_start() {
  local port d=$WORK/registry
  port=$(kk_free_port)
  mkdir -p "$d/storage"
  cat >"$d/config.yml" <<YML
version: 0.1
log:
  level: info
  accesslog:
    disabled: false
storage:
  filesystem:
    rootdirectory: $d/storage
  delete:
    enabled: true
http:
  addr: 127.0.0.1:$port
YML
  REGISTRY=127.0.0.1:$port
  REGISTRY_LOG=$d/access.log
  docker-registry serve "$d/config.yml" >"$REGISTRY_LOG" 2>&1 &
  on_exit "kill $! 2>/dev/null; wait $! 2>/dev/null"
  kk_wait_for "curl -fsS http://$REGISTRY/v2/" 20 || { tail -5 "$REGISTRY_LOG" >&2; return 1; }
  [ -z "${CTRD_CERTS_D:-}" ] || containerd_allow_http "$REGISTRY"
}

registry_push() {
  skopeo copy -q --dest-tls-verify=false "oci-archive:$1" "docker://$2" >/dev/null
}

registry_push_images() {
  local ref tar=$WORK/push.tar
  for ref in "$@"; do
    kk_make_image "$tar" "$ref" tiny
    registry_push "$tar" "$ref"
  done
  rm -f "$tar"
}

# The registry's access log has one line per request ("127.0.0.1 - - [...] "GET /v2/NAME/blobs/...
# HTTP/1.1" 200 183 "" "containerd/1.6.20~ds1""); these count containerd's (skopeo's pushes are
# left out) for repository NAME, or for all.
# (grep -c: 0 when none, without failing the caller's `set -e -o pipefail`.)
registry_requests() { grep -cE "\"(GET|HEAD) /v2/${1:-[^ ]*}/.*\"containerd/" "$REGISTRY_LOG" || true; }
registry_manifest_gets() {
  grep -cE "\"(GET|HEAD) /v2/${1:-[^ ]*}/manifests/.*\"containerd/" "$REGISTRY_LOG" || true
}
registry_blob_gets() { grep -cE "\"GET /v2/${1:-[^ ]*}/blobs/.*\"containerd/" "$REGISTRY_LOG" || true; }

flaky_proxy_start() {
  local d
  d=$(mktemp -d "$WORK/flaky-XXXXXX")
  FLAKY_LOG=$d/proxy.log
  : >"$FLAKY_LOG"
  "$KK_PY" "$KK_LIB_DIR/flaky_proxy.py" --upstream "$REGISTRY" --fail "$1" --mode "${2:-503}" \
    --port-file "$d/port" --log "$FLAKY_LOG" &
  on_exit "kill $! 2>/dev/null; wait $! 2>/dev/null"
  kk_wait_for "[ -s $d/port ]" 10 || return 1
  FLAKY=127.0.0.1:$(cat "$d/port")
  [ -z "${CTRD_CERTS_D:-}" ] || containerd_allow_http "$FLAKY"
}
