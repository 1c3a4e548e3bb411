#!/usr/bin/env bash
# Runs kkadm's fuzz targets (tests/fuzz/) under libFuzzer with AddressSanitizer and
# UndefinedBehaviorSanitizer, built with clang in build-asan (scripts/sanitizer_lib.sh), each for
# MINUTES (default 10), KKADM_FUZZ_JOBS targets at once (default 1). Each target starts from its
# seed corpus and regressions (tests/fuzz/corpus/, tests/fuzz/regressions/) plus what earlier runs
# found (build-asan/fuzz/corpus/<target>, kept between runs). An input that crashes, leaks, runs
# out of memory (2 GiB) or takes more than 10 s is saved in build-asan/fuzz/artifacts/<target>/:
# after the fix, copy it to tests/fuzz/regressions/<target>/. Prints executions, coverage and
# findings per target; fails when anything was found.
# Usage: scripts/fuzz.sh [minutes] [target...]
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sanitizer_lib.sh"

minutes=${1:-10}
[[ "$minutes" =~ ^[0-9]+$ ]] && [ "$minutes" -gt 0 ] || { log "usage: $0 [minutes] [target...]"; exit 2; }
shift || true
fuzz_dir=$KKADM_ROOT/tests/fuzz
read -r -a known < <(sed -n 's/^set(KKADM_FUZZ_TARGETS \(.*\))$/\1/p' "$fuzz_dir/CMakeLists.txt")
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${known[@]}")
for t in "${targets[@]}"; do
  [[ " ${known[*]} " == *" $t "* ]] || { log "unknown fuzz target '$t' (known: ${known[*]})"; exit 2; }
done

ensure_packages "${KKADM_BUILD_PACKAGES[@]}" "${KKADM_SANITIZER_PACKAGES[@]}"
KKADM_BUILD=$KKADM_ASAN_BUILD
configure_sanitizer_build "$KKADM_BUILD" address
build_kkadm "${targets[@]/#/kkadm_fuzz_}"

out=$KKADM_BUILD/fuzz
# fuzz_one TARGET: one libFuzzer run; its log is $out/TARGET.log.
fuzz_one() {
  local t=$1 work=$out/corpus/$1 artifacts=$out/artifacts/$1 dirs=() d
  mkdir -p "$work" "$artifacts"
  # libFuzzer stops at a directory that does not exist: a target may have no regressions yet.
  for d in "$fuzz_dir/corpus/$t" "$fuzz_dir/regressions/$t"; do [ ! -d "$d" ] || dirs+=("$d"); done
  "$KKADM_BUILD/tests/fuzz/kkadm_fuzz_$t" -max_total_time=$((minutes * 60)) -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" \
    "$work" "${dirs[@]}" >"$out/$t.log" 2>&1 || true
}

mkdir -p "$out"
jobs_at_once=${KKADM_FUZZ_JOBS:-1}
log "fuzzing ${targets[*]}: $minutes min each, $jobs_at_once at once"
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  log "fuzzing $t"
  fuzz_one "$t" &
done
wait

# The last status line of a run ("#123 DONE cov: 456 ft: 789 corp: 12/3Kb ...") and its stats.
found=0
printf '%-18s %12s %8s %8s %10s %9s\n' target executions cov ft corpus findings
for t in "${targets[@]}"; do
  status=$(grep -E '^#[0-9]+' "$out/$t.log" | tail -1 || true)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log")
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$status")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$status")
  findings=$(find "$out/artifacts/$t" -type f | wc -l)
  found=$((found + findings))
  printf '%-18s %12s %8s %8s %10s %9s\n' "$t" "${runs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" \
    "$findings"
done
[ "$found" -eq 0 ] || { log "findings in $out/artifacts (logs: $out/<target>.log)"; exit 1; }
