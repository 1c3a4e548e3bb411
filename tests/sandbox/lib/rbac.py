"""Authorization for the stand-in API server: the Node authorizer (simplified) and RBAC evaluated
from the stored Roles, ClusterRoles, RoleBindings and ClusterRoleBindings."""


class Attributes:
    """What a request asks: a resource request (group/resource/...) or a non-resource path."""

    def __init__(self, user, groups, verb, group="", resource="", subresource="", namespace="",
                 name="", path=None):
        self.user, self.groups, self.verb = user, list(groups), verb
        self.group, self.resource, self.subresource = group, resource, subresource
        self.namespace, self.name, self.path = namespace, name, path


def _has(values, wanted):
    return "*" in (values or []) or wanted in (values or [])


def rule_allows(rule, a):
    if not _has(rule.get("verbs"), a.verb):
        return False
    if a.path is not None:
        for url in rule.get("nonResourceURLs") or []:
            if url == "*" or url == a.path or (url.endswith("*") and a.path.startswith(url[:-1])):
                return True
        return False
    if not _has(rule.get("apiGroups"), a.group):
        return False
    combined = a.resource + ("/" + a.subresource if a.subresource else "")
    ok = False
    for r in rule.get("resources") or []:
        if r in ("*", combined) or (a.subresource and r in (a.resource + "/*", "*/" + a.subresource)):
            ok = True
    if not ok:
        return False
    names = rule.get("resourceNames") or []
    return not names or a.name in names


def _subject_matches(subject, user, groups, binding_ns):
    kind = subject.get("kind")
    if kind == "User":
        return subject.get("name") == user
    if kind == "Group":
        return subject.get("name") in groups
    if kind == "ServiceAccount":
        ns = subject.get("namespace") or binding_ns
        return user == "system:serviceaccount:%s:%s" % (ns, subject.get("name"))
    return False


class RBAC:
    """`store.list_objects(resource_key, namespace)` returns the stored objects of a resource."""

    def __init__(self, store):
        self.store = store

    def _rules(self, ref, binding_ns):
        if ref.get("kind") == "ClusterRole":
            role = self.store.get_object("clusterroles", "", ref.get("name"))
        else:
            role = self.store.get_object("roles", binding_ns, ref.get("name"))
        return (role or {}).get("rules") or []

    def authorize(self, a):
        """Returns (allowed, reason)."""
        bindings = [(b, "") for b in self.store.list_objects("clusterrolebindings", "")]
        if a.namespace:
            bindings += [(b, a.namespace) for b in self.store.list_objects("rolebindings", a.namespace)]
        for binding, ns in bindings:
            if not any(_subject_matches(s, a.user, a.groups, ns) for s in binding.get("subjects") or []):
                continue
            for rule in self._rules(binding.get("roleRef") or {}, ns):
                if rule_allows(rule, a):
                    kind = "RoleBinding" if ns else "ClusterRoleBinding"
                    return True, 'RBAC: allowed by %s "%s"' % (kind, binding["metadata"]["name"])
        return False, ""


NODE_LEASE_NS = "kube-node-lease"


def node_authorize(a):
    """The Node authorizer, simplified: what a kubelet (system:node:<name>, group system:nodes) needs."""
    if "system:nodes" not in a.groups or not a.user.startswith("system:node:") or a.path is not None:
        return False
    node = a.user[len("system:node:"):]
    res, verb = a.resource, a.verb
    if a.group == "" and res == "nodes":
        if verb in ("get", "list", "watch", "create"):
            return True
        return verb in ("update", "patch", "delete") and a.name == node
    if a.group == "certificates.k8s.io" and res == "certificatesigningrequests" and not a.subresource:
        return verb in ("create", "get", "list", "watch")
    if a.group == "coordination.k8s.io" and res == "leases" and a.namespace == NODE_LEASE_NS:
        return verb in ("get", "create", "update", "patch", "delete") and (a.name in ("", node))
    if a.group == "" and res == "events":
        return verb in ("create", "update", "patch")
    if a.group == "" and res == "pods":
        return verb in ("get", "list", "watch", "create", "delete", "update", "patch")
    return False
