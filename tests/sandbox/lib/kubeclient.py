"""Kubeconfig loading (YAML subset, embedded or referenced credentials) and a small JSON client."""
import base64
import http.client
import json
import os
import ssl
import tempfile
import threading
import urllib.parse

from . import miniyaml


class ApiError(Exception):
    def __init__(self, code, body):
        super().__init__("HTTP %d: %s" % (code, body.get("message", body) if isinstance(body, dict) else body))
        self.code = code
        self.body = body


def _named(entries, name):
    for entry in entries or []:
        if entry.get("name") == name:
            return entry
    return None


class Client:
    """A Kubernetes API client from a kubeconfig: server, TLS trust, client cert or token."""

    def __init__(self, server, context, token=None):
        self.url = urllib.parse.urlsplit(server)
        self.context = context
        self.token = token
        self.local = threading.local()

    def request(self, method, path, body=None, content_type="application/json"):
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = content_type
        for attempt in range(2):
            conn = getattr(self.local, "conn", None)
            if conn is None:
                conn = http.client.HTTPSConnection(self.url.hostname, self.url.port or 443,
                                                   context=self.context, timeout=15)
                self.local.conn = conn
            try:
                conn.request(method, path, data, headers)
                resp = conn.getresponse()
                raw = resp.read()
                break
            except (OSError, http.client.HTTPException):
                conn.close()
                self.local.conn = None
                if attempt:
                    raise
        try:
            parsed = json.loads(raw) if raw else {}
        except ValueError:
            parsed = raw.decode(errors="replace")
        if resp.status >= 300:
            raise ApiError(resp.status, parsed)
        return parsed

    def get(self, path):
        return self.request("GET", path)


def _material(user_or_cluster, data_key, file_key, rootfs, tmp):
    """Returns a file path holding the PEM given inline (base64) or by reference."""
    if user_or_cluster.get(data_key):
        path = os.path.join(tmp, data_key)
        with open(path, "wb") as f:
            f.write(base64.b64decode(user_or_cluster[data_key]))
        return path
    if user_or_cluster.get(file_key):
        return rootfs.path(user_or_cluster[file_key])
    return None


def load_kubeconfig(path, rootfs):
    """Builds a Client from the current context of the kubeconfig at node path `path`."""
    with open(rootfs.path(path)) as f:
        config = miniyaml.loads(f.read())
    ctx = _named(config.get("contexts"), config.get("current-context"))
    ctx = ctx["context"] if ctx else {}
    cluster = _named(config.get("clusters"), ctx.get("cluster")) or (config.get("clusters") or [{}])[0]
    user = _named(config.get("users"), ctx.get("user")) or (config.get("users") or [{}])[0]
    cluster, user = cluster.get("cluster", {}), user.get("user", {}) if user else {}
    context = ssl.create_default_context()
    with tempfile.TemporaryDirectory() as tmp:
        ca = _material(cluster, "certificate-authority-data", "certificate-authority", rootfs, tmp)
        if cluster.get("insecure-skip-tls-verify"):
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        elif ca:
            context.load_verify_locations(ca)
        cert = _material(user, "client-certificate-data", "client-certificate", rootfs, tmp)
        key = _material(user, "client-key-data", "client-key", rootfs, tmp)
        if cert:
            context.load_cert_chain(cert, key)
    token = user.get("token")
    if not token and user.get("tokenFile"):
        with open(rootfs.path(user["tokenFile"])) as f:
            token = f.read().strip()
    return Client(cluster["server"], context, token)
