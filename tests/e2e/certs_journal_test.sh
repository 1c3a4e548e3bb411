#!/usr/bin/env bash
# `kkadm certs renew` on a node with kkadm's journal records its run there (command "certs renew",
# a phase renew/<name> per renewed item with the files it replaced), so `kkadm status` shows the
# renewal; on a node without a journal (built by kubeadm) it makes none.
source "$(dirname "$0")/lib/common.sh"

cat > "$WORK/cfg.yaml" <<CFG
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration: {name: node-1}
localAPIEndpoint: {advertiseAddress: 127.0.0.1}
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
CFG
R=$WORK/node; mkdir -p "$R"
"$KKADM" init phase certs all --rootfs "$R" --config "$WORK/cfg.yaml" >/dev/null 2>&1 ||
  fail "init phase certs failed"
check "init made a journal" test -f "$R/var/lib/kkadm/journal"
out=$("$KKADM" certs renew apiserver --rootfs "$R" --config "$WORK/cfg.yaml" 2>&1) || fail "renew: $out"
out=$("$KKADM" certs renew front-proxy-client --rootfs "$R" --config "$WORK/cfg.yaml" 2>&1) ||
  fail "renew: $out"
text=$("$KKADM" status --rootfs "$R")
assert_contains "status names the renewal run" "$text" "certs renew: 2 runs"
check "status: renew/apiserver done, 2 files" grep -qE '^renew/apiserver +done .* 2 files +-$' <<<"$text"
check "status: renew/front-proxy-client done" grep -qE '^renew/front-proxy-client +done ' <<<"$text"
res=$("$KKADM" status --rootfs "$R" -o json | python3 -c '
import json, sys
d = json.load(sys.stdin)
runs = [r for r in d["runs"] if r["command"] == "certs renew"]
assert len(runs) == 2, runs
names = sorted(json.dumps(p) for p in d["phases"] if p.get("command") == "certs renew")
assert len(names) == 2 and all("\"done\"" in n and "\"files\": 2" in n for n in names), names
print("ok")' 2>&1)
assert_eq "status -o json: two runs, each item done with 2 files" ok "$res"
# No drift: the journal knows the renewed files as the renewal left them.
assert_not_contains "no drift after a renewal" "$text" "Files changed or missing"
# A kubeadm node (no journal): the renewal makes none.
rm -rf "$R/var/lib/kkadm"
out=$("$KKADM" certs renew all --rootfs "$R" --config "$WORK/cfg.yaml" 2>&1) || fail "renew all: $out"
check "no journal made on a node without one" test ! -e "$R/var/lib/kkadm"
# Without a journal the node's lock is still taken: a renewal while another kkadm command holds it
# (flock on the node root, as kkadm's lock) fails at once and writes nothing.
sums=$(cd "$R/etc/kubernetes" && find . -type f | sort | xargs sha256sum)
rc=0; out=$(flock "$R" "$KKADM" certs renew all --rootfs "$R" --config "$WORK/cfg.yaml" 2>&1) || rc=$?
check "renew under another command's lock fails ($out)" test "$rc" -ne 0
assert_contains "... saying so" "$out" "another kkadm command is changing this node"
assert_eq "... and writes nothing" "$sums" "$(cd "$R/etc/kubernetes" && find . -type f | sort | xargs sha256sum)"
finish
