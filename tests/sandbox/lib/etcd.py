"""Client for the real etcd's v3 JSON gateway (POST /v3/kv/*) over mutual TLS.

Keys and values are str (UTF-8); revisions are ints. One HTTPS connection per thread; the
endpoints of --etcd-servers are tried in order.
"""
import base64
import http.client
import json
import ssl
import threading
import time
import urllib.parse


def _b64(text):
    return base64.b64encode(text.encode() if isinstance(text, str) else text).decode()


def _unb64(text):
    return base64.b64decode(text).decode()


def prefix_end(prefix):
    raw = bytearray(prefix.encode())
    raw[-1] += 1
    return bytes(raw)


class EtcdError(Exception):
    pass


class Etcd:
    def __init__(self, servers, cafile, certfile, keyfile):
        self.endpoints = [urllib.parse.urlsplit(s.strip()) for s in servers.split(",") if s.strip()]
        self.context = ssl.create_default_context(cafile=cafile)
        self.context.check_hostname = False  # etcd's server cert names 127.0.0.1 by IP; CA is checked
        if certfile:
            self.context.load_cert_chain(certfile, keyfile)
        self.local = threading.local()

    def _call(self, path, body):
        """POSTs to the gateway. Connection errors and the gateway's transient 5xx answers (etcd 3.4's
        grpc-gateway sometimes fails its loopback call: "transport: missing content-type field",
        mostly right after start) are retried: 2 rounds over the endpoints, then up to 2 s more."""
        last = None
        deadline = time.time() + 2
        attempt = 0
        while attempt < 2 or time.time() < deadline:
            if attempt >= 2:
                time.sleep(0.1)
            attempt += 1
            for ep in self.endpoints:
                conn = getattr(self.local, "conns", {}).get(ep.netloc)
                try:
                    if conn is None:
                        conn = http.client.HTTPSConnection(ep.hostname, ep.port or 2379,
                                                           context=self.context, timeout=5)
                        self.local.__dict__.setdefault("conns", {})[ep.netloc] = conn
                    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
                    resp = conn.getresponse()
                    data = resp.read()
                    if resp.status >= 500:
                        last = "HTTP %d %s" % (resp.status, data[:200])
                        continue
                    if resp.status != 200:
                        raise EtcdError("etcd %s: HTTP %d %s" % (path, resp.status, data[:200]))
                    return json.loads(data)
                except (OSError, http.client.HTTPException) as e:
                    last = e
                    conn.close()
                    self.local.conns.pop(ep.netloc, None)
        raise EtcdError("etcd unreachable: %s" % last)

    def get(self, key):
        """Returns (value, mod_revision) or (None, 0)."""
        resp = self._call("/v3/kv/range", {"key": _b64(key)})
        for kv in resp.get("kvs", []):
            return _unb64(kv.get("value", "")), int(kv["mod_revision"])
        return None, 0

    def list(self, prefix):
        """Returns ([(key, value, mod_revision)], store revision)."""
        resp = self._call("/v3/kv/range", {"key": _b64(prefix), "range_end": _b64(prefix_end(prefix))})
        items = [(_unb64(kv["key"]), _unb64(kv.get("value", "")), int(kv["mod_revision"]))
                 for kv in resp.get("kvs", [])]
        return items, int(resp["header"]["revision"])

    def create(self, key, value):
        """Puts key only if absent; returns the new revision or 0 when the key exists."""
        return self._txn(key, {"target": "CREATE", "result": "EQUAL", "create_revision": "0"},
                         {"request_put": {"key": _b64(key), "value": _b64(value)}})

    def update(self, key, value, mod_revision):
        """Puts key only if its mod_revision is still `mod_revision`; returns new revision or 0."""
        return self._txn(key, {"target": "MOD", "result": "EQUAL", "mod_revision": str(mod_revision)},
                         {"request_put": {"key": _b64(key), "value": _b64(value)}})

    def delete(self, key, mod_revision):
        """Deletes key only if unchanged since mod_revision; returns new revision or 0."""
        return self._txn(key, {"target": "MOD", "result": "EQUAL", "mod_revision": str(mod_revision)},
                         {"request_delete_range": {"key": _b64(key)}})

    def _txn(self, key, compare, op):
        compare = dict(compare, key=_b64(key))
        resp = self._call("/v3/kv/txn", {"compare": [compare], "success": [op]})
        return int(resp["header"]["revision"]) if resp.get("succeeded") else 0

    def healthy(self):
        """A linearizable read, as kube-apiserver's etcd check does (a Get of <prefix>/health): it
        fails while the member is a learner or has no quorum, which a status call would not."""
        try:
            self._call("/v3/kv/range", {"key": _b64("/registry/health")})
            return True
        except EtcdError:
            return False
