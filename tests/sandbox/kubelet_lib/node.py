"""The Node object: registration and status heartbeat (stand-in kubelet)."""

import datetime
import os
import platform
import re
import socket
import struct
import fcntl

from . import apiclient
from .log import log

KUBELET_VERSION = "v1.32.0"
RUNTIME_VERSION = "sandbox://stand-in"


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_taints(spec):
    """--register-with-taints: key[=value]:Effect, comma-separated."""
    taints = []
    for item in filter(None, (s.strip() for s in (spec or "").split(","))):
        m = re.match(r"^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$", item)
        if not m:
            raise ValueError("invalid taint %r (want key[=value]:Effect)" % item)
        t = {"key": m.group(1), "effect": m.group(3)}
        if m.group(2):
            t["value"] = m.group(2)
        taints.append(t)
    return taints


def _iface_ipv4(name):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        req = struct.pack("256s", name.encode()[:15])
        return socket.inet_ntoa(fcntl.ioctl(s.fileno(), 0x8915, req)[20:24])  # SIOCGIFADDR
    except OSError:
        return None
    finally:
        s.close()


def default_node_ip():
    """The first non-loopback IPv4 address of this network namespace, else 127.0.0.1."""
    for _, name in socket.if_nameindex():
        ip = _iface_ipv4(name)
        if ip and not ip.startswith("127."):
            return ip
    # Addresses added to lo (netns test nodes) count too when they are not loopback ones.
    try:
        with open("/proc/net/fib_trie") as f:
            text = f.read()
        for m in re.finditer(r"\|-- (\d+\.\d+\.\d+\.\d+)\n\s+/32 host LOCAL", text):
            if not m.group(1).startswith("127."):
                return m.group(1)
    except OSError:
        pass
    return "127.0.0.1"


def _read(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def _capacity():
    mem_kib = 0
    for line in _read("/proc/meminfo").splitlines():
        if line.startswith("MemTotal:"):
            mem_kib = int(line.split()[1])
    return {"cpu": str(os.cpu_count() or 1), "memory": "%dKi" % mem_kib, "pods": "110"}


def _os_image():
    for line in _read("/etc/os-release").splitlines():
        if line.startswith("PRETTY_NAME="):
            return line.split("=", 1)[1].strip('"')
    return "Linux"


def conditions(stamp, transition):
    def cond(type_, status, reason, message):
        return {"type": type_, "status": status, "reason": reason, "message": message,
                "lastHeartbeatTime": stamp, "lastTransitionTime": transition}
    return [
        cond("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
        cond("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        cond("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        cond("Ready", "True", "KubeletReady", "kubelet is posting ready status (sandbox stand-in kubelet)"),
    ]


class NodeAgent:
    """Registers Node <name> once, then keeps its Ready condition fresh."""

    def __init__(self, name, node_ip, taints, labels=None):
        self.name = name
        self.labels = dict(labels or {})
        self.node_ip = node_ip or default_node_ip()
        self.taints = taints
        self.registered = False
        self.transition = now()
        self.patch_type = "application/strategic-merge-patch+json"

    def status(self):
        machine_id = _read("/etc/machine-id", "0" * 32)
        cap = _capacity()
        return {
            "conditions": conditions(now(), self.transition),
            "addresses": [{"type": "InternalIP", "address": self.node_ip},
                          {"type": "Hostname", "address": self.name}],
            "capacity": cap,
            "allocatable": dict(cap),
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {
                "machineID": machine_id, "systemUUID": machine_id,
                "bootID": _read("/proc/sys/kernel/random/boot_id", "unknown"),
                "kernelVersion": platform.release(), "osImage": _os_image(),
                "containerRuntimeVersion": RUNTIME_VERSION, "kubeletVersion": KUBELET_VERSION,
                "kubeProxyVersion": "", "operatingSystem": "linux", "architecture": "amd64",
            },
        }

    def node(self):
        spec = {"taints": self.taints} if self.taints else {}
        labels = {
            "beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
            "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": self.name,
            "kubernetes.io/os": "linux",
        }
        labels.update(self.labels)
        return {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "name": self.name,
                "labels": labels,
                "annotations": {"volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            },
            "spec": spec,
            "status": self.status(),
        }

    def register(self, client):
        status, body = client.request("POST", "/api/v1/nodes", self.node())
        if status in (200, 201):
            log("registered Node %s (InternalIP %s, Ready)" % (self.name, self.node_ip))
        elif status == 409:
            log("Node %s exists already: keeping it" % self.name)
        else:
            raise apiclient.ApiError(status, body)
        self.registered = True

    def heartbeat(self, client):
        """PATCHes nodes/<name>/status (strategic merge, else merge patch, else GET + PUT)."""
        path = "/api/v1/nodes/%s/status" % self.name
        patch = {"status": self.status()}
        while self.patch_type:
            status, body = client.request("PATCH", path, patch, self.patch_type)
            if status == 200:
                log("node status updated (Ready, heartbeat)", 2)
                return
            if status == 404 and not self.exists(client):
                log("Node %s is gone: registering it again" % self.name)
                self.registered = False
                return
            if status not in (400, 404, 405, 415):
                raise apiclient.ApiError(status, body)
            log("PATCH %s as %s answered %d: trying the next way" % (path, self.patch_type, status), 1)
            self.patch_type = {"application/strategic-merge-patch+json": "application/merge-patch+json"}.get(
                self.patch_type)
        current = client.call("GET", "/api/v1/nodes/" + self.name)
        current["status"] = dict(current.get("status") or {}, **self.status())
        client.call("PUT", path, current)
        log("node status updated with PUT (Ready, heartbeat)", 2)

    def exists(self, client):
        status, body = client.request("GET", "/api/v1/nodes/" + self.name)
        if status == 404:
            return False
        if status != 200:
            raise apiclient.ApiError(status, body)
        return True
