"""Static Pods as host processes (stand-in kubelet).

Every *.yaml / *.yml / *.json Pod manifest in the static Pod directory runs its first container's
command (+ args) as a host process: etcd is the real /usr/bin/etcd; kube-apiserver,
kube-controller-manager and kube-scheduler are the sandbox stand-ins (python3
tests/sandbox/<name>.py <flags> --sandbox-rootfs R); anything else runs as written. For commands
that are not stand-ins, every `--flag=/path` (or bare `/path`) argument under one of the Pod's
hostPath volumes gets the rootfs prefix. A process that exits is restarted with backoff
(0.2 s doubling to 5 s); a changed manifest restarts it; a removed one stops it.
"""

import ctypes
import hashlib
import os
import signal
import subprocess
import sys
import time

from . import yamlsub
from .log import log

STAND_INS = {
    "kube-apiserver": "apiserver.py",
    "kube-controller-manager": "controller_manager.py",
    "kube-scheduler": "scheduler.py",
}
BACKOFF_MIN = 0.2
BACKOFF_MAX = 5.0
STOP_GRACE = 5.0


class PodError(ValueError):
    pass


_PR_SET_PDEATHSIG = 1


def _die_with_kubelet(parent_pid):
    """preexec_fn: SIGTERM the child when the kubelet dies, even by SIGKILL, so that no static
    Pod process outlives a sandbox kubelet and holds its ports (systemd would do this for a
    kubelet it runs; a kubelet started by a test has no one else to do it)."""
    def preexec():
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent_pid:
            os._exit(1)
    return preexec


def _under(path, root):
    root = root.rstrip("/") or "/"
    return path == root or path.startswith(root + "/") or root == "/"


def _prefix_arg(arg, host_paths, rootfs):
    if not rootfs.root:
        return arg
    if arg.startswith("-") and "=" in arg:
        flag, value = arg.split("=", 1)
        if value.startswith("/") and any(_under(value, h) for h in host_paths):
            return flag + "=" + rootfs.host(value)
        return arg
    if arg.startswith("/") and any(_under(arg, h) for h in host_paths):
        return rootfs.host(arg)
    return arg


def build_spec(pod, rootfs, repo):
    """(name, argv, env, hostPath volumes) for a parsed Pod; PodError when it cannot run."""
    if not isinstance(pod, dict) or pod.get("kind") != "Pod":
        raise PodError("not a Pod (kind %r)" % (pod or {}).get("kind") if isinstance(pod, dict) else "not a map")
    meta = pod.get("metadata") or {}
    name = "%s/%s" % (meta.get("namespace") or "default", meta.get("name") or "?")
    containers = (pod.get("spec") or {}).get("containers") or []
    if not containers:
        raise PodError("Pod %s has no containers" % name)
    c = containers[0]
    cmd = [str(x) for x in (c.get("command") or []) + (c.get("args") or [])]
    if not cmd:
        raise PodError("Pod %s: container %s has no command (image entrypoints cannot run here)" % (
            name, c.get("name")))
    host_paths = [((v.get("hostPath") or {}).get("path"), (v.get("hostPath") or {}).get("type") or "")
                  for v in (pod.get("spec") or {}).get("volumes") or [] if v.get("hostPath")]
    base = os.path.basename(cmd[0])
    if base in STAND_INS:
        argv = [sys.executable, os.path.join(repo, "tests", "sandbox", STAND_INS[base])] + cmd[1:]
        if rootfs.root:
            argv += ["--sandbox-rootfs", rootfs.root]
    else:
        exe = "/usr/bin/etcd" if base == "etcd" and os.path.exists("/usr/bin/etcd") else cmd[0]
        paths = [p for p, _ in host_paths if p]
        argv = [exe] + [_prefix_arg(a, paths, rootfs) for a in cmd[1:]]
    env = {}
    for e in c.get("env") or []:
        if "value" in e:
            env[str(e["name"])] = "" if e["value"] is None else str(e["value"])
        else:
            log("Pod %s: env %s has no literal value (valueFrom is not supported): skipped" % (name, e.get("name")))
    return name, c.get("name") or "container", argv, env, host_paths


def prepare_host_paths(host_paths, rootfs):
    for path, typ in host_paths:
        if not path:
            continue
        target = rootfs.host(path)
        if typ == "DirectoryOrCreate" and not os.path.exists(target):
            os.makedirs(target, mode=0o755, exist_ok=True)
            log("created hostPath directory %s" % target, 1)
        elif typ == "FileOrCreate" and not os.path.exists(target):
            os.makedirs(os.path.dirname(target), exist_ok=True)
            open(target, "a").close()


class StaticPod:
    """One manifest's process: started, watched, restarted, stopped."""

    def __init__(self, path, digest, spec, log_dir):
        self.path = path
        self.digest = digest
        self.name, self.container, self.argv, self.env, self.host_paths = spec
        self.log_path = os.path.join(log_dir, "%s_%s.log" % (self.name.replace("/", "_"), self.container))
        self.proc = None
        self.backoff = BACKOFF_MIN
        self.next_start = 0.0
        self.started_at = 0.0
        self.restarts = 0

    def start(self):
        env = dict(os.environ)
        env.update(self.env)
        os.makedirs(os.path.dirname(self.log_path), exist_ok=True)
        with open(self.log_path, "ab") as out:
            out.write(("==== %s starting: %s\n" % (time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                                   " ".join(self.argv))).encode())
            out.flush()
            try:
                self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=out,
                                             stderr=subprocess.STDOUT, env=env, start_new_session=True,
                                             preexec_fn=_die_with_kubelet(os.getpid()))
            except OSError as e:
                log("static pod %s: cannot start %s: %s" % (self.name, self.argv[0], e))
                self.schedule_restart()
                return
        self.started_at = time.monotonic()
        log("static pod %s: started %s (pid %d, log %s)" % (self.name, self.argv[0], self.proc.pid, self.log_path))

    def schedule_restart(self):
        self.next_start = time.monotonic() + self.backoff
        self.backoff = min(self.backoff * 2, BACKOFF_MAX)
        self.proc = None

    def poll(self):
        """Restarts the process when it has exited and its backoff has passed."""
        if self.proc is not None:
            rc = self.proc.poll()
            if rc is None:
                if time.monotonic() - self.started_at > 10:
                    self.backoff = BACKOFF_MIN
                return
            self.restarts += 1
            log("static pod %s: process %d exited with %s; restart #%d in %.1f s" % (
                self.name, self.proc.pid, rc, self.restarts, self.backoff))
            self.schedule_restart()
        if time.monotonic() >= self.next_start:
            self.start()

    def stop(self, why):
        p, self.proc = self.proc, None
        if p is None or p.poll() is not None:
            return
        log("static pod %s: stopping pid %d (%s)" % (self.name, p.pid, why))
        _signal_group(p, signal.SIGTERM)
        try:
            p.wait(STOP_GRACE)
        except subprocess.TimeoutExpired:
            log("static pod %s: pid %d ignored SIGTERM for %.0f s: SIGKILL" % (self.name, p.pid, STOP_GRACE))
            _signal_group(p, signal.SIGKILL)
            p.wait()


def _signal_group(p, sig):
    try:
        os.killpg(p.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


class StaticPodManager:
    """Keeps the running processes in line with the manifest directory."""

    def __init__(self, manifest_dir, rootfs, repo, log_dir):
        self.dir = manifest_dir
        self.rootfs = rootfs
        self.repo = repo
        self.log_dir = log_dir
        self.pods = {}      # manifest path -> StaticPod
        self.broken = {}    # manifest path -> digest already reported as unusable
        self.missing_dir_logged = False

    def _manifests(self):
        try:
            names = sorted(os.listdir(self.dir))
        except FileNotFoundError:
            if not self.missing_dir_logged:
                log("static pod path %s does not exist (yet)" % self.dir)
                self.missing_dir_logged = True
            return {}
        self.missing_dir_logged = False
        out = {}
        for n in names:
            p = os.path.join(self.dir, n)
            if n.startswith(".") or not n.endswith((".yaml", ".yml", ".json")) or not os.path.isfile(p):
                continue
            try:
                with open(p, "rb") as f:
                    out[p] = f.read()
            except OSError:
                continue
        return out

    def sync(self):
        files = self._manifests()
        for path in list(self.pods):
            if path not in files:
                self.pods.pop(path).stop("manifest %s removed" % path)
        for path in list(self.broken):
            if path not in files:
                del self.broken[path]
        for path, data in files.items():
            digest = hashlib.sha256(data).hexdigest()
            pod = self.pods.get(path)
            if pod and pod.digest == digest:
                pod.poll()
                continue
            if self.broken.get(path) == digest:
                continue
            self._replace(path, data, digest)

    def _replace(self, path, data, digest):
        old = self.pods.pop(path, None)
        try:
            spec = build_spec(yamlsub.load(data.decode()), self.rootfs, self.repo)
        except (yamlsub.YamlError, PodError, UnicodeDecodeError, AttributeError, TypeError) as e:
            log("static pod manifest %s cannot run: %s" % (path, e))
            self.broken[path] = digest
            if old:
                old.stop("manifest %s is no longer usable" % path)
            return
        if old:
            old.stop("manifest %s changed" % path)
        else:
            log("static pod manifest %s found: Pod %s" % (path, spec[0]))
        prepare_host_paths(spec[4], self.rootfs)
        pod = StaticPod(path, digest, spec, self.log_dir)
        self.pods[path] = pod
        self.broken.pop(path, None)
        pod.start()

    def stop_all(self):
        for path in list(self.pods):
            self.pods.pop(path).stop("kubelet shutting down")
