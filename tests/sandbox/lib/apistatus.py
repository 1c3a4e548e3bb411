"""Kubernetes Status bodies and the errors the stand-in API server raises (apimachinery wording)."""


class StatusError(Exception):
    def __init__(self, code, reason, message, details=None):
        super().__init__(message)
        self.code, self.reason, self.message, self.details = code, reason, message, details

    def body(self):
        out = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
               "message": self.message, "reason": self.reason, "code": self.code}
        if self.details is not None:
            out["details"] = self.details
        return out


def _qualified(resource, group):
    return "%s.%s" % (resource, group) if group else resource


def _details(name, group, kind):
    d = {}
    if name:
        d["name"] = name
    if group:
        d["group"] = group
    d["kind"] = kind
    return d


def not_found(resource, group, name):
    return StatusError(404, "NotFound", '%s "%s" not found' % (_qualified(resource, group), name),
                       _details(name, group, resource))


def already_exists(resource, group, name):
    return StatusError(409, "AlreadyExists", '%s "%s" already exists' % (_qualified(resource, group), name),
                       _details(name, group, resource))


def conflict(resource, group, name):
    return StatusError(409, "Conflict", 'Operation cannot be fulfilled on %s "%s": the object has been '
                       'modified; please apply your changes to the latest version and try again'
                       % (_qualified(resource, group), name), _details(name, group, resource))


def invalid(kind, group, name, causes):
    """causes: [(field, message)]"""
    text = ", ".join("%s: %s" % (f, m) if f else m for f, m in causes)
    details = _details(name, group, kind)
    details["causes"] = [{"reason": "FieldValueInvalid", "message": m, "field": f} for f, m in causes]
    return StatusError(422, "Invalid", '%s "%s" is invalid: %s' % (kind, name, text), details)


def bad_request(message):
    return StatusError(400, "BadRequest", message)


def unauthorized():
    return StatusError(401, "Unauthorized", "Unauthorized")


def method_not_allowed(message="the server does not allow this method on the requested resource"):
    return StatusError(405, "MethodNotAllowed", message, {})


def unsupported_media(content_type):
    return StatusError(415, "UnsupportedMediaType", 'the body of the request was in an unknown format - '
                       'accepted media types include: application/json-patch+json, '
                       'application/merge-patch+json, application/strategic-merge-patch+json'
                       if content_type is None else "unsupported media type %s" % content_type)


def forbidden(user, attrs):
    """attrs: the request's authorization attributes (see rbac.Attributes)."""
    if attrs.path is not None:
        return StatusError(403, "Forbidden", 'forbidden: User "%s" cannot %s path "%s"'
                           % (user, attrs.verb, attrs.path), {})
    resource = attrs.resource + ("/" + attrs.subresource if attrs.subresource else "")
    where = 'in the namespace "%s"' % attrs.namespace if attrs.namespace else "at the cluster scope"
    what = _qualified(attrs.resource, attrs.group)
    subject = '%s "%s"' % (what, attrs.name) if attrs.name else what
    return StatusError(403, "Forbidden", '%s is forbidden: User "%s" cannot %s resource "%s" in API group '
                       '"%s" %s' % (subject, user, attrs.verb, resource, attrs.group, where),
                       _details(attrs.name, attrs.group, attrs.resource))


def success(name, group, kind, uid=None):
    d = _details(name, group, kind)
    if uid:
        d["uid"] = uid
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "details": d}
