"""TLS bootstrap like the real kubelet's (stand-in kubelet).

With a missing or unusable --kubeconfig and an existing --bootstrap-kubeconfig: make an EC P-256
key and a CSR (CN system:node:<name>, O system:nodes) with the openssl CLI, send it as a
certificates.k8s.io/v1 CertificateSigningRequest (signer kubernetes.io/kube-apiserver-client-kubelet)
with the bootstrap identity, wait for status.certificate, store cert+key as
<cert-dir>/kubelet-client-<time>.pem with the symlink kubelet-client-current.pem, and write the
kubeconfig pointing at that file, in the shape the real kubelet writes.
"""

import base64
import hashlib
import os
import subprocess
import time

from . import apiclient
from . import yamlsub
from .log import log
from .paths import write_atomic

SIGNER = "kubernetes.io/kube-apiserver-client-kubelet"
USAGES = ["digital signature", "client auth"]
CSR_PATH = "/apis/certificates.k8s.io/v1/certificatesigningrequests"


class BootstrapError(Exception):
    pass


class CsrRejected(BootstrapError):
    """The CSR was denied or failed."""


def _openssl(*args, data=None):
    r = subprocess.run(["openssl"] + list(args), input=data, capture_output=True)
    if r.returncode != 0:
        raise BootstrapError("openssl %s failed: %s" % (args[0], r.stderr.decode(errors="replace").strip()))
    return r.stdout


class CertStore:
    """<cert-dir>/kubelet-client-*.pem and the kubelet-client-current.pem symlink."""

    def __init__(self, rootfs, cert_dir_node):
        self.node_dir = cert_dir_node.rstrip("/") or "/"
        self.dir = rootfs.host(self.node_dir)
        self.node_current = os.path.join(self.node_dir, "kubelet-client-current.pem")
        self.current = os.path.join(self.dir, "kubelet-client-current.pem")
        self.key_tmp = os.path.join(self.dir, "kubelet-client.key.tmp")

    def has_current(self):
        return os.path.isfile(self.current)

    def update(self, cert_pem, key_pem):
        os.makedirs(self.dir, mode=0o755, exist_ok=True)
        name = "kubelet-client-%s.pem" % time.strftime("%Y-%m-%d-%H-%M-%S", time.gmtime())
        write_atomic(os.path.join(self.dir, name), cert_pem.rstrip("\n") + "\n" + key_pem, 0o600)
        # A relative target works both on the node and under the sandbox rootfs.
        link_tmp = self.current + ".tmp"
        if os.path.lexists(link_tmp):
            os.unlink(link_tmp)
        os.symlink(name, link_tmp)
        os.rename(link_tmp, self.current)
        log("wrote client certificate %s/%s and the kubelet-client-current.pem symlink" % (self.node_dir, name))

    def discard_key(self):
        if os.path.exists(self.key_tmp):
            os.unlink(self.key_tmp)

    def private_key(self):
        """The pending bootstrap key (kept across restarts, like the real kubelet's .tmp key)."""
        os.makedirs(self.dir, mode=0o755, exist_ok=True)
        if not os.path.isfile(self.key_tmp) or os.path.getsize(self.key_tmp) == 0:
            key = _openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout").decode()
            write_atomic(self.key_tmp, key, 0o600)
            log("generated a new EC P-256 private key for the client certificate")
        with open(self.key_tmp) as f:
            return f.read()


def cert_still_valid(kc):
    """True when the kubeconfig names a client certificate that exists and has not expired."""
    try:
        files = kc.client_files()
    except OSError:
        return False
    if not files or not os.path.isfile(files[0]) or not os.path.isfile(files[1]):
        return False
    r = subprocess.run(["openssl", "x509", "-in", files[0], "-noout", "-checkend", "0"],
                       capture_output=True)
    return r.returncode == 0


def adopt_embedded_certificate(kc, store):
    """A kubeconfig with embedded client cert/key seeds the cert store (kubelet rotation start)."""
    u = kc.user
    if store.has_current() or not u.get("client-certificate-data") or not u.get("client-key-data"):
        return
    cert = base64.b64decode(u["client-certificate-data"]).decode()
    key = base64.b64decode(u["client-key-data"]).decode()
    store.update(cert, key)


def csr_name(key_pem, node_name):
    """node-csr-<digest of public key, subject and usages>: one key always maps to one name."""
    pub = _openssl("pkey", "-pubout", "-outform", "DER", data=key_pem.encode())
    h = hashlib.sha256()
    for part in [pub, ("system:node:" + node_name).encode(), b"system:nodes"] + [u.encode() for u in USAGES]:
        h.update(base64.urlsafe_b64encode(part) + b"|")
    return "node-csr-" + h.hexdigest()[:32]


def make_csr(key_pem, node_name):
    keyfile = apiclient._private_file("bootstrap.key", key_pem.encode())
    try:
        return _openssl("req", "-new", "-key", keyfile, "-sha256",
                        "-subj", "/O=system:nodes/CN=system:node:" + node_name).decode()
    finally:
        os.unlink(keyfile)


def _same_public_key(cert_pem, key_pem):
    a = _openssl("x509", "-noout", "-pubkey", data=cert_pem.encode())
    b = _openssl("pkey", "-pubout", data=key_pem.encode())
    return a.strip() == b.strip()


def request_certificate(client, key_pem, node_name, stop):
    """Sends the CSR and waits for its certificate. Returns the PEM, or None when stopped."""
    name = csr_name(key_pem, node_name)
    body = {
        "apiVersion": "certificates.k8s.io/v1",
        "kind": "CertificateSigningRequest",
        "metadata": {"name": name},
        "spec": {
            "request": base64.b64encode(make_csr(key_pem, node_name).encode()).decode(),
            "signerName": SIGNER,
            "usages": USAGES,
        },
    }
    status, resp = client.request("POST", CSR_PATH, body)
    if status == 409:
        log("CertificateSigningRequest %s exists already: waiting for it" % name)
    elif status in (200, 201):
        log("posted CertificateSigningRequest %s (CN system:node:%s, signer %s)" % (name, node_name, SIGNER))
    else:
        raise apiclient.ApiError(status, resp)
    while not stop.is_set():
        csr = client.call("GET", CSR_PATH + "/" + name)
        st = (csr or {}).get("status") or {}
        for c in st.get("conditions") or []:
            if c.get("type") in ("Denied", "Failed") and c.get("status", "True") == "True":
                raise CsrRejected("CertificateSigningRequest %s was %s: %s %s" % (
                    name, c["type"].lower(), c.get("reason", ""), c.get("message", "")))
        if st.get("certificate"):
            cert = base64.b64decode(st["certificate"]).decode()
            if not _same_public_key(cert, key_pem):
                raise BootstrapError("the certificate of %s does not match the private key" % name)
            log("CertificateSigningRequest %s approved and issued" % name)
            return cert
        stop.wait(0.2)
    return None


def render_kubeconfig(bootstrap_kc, store):
    """The kubeconfig the real kubelet writes after bootstrapping (bootstrap.go)."""
    cluster = {}
    for k in ("certificate-authority", "certificate-authority-data", "insecure-skip-tls-verify", "server"):
        if k in bootstrap_kc.cluster:
            cluster[k] = bootstrap_kc.cluster[k]
    lines = ["apiVersion: v1", "clusters:", "- cluster:"]
    for k in sorted(cluster):
        v = cluster[k]
        lines.append("    %s: %s" % (k, "true" if v is True else "false" if v is False else _q(v)))
    lines += [
        "  name: default-cluster",
        "contexts:",
        "- context:",
        "    cluster: default-cluster",
        "    namespace: default",
        "    user: default-auth",
        "  name: default-context",
        "current-context: default-context",
        "kind: Config",
        "preferences: {}",
        "users:",
        "- name: default-auth",
        "  user:",
        "    client-certificate: " + store.node_current,
        "    client-key: " + store.node_current,
    ]
    return "\n".join(lines) + "\n"


def _q(v):
    s = str(v)
    try:
        if yamlsub.load("x: " + s) == {"x": s}:
            return s
    except yamlsub.YamlError:
        pass
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run(rootfs, kubeconfig_host, bootstrap_kc, store, node_name, stop):
    """One bootstrap attempt: returns True when kubelet.conf was written, False when stopped."""
    client = apiclient.Client(bootstrap_kc)
    key = store.private_key()
    cert = request_certificate(client, key, node_name, stop)
    if cert is None:
        return False
    store.update(cert, key)
    os.unlink(store.key_tmp)
    write_atomic(kubeconfig_host, render_kubeconfig(bootstrap_kc, store), 0o600)
    log("wrote kubeconfig %s (user default-auth, client certificate %s)" % (kubeconfig_host, store.node_current))
    return True
