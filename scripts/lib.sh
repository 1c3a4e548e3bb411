# Shared by scripts/*.sh: install what is missing, build kkadm. Source it; do not run it.
set -euo pipefail

KKADM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KKADM_BUILD=${KKADM_BUILD:-$KKADM_ROOT/build}

# Debian 12 packages the build and the tests use (ccache speeds up rebuilds; the build works without). kubectl comes from kubernetes-client when no
# kubectl is on the machine; node/npm from Debian when none is installed. cloud-init is there for
# `cloud-init schema`, which checks kkadm's user-data (tests/e2e/cloud_init_schema_test.sh).
KKADM_BUILD_PACKAGES=(g++ cmake ninja-build ccache pkg-config libcli11-dev libyaml-cpp-dev nlohmann-json3-dev
  libspdlog-dev libfmt-dev libsystemd-dev libssl-dev libcurl4-openssl-dev libgtest-dev libgmock-dev
  libgrpc++-dev protobuf-compiler-grpc)
# zsh and fish load `kkadm completion zsh|fish` (tests/e2e/command_line_test.sh); dpkg-dev and file
# let the package test compute and check the .deb's dependencies (tests/e2e/package_deb_test.sh).
# containerd, runc, docker-registry, skopeo, busybox-static and Debian's python3-grpcio/grpc-tools
# are the real runtime, registry and independent CRI client of tests/e2e/lib/containerd.sh.
KKADM_TEST_PACKAGES=(clang-format openssl etcd-server etcd-client iproute2 curl util-linux procps python3 cloud-init
  zsh fish dpkg-dev file containerd runc docker-registry skopeo busybox-static python3-grpcio
  python3-grpc-tools)

log() { printf '==> %s\n' "$*" >&2; }

ensure_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  command -v kubectl >/dev/null || missing+=(kubernetes-client)
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  (install_packages_quietly "${missing[@]}")
}

# Debian's etcd-server package enables etcd.service and, on a booted system, starts it at once: a
# host etcd on 127.0.0.1:2379/2380 that nobody asked for. The scripts only want the etcd binary
# (tests and sandbox nodes run their own etcd), and that etcd would outlive them, holding the ports
# a real `kkadm init` on this machine needs (its preflight fails on Port-2379 and Port-2380). So
# during the install a policy-rc.d refuses to start etcd (invoke-rc.d and deb-systemd-invoke ask
# it), and afterwards an etcd.service that the install enabled or started is disabled and stopped.
# An etcd.service enabled or running before is the machine owner's and is left alone. A
# policy-rc.d someone else put there (Docker images have one) is left in place and obeyed.
KKADM_POLICY_RC=/usr/sbin/policy-rc.d
KKADM_POLICY_MARK="written by kkadm's scripts/lib.sh"
install_packages_quietly() {  # PACKAGE... (run it in a subshell: it sets an EXIT trap)
  local sudo="" was_enabled was_active
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  was_enabled=$(systemctl is-enabled etcd.service 2>/dev/null || true)
  was_active=$(systemctl is-active etcd.service 2>/dev/null || true)
  # shellcheck disable=SC2064  # the states before the install are fixed into the trap now
  trap "_etcd_service_restore '$sudo' '$was_enabled' '$was_active'" EXIT
  trap 'exit 130' INT TERM
  _policy_rc_deny_etcd "$sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Writes $KKADM_POLICY_RC: "no" (101) to starting etcd, "yes" (0) to anything else, as no
# policy-rc.d would. One of ours left by a killed run is replaced; anyone else's is kept.
_policy_rc_deny_etcd() {  # SUDO
  [ ! -e "$KKADM_POLICY_RC" ] || grep -qF "$KKADM_POLICY_MARK" "$KKADM_POLICY_RC" || return 0
  printf '#!/bin/sh\n# %s while it installs packages: etcd is not started.\n%s\n' \
    "$KKADM_POLICY_MARK" 'case "$1" in etcd | etcd.service) exit 101 ;; esac; exit 0' |
    $1 tee "$KKADM_POLICY_RC" >/dev/null
  $1 chmod 0755 "$KKADM_POLICY_RC"
}

# Removes our policy-rc.d; disables and stops etcd.service unless it was so before the install.
_etcd_service_restore() {  # SUDO WAS_ENABLED WAS_ACTIVE
  local sudo=$1
  ! grep -qsF "$KKADM_POLICY_MARK" "$KKADM_POLICY_RC" || $sudo rm -f "$KKADM_POLICY_RC"
  if [ "$2" != enabled ] && [ "$(systemctl is-enabled etcd.service 2>/dev/null)" = enabled ]; then
    log "disabling etcd.service, which the etcd-server package enabled"
    $sudo systemctl disable --quiet etcd.service || true
  fi
  if [ "$3" != active ] && [ "$(systemctl is-active etcd.service 2>/dev/null)" = active ]; then
    log "stopping etcd.service, which the etcd-server package started"
    $sudo systemctl stop etcd.service || true
  fi
}

ensure_validator() {
  local dir=$KKADM_ROOT/tests/validator
  [ -f "$dir/package-lock.json" ] || return 0
  [ -d "$dir/node_modules" ] && return 0
  log "installing the Kubernetes schema validator (npm ci)"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

# build_kkadm [TARGET...]: builds TARGETs (default: everything) in $KKADM_BUILD, showing progress
# on stderr (build_progress) and the compilers' messages as they come. A build directory that is
# configured already keeps its settings (ninja re-runs cmake when the lists change) unless
# KKADM_BUILD_TYPE asks for a build type.
build_kkadm() {
  log "building ${*:-kkadm and its tests} in $KKADM_BUILD"
  if [ ! -f "$KKADM_BUILD/CMakeCache.txt" ] || [ -n "${KKADM_BUILD_TYPE:-}" ]; then
    cmake -S "$KKADM_ROOT" -B "$KKADM_BUILD" -G Ninja \
      -DCMAKE_BUILD_TYPE="${KKADM_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
  fi
  local targets=()
  [ $# -eq 0 ] || targets=(--target "$@")
  cmake --build "$KKADM_BUILD" -j "$(nproc)" "${targets[@]}" | build_progress
}

# Filters ninja's output: its "[done/total] step" lines become progress on stderr, everything
# else (compiler warnings, errors, "ninja: no work to do.") passes to stdout unchanged. On a
# terminal the progress is one line, rewritten; otherwise a line per tenth of the build (or when
# a step ends a minute after the last line), so logs (CI, scripts/test.sh) stay short but show the
# build is alive.
build_progress() {
  local line step="" total shown=-1 last=$SECONDS start=$SECONDS tty="" width=100
  if [ -t 2 ]; then
    tty=1
    width=$(stty size <&2 2>/dev/null | cut -d' ' -f2)
    [[ "$width" =~ ^[0-9]+$ ]] && [ "$width" -ge 40 ] || width=100
  fi
  while IFS= read -r line; do
    if [[ "$line" =~ ^\[([0-9]+)/([0-9]+)\]\ (.*)$ ]]; then
      # [0/N]: ninja checking whether cmake must re-run, before any step.
      [ "${BASH_REMATCH[1]}" -gt 0 ] || continue
      step=${BASH_REMATCH[1]} total=${BASH_REMATCH[2]}
      local pct=$((step * 100 / total)) eta=""
      [ "$step" -lt 5 ] || [ "$step" -eq "$total" ] ||
        eta=", about $(((SECONDS - start) * (total - step) / step)) s left"
      if [ -n "$tty" ]; then
        local text="==> build: $step/$total ($pct%)$eta: ${BASH_REMATCH[3]}"
        printf '\r\033[K%s' "${text:0:$((width - 1))}" >&2
      elif [ $((pct / 10)) -ne "$shown" ] || [ $((SECONDS - last)) -ge 60 ]; then
        shown=$((pct / 10)) last=$SECONDS
        printf '==> build: %d/%d steps (%d%%) after %d s%s\n' "$step" "$total" "$pct" \
          $((SECONDS - start)) "$eta" >&2
      fi
    else
      [ -z "$tty" ] || [ -z "$step" ] || printf '\r\033[K' >&2
      printf '%s\n' "$line"
    fi
  done
  [ -z "$tty" ] || [ -z "$step" ] || printf '\r\033[K==> build: %s steps in %d s\n' \
    "$total" $((SECONDS - start)) >&2
  return 0
}

# Runs the GoogleTest binary as `nproc`×2 shards at once (its tests mostly wait on OpenSSL, kubectl
# and loopback servers), with ctest's environment. Prints failures; returns non-zero on any.
run_unit_tests() {
  local shards=$(( $(nproc) * 2 )) dir pids=() status=0
  dir=$(mktemp -d)
  for ((i = 0; i < shards; i++)); do
    GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i KKADM_SOURCE_DIR=$KKADM_ROOT \
      KKADM_RELEASE_URL=https://127.0.0.1:1 "$KKADM_BUILD/tests/kkadm_tests" --gtest_brief=1 "$@" \
      >"$dir/$i.log" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < shards; i++)); do
    wait "${pids[$i]}" || { status=1; cat "$dir/$i.log"; }
  done
  rm -rf "$dir"
  [ $status -eq 0 ] && log "unit tests passed ($shards shards)"
  return $status
}
