#!/usr/bin/env bash
# The build progress of scripts/lib.sh's build_kkadm (what scripts/demo.sh and scripts/test.sh
# show instead of ninja's line per step), with the real cmake and ninja on a small project of
# about 40 steps: in a log, a line per tenth of the build and nothing of ninja's [n/N] lines; on
# a terminal (script(1) gives it one), one line rewritten in place; compiler messages and failures
# pass through unchanged, and a failed build fails build_kkadm.
source "$(dirname "$0")/lib/common.sh"
source "$KKADM_SOURCE_DIR/scripts/lib.sh"
command -v ninja >/dev/null && command -v cmake >/dev/null || { echo "needs cmake and ninja"; exit 77; }

PROJECT=$WORK/project
mkdir -p "$PROJECT"
cat >"$PROJECT/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(progress NONE)
set(outputs)
foreach(i RANGE 1 38)
  add_custom_command(OUTPUT step${i} COMMAND ${CMAKE_COMMAND} -E touch step${i})
  list(APPEND outputs step${i})
endforeach()
add_custom_command(OUTPUT warned COMMAND ${CMAKE_COMMAND} -E echo "lib.cc:1:2: warning: unused x"
                   COMMAND ${CMAKE_COMMAND} -E touch warned)
add_custom_target(everything ALL DEPENDS ${outputs} warned)
add_custom_target(broken COMMAND ${CMAKE_COMMAND} -E echo "lib.cc:3:4: error: no such thing"
                  COMMAND ${CMAKE_COMMAND} -E false)
CMAKE

# ---- in a log (not a terminal) ------------------------------------------------------------------
rc=0
(KKADM_ROOT=$PROJECT KKADM_BUILD=$WORK/build build_kkadm) >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "build_kkadm exit status (stderr: $(cat "$WORK/err"))" 0 "$rc"
check "the build ran (step38 exists)" test -e "$WORK/build/step38"
PROGRESS=$(grep '^==> build: ' "$WORK/err" || true)
check "progress reaches the end" \
  grep -Eq '^==> build: ([0-9]+)/\1 steps \(100%\) after [0-9]+ s$' <<<"$PROGRESS"
lines=$(wc -l <<<"$PROGRESS")
check "a line per tenth of the build at most ($lines lines)" test "$lines" -le 11
check "at least a few progress lines ($lines)" test "$lines" -ge 3
check "no [n/N] line of ninja's on stdout" test -z "$(grep -E '^\[[0-9]+/[0-9]+\]' "$WORK/out" || true)"
assert_contains "a compiler warning passes through" "$(cat "$WORK/out")" "lib.cc:1:2: warning: unused x"
assert_contains "the build is announced" "$(cat "$WORK/err")" \
  "==> building kkadm and its tests in $WORK/build"

# Built already: ninja's own message, no progress.
(KKADM_ROOT=$PROJECT KKADM_BUILD=$WORK/build build_kkadm) >"$WORK/out" 2>"$WORK/err" || rc=$?
assert_eq "build_kkadm with nothing to do" 0 "$rc"
assert_contains "nothing to do, said once" "$(cat "$WORK/out")" "ninja: no work to do."
check "no progress when nothing is built" test -z "$(grep '^==> build: ' "$WORK/err" || true)"

# A failing target: its messages and ninja's FAILED line pass through; build_kkadm fails.
rc=0
(KKADM_ROOT=$PROJECT KKADM_BUILD=$WORK/build build_kkadm broken) >"$WORK/out" 2>"$WORK/err" || rc=$?
check "build_kkadm fails when the build fails" test "$rc" -ne 0
assert_contains "the error passes through" "$(cat "$WORK/out")" "lib.cc:3:4: error: no such thing"
assert_contains "ninja's FAILED line passes through" "$(cat "$WORK/out")" "FAILED:"
assert_contains "only the target asked for is built" "$(cat "$WORK/err")" "==> building broken in "

# ---- on a terminal: one line, rewritten ---------------------------------------------------------
rm -rf "$WORK/build"
if command -v script >/dev/null; then
  rc=0
  build="source '$KKADM_SOURCE_DIR/scripts/lib.sh'; KKADM_ROOT=$PROJECT KKADM_BUILD=$WORK/build build_kkadm"
  script -qec "bash -c \"$build\"" /dev/null >"$WORK/tty" 2>&1 </dev/null || rc=$?
  assert_eq "build_kkadm on a terminal (output: $(cat -v "$WORK/tty"))" 0 "$rc"
  TTY=$(cat -v "$WORK/tty")
  # Every step rewrites the same line (carriage return, erase line); the last says how long it took.
  # Lines: the announcement, the progress line until the warning takes it, the one after.
  lines=$(grep -c '==> build' "$WORK/tty")
  check "at most 3 lines of progress on the terminal ($lines)" test "$lines" -le 3
  rewrites=$(grep -o '\^M\^\[\[K==> build: [0-9]*/[0-9]* ' <<<"$TTY" | wc -l)
  check "steps rewrite the line in place ($rewrites times)" test "$rewrites" -ge 10
  check "the last line: steps and time" \
    grep -Eq '\^M\^\[\[K==> build: [0-9]+ steps in [0-9]+ s' <<<"$TTY"
else
  echo "script(1) is not installed: the terminal case is not checked"
fi
finish
