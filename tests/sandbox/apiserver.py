#!/usr/bin/python3
"""kkadm sandbox: STAND-IN kube-apiserver (not the real one). Speaks the Kubernetes REST API for the
objects kkadm uses, stores them in the real etcd, authenticates by client certificate and bootstrap
token, authorizes with Node + RBAC, and validates every object with tests/validator/validate.js.
Configured from kube-apiserver's own flags (+ --sandbox-rootfs, --sandbox-audit-log). See README.md."""
import json
import os
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import apistatus, bootstrap_policy, common, rbac, resources, tlsserver  # noqa: E402
from lib.etcd import Etcd, EtcdError  # noqa: E402
from lib.handler import make_handler  # noqa: E402
from lib.store import Store  # noqa: E402
from lib.validator import Validator  # noqa: E402

FLAGS = {"advertise-address": None, "secure-port": "6443", "bind-address": None, "tls-cert-file": None,
         "tls-private-key-file": None, "client-ca-file": None, "etcd-servers": None, "etcd-cafile": None,
         "etcd-certfile": None, "etcd-keyfile": None, "enable-bootstrap-token-auth": False,
         "authorization-mode": "Node,RBAC", "anonymous-auth": "true", "sandbox-rootfs": "",
         "sandbox-audit-log": "", "v": "0"}

log = common.setup_logging("kube-apiserver")


class Server:
    """State shared by all request handlers."""

    def __init__(self, flags, rootfs):
        self.flags, self.rootfs = flags, rootfs
        self.etcd = Etcd(flags["etcd-servers"], rootfs.path(flags["etcd-cafile"]),
                         rootfs.path(flags["etcd-certfile"]), rootfs.path(flags["etcd-keyfile"]))
        self.validator = Validator()
        self.store = Store(self.etcd, self.validator)
        self.rbac = rbac.RBAC(self.store)
        self.modes = [m.strip() for m in (flags["authorization-mode"] or "").split(",") if m.strip()]
        self.audit_lock = threading.Lock()
        self.audit_path = flags["sandbox-audit-log"]
        self.version = read_version(rootfs)

    def authorize(self, attrs):
        if "system:masters" in attrs.groups or "AlwaysAllow" in self.modes:
            return True, "system:masters"
        if "Node" in self.modes and rbac.node_authorize(attrs):
            return True, "Node authorizer"
        if "RBAC" in self.modes:
            return self.rbac.authorize(attrs)
        return False, ""

    def audit(self, record):
        if not self.audit_path:
            return
        with self.audit_lock, open(self.audit_path, "a") as f:
            f.write(json.dumps(record, sort_keys=True) + "\n")


def read_version(rootfs):
    """gitVersion from the kube-apiserver static Pod's image tag, else v1.32.0."""
    try:
        with open(rootfs.path("/etc/kubernetes/manifests/kube-apiserver.yaml")) as f:
            m = re.search(r"image:\s*\S*kube-apiserver:(v[0-9][^\s\"']*)", f.read())
            if m:
                return m.group(1)
    except OSError:
        pass
    return "v1.32.0"


def seed(server):
    """Creates the namespaces and bootstrap RBAC policy when absent; reconciles missing rules."""
    store = server.store
    for ns in bootstrap_policy.NAMESPACES:
        if store.get_object("namespaces", "", ns) is None:
            _create_quietly(store, "namespaces", bootstrap_policy.namespace(ns))
    for wanted, res in [(r, "clusterroles") for r in bootstrap_policy.CLUSTER_ROLES] + \
                       [(b, "clusterrolebindings") for b in bootstrap_policy.CLUSTER_ROLE_BINDINGS]:
        stored = store.get_object(res, "", wanted["metadata"]["name"])
        if stored is None:
            _create_quietly(store, res, wanted)
            continue
        updated = bootstrap_policy.reconcile(stored, wanted)
        if updated is not None:
            store.update(resources.BY_NAME[res], "", wanted["metadata"]["name"], updated)
            log.info("reconciled %s %s", res, wanted["metadata"]["name"])


def _create_quietly(store, res, obj):
    try:
        store.create(resources.BY_NAME[res], "", obj)
    except apistatus.StatusError as e:
        if e.code != 409:
            raise


def main(argv):
    common.install_signal_handlers()
    flags = common.parse_flags(argv, FLAGS, "kube-apiserver")
    rootfs = common.Rootfs(flags["sandbox-rootfs"])
    if flags["sandbox-audit-log"]:
        flags["sandbox-audit-log"] = os.path.abspath(flags["sandbox-audit-log"])
    for required in ("etcd-servers", "tls-cert-file", "tls-private-key-file"):
        if not flags[required]:
            log.error("--%s is required", required)
            return 1
    server = Server(flags, rootfs)
    deadline = time.time() + 60
    while not server.etcd.healthy():
        if common.terminating():
            return 0
        if time.time() > deadline:
            log.error("etcd at %s is not reachable", flags["etcd-servers"])
            return 1
        time.sleep(0.2)
    while True:
        try:
            seed(server)
            break
        except (EtcdError, apistatus.StatusError) as e:
            # A StatusError here is a Conflict: another API server sharing the etcd cluster seeds
            # the same objects at the same time. The next round sees its result.
            if isinstance(e, apistatus.StatusError) and e.code != 409:
                raise
            if common.terminating() or time.time() > deadline:
                log.error("cannot seed the bootstrap objects: %s", e)
                return 1
            time.sleep(0.2)
    context = tlsserver.server_context(rootfs.path(flags["tls-cert-file"]),
                                       rootfs.path(flags["tls-private-key-file"]),
                                       rootfs.path(flags["client-ca-file"]) if flags["client-ca-file"] else None)
    port = int(flags["secure-port"])
    hosts = [flags["bind-address"] or flags["advertise-address"] or "0.0.0.0"]
    if hosts[0] not in ("0.0.0.0", "::", "127.0.0.1"):
        hosts.append("127.0.0.1")
    servers = tlsserver.serve_in_threads([(h, port) for h in hosts], make_handler(server), context)
    log.info("stand-in kube-apiserver %s serving on %s port %d", server.version, ",".join(hosts), port)
    common.wait_for_termination()
    tlsserver.stop_all(servers)
    server.validator.close()
    log.info("stand-in kube-apiserver stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
