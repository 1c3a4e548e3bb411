#!/usr/bin/env bash
# Runs EtcdJoinRealTest (tests/phases/join/etcd_join_real_test.cc) inside a fresh network namespace:
# the real etcd 3.4, a learner added through kkadm's etcd client, started from the manifest kkadm
# writes for a joining control-plane node, promoted, and checked with etcdctl (2 voting members).
source "$(dirname "$0")/lib/common.sh"
[ "$(id -u)" -eq 0 ] || { echo "needs root (network namespaces)"; exit 77; }
command -v etcd >/dev/null && command -v etcdctl >/dev/null || { echo "etcd is not installed"; exit 77; }
TESTS=$(dirname "$KKADM")/tests/kkadm_tests
[ -x "$TESTS" ] || { echo "no test binary at $TESTS"; exit 1; }

NS=kkadm-etcdjoin-$$
ip netns add "$NS"
on_exit "ip netns del '$NS'"
ip -n "$NS" link set lo up
rc=0
ip netns exec "$NS" env KKADM_ETCD_JOIN_NETNS=1 "$TESTS" --gtest_filter='EtcdJoinRealTest.*' >"$WORK/gtest.out" 2>&1 || rc=$?
cat "$WORK/gtest.out"
assert_eq "EtcdJoinRealTest exit code" 0 "$rc"
assert_contains "the test ran (not skipped)" "$(cat "$WORK/gtest.out")" "[  PASSED  ] 1 test"
assert_not_contains "nothing was skipped" "$(cat "$WORK/gtest.out")" "SKIPPED"
finish
