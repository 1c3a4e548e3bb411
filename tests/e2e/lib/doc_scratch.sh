#!/usr/bin/env bash
# Runs one command as on a freshly prepared node, for tests/e2e/docs_pages_test.sh: run it under
# `unshare -n -u -m --propagation private`, so that everything below stays in private namespaces:
#   - the hostname is HOSTNAME;
#   - the network has lo and eth0 (a veth with 192.168.1.10/24 and the default route, so init
#     finds its advertise address as on a real node), net.ipv4.ip_forward is IP_FORWARD, and
#     nothing listens on any port unless LISTEN_PORT is given (a python3 listener is started);
#   - /run/containerd and /run/dbus are empty tmpfs when the host has them: the test's "node"
#     has no container runtime and no systemd, on every machine, and never reaches the host's.
# Usage: doc_scratch.sh HOSTNAME IP_FORWARD LISTEN_PORT|- -- COMMAND...
set -euo pipefail
hostname "$1"
echo "$2" > /proc/sys/net/ipv4/ip_forward
listen=$3
shift 4
ip link set lo up
ip link add eth0 type veth peer name eth1
ip addr add 192.168.1.10/24 dev eth0
ip link set eth1 up
ip link set eth0 up
ip route add default dev eth0
for dir in /run/containerd /run/dbus; do [ ! -d "$dir" ] || mount -t tmpfs none "$dir"; done
unset DBUS_SYSTEM_BUS_ADDRESS KKADM_SYSTEM_BUS_ADDRESS
if [ "$listen" != - ]; then
  python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_INET6)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
s.bind(("::", int(sys.argv[1])))
s.listen()
time.sleep(600)' "$listen" &
  trap 'kill $! 2>/dev/null' EXIT
  for _ in $(seq 1 50); do
    python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' \
      "$listen" 2>/dev/null && break
    sleep 0.1
  done
fi
"$@"
