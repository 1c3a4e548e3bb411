#!/usr/bin/env bash
# The runtime harness other e2e tests stand on (tests/e2e/lib/containerd.sh): a real containerd
# with its CRI plugin on a private socket, a loopback registry, the flaky proxy and the
# independent CRI client work, and nothing they started outlives the test.
source "$(dirname "$0")/lib/common.sh"
source "$(dirname "$0")/lib/containerd.sh"

containerd_start
registry_start

version=$(cri version)
assert_contains "CRI Version answers" "$version" '"runtimeName": "containerd"'
assert_contains "CRI v1" "$version" '"runtimeApiVersion": "v1"'
check "the sandbox image is present" cri image-status "$CTRD_SANDBOX_IMAGE"
assert_contains "pause image in ctr" "$(ctrd_ctr images ls -q)" "$CTRD_SANDBOX_IMAGE"

registry_push_images "$REGISTRY/kube-proxy:v1.32.0"
check "pull from the loopback registry over HTTP" cri pull "$REGISTRY/kube-proxy:v1.32.0"
assert_contains "pulled image in ctr" "$(ctrd_ctr images ls -q)" "$REGISTRY/kube-proxy:v1.32.0"
assert_eq "blobs fetched by containerd" 2 "$(registry_blob_gets kube-proxy)"

pod=$(cri run-pod etcd-node1 --namespace kube-system)
kk_make_image "$WORK/busybox.tar" docker.io/kkadm/busybox:test busybox
ctrd_ctr images import "$WORK/busybox.tar" >/dev/null
container=$(cri create-container "$pod" etcd docker.io/kkadm/busybox:test /bin/sh -c 'sleep 600')
assert_contains "sandbox listed" "$(cri pods)" "\"id\": \"$pod\", \"name\": \"etcd-node1\""
assert_contains "container running" "$(cri containers)" "\"id\": \"$container\""
assert_contains "container running" "$(cri containers)" '"state": "CONTAINER_RUNNING"'

flaky_proxy_start 2 503
registry_push_images "$REGISTRY/coredns:v1.11.3"
# containerd tries a failing manifest request twice within one pull: two failures fail one pull.
out=$(cri pull "$FLAKY/coredns:v1.11.3" 2>&1) && fail "first pull through the proxy succeeded"
assert_contains "a 503 is containerd's error" "$out" "503 Service Unavailable"
check "the next pull through the proxy succeeds" cri pull "$FLAKY/coredns:v1.11.3"
assert_eq "proxy failed two connections" 2 "$(grep -c '^fail 503' "$FLAKY_LOG")"

# Cleanup stops containerd's shims and leaves no mount and no cgroup of the test behind.
no_shim_left() { ! pgrep -f -- "containerd-shim-runc-v2 .*-address $CTRD_SOCK" >/dev/null; }
no_mount_left() { ! grep -q " $CTRD_DIR/" /proc/self/mountinfo; }
no_cgroup_left() { ! find /sys/fs/cgroup -type d -path "*$KK_CRI_CGROUP_PARENT*" | grep -q .; }
if no_shim_left; then fail "no shim ran while containers did"; else pass; fi
containerd_stop
check "no shim left" no_shim_left
check "no mount left" no_mount_left
check "no cgroup left" no_cgroup_left
finish
