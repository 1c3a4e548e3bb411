#!/usr/bin/env bash
# The developer's loop: rebuilds what changed and runs every unit test, sharded over the cores.
# Usage: scripts/unit.sh [--gtest_filter=Pattern]      (e2e tests: scripts/test.sh -L e2e)
source "$(dirname "$0")/lib.sh"
build_kkadm
run_unit_tests "$@"
