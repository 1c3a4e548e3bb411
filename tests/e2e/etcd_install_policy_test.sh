#!/usr/bin/env bash
# scripts/lib.sh installs Debian's etcd-server without letting it start etcd.service (a host etcd
# on 2379/2380 would fail a real `kkadm init`'s preflight): while apt-get runs, its policy-rc.d
# answers "no" (101) to starting etcd and "yes" (0) to anything else. Checked here on a scratch
# root, with Debian's own deb-systemd-invoke (the package's postinst starts the unit through it)
# reading that policy-rc.d; a policy-rc.d someone else wrote is neither replaced nor removed.
source "$(dirname "$0")/lib/common.sh"
source "$KKADM_SOURCE_DIR/scripts/lib.sh"
ROOT=$WORK/root
mkdir -p "$ROOT/usr/sbin"
KKADM_POLICY_RC=$ROOT/usr/sbin/policy-rc.d

_policy_rc_deny_etcd ""
check "policy-rc.d written, executable" test -x "$KKADM_POLICY_RC"
answer() { local rc=0; "$KKADM_POLICY_RC" "$@" >/dev/null 2>&1 || rc=$?; echo "$rc"; }
assert_eq "invoke-rc.d's question: start etcd" 101 "$(answer etcd start)"
assert_eq "deb-systemd-invoke's question: start etcd.service" 101 "$(answer etcd.service start)"
assert_eq "restart etcd.service" 101 "$(answer etcd.service restart)"
assert_eq "start kubelet.service: allowed, as without a policy" 0 "$(answer kubelet.service start)"
assert_eq "start etcd-backup.service: not etcd" 0 "$(answer etcd-backup.service start)"
if command -v deb-systemd-invoke >/dev/null; then
  # Refused by the policy, deb-systemd-invoke stops before calling systemctl.
  out=$(DPKG_ROOT=$ROOT deb-systemd-invoke start etcd.service 2>&1)
  assert_contains "deb-systemd-invoke does not start etcd.service" "$out" "returned 101, not running"
fi

# The EXIT trap of the install removes ours (the host's etcd.service: "enabled" and "active" passed
# as its state before, so left as it is).
_etcd_service_restore "" enabled active
check "our policy-rc.d removed after the install" test ! -e "$KKADM_POLICY_RC"

# Someone else's policy-rc.d (a Docker image's "exit 101") stays as it is, before and after.
printf '#!/bin/sh\nexit 101\n' >"$KKADM_POLICY_RC"
chmod 0755 "$KKADM_POLICY_RC"
before=$(sha256sum <"$KKADM_POLICY_RC")
_policy_rc_deny_etcd ""
assert_eq "a foreign policy-rc.d is not replaced" "$before" "$(sha256sum <"$KKADM_POLICY_RC")"
_etcd_service_restore "" enabled active
assert_eq "a foreign policy-rc.d is not removed" "$before" "$(sha256sum <"$KKADM_POLICY_RC" 2>&1)"

# Ours left by a killed run (the mark inside) is taken for ours: replaced, then removed.
printf '#!/bin/sh\n# %s\nexit 101\n' "$KKADM_POLICY_MARK" >"$KKADM_POLICY_RC"
_policy_rc_deny_etcd ""
assert_eq "a stale one of ours is replaced" 0 "$(answer kubelet.service start)"
_etcd_service_restore "" enabled active
check "and removed" test ! -e "$KKADM_POLICY_RC"
finish
