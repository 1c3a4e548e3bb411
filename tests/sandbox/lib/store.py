"""Object storage of the stand-in API server in the real etcd, with kube-apiserver's semantics:
resourceVersion = the key's mod_revision, optimistic concurrency, uid/creationTimestamp on create,
status subresource rules, schema validation of every object before it is stored."""
import base64
import copy
import datetime
import json
import uuid

from . import apistatus
from .resources import BY_NAME


def now_rfc3339():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _with_rv(obj, rev):
    obj.setdefault("metadata", {})["resourceVersion"] = str(rev)
    return obj


def _field(path):
    """JSON pointer /spec/containers/0/name -> spec.containers[0].name"""
    out = ""
    for token in path.strip("/").split("/"):
        if token == "":
            continue
        out += "[%s]" % token if token.isdigit() else ("." if out else "") + token.replace("~1", "/").replace("~0", "~")
    return out


class Store:
    def __init__(self, etcd, validator):
        self.etcd, self.validator = etcd, validator

    # ---- reads -------------------------------------------------------------------------------
    def get(self, res, ns, name):
        value, rev = self.etcd.get(res.etcd_key(ns, name))
        if value is None:
            raise apistatus.not_found(res.name, res.group, name)
        return _with_rv(json.loads(value), rev)

    def list(self, res, ns):
        """Returns (items, list resourceVersion)."""
        items, rev = self.etcd.list(res.etcd_prefix(ns))
        return [_with_rv(json.loads(v), r) for _, v, r in items], rev

    def get_object(self, resource, ns, name):
        try:
            return self.get(BY_NAME[resource], ns, name)
        except apistatus.StatusError:
            return None

    def list_objects(self, resource, ns):
        return self.list(BY_NAME[resource], ns)[0]

    # ---- writes ------------------------------------------------------------------------------
    def validate(self, res, obj):
        problems = self.validator.validate(obj)
        if problems:
            causes = []
            for p in problems:
                path, _, message = p.partition(" ")
                causes.append((_field(path), message))
            raise apistatus.invalid(res.kind, res.group, obj["metadata"].get("name", ""), causes)

    def _encode(self, obj):
        stored = copy.deepcopy(obj)
        stored["metadata"].pop("resourceVersion", None)
        return json.dumps(stored, separators=(",", ":"), sort_keys=True)

    def create(self, res, ns, obj, user=None, dry_run=False):
        obj = copy.deepcopy(obj)
        meta = obj.setdefault("metadata", {})
        if not meta.get("name") and meta.get("generateName"):
            meta["name"] = meta["generateName"] + uuid.uuid4().hex[:5]
        name = meta.get("name")
        if not name:
            raise apistatus.invalid(res.kind, res.group, "", [("metadata.name", "Required value: name or "
                                                               "generateName is required")])
        if res.namespaced:
            if meta.get("namespace", ns) != ns:
                raise apistatus.bad_request("the namespace of the provided object does not match the "
                                            "namespace sent on the request")
            meta["namespace"] = ns
            if self.get_object("namespaces", "", ns) is None:
                raise apistatus.not_found("namespaces", "", ns)
        else:
            meta.pop("namespace", None)
        meta.pop("resourceVersion", None)
        meta["uid"] = str(uuid.uuid4())
        meta["creationTimestamp"] = now_rfc3339()
        self._defaults_on_create(res, obj, user)
        self.validate(res, obj)
        if dry_run:
            return _with_rv(obj, 0)
        rev = self.etcd.create(res.etcd_key(ns, name), self._encode(obj))
        if not rev:
            raise apistatus.already_exists(res.name, res.group, name)
        return _with_rv(obj, rev)

    def _defaults_on_create(self, res, obj, user):
        obj["apiVersion"], obj["kind"] = res.api_version, res.kind
        if res.name == "secrets":
            _secret_string_data(obj)
            obj.setdefault("type", "Opaque")
        elif res.name == "namespaces":
            obj.setdefault("spec", {}).setdefault("finalizers", ["kubernetes"])
            obj["status"] = {"phase": "Active"}
            obj["metadata"].setdefault("labels", {})["kubernetes.io/metadata.name"] = obj["metadata"]["name"]
        elif res.name == "certificatesigningrequests":
            obj.pop("status", None)
            spec = obj.setdefault("spec", {})
            if user is not None:
                spec["username"], spec["groups"] = user.name, list(user.groups)
                spec.pop("uid", None)
        elif res.group == "apps":
            obj["metadata"]["generation"] = 1

    def update(self, res, ns, name, obj, sub="", dry_run=False, current=None):
        """Replaces an object (PUT or the result of a PATCH). Conflict on a stale resourceVersion."""
        old = current if current is not None else self.get(res, ns, name)
        new = copy.deepcopy(obj)
        meta = new.setdefault("metadata", {})
        if meta.get("name", name) != name:
            raise apistatus.bad_request('the name of the object (%s) does not match the name on the URL (%s)'
                                        % (meta.get("name"), name))
        wanted_rv = meta.get("resourceVersion")
        if wanted_rv and wanted_rv != old["metadata"]["resourceVersion"]:
            raise apistatus.conflict(res.name, res.group, name)
        meta["name"] = name
        if res.namespaced:
            meta["namespace"] = ns
        for key in ("uid", "creationTimestamp", "generation"):
            if key in old["metadata"]:
                meta[key] = old["metadata"][key]
        new["apiVersion"], new["kind"] = res.api_version, res.kind
        new = _subresource_rules(res, sub, old, new)
        if res.name == "secrets":
            _secret_string_data(new)
        if res.group == "apps" and new.get("spec") != old.get("spec"):
            meta["generation"] = old["metadata"].get("generation", 1) + 1
        self.validate(res, new)
        if dry_run:
            return new
        rev = self.etcd.update(res.etcd_key(ns, name), self._encode(new), int(old["metadata"]["resourceVersion"]))
        if not rev:
            raise apistatus.conflict(res.name, res.group, name)
        return _with_rv(new, rev)

    def delete(self, res, ns, name, dry_run=False):
        old = self.get(res, ns, name)
        if not dry_run and not self.etcd.delete(res.etcd_key(ns, name), int(old["metadata"]["resourceVersion"])):
            raise apistatus.conflict(res.name, res.group, name)
        return old


def _secret_string_data(obj):
    string_data = obj.pop("stringData", None) or {}
    if string_data:
        data = obj.setdefault("data", {}) or {}
        for key, value in string_data.items():
            data[key] = base64.b64encode(str(value).encode()).decode()
        obj["data"] = data


def _subresource_rules(res, sub, old, new):
    """The main endpoint keeps the stored status; /status keeps the spec; /approval changes only
    the CSR's conditions (kube-apiserver's PrepareForUpdate strategies)."""
    if "status" in res.subresources and sub == "":
        if "status" in old:
            new["status"] = copy.deepcopy(old["status"])
        else:
            new.pop("status", None)
    elif sub == "status":
        for key in ("spec",):
            if key in old:
                new[key] = copy.deepcopy(old[key])
    elif sub == "approval":
        merged = copy.deepcopy(old)
        merged["metadata"] = new["metadata"]
        merged.setdefault("status", {})["conditions"] = (new.get("status") or {}).get("conditions", [])
        new = merged
    return new
