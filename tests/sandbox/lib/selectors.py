"""labelSelector / fieldSelector filtering for LIST and WATCH (equality-based and existence)."""
from . import apistatus


def _parse(text):
    reqs = []
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        for op in ("!=", "==", "="):
            if op in part:
                key, value = part.split(op, 1)
                reqs.append((key.strip(), "!=" if op == "!=" else "=", value.strip()))
                break
        else:
            if part.startswith("!"):
                reqs.append((part[1:].strip(), "!", None))
            elif " in " in part or " notin " in part:
                raise apistatus.bad_request('unable to parse requirement: set-based selectors are not '
                                            'supported by the sandbox stand-in: "%s"' % part)
            else:
                reqs.append((part, "exists", None))
    return reqs


def _field_value(obj, path):
    node = obj
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return ""
        node = node[key]
    return node if isinstance(node, str) else str(node)


def matches(obj, label_selector, field_selector):
    labels = (obj.get("metadata") or {}).get("labels") or {}
    for key, op, value in _parse(label_selector):
        if op == "=" and labels.get(key) != value:
            return False
        if op == "!=" and labels.get(key) == value:
            return False
        if op == "exists" and key not in labels:
            return False
        if op == "!" and key in labels:
            return False
    for key, op, value in _parse(field_selector):
        actual = _field_value(obj, key)
        if (op == "=" and actual != value) or (op == "!=" and actual == value):
            return False
    return True
