"""HTTP request handling of the stand-in kube-apiserver: routing, authn/authz, REST verbs, audit."""
import datetime
import http.server
import json
import logging
import time
import urllib.parse

from . import apistatus, authn, patch, protobuf, rbac, resources, selectors
from .etcd import EtcdError

HEALTH = ("/healthz", "/livez", "/readyz")


class Request:
    """A parsed resource request."""

    def __init__(self, res, verb, ns, name, sub):
        self.res, self.verb, self.ns, self.name, self.sub = res, verb, ns, name, sub


def parse_resource_path(segs, method, query):
    """segs: path segments after /api/v1 or /apis/<g>/<v>, plus group, version. Returns Request."""
    group, version, rest = segs
    ns = ""
    if len(rest) >= 3 and rest[0] == "namespaces":
        cand = resources.BY_PATH.get((group, version, rest[2]))
        if cand is not None and cand.namespaced:
            ns, rest = rest[1], rest[2:]
    res = resources.BY_PATH.get((group, version, rest[0]))
    if res is None or len(rest) > 3:
        raise apistatus.StatusError(404, "NotFound", "the server could not find the requested resource", {})
    name = rest[1] if len(rest) > 1 else ""
    sub = rest[2] if len(rest) > 2 else ""
    if sub and sub not in res.subresources:
        raise apistatus.StatusError(404, "NotFound", "the server could not find the requested resource", {})
    if method == "GET":
        verb = "get" if name else ("watch" if query.get("watch") in ("true", "1") else "list")
    elif method == "POST":
        verb = "create"
        if name:
            raise apistatus.method_not_allowed()
    elif method == "DELETE":
        verb = "delete" if name else "deletecollection"
    else:
        verb = {"PUT": "update", "PATCH": "patch"}[method]
        if not name:
            raise apistatus.method_not_allowed()
    return Request(res, verb, ns, name, sub)


class Handler(http.server.BaseHTTPRequestHandler):
    """The stand-in API server's requests; `api` is the Server that holds its state."""

    api = None
    protocol_version = "HTTP/1.1"
    server_version = "kube-apiserver-sandbox-stand-in"

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        self.serve("GET")

    def do_POST(self):
        self.serve("POST")

    def do_PUT(self):
        self.serve("PUT")

    def do_PATCH(self):
        self.serve("PATCH")

    def do_DELETE(self):
        self.serve("DELETE")

    # ---- plumbing ------------------------------------------------------------------------
    def serve(self, method):
        url = urllib.parse.urlsplit(self.path)
        self.query = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query).items()}
        self.body = self.read_body()
        self.user, verb, code = None, method.lower(), 500
        try:
            self.user = authn.authenticate(self.connection.getpeercert(), self.headers.get("Authorization"),
                                           self.api.store, self.api.flags["enable-bootstrap-token-auth"],
                                           str(self.api.flags["anonymous-auth"]).lower() != "false")
            self.user = self.impersonate(self.user)
            verb, code = self.route(method, url.path)
        except apistatus.StatusError as e:
            code = e.code
            self.reply(e.code, e.body())
        except EtcdError as e:
            code = 500
            self.reply(500, apistatus.StatusError(500, "InternalError", "etcd: %s" % e).body())
        except (BrokenPipeError, ConnectionResetError):
            code = 499
        except Exception as e:  # a bug or a dead validator: answer like kube-apiserver, keep serving
            logging.getLogger("kube-apiserver").exception("internal error serving %s %s", method, self.path)
            code = 500
            self.reply(500, apistatus.StatusError(500, "InternalError", "Internal error occurred: %s" % e).body())
        user = self.user or authn.User("", [])
        self.api.audit({"time": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
                      "user": user.name, "groups": user.groups, "verb": verb, "method": method,
                      "path": self.path, "code": code, "remote": self.client_address[0],
                      "authenticated": bool(self.user and self.user.authenticated)})

    def read_body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def reply(self, code, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else (
            body.encode() if isinstance(body, str) else json.dumps(body).encode())
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache, private")
        self.end_headers()
        self.wfile.write(data)

    def json_body(self):
        content_type = (self.headers.get("Content-Type") or "application/json").split(";")[0].strip()
        if content_type == "application/vnd.kubernetes.protobuf":
            try:
                return protobuf.decode(self.body)
            except protobuf.ProtobufError as e:
                raise apistatus.StatusError(415, "UnsupportedMediaType", str(e), {})
        if content_type not in ("application/json", "") and content_type not in patch.PATCH_TYPES:
            raise apistatus.StatusError(415, "UnsupportedMediaType", 'the body of the request was in an '
                                        'unknown format - accepted media types include: application/json', {})
        try:
            obj = json.loads(self.body or b"null")
        except ValueError as e:
            raise apistatus.bad_request("the body of the request is not valid JSON: %s" % e)
        if not isinstance(obj, (dict, list)):
            raise apistatus.bad_request("the body of the request must be a JSON object")
        return obj

    def check(self, attrs):
        allowed, _ = self.api.authorize(attrs)
        if not allowed:
            raise apistatus.forbidden(self.user.name, attrs)

    def impersonate(self, user):
        as_user = self.headers.get("Impersonate-User")
        as_groups = self.headers.get_all("Impersonate-Group") or []
        if not as_user:
            return user
        self.user = user
        self.check(rbac.Attributes(user.name, user.groups, "impersonate", "", "users", name=as_user))
        for g in as_groups:
            self.check(rbac.Attributes(user.name, user.groups, "impersonate", "", "groups", name=g))
        groups = list(as_groups)
        if as_user != "system:anonymous" and "system:authenticated" not in groups:
            groups.append("system:authenticated")
        return authn.User(as_user, groups)

    # ---- routing -------------------------------------------------------------------------
    def route(self, method, path):
        segs = [s for s in path.split("/") if s]
        if segs[:2] == ["api", "v1"] and len(segs) > 2:
            return self.resource(method, parse_resource_path(("", "v1", segs[2:]), method, self.query))
        if segs[:1] == ["apis"] and len(segs) > 3:
            return self.resource(method, parse_resource_path((segs[1], segs[2], segs[3:]), method, self.query))
        return "get", self.non_resource(method, path)

    def non_resource(self, method, path):
        verb = method.lower() if method != "GET" else "get"
        self.check(rbac.Attributes(self.user.name, self.user.groups, verb, path=path))
        if method == "GET" and (path in HEALTH or any(path.startswith(h + "/") for h in HEALTH)):
            healthy = path.startswith("/livez") or self.api.etcd.healthy()
            self.reply(200 if healthy else 500, "ok" if healthy else "[-]etcd failed: reason withheld\n"
                       "%s check failed" % path.strip("/").split("/")[0], "text/plain; charset=utf-8")
            return 200 if healthy else 500
        doc = self.discovery(path)
        if method != "GET" or doc is None:
            raise apistatus.StatusError(404, "NotFound", "the server could not find the requested resource", {})
        if isinstance(doc, str):
            self.reply(200, doc, "text/plain; charset=utf-8")
        else:
            self.reply(200, doc)
        return 200

    def discovery(self, path):
        path = path.rstrip("/") or "/"
        if path == "/version":
            minor = self.api.version.lstrip("v").split(".")[1] if "." in self.api.version else "32"
            return {"major": "1", "minor": minor, "gitVersion": self.api.version,
                    "gitCommit": "sandbox-stand-in", "gitTreeState": "clean",
                    "buildDate": "2024-12-11T00:00:00Z", "goVersion": "go1.23.3", "compiler": "gc",
                    "platform": "linux/amd64"}
        if path == "/openapi/v3":
            return resources.openapi_v3_root()
        if path.startswith("/openapi/v3/"):
            return resources.openapi_v3_group(path[len("/openapi/v3/"):])
        if path == "/api":
            host = self.connection.getsockname()
            return {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [
                {"clientCIDR": "0.0.0.0/0", "serverAddress": "%s:%d" % (host[0], host[1])}]}
        if path == "/api/v1":
            return resources.resource_list("", "v1")
        if path == "/apis":
            return resources.group_list()
        segs = path.split("/")[2:]
        if len(segs) == 1:
            for g in resources.group_list()["groups"]:
                if g["name"] == segs[0]:
                    return dict(g, kind="APIGroup", apiVersion="v1")
        if len(segs) == 2:
            return resources.resource_list(segs[0], segs[1])
        return None

    def resource(self, method, req):
        attrs = rbac.Attributes(self.user.name, self.user.groups, req.verb, req.res.group, req.res.name,
                                req.sub, req.ns, req.name)
        self.check(attrs)
        if req.res in resources.REVIEWS:
            return req.verb, self.review(req)
        handler = getattr(self, "verb_" + req.verb, None)
        if handler is None:
            raise apistatus.method_not_allowed()
        return req.verb, handler(req)

    # ---- verbs ---------------------------------------------------------------------------
    def dry_run(self):
        return self.query.get("dryRun") == "All"

    def verb_get(self, req):
        self.reply(200, self.api.store.get(req.res, req.ns, req.name))
        return 200

    def verb_list(self, req):
        items, rev = self.api.store.list(req.res, req.ns)
        items = [o for o in items if selectors.matches(o, self.query.get("labelSelector"),
                                                       self.query.get("fieldSelector"))]
        self.reply(200, {"kind": req.res.kind + "List", "apiVersion": req.res.api_version,
                         "metadata": {"resourceVersion": str(rev)}, "items": items})
        return 200

    def verb_create(self, req):
        obj = self.json_body()
        if not isinstance(obj, dict):
            raise apistatus.bad_request("the body of the request must be a JSON object")
        self.node_restriction(req, obj)
        created = self.api.store.create(req.res, req.ns, obj, self.user, self.dry_run())
        self.reply(201, created)
        return 201

    def node_restriction(self, req, obj):
        """The NodeRestriction admission plugin, for Node creation: a node creates only itself."""
        user = self.user
        if req.res.name != "nodes" or "system:nodes" not in user.groups or not user.name.startswith("system:node:"):
            return
        own, wanted = user.name[len("system:node:"):], (obj.get("metadata") or {}).get("name", "")
        if wanted != own:
            raise apistatus.StatusError(403, "Forbidden", 'nodes "%s" is forbidden: node "%s" is not allowed '
                                        'to modify node "%s"' % (wanted, own, wanted),
                                        {"name": wanted, "kind": "nodes"})

    def verb_update(self, req):
        obj = self.json_body()
        if not isinstance(obj, dict):
            raise apistatus.bad_request("the body of the request must be a JSON object")
        self.reply(200, self.api.store.update(req.res, req.ns, req.name, obj, req.sub, self.dry_run()))
        return 200

    def verb_patch(self, req):
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        apply = patch.PATCH_TYPES.get(content_type)
        if apply is None:
            raise apistatus.unsupported_media(content_type)
        ops = self.json_body()
        for attempt in range(10):
            current = self.api.store.get(req.res, req.ns, req.name)
            try:
                patched = apply(current, ops)
            except patch.PatchError as e:
                raise apistatus.StatusError(422 if content_type.startswith("application/json-patch")
                                            else 400, "BadRequest" if "merge" in content_type
                                            else "Invalid", str(e))
            if not isinstance(patched, dict):
                raise apistatus.bad_request("the patch does not produce an object")
            patched.setdefault("metadata", {})
            explicit_rv = (ops.get("metadata") or {}).get("resourceVersion") if isinstance(ops, dict) else None
            if not explicit_rv:
                patched["metadata"]["resourceVersion"] = current["metadata"]["resourceVersion"]
            try:
                result = self.api.store.update(req.res, req.ns, req.name, patched, req.sub, self.dry_run(),
                                             current=current)
            except apistatus.StatusError as e:
                if e.reason == "Conflict" and not explicit_rv:
                    continue
                raise
            self.reply(200, result)
            return 200
        raise apistatus.conflict(req.res.name, req.res.group, req.name)

    def verb_delete(self, req):
        old = self.api.store.delete(req.res, req.ns, req.name, self.dry_run())
        self.reply(200, apistatus.success(req.name, req.res.group, req.res.name, old["metadata"].get("uid")))
        return 200

    def verb_watch(self, req):
        """A polling watch: ADDED for existing objects (or changes after ?resourceVersion), then
        ADDED/MODIFIED/DELETED every 200 ms until timeoutSeconds (max 300)."""
        timeout = min(int(self.query.get("timeoutSeconds") or 300), 300)
        since = int(self.query.get("resourceVersion") or 0)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        seen, end = {}, time.time() + timeout
        while time.time() < end:
            items, _ = self.api.store.list(req.res, req.ns)
            now = {}
            for o in items:
                if not selectors.matches(o, self.query.get("labelSelector"), self.query.get("fieldSelector")):
                    continue
                key = (o["metadata"].get("namespace"), o["metadata"]["name"])
                rv = int(o["metadata"]["resourceVersion"])
                now[key] = o
                if key not in seen and rv > since:
                    self.event("ADDED", o)
                elif key in seen and rv != int(seen[key]["metadata"]["resourceVersion"]):
                    self.event("MODIFIED", o)
            for key in set(seen) - set(now):
                self.event("DELETED", seen[key])
            seen = now
            time.sleep(0.2)
        self.wfile.write(b"0\r\n\r\n")
        return 200

    def event(self, kind, obj):
        data = json.dumps({"type": kind, "object": obj}).encode() + b"\n"
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def review(self, req):
        if req.verb != "create":
            raise apistatus.method_not_allowed()
        obj = self.json_body()
        spec = obj.get("spec") or {} if isinstance(obj, dict) else {}
        if req.res.name == "selfsubjectreviews":
            obj["status"] = {"userInfo": {"username": self.user.name, "groups": self.user.groups}}
            self.reply(201, obj)
            return 201
        if req.res.name == "subjectaccessreviews":
            name, groups = spec.get("user") or "", spec.get("groups") or []
        else:
            name, groups = self.user.name, self.user.groups
        ra, nra = spec.get("resourceAttributes"), spec.get("nonResourceAttributes")
        if ra:
            attrs = rbac.Attributes(name, groups, ra.get("verb", ""), ra.get("group", ""),
                                    ra.get("resource", ""), ra.get("subresource", ""),
                                    ra.get("namespace", ""), ra.get("name", ""))
        elif nra:
            attrs = rbac.Attributes(name, groups, nra.get("verb", ""), path=nra.get("path", ""))
        else:
            raise apistatus.invalid(req.res.kind, req.res.group, "", [
                ("spec.resourceAttributes", "Required value: exactly one of nonResourceAttributes or "
                 "resourceAttributes must be specified")])
        allowed, reason = self.api.authorize(attrs)
        obj["status"] = {"allowed": bool(allowed)}
        if reason:
            obj["status"]["reason"] = reason
        obj.setdefault("metadata", {}).setdefault("creationTimestamp", None)
        self.reply(201, obj)
        return 201


def make_handler(server):
    """A Handler class serving `server` (apiserver.py's Server)."""
    return type("Handler", (Handler,), {"api": server})
