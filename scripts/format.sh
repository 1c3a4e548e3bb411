#!/usr/bin/env bash
# Formats kkadm's C++ sources with clang-format (.clang-format: Google style, 100 columns; Debian
# 12's clang-format 14). Usage: scripts/format.sh [--check]
# --check changes nothing: it lists the files clang-format would change and fails if there are any
# (ctest runs it as lint.clang_format).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  echo "scripts/format.sh: clang-format is not installed (apt-get install clang-format)" >&2
  exit 1
fi
sources() { find app cmd tests bench \( -name '*.cc' -o -name '*.h' \) -not -path '*/node_modules/*' -print0; }
if [ "${1:-}" != --check ]; then
  sources | xargs -0 -P "$(nproc)" -n 40 clang-format -i
  exit 0
fi
unformatted=$(sources | xargs -0 -P "$(nproc)" -n 40 clang-format --dry-run 2>&1 |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
[ -z "$unformatted" ] && exit 0
echo "not clang-formatted (run scripts/format.sh):" >&2
echo "$unformatted" >&2
exit 1
