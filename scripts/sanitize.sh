#!/usr/bin/env bash
# Runs the unit tests under sanitizers, each build in its own directory (scripts/sanitizer_lib.sh):
#   address: every unit test with AddressSanitizer (and LeakSanitizer) + UndefinedBehaviorSanitizer,
#            in build-asan; any report fails the test it happens in.
#   thread:  the tests of the code that runs threads (the write-behind file system of
#            app/util/file_system_real.cc, the key pool of app/util/pki/key_pool*) with
#            ThreadSanitizer, in build-tsan, several times over.
# No suppression file: the only exclusions are the third-party ones listed below, each with why.
# Usage: scripts/sanitize.sh [address|thread|all] (default all)
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/sanitizer_lib.sh"

mode=${1:-all}
case $mode in address | thread | all) ;; *) log "usage: $0 [address|thread|all]"; exit 2 ;; esac
ensure_packages "${KKADM_BUILD_PACKAGES[@]}" "${KKADM_TEST_PACKAGES[@]}" \
  "${KKADM_SANITIZER_PACKAGES[@]}"

# The GoogleTest suites that exercise the threads of file_system_real.cc and key_pool.cc: their
# own tests, and the certs and kubeconfig phases, which take keys from a pool and write behind.
KKADM_THREADED_TESTS='*RealFileSystem*:KeyPoolTest.*:CertsTest.*:KubeconfigFilesTest.*'

run_address() {
  KKADM_BUILD=$KKADM_ASAN_BUILD
  configure_sanitizer_build "$KKADM_BUILD" address
  build_kkadm kkadm_tests
  log "unit tests under AddressSanitizer + UndefinedBehaviorSanitizer"
  run_unit_tests
}

run_thread() {
  KKADM_BUILD=$KKADM_TSAN_BUILD
  configure_sanitizer_build "$KKADM_BUILD" thread
  build_kkadm kkadm_tests
  log "threaded unit tests ($KKADM_THREADED_TESTS) under ThreadSanitizer, 5 times"
  run_unit_tests --gtest_filter="$KKADM_THREADED_TESTS" --gtest_repeat=5
}

[ "$mode" = thread ] || run_address
[ "$mode" = address ] || run_thread
log "sanitizers: no report"
