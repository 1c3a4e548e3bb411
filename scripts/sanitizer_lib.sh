# Shared by scripts/sanitize.sh and scripts/fuzz.sh: clang builds with sanitizers, each in its own
# build directory beside build/. Source it after lib.sh; do not run it.
#
# build-asan: AddressSanitizer + UndefinedBehaviorSanitizer (every UB report is fatal), the code
# also instrumented for libFuzzer (-fsanitize=fuzzer-no-link: coverage counters, which plain
# binaries such as the unit tests ignore), so that the unit tests (sanitize.sh) and the fuzz
# targets (fuzz.sh) share one build. build-tsan: ThreadSanitizer.
# Both link Debian's shared libraries (KKADM_STATIC_DEPS=OFF): a sanitizer runtime must own
# malloc and operator new, which a statically linked libstdc++ would also define. Optimised at -O1
# (the unit tests' own files stay at -O0), frame pointers kept for the reports' stacks.

KKADM_SANITIZER_PACKAGES=(clang-14 libclang-rt-14-dev)
KKADM_ASAN_BUILD=${KKADM_ASAN_BUILD:-$KKADM_ROOT/build-asan}
KKADM_TSAN_BUILD=${KKADM_TSAN_BUILD:-$KKADM_ROOT/build-tsan}

# Reports stop the test at once, with a stack; leaks are checked at exit (LeakSanitizer).
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}

# configure_sanitizer_build DIR address|thread: configures DIR once (a configured one is kept).
configure_sanitizer_build() {
  local dir=$1 flags="-O1 -g -fno-omit-frame-pointer" fuzz=OFF
  case $2 in
    address)
      flags+=" -fsanitize=address,undefined -fno-sanitize-recover=undefined"
      flags+=" -fsanitize=fuzzer-no-link"
      fuzz=ON
      ;;
    thread) flags+=" -fsanitize=thread" ;;
    *) log "unknown sanitizer build '$2'" && return 1 ;;
  esac
  [ -f "$dir/CMakeCache.txt" ] && return 0
  log "configuring $dir ($2 sanitizer, clang-14)"
  cmake -S "$KKADM_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_CXX_FLAGS="$flags" \
    -DKKADM_STATIC_DEPS=OFF -DKKADM_FUZZ=$fuzz >/dev/null
}
