"""The resources the stand-in API server serves, and their discovery documents."""

VERBS = ["create", "delete", "get", "list", "patch", "update"]


class Resource:
    def __init__(self, group, version, name, kind, namespaced, short=(), subresources=(), singular=None):
        self.group, self.version, self.name, self.kind = group, version, name, kind
        self.namespaced, self.short, self.subresources = namespaced, list(short), list(subresources)
        self.singular = singular or kind.lower()

    @property
    def api_version(self):
        return "%s/%s" % (self.group, self.version) if self.group else self.version

    def etcd_prefix(self, namespace=""):
        """/registry/<resource>/ for the core group (as kube-apiserver), else /registry/<group>/<resource>/."""
        base = "/registry/%s/" % self.name if not self.group else "/registry/%s/%s/" % (self.group, self.name)
        return base + (namespace + "/" if self.namespaced and namespace else "")

    def etcd_key(self, namespace, name):
        return self.etcd_prefix(namespace) + name


RESOURCES = [
    Resource("", "v1", "namespaces", "Namespace", False, ["ns"], ["status"]),
    Resource("", "v1", "configmaps", "ConfigMap", True, ["cm"]),
    Resource("", "v1", "secrets", "Secret", True),
    Resource("", "v1", "serviceaccounts", "ServiceAccount", True, ["sa"]),
    Resource("", "v1", "services", "Service", True, ["svc"], ["status"]),
    Resource("", "v1", "endpoints", "Endpoints", True, ["ep"], singular="endpoints"),
    Resource("", "v1", "nodes", "Node", False, ["no"], ["status"]),
    Resource("", "v1", "pods", "Pod", True, ["po"], ["status"]),
    Resource("", "v1", "events", "Event", True, ["ev"]),
    Resource("rbac.authorization.k8s.io", "v1", "roles", "Role", True),
    Resource("rbac.authorization.k8s.io", "v1", "rolebindings", "RoleBinding", True),
    Resource("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole", False),
    Resource("rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding", False),
    Resource("apps", "v1", "deployments", "Deployment", True, ["deploy"], ["status"]),
    Resource("apps", "v1", "daemonsets", "DaemonSet", True, ["ds"], ["status"]),
    Resource("certificates.k8s.io", "v1", "certificatesigningrequests", "CertificateSigningRequest", False,
             ["csr"], ["approval", "status"]),
    Resource("coordination.k8s.io", "v1", "leases", "Lease", True),
]

# Create-only virtual resources (answered, never stored).
REVIEWS = [
    Resource("authorization.k8s.io", "v1", "subjectaccessreviews", "SubjectAccessReview", False),
    Resource("authorization.k8s.io", "v1", "selfsubjectaccessreviews", "SelfSubjectAccessReview", False),
    Resource("authentication.k8s.io", "v1", "selfsubjectreviews", "SelfSubjectReview", False),
]

BY_PATH = {(r.group, r.version, r.name): r for r in RESOURCES + REVIEWS}
BY_NAME = {r.name: r for r in RESOURCES}


def group_versions():
    """Ordered {group: version} of the named groups."""
    out = {}
    for r in RESOURCES + REVIEWS:
        if r.group:
            out.setdefault(r.group, r.version)
    return out


def resource_list(group, version):
    items = [r for r in RESOURCES + REVIEWS if r.group == group and r.version == version]
    if not items:
        return None
    out = []
    for r in items:
        verbs = ["create"] if r in REVIEWS else VERBS + ["deletecollection", "watch"]
        entry = {"name": r.name, "singularName": r.singular, "namespaced": r.namespaced,
                 "kind": r.kind, "verbs": verbs}
        if r.short:
            entry["shortNames"] = r.short
        out.append(entry)
        for sub in r.subresources:
            out.append({"name": "%s/%s" % (r.name, sub), "singularName": "", "namespaced": r.namespaced,
                        "kind": r.kind, "verbs": ["get", "patch", "update"]})
    gv = "%s/%s" % (group, version) if group else version
    return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": out}


def group_list():
    groups = []
    for group, version in group_versions().items():
        gv = {"groupVersion": "%s/%s" % (group, version), "version": version}
        groups.append({"name": group, "versions": [gv], "preferredVersion": gv})
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


def _gv_path(group, version):
    return "api/%s" % version if not group else "apis/%s/%s" % (group, version)


def openapi_v3_root():
    """/openapi/v3: one entry per group-version, like kube-apiserver's (without schemas)."""
    gvs = [("", "v1")] + list(group_versions().items())
    return {"paths": {_gv_path(g, v): {"serverRelativeURL": "/openapi/v3/%s" % _gv_path(g, v)} for g, v in gvs}}


def openapi_v3_group(path):
    """/openapi/v3/<gv>: just enough for kubectl to detect server-side field validation (a PATCH
    operation with the fieldValidation query parameter and x-kubernetes-group-version-kind per kind),
    so `kubectl create -f`/`apply -f` validate on the server, i.e. through the schema validator."""
    paths = {}
    for r in RESOURCES:
        if _gv_path(r.group, r.version) != path:
            continue
        base = "/" + path + ("/namespaces/{namespace}" if r.namespaced else "") + "/%s/{name}" % r.name
        paths[base] = {"patch": {
            "x-kubernetes-group-version-kind": {"group": r.group, "version": r.version, "kind": r.kind},
            "x-kubernetes-action": "patch",
            "parameters": [{"name": "fieldValidation", "in": "query", "schema": {"type": "string"}}],
            "responses": {"200": {"description": "OK"}}}}
    if not paths:
        return None
    return {"openapi": "3.0.0", "info": {"title": "Kubernetes (sandbox stand-in)", "version": "v1.32.0"},
            "paths": paths, "components": {"schemas": {}}}
