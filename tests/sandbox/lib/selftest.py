"""Self-test of the sandbox's pure helpers (YAML subset, patches, selectors, RBAC rules, protobuf,
JWS, bootstrap-token and anonymous authentication, Lease leader election). Run: cd tests/sandbox && python3 -m lib.selftest  (prints PASS, exit 1 on the first failure)."""
import base64
import hashlib
import hmac
import sys

from . import apistatus, authn, jws, miniyaml, patch, protobuf, rbac, selectors
from .kubeclient import ApiError
from .leaderelection import LeaderElector


def expect(what, got, want):
    if got != want:
        print("FAIL: %s: got %r, want %r" % (what, got, want))
        sys.exit(1)


def test_yaml():
    text = ("apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: QUJD\n"
            "    server: https://127.0.0.1:6443\n  name: \"\"\ncontexts: null\npreferences: {}\n"
            "x:\n  - - 1\n    - '2'\n  - k: |\n      a\n      # b: c\n\n# comment\ny: [a, \"b c\"]\nz: 'it''s' # c\n")
    expect("yaml", miniyaml.loads(text), {
        "apiVersion": "v1", "clusters": [{"cluster": {"certificate-authority-data": "QUJD",
                                                       "server": "https://127.0.0.1:6443"}, "name": ""}],
        "contexts": None, "preferences": {}, "x": [[1, "2"], {"k": "a\n# b: c\n"}], "y": ["a", "b c"], "z": "it's"})
    expect("json document", miniyaml.loads('{"a": [1]}'), {"a": [1]})


def test_patches():
    doc = {"a": {"b": 1, "c": [1, 2]}, "d": "x"}
    expect("merge", patch.merge_patch(doc, {"a": {"b": None, "c": [3]}, "e": 1}), {"a": {"c": [3]}, "d": "x", "e": 1})
    ops = [{"op": "add", "path": "/a/c/1", "value": 9}, {"op": "remove", "path": "/d"},
           {"op": "replace", "path": "/a/b", "value": 2}, {"op": "copy", "from": "/a/b", "path": "/f"},
           {"op": "move", "from": "/f", "path": "/g"}, {"op": "test", "path": "/g", "value": 2},
           {"op": "add", "path": "/a/c/-", "value": 7}, {"op": "add", "path": "/h~1i", "value": 0}]
    expect("json patch", patch.json_patch(doc, ops), {"a": {"b": 2, "c": [1, 9, 2, 7]}, "g": 2, "h/i": 0})
    for bad in ([{"op": "test", "path": "/d", "value": "y"}], [{"op": "remove", "path": "/zz"}],
                [{"op": "add", "path": "/a/c/5", "value": 1}], [{"op": "nope", "path": "/d"}]):
        try:
            patch.json_patch(doc, bad)
            expect("json patch %r fails" % bad, "succeeded", "PatchError")
        except patch.PatchError:
            pass
    pod = {"spec": {"containers": [{"name": "a", "image": "1"}, {"name": "b", "image": "2"}],
                    "taints": [{"key": "x"}]}, "metadata": {"finalizers": ["f1"]}}
    smp = {"$setElementOrder/containers": [{"name": "a"}, {"name": "b"}],
           "spec": {"containers": [{"name": "b", "image": "3"}, {"name": "a", "$patch": "delete"}],
                    "taints": [{"key": "y"}]}, "metadata": {"finalizers": ["f2"]}}
    expect("strategic", patch.strategic_merge_patch(pod, smp),
           {"spec": {"containers": [{"name": "b", "image": "3"}], "taints": [{"key": "y"}]},
            "metadata": {"finalizers": ["f1", "f2"]}})


def test_selectors():
    obj = {"metadata": {"name": "n", "labels": {"a": "1", "b": "2"}}, "type": "t"}
    expect("labels", selectors.matches(obj, "a=1,b!=3,b,!c", ""), True)
    expect("labels miss", selectors.matches(obj, "a==2", ""), False)
    expect("fields", selectors.matches(obj, "", "type=t,metadata.name=n"), True)
    expect("fields miss", selectors.matches(obj, "", "metadata.name!=n"), False)


def test_rbac():
    a = rbac.Attributes("u", [], "create", "certificates.k8s.io", "certificatesigningrequests", "nodeclient")
    rule = {"apiGroups": ["certificates.k8s.io"], "resources": ["certificatesigningrequests/nodeclient"],
            "verbs": ["create"]}
    expect("subresource rule", rbac.rule_allows(rule, a), True)
    expect("main resource rule does not grant subresource", rbac.rule_allows(
        dict(rule, resources=["certificatesigningrequests"]), a), False)
    expect("resource/* rule", rbac.rule_allows(dict(rule, resources=["certificatesigningrequests/*"]), a), True)
    get = rbac.Attributes("u", [], "get", "", "configmaps", "", "kube-public", "cluster-info")
    named = {"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get"], "resourceNames": ["cluster-info"]}
    expect("resourceNames", rbac.rule_allows(named, get), True)
    expect("resourceNames other", rbac.rule_allows(named, rbac.Attributes(
        "u", [], "get", "", "configmaps", "", "kube-public", "x")), False)
    url = rbac.Attributes("u", [], "get", path="/apis/apps/v1")
    expect("url prefix", rbac.rule_allows({"nonResourceURLs": ["/apis/*"], "verbs": ["get"]}, url), True)
    expect("url exact", rbac.rule_allows({"nonResourceURLs": ["/apis"], "verbs": ["get"]}, url), False)
    node = rbac.Attributes("system:node:n1", ["system:nodes"], "patch", "", "nodes", "", "", "n2")
    expect("node authorizer other node", rbac.node_authorize(node), False)
    node.name = "n1"
    expect("node authorizer own node", rbac.node_authorize(node), True)


def _field(num, payload):
    def varint(n):
        out = b""
        while True:
            b, n = n & 0x7F, n >> 7
            out += bytes([b | (0x80 if n else 0)])
            if not n:
                return out
    if isinstance(payload, int):
        return varint(num << 3) + varint(payload)
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def test_protobuf():
    meta = _field(1, b"cm") + _field(3, b"ns") + _field(11, _field(1, b"k") + _field(2, b"v")) + _field(2, b"")
    raw = _field(1, meta) + _field(2, _field(1, b"a") + _field(2, b"b")) + _field(4, 1)
    body = protobuf.MAGIC + _field(1, _field(1, b"v1") + _field(2, b"ConfigMap")) + _field(2, raw)
    expect("protobuf ConfigMap", protobuf.decode(body), {
        "apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "b"}, "immutable": True,
        "metadata": {"name": "cm", "namespace": "ns", "labels": {"k": "v"}}})
    try:
        protobuf.decode(protobuf.MAGIC + _field(1, _field(1, b"v1") + _field(2, b"Pod")))
        expect("protobuf Pod refused", "decoded", "ProtobufError")
    except protobuf.ProtobufError:
        pass


def test_jws():
    sig = jws.detached_signature("payload", "abcdef", "0123456789abcdef")
    header, empty, mac = sig.split(".")
    expect("jws header", base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)),
           b'{"alg":"HS256","kid":"abcdef"}')
    expect("jws detached", empty, "")
    want = hmac.new(b"0123456789abcdef", (header + "." + "cGF5bG9hZA").encode(), hashlib.sha256).digest()
    expect("jws mac", mac, base64.urlsafe_b64encode(want).rstrip(b"=").decode())


class _Secrets:
    def __init__(self, secret):
        self.secret = secret

    def get_object(self, resource, ns, name):
        return self.secret if (resource, ns, name) == ("secrets", "kube-system", "bootstrap-token-abcdef") else None


def test_authn():
    def b64(text):
        return base64.b64encode(text.encode()).decode()
    secret = {"type": authn.TOKEN_TYPE, "metadata": {"name": "bootstrap-token-abcdef"}, "data": {
        "token-id": b64("abcdef"), "token-secret": b64("0123456789abcdef"), "expiration": b64("2999-01-01T00:00:00Z"),
        "usage-bootstrap-authentication": b64("true"),
        "auth-extra-groups": b64("system:bootstrappers:kubeadm:default-node-token,bad-group")}}
    store = _Secrets(secret)
    user = authn.authenticate(None, "Bearer abcdef.0123456789abcdef", store, True)
    expect("token user", (user.name, user.groups), ("system:bootstrap:abcdef", [
        "system:bootstrappers", "system:bootstrappers:kubeadm:default-node-token", "system:authenticated"]))
    expect("anonymous", authn.authenticate(None, None, store, True).name, "system:anonymous")
    cert = {"subject": ((("organizationName", "system:nodes"),), (("commonName", "system:node:n"),))}
    expect("cert user", authn.authenticate(cert, None, store, True).groups, ["system:nodes", "system:authenticated"])
    for header, tokens, anonymous in (("Bearer abcdef.0123456789abcdee", True, True),
                                      ("Bearer abcdef.0123456789abcdef", False, True),
                                      (None, True, False)):
        try:
            authn.authenticate(None, header, store, tokens, anonymous)
            expect("401 for %r" % header, "authenticated", "401")
        except apistatus.StatusError as e:
            expect("401 code", e.code, 401)
    secret["data"]["expiration"] = b64("2000-01-01T00:00:00Z")
    expect("expired token", authn.bootstrap_token_user(store, "abcdef.0123456789abcdef"), None)


class _Leases:
    """One Lease with resourceVersion compare-and-swap, like the API server."""

    def __init__(self):
        self.lease, self.rv = None, 0

    def get(self, path):
        if self.lease is None:
            raise ApiError(404, {"message": "not found"})
        return dict(self.lease, metadata=dict(self.lease["metadata"], resourceVersion=str(self.rv)))

    def request(self, method, path, body):
        if (method == "POST") != (self.lease is None) or \
                (method == "PUT" and body["metadata"].get("resourceVersion") != str(self.rv)):
            raise ApiError(409, {"message": "conflict"})
        self.lease, self.rv = body, self.rv + 1
        return self.get(path)


def test_leader_election():
    leases, now = _Leases(), [100.0]
    a, b = (LeaderElector(leases, "kube-system", "kube-controller-manager", ident, 15, 10,
                          clock=lambda: now[0], wall=lambda: 1.7e9 + now[0]) for ident in ("a", "b"))
    expect("a acquires a free Lease", a.try_acquire_or_renew(), True)
    expect("b waits", (b.try_acquire_or_renew(), b.leading()), (False, False))
    stale = leases.get("")
    now[0] += 2
    expect("a renews", (a.try_acquire_or_renew(), a.leading()), (True, True))
    expect("renewal keeps acquireTime", leases.lease["spec"]["acquireTime"], stale["spec"]["acquireTime"])
    try:
        leases.request("PUT", "", dict(stale, spec=dict(stale["spec"], holderIdentity="x")))
        expect("stale write conflicts", "written", "409")
    except ApiError as e:
        expect("stale write conflicts", e.code, 409)
    now[0] += 14
    expect("b still waits (it saw the record change just now)", b.try_acquire_or_renew(), False)
    expect("a stops leading after the renew deadline", a.leading(), False)
    now[0] += 16
    expect("b takes over an expired Lease", (b.try_acquire_or_renew(), leases.lease["spec"]["leaseTransitions"]), (True, 1))
    b.release()
    expect("released", (b.leading(), leases.lease["spec"]["holderIdentity"]), (False, ""))
    now[0] += 2
    expect("a takes a released Lease at once", (a.try_acquire_or_renew(), leases.lease["spec"]["leaseTransitions"]), (True, 2))


if __name__ == "__main__":
    for test in (test_leader_election, test_authn, test_yaml, test_patches, test_selectors, test_rbac, test_protobuf, test_jws):
        test()
    print("PASS")
