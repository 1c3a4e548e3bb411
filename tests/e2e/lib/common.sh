# Shared by tests/e2e/*_test.sh: assertions, scratch directories and cleanup. Source it.
set -euo pipefail

: "${KKADM:?KKADM must point at the kkadm binary}"
KKADM_SOURCE_DIR=${KKADM_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
# kubernetesVersion labels (and the default, stable-1) are looked up over HTTPS (docs/config.md).
# Nothing here may leave the machine: unless the caller names a mirror, lookups go to a closed
# loopback port and fall back to kkadm's version with kubeadm's warnings, as when air-gapped.
export KKADM_RELEASE_URL=${KKADM_RELEASE_URL:-https://127.0.0.1:1}
E2E_NAME=$(basename "$0" .sh)
E2E_FAILURES=0
E2E_CHECKS=0
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kkadm-e2e-$E2E_NAME-XXXXXX")

# Cleanup actions run in reverse order at exit, on success and on failure alike.
E2E_CLEANUPS=()
on_exit() { E2E_CLEANUPS=("$1" "${E2E_CLEANUPS[@]}"); }
run_cleanups() {
  local rc=$?
  for c in "${E2E_CLEANUPS[@]}"; do eval "$c" >/dev/null 2>&1 || true; done
  rm -rf "$WORK"
  return $rc
}
trap run_cleanups EXIT

fail() { echo "FAIL: $*" >&2; E2E_FAILURES=$((E2E_FAILURES + 1)); }
pass() { E2E_CHECKS=$((E2E_CHECKS + 1)); }
check() {  # check "description" command...
  local what=$1; shift
  if "$@"; then pass; else fail "$what"; fi
}
assert_eq() {  # assert_eq "what" expected actual
  if [ "$2" == "$3" ]; then pass; else fail "$1: expected [$2], got [$3]"; fi
}
assert_contains() {  # assert_contains "what" haystack needle
  if [[ "$2" == *"$3"* ]]; then pass; else fail "$1: [$3] not found in: $2"; fi
}
assert_not_contains() {
  if [[ "$2" != *"$3"* ]]; then pass; else fail "$1: [$3] unexpectedly found in: $2"; fi
}

# A listing of every path under DIR with its type, mode and content hash: equal listings mean an
# unchanged tree.
tree_fingerprint() {
  (cd "$1" && find . -printf '%p %y %m\n' | sort && find . -type f -print0 | sort -z | xargs -0r sha256sum)
}

# tree_fingerprint of a node root without kkadm's own state: its journal (/var/lib/kkadm) and
# the status of its last run (/run/kkadm), which every run that touches the node updates.
node_fingerprint() {
  tree_fingerprint "$1" | grep -v -e '^\./var/lib/kkadm' -e '^\./run/kkadm' -e ' \./var/lib/kkadm' -e ' \./run/kkadm'
}

# journal_field ROOT RECORD FIELD: FIELD of each record of kind RECORD ("object", "etcd-member")
# in ROOT's kkadm journal, one per line (each line of the journal is "<checksum> <JSON>").
journal_field() {
  python3 - "$1/var/lib/kkadm/journal" "$2" "$3" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    record = json.loads(line.split(" ", 1)[1])
    if record.get("record") == sys.argv[2]:
        print(record.get(sys.argv[3], ""))
PY
}

finish() {
  echo "$E2E_NAME: $E2E_CHECKS checks passed, $E2E_FAILURES failed"
  [ "$E2E_FAILURES" -eq 0 ]
}
