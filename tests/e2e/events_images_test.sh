#!/usr/bin/env bash
# `kkadm config images pull -o json` and `--events FILE` against a real containerd and a loopback
# registry (lib/containerd.sh), every event checked with Ajv (lib/events_validator.sh): through a
# registry failing its first requests, stdout is JSON Lines only, each retry a Retry event (what
# image-pull) and each image an ImagePull event (pulled), the human lines on stderr; a second pull
# with --events keeps kubeadm's lines on stdout and says each image is present.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/containerd.sh"
kk_require_runtime_tools
source "$(dirname "$0")/lib/events_validator.sh"

count() {  # FILE KIND KEY=VALUE: how many events of KIND whose KEY is VALUE
  python3 - "$@" <<'PY'
import json, sys
path, kind, match = sys.argv[1:]
key, value = match.split("=", 1)
print(sum(1 for l in open(path) if (e := json.loads(l))["kind"] == kind and str(e.get(key)) == value))
PY
}

containerd_start
registry_start
SOCK=unix://$CTRD_SOCK
mapfile -t IMAGES < <("$KKADM" config images list --image-repository "$REGISTRY" 2>/dev/null)
assert_eq "seven images" 7 "${#IMAGES[@]}"
registry_push_images "${IMAGES[@]}"

# ---- 1. -o json through a registry failing 4 requests ------------------------------------------
flaky_proxy_start 4 503
rc=0
timeout 120 "$KKADM" config images pull --cri-socket "$SOCK" --image-repository "$FLAKY" -o json \
  >"$WORK/pull.jsonl" 2>"$WORK/pull.err" || rc=$?
assert_eq "pull -o json exits 0 ($(tail -3 "$WORK/pull.err"))" 0 "$rc"
check "stdout is JSON Lines only" \
  python3 -c 'import json, sys; [json.loads(l)["kind"] for l in open(sys.argv[1])]' "$WORK/pull.jsonl"
validate_events "config images pull's events" "$WORK/pull.jsonl"
assert_eq "each image pulled is an event" 7 "$(count "$WORK/pull.jsonl" ImagePull result=pulled)"
assert_eq "each retry is an event" 2 "$(count "$WORK/pull.jsonl" Retry what=image-pull)"
RETRY=$(grep -m1 '"kind":"Retry"' "$WORK/pull.jsonl")
assert_contains "the retry names the image" "$RETRY" "\"reason\":\"${IMAGES[0]/$REGISTRY/$FLAKY}: "
assert_contains "  ... and the registry's answer" "$RETRY" "503 Service Unavailable"
assert_contains "  ... and its pause" "$RETRY" '"delaySeconds":1.0'
assert_contains "the command is named" "$(head -1 "$WORK/pull.jsonl")" '"command":"config images pull"'
assert_contains "kubeadm's lines went to stderr" "$(cat "$WORK/pull.err")" \
  "[config/images] Pulled ${IMAGES[0]/$REGISTRY/$FLAKY}"

# ---- 2. --events keeps stdout ------------------------------------------------------------------
rc=0
"$KKADM" config images pull --cri-socket "$SOCK" --image-repository "$FLAKY" \
  --events "$WORK/again.events" >"$WORK/again.out" 2>"$WORK/again.err" || rc=$?
assert_eq "second pull exits 0 ($(tail -3 "$WORK/again.err"))" 0 "$rc"
assert_eq "stdout is kubeadm's lines" \
  "$(printf '[config/images] Image %s already present on machine\n' "${IMAGES[@]/$REGISTRY/$FLAKY}")" \
  "$(cat "$WORK/again.out")"
validate_events "the second pull's events" "$WORK/again.events"
assert_eq "each image present is an event" 7 "$(count "$WORK/again.events" ImagePull result=present)"
assert_eq "the run succeeded" 1 "$(count "$WORK/again.events" CommandFinished result=succeeded)"
finish
