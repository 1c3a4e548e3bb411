#!/usr/bin/python3
"""kkadm sandbox: STAND-IN kube-controller-manager (not the real one). Runs only the controllers kkadm
relies on: bootstrapsigner (signs kube-public/cluster-info), tokencleaner (deletes expired bootstrap
tokens), csrapproving (auto-approves kubelet client CSRs after a SubjectAccessReview) and csrsigning
(signs approved CSRs with the cluster CA through the openssl CLI). Serves https /healthz.
With --leader-elect (the default, as upstream) the controllers run only while this process holds
the kube-system/kube-controller-manager Lease, so several control-plane nodes never race on a CSR.
Configured from kube-controller-manager's own flags (+ --sandbox-rootfs). See README.md."""
import base64
import datetime
import http.client
import os
import re
import socket
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import authn, common, jws, openssl, tlsserver  # noqa: E402
from lib.kubeclient import ApiError, load_kubeconfig  # noqa: E402
from lib.leaderelection import LeaderElector  # noqa: E402

FLAGS = {"kubeconfig": None, "cluster-signing-cert-file": None, "cluster-signing-key-file": None,
         "controllers": "*", "bind-address": "127.0.0.1", "secure-port": "10257", "sandbox-rootfs": "",
         "cluster-signing-duration": "8760h", "leader-elect": "true", "leader-elect-lease-duration": "15s",
         "leader-elect-renew-deadline": "10s", "leader-elect-retry-period": "2s",
         "leader-elect-resource-name": "kube-controller-manager", "leader-elect-resource-namespace": "kube-system"}
DEFAULT_ON = {"csrapproving", "csrsigning"}
KUBELET_CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client-kubelet"
CLIENT_SIGNERS = (KUBELET_CLIENT_SIGNER, "kubernetes.io/kube-apiserver-client")
CLUSTER_INFO = "/api/v1/namespaces/kube-public/configmaps/cluster-info"
TOKEN_SECRETS = "/api/v1/namespaces/kube-system/secrets?fieldSelector=type%3Dbootstrap.kubernetes.io%2Ftoken"
CSRS = "/apis/certificates.k8s.io/v1/certificatesigningrequests"

log = common.setup_logging("kube-controller-manager")


def enabled_controllers(spec):
    names = [n.strip() for n in spec.split(",") if n.strip()]
    out = set()
    if "*" in names:
        out |= DEFAULT_ON
    out |= {n for n in names if not n.startswith("-") and n != "*"}
    return out - {n[1:] for n in names if n.startswith("-")}


def duration_seconds(text, default):
    """Go duration ("8760h", "8760h0m0s", "90m", "1.5s", "500ms") in seconds; default when unparsable."""
    units = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 0.001}
    parts = re.findall(r"([0-9.]+)(ms|[hms])", text or "")
    if not parts or "".join(n + u for n, u in parts) != text:
        return default
    try:
        return sum(float(n) * units[u] for n, u in parts)
    except ValueError:
        return default


def duration_hours(text):
    """Go duration in hours; 8760 when unparsable."""
    return duration_seconds(text, 8760 * 3600.0) / 3600


def decoded(secret, key):
    value = (secret.get("data") or {}).get(key)
    return base64.b64decode(value).decode() if value else None


def now_rfc3339():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class Controllers:
    def __init__(self, client, flags, rootfs):
        self.client, self.flags, self.rootfs = client, flags, rootfs
        self.enabled = enabled_controllers(flags["controllers"])
        self.reported = set()  # problems already logged (logged once each)
        self.days = max(1, int(duration_hours(flags["cluster-signing-duration"]) / 24))

    def warn_once(self, key, fmt, *args):
        if key not in self.reported:
            self.reported.add(key)
            log.warning(fmt, *args)

    def run_once(self):
        tokens = None
        if self.enabled & {"bootstrapsigner", "tokencleaner"}:
            tokens = self.client.get(TOKEN_SECRETS).get("items", [])
        if "tokencleaner" in self.enabled:
            tokens = self.token_cleaner(tokens)
        if "bootstrapsigner" in self.enabled:
            self.bootstrap_signer(tokens)
        if self.enabled & {"csrapproving", "csrsigning"}:
            for csr in self.client.get(CSRS).get("items", []):
                self.handle_csr(csr)

    # ---- tokencleaner / bootstrapsigner ------------------------------------------------------
    def token_cleaner(self, tokens):
        alive = []
        for secret in tokens:
            if authn.token_expired(secret):
                name = secret["metadata"]["name"]
                try:
                    self.client.request("DELETE", "/api/v1/namespaces/kube-system/secrets/" + name)
                    log.info("tokencleaner: deleted expired bootstrap token Secret %s", name)
                except ApiError as e:
                    if e.code != 404:  # 404: deleted by someone else meanwhile
                        self.warn_once(("del", name), "tokencleaner: cannot delete %s: %s", name, e)
            else:
                alive.append(secret)
        return alive

    def bootstrap_signer(self, tokens):
        try:
            cm = self.client.get(CLUSTER_INFO)
        except ApiError as e:
            if e.code != 404:
                raise
            return
        data = cm.get("data") or {}
        payload = data.get("kubeconfig")
        if not payload:
            return
        wanted = {}
        for secret in tokens:
            token_id, token_secret = decoded(secret, "token-id"), decoded(secret, "token-secret")
            if not token_id or not token_secret or decoded(secret, "usage-bootstrap-signing") != "true":
                continue
            if authn.token_expired(secret):
                continue
            wanted["jws-kubeconfig-" + token_id] = jws.detached_signature(payload, token_id, token_secret)
        current = {k: v for k, v in data.items() if k.startswith("jws-kubeconfig-")}
        if current == wanted:
            return
        cm["data"] = {k: v for k, v in data.items() if not k.startswith("jws-kubeconfig-")}
        cm["data"].update(wanted)
        try:
            self.client.request("PUT", CLUSTER_INFO, cm)
            log.info("bootstrapsigner: cluster-info signed for tokens %s", sorted(k[15:] for k in wanted))
        except ApiError as e:
            if e.code != 409:
                raise

    # ---- csrapproving / csrsigning -----------------------------------------------------------
    def handle_csr(self, csr):
        name = csr["metadata"]["name"]
        conditions = {c.get("type") for c in (csr.get("status") or {}).get("conditions") or []}
        if "Denied" in conditions or "Failed" in conditions:
            return
        spec = csr.get("spec") or {}
        if "Approved" not in conditions:
            if "csrapproving" in self.enabled and spec.get("signerName") == KUBELET_CLIENT_SIGNER:
                self.approve(csr)
            return
        if "csrsigning" in self.enabled and not (csr.get("status") or {}).get("certificate") \
                and spec.get("signerName") in CLIENT_SIGNERS:
            self.sign(csr, name)

    def sar_allows(self, spec, subresource):
        review = {"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview", "spec": {
            "user": spec.get("username", ""), "groups": spec.get("groups") or [], "uid": spec.get("uid", ""),
            "resourceAttributes": {"group": "certificates.k8s.io", "resource": "certificatesigningrequests",
                                   "subresource": subresource, "verb": "create"}}}
        if spec.get("extra"):
            review["spec"]["extra"] = spec["extra"]
        answer = self.client.request("POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", review)
        return bool((answer.get("status") or {}).get("allowed"))

    def approve(self, csr):
        name, spec = csr["metadata"]["name"], csr.get("spec") or {}
        try:
            info = openssl.csr_info(base64.b64decode(spec.get("request", "")))
        except (RuntimeError, ValueError) as e:
            self.warn_once(("parse", name), "csrapproving: cannot parse CSR %s: %s", name, e)
            return
        usages = set(spec.get("usages") or [])
        if info["orgs"] != ["system:nodes"] or not info["cn"].startswith("system:node:") or \
                not usages <= {"digital signature", "key encipherment", "client auth"} or "client auth" not in usages:
            self.warn_once(("nonnode", name), "csrapproving: CSR %s is not a node client certificate request", name)
            return
        subresources = ["nodeclient"]
        if spec.get("username") == info["cn"]:
            subresources.insert(0, "selfnodeclient")
        if not any(self.sar_allows(spec, sub) for sub in subresources):
            self.warn_once(("sar", name), "csrapproving: requester %s of CSR %s may not create %s",
                           spec.get("username"), name, subresources)
            return
        csr.setdefault("status", {}).setdefault("conditions", []).append({
            "type": "Approved", "status": "True", "reason": "AutoApproved",
            "message": "Auto approving kubelet client certificate after SubjectAccessReview.",
            "lastUpdateTime": now_rfc3339(), "lastTransitionTime": now_rfc3339()})
        if self.write_csr("approval", csr):
            log.info("csrapproving: approved CSR %s for %s", name, info["cn"])

    def lifetime_days(self, spec):
        """spec.expirationSeconds caps the signing duration (in whole days: openssl x509 -days)."""
        seconds = spec.get("expirationSeconds")
        if not seconds:
            return self.days
        return max(1, min(self.days, -(-int(seconds) // 86400)))

    def sign(self, csr, name):
        pem = base64.b64decode(csr["spec"].get("request", ""))
        try:
            info = openssl.csr_info(pem)
            cert = openssl.sign_client_csr(pem, self.rootfs.path(self.flags["cluster-signing-cert-file"]),
                                           self.rootfs.path(self.flags["cluster-signing-key-file"]),
                                           self.lifetime_days(csr["spec"]), info["key_type"] == "RSA")
        except (RuntimeError, ValueError) as e:
            self.warn_once(("sign", name), "csrsigning: cannot sign CSR %s: %s", name, e)
            return
        csr.setdefault("status", {})["certificate"] = base64.b64encode(cert).decode()
        if self.write_csr("status", csr):
            log.info("csrsigning: signed CSR %s (%s)", name, info["cn"])

    def write_csr(self, subresource, csr):
        """PUT of the CSR's subresource with the resourceVersion it was read at: False when someone
        changed or deleted it meanwhile (it is looked at again in the next round)."""
        name = csr["metadata"]["name"]
        try:
            self.client.request("PUT", "%s/%s/%s" % (CSRS, name, subresource), csr)
            return True
        except ApiError as e:
            if e.code not in (404, 409):
                raise
            log.info("CSR %s changed meanwhile (HTTP %d): looking again", name, e.code)
            return False


LOOP_ERRORS = (ApiError, OSError, http.client.HTTPException, ValueError)


def new_elector(client, flags, rootfs):
    """The Lease-based elector of --leader-elect (None when it is false)."""
    if str(flags["leader-elect"]).lower() == "false":
        return None
    return LeaderElector(client, flags["leader-elect-resource-namespace"], flags["leader-elect-resource-name"],
                         identity(flags, rootfs), duration_seconds(flags["leader-elect-lease-duration"], 15.0),
                         duration_seconds(flags["leader-elect-renew-deadline"], 10.0))


def identity(flags, rootfs):
    """<hostname>_<uuid> as upstream, but the uuid is derived from the node (hostname, rootfs) and
    the serving address, not random: the stand-in kubelet restarts its static Pods whenever it
    restarts (kkadm init restarts it), often stopping the API server before the controller-manager
    could release the Lease; with the same identity the new process renews at once instead of
    waiting out a lease duration. Two stand-ins on one node differ by their --secure-port."""
    host = socket.gethostname()
    seed = "%s|%s|%s:%s" % (host, rootfs.root, flags["bind-address"], flags["secure-port"])
    return "%s_%s" % (host, uuid.uuid5(uuid.NAMESPACE_URL, "kkadm-sandbox-kcm:" + seed))


def loop(controllers, elector, retry_seconds, stop):
    """Runs the controllers every 100 ms, with --leader-elect only while holding the Lease (tried
    or renewed every retry period)."""
    next_try, state = 0.0, None
    while not stop.is_set():
        if elector is not None:
            if time.monotonic() >= next_try:
                try:
                    elector.try_acquire_or_renew()
                except LOOP_ERRORS as e:
                    controllers.warn_once(("lease", str(e)), "leader election: %s", e)
                next_try = time.monotonic() + retry_seconds
            state = log_election(elector, state)
            if not elector.leading():
                stop.wait(0.1)
                continue
        try:
            controllers.run_once()
        except LOOP_ERRORS as e:
            controllers.warn_once(("loop", str(e)), "controller loop: %s", e)
        stop.wait(0.1)


def log_election(elector, state):
    """Logs each change of who leads as seen from here; returns the new state."""
    holder = (elector.observed or {}).get("holderIdentity") or ""
    new = "leading" if elector.leading() else holder
    if new != state:
        lease = "%s/%s" % (elector.namespace, elector.name)
        if new == "leading":
            log.info("leader election: acquired lease %s as %s", lease, elector.identity)
        elif state == "leading":
            log.info("leader election: lost lease %s: controllers paused", lease)
        else:
            log.info("leader election: lease %s held by %s: waiting", lease, holder or "nobody")
    return new


def main(argv):
    common.install_signal_handlers()
    flags = common.parse_flags(argv, FLAGS, "kube-controller-manager")
    rootfs = common.Rootfs(flags["sandbox-rootfs"])
    if not flags["kubeconfig"]:
        log.error("--kubeconfig is required")
        return 1
    client = load_kubeconfig(flags["kubeconfig"], rootfs)
    controllers = Controllers(client, flags, rootfs)
    elector = new_elector(client, flags, rootfs)
    with tempfile.TemporaryDirectory(prefix="kkadm-kcm-") as tmp:
        crt, key = openssl.self_signed(tmp, "kube-controller-manager@sandbox", [flags["bind-address"], "localhost"])
        servers = tlsserver.serve_in_threads([(flags["bind-address"], int(flags["secure-port"]))],
                                             tlsserver.HealthHandler, tlsserver.server_context(crt, key))
    stop = threading.Event()
    retry = duration_seconds(flags["leader-elect-retry-period"], 2.0)
    worker = threading.Thread(target=loop, args=(controllers, elector, retry, stop), daemon=True)
    worker.start()
    log.info("stand-in kube-controller-manager: controllers %s; healthz on https://%s:%s; %s",
             sorted(controllers.enabled), flags["bind-address"], flags["secure-port"],
             "leader election as %s" % elector.identity if elector else "no leader election")
    common.wait_for_termination()
    stop.set()
    worker.join(5)
    if elector is not None:
        elector.release()
    tlsserver.stop_all(servers)
    log.info("stand-in kube-controller-manager stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
