#!/usr/bin/env python3
"""A tiny fake Kubernetes API server for tests/e2e/sandbox_kubelet_test.sh (not the sandbox's
stand-in API server): just what a kubelet's TLS bootstrap and Node registration need.

  POST/GET  /apis/certificates.k8s.io/v1/certificatesigningrequests[/<name>]  bearer token only;
            a POSTed CSR is signed at once with the openssl CLI (status.certificate + Approved)
  POST/GET  /api/v1/nodes[/<name>], PATCH/PUT /api/v1/nodes/<name>/status    client certificate
            CN system:node:<name> (O system:nodes) only, for its own Node
Every object received is checked with tests/validator/validate.js (--validator); for status
updates, the first one per Node. Records go to
--record DIR: events.log (one line per request: METHOD PATH STATUS), csr-<name>.json,
node-<name>.json (latest Node), problems.log (anything refused or invalid).
usage: fake_csr_api.py --listen ADDR:PORT --cert F --key F --ca F --ca-key F --token T
                       --record DIR [--validator validate.js] [--deny-node NAME]...
"""

import argparse
import base64
import datetime
import http.server
import json
import os
import signal
import ssl
import subprocess
import sys
import tempfile
import threading

CSR_PATH = "/apis/certificates.k8s.io/v1/certificatesigningrequests"
lock = threading.Lock()
csrs, nodes = {}, {}
status_checked = set()
args = None


def record(name, text):
    with lock, open(os.path.join(args.record, name), "a") as f:
        f.write(text + "\n")


def status_body(code, reason, message):
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": reason, "code": code}


def validate(obj):
    """None when valid per the independent validator, else its complaint."""
    if not args.validator:
        return None
    r = subprocess.run(["node", args.validator, "--stdin"], input=json.dumps(obj).encode(),
                       capture_output=True)
    return None if r.returncode == 0 else (r.stdout + r.stderr).decode().strip()


def sign(csr_pem):
    with tempfile.TemporaryDirectory() as d:
        csr, ext, crt = (os.path.join(d, n) for n in ("req.csr", "ext.cnf", "out.crt"))
        open(csr, "w").write(csr_pem)
        open(ext, "w").write("basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n"
                             "extendedKeyUsage=clientAuth\n")
        subprocess.run(["openssl", "x509", "-req", "-in", csr, "-CA", args.ca, "-CAkey", args.ca_key,
                        "-CAcreateserial", "-CAserial", os.path.join(d, "ca.srl"), "-days", "1",
                        "-sha256", "-extfile", ext, "-out", crt], check=True, capture_output=True)
        return open(crt).read()


def csr_subject(csr_pem):
    r = subprocess.run(["openssl", "req", "-noout", "-subject", "-nameopt", "RFC2253"],
                       input=csr_pem.encode(), capture_output=True, check=True)
    return r.stdout.decode().strip().replace("subject=", "")


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Handler(http.server.BaseHTTPRequestHandler):
    def reply(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        record("events.log", "%s %s %d" % (self.command, self.path, code))

    def fail(self, code, reason, message):
        record("problems.log", "%s %s: %d %s" % (self.command, self.path, code, message))
        self.reply(code, status_body(code, reason, message))

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(n)) if n else None

    def client_cn(self):
        cert = self.connection.getpeercert()
        if not cert:
            return None, None
        subj = dict(x[0] for x in cert.get("subject", ()))
        return subj.get("commonName"), subj.get("organizationName")

    def bearer_ok(self):
        return self.headers.get("Authorization") == "Bearer " + args.token

    def log_message(self, fmt, *a):
        pass

    def do_POST(self):
        if self.path == CSR_PATH:
            return self.post_csr()
        if self.path == "/api/v1/nodes":
            return self.post_node()
        self.fail(404, "NotFound", "no route " + self.path)

    def do_GET(self):
        if self.path.startswith(CSR_PATH + "/"):
            obj = csrs.get(self.path[len(CSR_PATH) + 1:])
        elif self.path.startswith("/api/v1/nodes/"):
            if not self.node_identity(self.path.split("/")[4]):
                return
            obj = nodes.get(self.path.split("/")[4])
        else:
            obj = None
        if obj is None:
            return self.reply(404, status_body(404, "NotFound", "not found"))
        self.reply(200, obj)

    def do_PATCH(self):
        self.update_status(merge=True)

    def do_PUT(self):
        self.update_status(merge=False)

    def post_csr(self):
        if not self.bearer_ok():
            return self.fail(401, "Unauthorized", "CSR without the bootstrap token")
        csr = self.body()
        problem = validate(csr)
        if problem:
            return self.fail(422, "Invalid", problem)
        spec = csr["spec"]
        if spec.get("signerName") != "kubernetes.io/kube-apiserver-client-kubelet":
            return self.fail(422, "Invalid", "unexpected signerName %s" % spec.get("signerName"))
        name = csr["metadata"].get("name")
        if name in csrs:
            return self.reply(409, status_body(409, "AlreadyExists", "csr %s exists" % name))
        pem = base64.b64decode(spec["request"]).decode()
        csr["metadata"]["creationTimestamp"] = now()
        if csr_subject(pem) in ["CN=system:node:%s,O=system:nodes" % n for n in args.deny_node]:
            csr["status"] = {"conditions": [{"type": "Denied", "status": "True", "reason": "Test",
                                             "message": "fake API server denies this node",
                                             "lastUpdateTime": now()}]}
            csrs[name] = csr
            return self.reply(201, csr)
        csr["status"] = {
            "conditions": [{"type": "Approved", "status": "True", "reason": "AutoApproved",
                            "message": "fake API server", "lastUpdateTime": now()}],
            "certificate": base64.b64encode(sign(pem).encode()).decode(),
        }
        csrs[name] = csr
        with open(os.path.join(args.record, "csr-%s.json" % name), "w") as f:
            json.dump(dict(csr, subject=csr_subject(pem)), f, indent=1)
        self.reply(201, csr)

    def node_identity(self, name):
        cn, org = self.client_cn()
        if cn != "system:node:" + name or org != "system:nodes":
            self.fail(403, "Forbidden", "client %s (O %s) may not touch node %s" % (cn, org, name))
            return False
        return True

    def save_node(self, node, check=True):
        problem = validate(node) if check else None
        if problem:
            self.fail(422, "Invalid", problem)
            return False
        nodes[node["metadata"]["name"]] = node
        with open(os.path.join(args.record, "node-%s.json" % node["metadata"]["name"]), "w") as f:
            json.dump(node, f, indent=1)
        return True

    def post_node(self):
        node = self.body()
        name = (node.get("metadata") or {}).get("name", "")
        if not self.node_identity(name):
            return
        if name in nodes:
            return self.reply(409, status_body(409, "AlreadyExists", "nodes \"%s\" already exists" % name))
        node["metadata"]["uid"] = "00000000-0000-0000-0000-000000000001"
        node["metadata"]["resourceVersion"] = "1"
        if self.save_node(node):
            self.reply(201, node)

    def update_status(self, merge):
        parts = self.path.split("/")
        if len(parts) != 6 or parts[:4] != ["", "api", "v1", "nodes"] or parts[5] != "status":
            return self.fail(404, "NotFound", "no route " + self.path)
        if not self.node_identity(parts[4]):
            return
        node = nodes.get(parts[4])
        if node is None:
            return self.reply(404, status_body(404, "NotFound", "nodes \"%s\" not found" % parts[4]))
        body = self.body()
        updated = json.loads(json.dumps(node))
        if merge:
            updated["status"].update(body.get("status") or {})
        else:
            updated["status"] = body.get("status") or {}
        updated["metadata"]["resourceVersion"] = str(int(node["metadata"]["resourceVersion"]) + 1)
        # The validator is slow (a node process per call): check the first update of each Node.
        first = parts[4] not in status_checked
        status_checked.add(parts[4])
        if self.save_node(updated, check=first):
            record("events.log", "content-type %s" % self.headers.get("Content-Type"))
            self.reply(200, updated)


def main():
    global args
    p = argparse.ArgumentParser()
    for f in ("--listen", "--cert", "--key", "--ca", "--ca-key", "--token", "--record"):
        p.add_argument(f, required=True)
    p.add_argument("--validator", default="")
    p.add_argument("--deny-node", action="append", default=[], help="deny CSRs of this node")
    args = p.parse_args()
    host, port = args.listen.rsplit(":", 1)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(args.cert, args.key)
    ctx.load_verify_locations(args.ca)
    ctx.verify_mode = ssl.CERT_OPTIONAL
    server = http.server.ThreadingHTTPServer((host, int(port)), Handler)
    server.daemon_threads = True
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    sys.stderr.write("fake API server on https://%s\n" % args.listen)
    sys.stderr.flush()
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    server.serve_forever(0.2)


if __name__ == "__main__":
    main()
