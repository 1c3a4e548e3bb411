"""kubeconfig loading and a small HTTPS client for the Kubernetes API (stand-in kubelet).

Node paths inside a kubeconfig (certificate-authority, client-certificate, client-key, tokenFile)
are mapped under the sandbox rootfs; relative ones are relative to the kubeconfig's directory.
Embedded PEM data is written to files in a private 0700 directory (ssl needs files for keys).
"""

import atexit
import base64
import http.client
import json
import os
import shutil
import ssl
import tempfile
import urllib.parse

from . import yamlsub

_private_dir = None


def private_dir():
    """A 0700 directory for key material, removed when the process exits."""
    global _private_dir
    if _private_dir is None:
        _private_dir = tempfile.mkdtemp(prefix="kkadm-stand-in-kubelet-")
        os.chmod(_private_dir, 0o700)
        atexit.register(shutil.rmtree, _private_dir, True)
    return _private_dir


class KubeconfigError(ValueError):
    pass


def _named(entries, name, what):
    for e in entries or []:
        if isinstance(e, dict) and e.get("name") == name:
            return e.get(what) or {}
    raise KubeconfigError("no %s named %r" % (what, name))


class Kubeconfig:
    """The current context of a kubeconfig file: server, CA, credentials."""

    def __init__(self, host_path, rootfs):
        self.path = host_path
        with open(host_path) as f:
            text = f.read()
        if not text.strip():
            raise KubeconfigError("%s is empty" % host_path)
        try:
            doc = yamlsub.load(text)
        except yamlsub.YamlError as e:
            raise KubeconfigError("%s: %s" % (host_path, e))
        if not isinstance(doc, dict):
            raise KubeconfigError("%s is not a kubeconfig" % host_path)
        self.doc = doc
        ctx_name = doc.get("current-context")
        contexts = doc.get("contexts") or []
        if not ctx_name and len(contexts) == 1:
            ctx_name = contexts[0].get("name")
        ctx = _named(contexts, ctx_name, "context")
        self.cluster = _named(doc.get("clusters"), ctx.get("cluster"), "cluster")
        users = doc.get("users") or []
        self.user = _named(users, ctx.get("user"), "user") if ctx.get("user") else {}
        self.server = self.cluster.get("server") or ""
        if not self.server.startswith(("https://", "http://")):
            raise KubeconfigError("%s: cluster has no https server" % host_path)
        self._rootfs = rootfs

    def file_path(self, node_path):
        """Host path of a file named in this kubeconfig."""
        if os.path.isabs(node_path):
            return self._rootfs.host(node_path)
        return os.path.join(os.path.dirname(self.path), node_path)

    def ca_pem(self):
        data = self.cluster.get("certificate-authority-data")
        if data:
            return base64.b64decode(data).decode()
        ref = self.cluster.get("certificate-authority")
        if ref:
            with open(self.file_path(ref)) as f:
                return f.read()
        return None

    def token(self):
        if self.user.get("token"):
            return self.user["token"]
        if self.user.get("tokenFile"):
            with open(self.file_path(self.user["tokenFile"])) as f:
                return f.read().strip()
        return None

    def client_files(self):
        """(cert path, key path) on the host, or None when the user has no client certificate."""
        u = self.user
        cert = key = None
        if u.get("client-certificate-data"):
            cert = _private_file("client.crt", base64.b64decode(u["client-certificate-data"]))
        elif u.get("client-certificate"):
            cert = self.file_path(u["client-certificate"])
        if u.get("client-key-data"):
            key = _private_file("client.key", base64.b64decode(u["client-key-data"]))
        elif u.get("client-key"):
            key = self.file_path(u["client-key"])
        if cert and key:
            return cert, key
        return None


_counter = [0]


def _private_file(name, data):
    _counter[0] += 1
    path = os.path.join(private_dir(), "%d-%s" % (_counter[0], name))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return path


class ApiError(Exception):
    def __init__(self, status, body):
        self.status = status
        self.body = body
        msg = body.get("message") if isinstance(body, dict) else body
        super().__init__("HTTP %d: %s" % (status, msg))


class Client:
    """Requests to one API server with one identity. Network failures raise OSError."""

    # Generous: the sandbox's API server validates every object with an external program, which
    # is slow on a loaded machine.
    def __init__(self, kubeconfig, timeout=20.0):
        url = urllib.parse.urlsplit(kubeconfig.server)
        self.https = url.scheme == "https"
        self.host = url.hostname
        self.port = url.port or (443 if self.https else 80)
        self.base = url.path.rstrip("/")
        self.timeout = timeout
        self.token = kubeconfig.token()
        self.ctx = None
        files = kubeconfig.client_files() if self.https else None
        if self.https:
            self.ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
            if kubeconfig.cluster.get("insecure-skip-tls-verify"):
                self.ctx.check_hostname = False
                self.ctx.verify_mode = ssl.CERT_NONE
            else:
                ca = kubeconfig.ca_pem()
                if ca:
                    self.ctx = ssl.create_default_context(cadata=ca)
            if files:
                self.ctx.load_cert_chain(files[0], files[1])

    def request(self, method, path, body=None, content_type="application/json"):
        """Returns (status, decoded JSON body or None); raises OSError when unreachable."""
        if self.https:
            conn = http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout,
                                               context=self.ctx)
        else:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        headers = {"Accept": "application/json", "User-Agent": "kubelet/v1.32.0 (stand-in)"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = content_type
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        try:
            conn.request(method, self.base + path, body=data, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
        except http.client.HTTPException as e:
            raise OSError("HTTP exchange failed: %s" % e)
        finally:
            conn.close()
        try:
            decoded = json.loads(raw) if raw else None
        except ValueError:
            decoded = raw.decode(errors="replace")
        return resp.status, decoded

    def call(self, method, path, body=None, ok=(200, 201), content_type="application/json"):
        """Like request, but raises ApiError for a status outside `ok`."""
        status, decoded = self.request(method, path, body, content_type)
        if status not in ok:
            raise ApiError(status, decoded)
        return decoded
