"""Decodes the Kubernetes protobuf envelope (application/vnd.kubernetes.protobuf) into JSON objects
for the few built-in kinds kubectl's typed commands send (kubectl create configmap/secret/namespace/
serviceaccount, kubectl auth can-i). Field numbers are those of k8s.io/api generated.proto.
Unknown kinds or fields raise ProtobufError (the server answers 415), never data loss."""
import base64
import datetime

MAGIC = b"k8s\x00"


class ProtobufError(ValueError):
    pass


def _varint(buf, pos):
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise ProtobufError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def fields(buf):
    """Yields (field number, wire type, value) of a protobuf message."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            length, pos = _varint(buf, pos)
            value, pos = buf[pos:pos + length], pos + length
        elif wire == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ProtobufError("unsupported wire type %d" % wire)
        yield num, wire, value


S, BYTES, INT, BOOL, TIME = "string", "bytes", "int", "bool", "time"


def with_(base, extra):
    merged = dict(base)
    merged.update(extra)
    return merged


def MSG(schema):
    return ("msg", schema)


def MAP(value_type):
    return ("map", value_type)


def REP(item_type):
    return ("rep", item_type)


OWNER_REF = {1: ("kind", S), 3: ("name", S), 4: ("uid", S), 5: ("apiVersion", S), 6: ("controller", BOOL),
             7: ("blockOwnerDeletion", BOOL)}
OBJECT_META = {1: ("name", S), 2: ("generateName", S), 3: ("namespace", S), 4: ("selfLink", S),
               5: ("uid", S), 6: ("resourceVersion", S), 7: ("generation", INT), 8: ("creationTimestamp", TIME),
               9: ("deletionTimestamp", TIME), 10: ("deletionGracePeriodSeconds", INT),
               11: ("labels", MAP(S)), 12: ("annotations", MAP(S)), 13: ("ownerReferences", REP(MSG(OWNER_REF))),
               14: ("finalizers", REP(S))}
META = {1: ("metadata", MSG(OBJECT_META))}
RESOURCE_ATTRS = {1: ("namespace", S), 2: ("verb", S), 3: ("group", S), 4: ("version", S), 5: ("resource", S),
                  6: ("subresource", S), 7: ("name", S)}
NON_RESOURCE_ATTRS = {1: ("path", S), 2: ("verb", S)}
SSAR_SPEC = {1: ("resourceAttributes", MSG(RESOURCE_ATTRS)), 2: ("nonResourceAttributes", MSG(NON_RESOURCE_ATTRS))}
SAR_SPEC = with_(SSAR_SPEC, {3: ("user", S), 4: ("groups", REP(S)), 6: ("uid", S)})
POLICY_RULE = {1: ("verbs", REP(S)), 2: ("apiGroups", REP(S)), 3: ("resources", REP(S)),
               4: ("resourceNames", REP(S)), 5: ("nonResourceURLs", REP(S))}
SUBJECT = {1: ("kind", S), 2: ("apiGroup", S), 3: ("name", S), 4: ("namespace", S)}
ROLE_REF = {1: ("apiGroup", S), 2: ("kind", S), 3: ("name", S)}

CSR_SPEC = {1: ("request", BYTES), 2: ("username", S), 3: ("uid", S), 4: ("groups", REP(S)),
            5: ("usages", REP(S)), 6: ("extra", MAP(MSG({1: ("items", REP(S))}))), 7: ("signerName", S),
            8: ("expirationSeconds", INT)}
CSR_CONDITION = {1: ("type", S), 2: ("reason", S), 3: ("message", S), 4: ("lastUpdateTime", TIME),
                 5: ("lastTransitionTime", TIME), 6: ("status", S)}
CSR_STATUS = {1: ("conditions", REP(MSG(CSR_CONDITION))), 2: ("certificate", BYTES)}

KINDS = {
    ("v1", "ConfigMap"): with_(META, {2: ("data", MAP(S)), 3: ("binaryData", MAP(BYTES)), 4: ("immutable", BOOL)}),
    ("v1", "Secret"): with_(META, {2: ("data", MAP(BYTES)), 3: ("type", S), 4: ("stringData", MAP(S)),
                                    5: ("immutable", BOOL)}),
    ("v1", "Namespace"): with_(META, {2: ("spec", MSG({1: ("finalizers", REP(S))})), 3: ("status", MSG(None))}),
    ("v1", "ServiceAccount"): with_(META, {4: ("automountServiceAccountToken", BOOL)}),
    ("authorization.k8s.io/v1", "SelfSubjectAccessReview"): with_(META, {2: ("spec", MSG(SSAR_SPEC)),
                                                                          3: ("status", MSG(None))}),
    ("authorization.k8s.io/v1", "SubjectAccessReview"): with_(META, {2: ("spec", MSG(SAR_SPEC)),
                                                                      3: ("status", MSG(None))}),
    ("authentication.k8s.io/v1", "SelfSubjectReview"): with_(META, {2: ("status", MSG(None))}),
    ("certificates.k8s.io/v1", "CertificateSigningRequest"): with_(META, {2: ("spec", MSG(CSR_SPEC)),
                                                                          3: ("status", MSG(CSR_STATUS))}),
    ("rbac.authorization.k8s.io/v1", "Role"): with_(META, {2: ("rules", REP(MSG(POLICY_RULE)))}),
    ("rbac.authorization.k8s.io/v1", "ClusterRole"): with_(META, {2: ("rules", REP(MSG(POLICY_RULE)))}),
    ("rbac.authorization.k8s.io/v1", "RoleBinding"): with_(META, {2: ("subjects", REP(MSG(SUBJECT))),
                                                                   3: ("roleRef", MSG(ROLE_REF))}),
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"): with_(META, {2: ("subjects", REP(MSG(SUBJECT))),
                                                                          3: ("roleRef", MSG(ROLE_REF))}),
}


def _time(buf):
    seconds = nanos = 0
    for num, _, value in fields(buf):
        if num == 1:
            seconds = value
        elif num == 2:
            nanos = value
    if seconds == 0 and nanos == 0:
        return None
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _scalar(kind, wire, value):
    if kind == S:
        return value.decode()
    if kind == BYTES:
        return base64.b64encode(value).decode()
    if kind == INT:
        return value - (1 << 64) if value >= 1 << 63 else value
    if kind == BOOL:
        return bool(value)
    if kind == TIME:
        return _time(value)
    if kind[0] == "msg":
        return message(value, kind[1])
    raise ProtobufError("unsupported field kind %s" % (kind,))


def message(buf, schema):
    """Decodes a message; schema None skips its content (server-owned status)."""
    out = {}
    if schema is None:
        return out
    for num, wire, value in fields(buf):
        if num not in schema:
            raise ProtobufError("field %d is not known to the sandbox's protobuf decoder" % num)
        name, kind = schema[num]
        if isinstance(kind, tuple) and kind[0] == "map":
            entry = dict((n, v) for n, _, v in fields(value))
            value = _scalar(kind[1], 2, entry.get(2, b""))
            if isinstance(kind[1], tuple) and set(value) <= {"items"}:
                value = value.get("items", [])  # ExtraValue is a bare list in JSON
            out.setdefault(name, {})[entry.get(1, b"").decode()] = value
        elif isinstance(kind, tuple) and kind[0] == "rep":
            out.setdefault(name, []).append(_scalar(kind[1], wire, value))
        else:
            decoded = _scalar(kind, wire, value)
            # gogo-protobuf writes empty strings and zero numbers of non-pointer fields; JSON omits them.
            if decoded is not None and not (kind in (S, INT) and not decoded):
                out[name] = decoded
    return out


def decode(body):
    """Returns the JSON form of a k8s protobuf body (magic + runtime.Unknown)."""
    if not body.startswith(MAGIC):
        raise ProtobufError("missing the k8s protobuf magic prefix")
    type_meta, raw = {}, b""
    for num, _, value in fields(body[len(MAGIC):]):
        if num == 1:
            type_meta = {n: v.decode() for n, _, v in fields(value)}
        elif num == 2:
            raw = value
    api_version, kind = type_meta.get(1, ""), type_meta.get(2, "")
    schema = KINDS.get((api_version, kind))
    if schema is None:
        raise ProtobufError("the sandbox cannot decode protobuf %s %s" % (api_version, kind))
    obj = {"apiVersion": api_version, "kind": kind}
    obj.update(message(raw, schema))
    return obj
