"""The objects the stand-in API server seeds at start: namespaces and the bootstrap RBAC policy
(the subset of kube-apiserver's bootstrappolicy that kkadm, the KCM stand-in and kubelets use)."""

RBAC_V1 = "rbac.authorization.k8s.io/v1"
AUTOUPDATE = {"rbac.authorization.kubernetes.io/autoupdate": "true"}
BOOTSTRAP_LABELS = {"kubernetes.io/bootstrapping": "rbac-defaults"}


def _rule(groups, resources, verbs, names=None):
    rule = {"apiGroups": groups, "resources": resources, "verbs": verbs}
    if names:
        rule["resourceNames"] = names
    return rule


def _url_rule(urls, verbs):
    return {"nonResourceURLs": urls, "verbs": verbs}


def cluster_role(name, rules):
    return {"apiVersion": RBAC_V1, "kind": "ClusterRole",
            "metadata": {"name": name, "labels": dict(BOOTSTRAP_LABELS), "annotations": dict(AUTOUPDATE)},
            "rules": rules}


def cluster_role_binding(name, role, subjects):
    return {"apiVersion": RBAC_V1, "kind": "ClusterRoleBinding",
            "metadata": {"name": name, "labels": dict(BOOTSTRAP_LABELS), "annotations": dict(AUTOUPDATE)},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": role},
            "subjects": subjects}


def group(name):
    return {"apiGroup": "rbac.authorization.k8s.io", "kind": "Group", "name": name}


def user(name):
    return {"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": name}


READ = ["get", "list", "watch"]
ALL_WRITE = ["get", "list", "watch", "create", "update", "patch", "delete"]
CSR = "certificates.k8s.io"

CLUSTER_ROLES = [
    cluster_role("cluster-admin", [_rule(["*"], ["*"], ["*"]), _url_rule(["*"], ["*"])]),
    cluster_role("system:discovery", [_url_rule(
        ["/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz",
         "/version", "/version/"], ["get"])]),
    cluster_role("system:basic-user", [
        _rule(["authorization.k8s.io"], ["selfsubjectaccessreviews", "selfsubjectrulesreviews"], ["create"]),
        _rule(["authentication.k8s.io"], ["selfsubjectreviews"], ["create"])]),
    cluster_role("system:public-info-viewer", [_url_rule(
        ["/healthz", "/livez", "/readyz", "/version", "/version/"], ["get"])]),
    cluster_role("system:node-bootstrapper", [_rule([CSR], ["certificatesigningrequests"],
                                                    ["create", "get", "list", "watch"])]),
    cluster_role("system:certificates.k8s.io:certificatesigningrequests:nodeclient",
                 [_rule([CSR], ["certificatesigningrequests/nodeclient"], ["create"])]),
    cluster_role("system:certificates.k8s.io:certificatesigningrequests:selfnodeclient",
                 [_rule([CSR], ["certificatesigningrequests/selfnodeclient"], ["create"])]),
    cluster_role("system:node-proxier", [
        _rule([""], ["endpoints", "services"], ["list", "watch"]),
        _rule([""], ["nodes"], READ),
        _rule([""], ["events"], ["create", "patch", "update"]),
        _rule(["discovery.k8s.io"], ["endpointslices"], ["list", "watch"])]),
    cluster_role("system:node", [
        _rule([""], ["nodes"], ALL_WRITE), _rule([""], ["nodes/status"], ["patch", "update"]),
        _rule([""], ["pods"], ["get", "list", "watch", "create", "delete"]),
        _rule([""], ["pods/status"], ["patch", "update"]),
        _rule([""], ["events"], ["create", "patch", "update"]),
        _rule([CSR], ["certificatesigningrequests"], ["create", "get", "list", "watch"]),
        _rule(["coordination.k8s.io"], ["leases"], ["create", "delete", "get", "patch", "update"])]),
    cluster_role("system:kube-controller-manager", [
        _rule([""], ["secrets", "configmaps", "serviceaccounts", "endpoints", "events", "nodes", "pods",
                     "services", "namespaces"], ALL_WRITE),
        _rule([""], ["nodes/status", "pods/status", "services/status"], ["patch", "update"]),
        _rule(["coordination.k8s.io"], ["leases"], ALL_WRITE),
        _rule([CSR], ["certificatesigningrequests"], ALL_WRITE),
        _rule([CSR], ["certificatesigningrequests/approval", "certificatesigningrequests/status"],
              ["update", "patch"]),
        _rule([CSR], ["signers"], ["approve", "sign"]),
        _rule(["authorization.k8s.io"], ["subjectaccessreviews"], ["create"]),
        _rule(["authentication.k8s.io"], ["tokenreviews"], ["create"]),
        _rule(["apps"], ["deployments", "daemonsets"], READ),
        _rule(["apps"], ["deployments/status", "daemonsets/status"], ["patch", "update"])]),
    cluster_role("system:kube-scheduler", [
        _rule([""], ["nodes", "pods", "namespaces", "services"], READ),
        _rule([""], ["pods/binding", "bindings"], ["create"]),
        _rule([""], ["events"], ["create", "patch", "update"]),
        _rule(["coordination.k8s.io"], ["leases"], ALL_WRITE),
        _rule(["authorization.k8s.io"], ["subjectaccessreviews"], ["create"])]),
]

CLUSTER_ROLE_BINDINGS = [
    cluster_role_binding("cluster-admin", "cluster-admin", [group("system:masters")]),
    cluster_role_binding("system:discovery", "system:discovery", [group("system:authenticated")]),
    cluster_role_binding("system:basic-user", "system:basic-user", [group("system:authenticated")]),
    cluster_role_binding("system:public-info-viewer", "system:public-info-viewer",
                         [group("system:authenticated"), group("system:unauthenticated")]),
    cluster_role_binding("system:kube-controller-manager", "system:kube-controller-manager",
                         [user("system:kube-controller-manager")]),
    cluster_role_binding("system:kube-scheduler", "system:kube-scheduler", [user("system:kube-scheduler")]),
]

NAMESPACES = ["default", "kube-system", "kube-public", "kube-node-lease"]


def namespace(name):
    return {"apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": name, "labels": {"kubernetes.io/metadata.name": name}},
            "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}


def reconcile(stored, wanted):
    """Returns the updated object when `stored` lacks rules/subjects of `wanted` and allows
    auto-update (annotation rbac.authorization.kubernetes.io/autoupdate != "false"); else None."""
    annotations = (stored.get("metadata") or {}).get("annotations") or {}
    if annotations.get("rbac.authorization.kubernetes.io/autoupdate") == "false":
        return None
    field = "rules" if wanted["kind"] == "ClusterRole" else "subjects"
    have = list(stored.get(field) or [])
    missing = [x for x in wanted[field] if x not in have]
    if not missing:
        return None
    updated = dict(stored)
    updated[field] = have + missing
    return updated
