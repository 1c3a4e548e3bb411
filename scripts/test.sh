#!/usr/bin/env bash
# Installs what is missing, builds kkadm, and runs every test (unit and end-to-end) through ctest.
# Usage: scripts/test.sh [ctest arguments, e.g. -R e2e]
source "$(dirname "$0")/lib.sh"
ensure_packages "${KKADM_BUILD_PACKAGES[@]}" "${KKADM_TEST_PACKAGES[@]}"
ensure_validator
build_kkadm
cd "$KKADM_BUILD"
ctest --output-on-failure -j "$(nproc)" "$@"
