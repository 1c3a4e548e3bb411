#!/usr/bin/env python3
"""The sandbox's STAND-IN kubelet: static Pods as host processes, healthz, TLS bootstrap, Node.

It takes the real kubelet's flags as kkadm's systemd drop-in and kubeadm-flags.env pass them
(--bootstrap-kubeconfig, --kubeconfig, --config, --container-runtime-endpoint,
--pod-infra-container-image, --hostname-override, --node-ip, --register-with-taints, --v, ...;
unknown flags are logged and ignored) plus the sandbox's own:
  --sandbox-rootfs R     prefix of every node path (or env KKADM_SANDBOX_ROOTFS)
  --sandbox-node-name N  node name when there is no --hostname-override (default: hostname)
  --sandbox-log DIR      where static Pod processes' output goes (default R/var/log/pods)
  --sandbox-repo DIR     kkadm source tree holding tests/sandbox/*.py (default: two levels up)
Exits 0 on SIGTERM/SIGINT after stopping every process it started; 1 on a bad flag or config.
"""

import http.server
import os
import signal
import socket
import sys
import threading
import time

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kubelet_lib import apiclient, bootstrap, log as logmod, node, static_pods, yamlsub  # noqa: E402
from kubelet_lib.log import log  # noqa: E402
from kubelet_lib.paths import Rootfs  # noqa: E402

VALUE_FLAGS = {
    "bootstrap-kubeconfig", "kubeconfig", "config", "container-runtime-endpoint",
    "pod-infra-container-image", "hostname-override", "node-ip", "register-with-taints", "v",
    "cert-dir", "pod-manifest-path", "node-labels", "sandbox-rootfs", "sandbox-node-name",
    "sandbox-log", "sandbox-repo",
}


class UsageError(Exception):
    pass


def parse_flags(argv):
    """pflag-style --name=value / --name value; unknown flags are returned separately."""
    known, unknown = {}, []
    i = 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if not a.startswith("-") or a in ("-", "--"):
            raise UsageError("unexpected argument %r (the kubelet takes no positional arguments)" % a)
        name, eq, value = a.lstrip("-").partition("=")
        if name in VALUE_FLAGS:
            if not eq:
                if i >= len(argv):
                    raise UsageError("flag needs an argument: --%s" % name)
                value = argv[i]
                i += 1
            known[name] = value
            continue
        if not eq and i < len(argv) and not argv[i].startswith("-"):
            value = argv[i]
            i += 1
        unknown.append((name, value))
    return known, unknown


def read_config(path):
    """The KubeletConfiguration fields the stand-in uses."""
    cfg = {"staticPodPath": "", "healthzBindAddress": "127.0.0.1", "healthzPort": 10248, "clientCAFile": ""}
    if not path:
        return cfg
    with open(path) as f:
        doc = yamlsub.load(f.read())
    if not isinstance(doc, dict) or doc.get("kind") != "KubeletConfiguration":
        raise UsageError("%s is not a KubeletConfiguration" % path)
    for k in ("staticPodPath", "healthzBindAddress", "healthzPort"):
        if doc.get(k) not in (None, ""):
            cfg[k] = doc[k]
    cfg["clientCAFile"] = ((doc.get("authentication") or {}).get("x509") or {}).get("clientCAFile") or ""
    return cfg


class _Healthz(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.path.split("?")[0] in ("/healthz", "/healthz/")
        body = b"ok" if ok else b"404 page not found\n"
        self.send_response(200 if ok else 404)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        log("healthz: " + fmt % args, 3)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, addr):
        if ":" in addr[0]:
            self.address_family = socket.AF_INET6
        super().__init__(addr, _Healthz)


class Kubelet:
    def __init__(self, flags, rootfs, stop):
        self.flags = flags
        self.rootfs = rootfs
        self.stop = stop
        self.name = (flags.get("hostname-override") or flags.get("sandbox-node-name")
                     or socket.gethostname()).strip().lower()
        self.store = bootstrap.CertStore(rootfs, flags.get("cert-dir") or "/var/lib/kubelet/pki")
        labels = dict(kv.split("=", 1) for kv in (flags.get("node-labels") or "").split(",") if "=" in kv)
        self.agent = node.NodeAgent(self.name, flags.get("node-ip"),
                                    node.parse_taints(flags.get("register-with-taints")), labels)
        self.said = set()

    def say_once(self, key, msg):
        if key not in self.said:
            self.said.add(key)
            log(msg)

    def connect(self):
        """An API client with the node's identity, bootstrapping one first if needed; or None."""
        kc_node = self.flags.get("kubeconfig")
        if not kc_node:
            self.say_once("standalone", "no --kubeconfig: standalone mode, no API server")
            return None
        kc_host = self.rootfs.host(kc_node)
        boot_node = self.flags.get("bootstrap-kubeconfig")
        boot_host = self.rootfs.host(boot_node) if boot_node else None
        have_boot = bool(boot_host) and os.path.isfile(boot_host) and os.path.getsize(boot_host) > 0
        if os.path.isfile(kc_host) and os.path.getsize(kc_host) > 0:
            try:
                kc = apiclient.Kubeconfig(kc_host, self.rootfs)
                if not have_boot or kc.token() or bootstrap.cert_still_valid(kc):
                    bootstrap.adopt_embedded_certificate(kc, self.store)
                    self.say_once("kc:" + kc_host, "using kubeconfig %s (server %s)" % (kc_node, kc.server))
                    return apiclient.Client(kc)
                self.say_once("kcbad:" + kc_host, "kubeconfig %s has no valid client certificate: bootstrapping" % kc_node)
            except (apiclient.KubeconfigError, OSError) as e:
                if not have_boot:
                    raise
                self.say_once("kcbad:" + kc_host, "kubeconfig %s is unusable (%s): bootstrapping" % (kc_node, e))
        if not have_boot:
            self.say_once("wait-kc", "waiting for %s or %s" % (kc_node, boot_node or "a bootstrap kubeconfig"))
            return None
        boot = apiclient.Kubeconfig(boot_host, self.rootfs)
        self.say_once("boot", "TLS bootstrap with %s against %s" % (boot_node, boot.server))
        if bootstrap.run(self.rootfs, kc_host, boot, self.store, self.name, self.stop):
            return self.connect()
        return None

    def api_loop(self):
        client, last_err, next_beat = None, None, 0.0
        while not self.stop.is_set():
            pause = 0.2
            try:
                if client is None:
                    client = self.connect()
                    if client is None:
                        pause = 1.0
                if client is not None and not self.agent.registered:
                    self.agent.register(client)
                    # Status right away, as the real kubelet does: a server may drop it on create.
                    next_beat = time.monotonic()
                elif client is not None and time.monotonic() >= next_beat:
                    self.agent.heartbeat(client)
                    next_beat = time.monotonic() + 2
                last_err = None
            except OSError as e:
                if str(e) != last_err:
                    log("API server not reachable yet (%s): retrying quietly" % e)
                last_err, pause = str(e), 0.5
            except (apiclient.ApiError, apiclient.KubeconfigError, bootstrap.BootstrapError, ValueError) as e:
                log("API work failed: %s: retrying" % e)
                if isinstance(e, apiclient.ApiError) and e.status in (401, 403):
                    client = None
                last_err, pause = str(e), 2.0
                if isinstance(e, bootstrap.CsrRejected):
                    # The real kubelet exits here; the stand-in starts over with a new key and CSR.
                    self.store.discard_key()
                    pause = 5.0
            except Exception as e:  # noqa: BLE001 - the loop must outlive any surprise
                log("API work failed unexpectedly: %s: %s: retrying" % (type(e).__name__, e))
                client, last_err, pause = None, str(e), 2.0
            self.stop.wait(pause)


def main(argv):
    try:
        flags, unknown = parse_flags(argv)
        logmod.verbosity = int(flags.get("v") or 0)
        rootfs = Rootfs(flags.get("sandbox-rootfs") or os.environ.get("KKADM_SANDBOX_ROOTFS") or "")
        cfg = read_config(rootfs.host(flags.get("config")) if flags.get("config") else "")
    except (UsageError, ValueError, OSError) as e:
        log("error: %s" % e)
        return 1
    for name, value in unknown:
        log("ignoring flag --%s%s (not used by the stand-in)" % (name, "=" + value if value else ""))
    for name in ("container-runtime-endpoint", "pod-infra-container-image"):
        if flags.get(name):
            log("--%s=%s noted (the stand-in runs host processes, no CRI)" % (name, flags[name]), 1)
    repo = os.path.abspath(flags.get("sandbox-repo") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda s, f: stop.set())
    try:
        kubelet = Kubelet(flags, rootfs, stop)
    except ValueError as e:
        log("error: %s" % e)
        return 1
    try:
        server = serve_healthz(cfg)
    except OSError as e:
        log("error: cannot serve healthz on %s:%s: %s" % (cfg["healthzBindAddress"], cfg["healthzPort"], e))
        return 1
    log("node %s, rootfs %s, client CA %s" % (kubelet.name, rootfs.root or "/", cfg["clientCAFile"] or "(none)"))
    manager = None
    pod_path = flags.get("pod-manifest-path") or cfg["staticPodPath"]
    if pod_path:
        log_dir = flags.get("sandbox-log") or rootfs.host("/var/log/pods")
        manager = static_pods.StaticPodManager(rootfs.host(pod_path), rootfs, repo, log_dir)
        log("watching static pod path %s" % rootfs.host(pod_path))
    run_until_stopped(kubelet, manager, server, stop)
    return 0


def serve_healthz(cfg):
    """The healthz server on the configuration's address, serving in a thread; None for port 0."""
    if int(cfg["healthzPort"]) <= 0:
        return None
    server = _Server((cfg["healthzBindAddress"], int(cfg["healthzPort"])))
    threading.Thread(target=server.serve_forever, args=(0.2,), daemon=True).start()
    log("serving healthz on http://%s:%s/healthz" % (cfg["healthzBindAddress"], cfg["healthzPort"]))
    return server


def run_until_stopped(kubelet, manager, server, stop):
    """The API loop in a thread and the static pods synced every 0.1 s until `stop`; then both end."""
    api = threading.Thread(target=kubelet.api_loop, daemon=True)
    api.start()
    while not stop.is_set():
        if manager:
            try:
                manager.sync()
            except Exception as e:  # noqa: BLE001 - never orphan the running static pods
                log("static pod sync failed: %s: %s" % (type(e).__name__, e))
        stop.wait(0.1)
    log("shutting down: stopping static pods")
    if manager:
        manager.stop_all()
    if server:
        server.shutdown()
    api.join(3)
    log("stopped")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
