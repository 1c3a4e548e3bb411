"""PATCH bodies: JSON merge patch (RFC 7386), JSON patch (RFC 6902), strategic merge (as merge).

Strategic merge patch is applied as a JSON merge patch: for what kkadm and the stand-ins patch
(metadata.labels/annotations maps, Node spec.taints which has no merge key and is replaced whole)
the result is the same. `$patch`/`$retainKeys` directives are not supported.
"""
import copy


class PatchError(ValueError):
    pass


def merge_patch(target, patch):
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def _tokens(pointer):
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PatchError('invalid JSON pointer "%s"' % pointer)
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _index(container, token, allow_end):
    if token == "-" and allow_end:
        return len(container)
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PatchError('invalid array index "%s"' % token)
    i = int(token)
    if i > len(container) or (i == len(container) and not allow_end):
        raise PatchError("array index %d out of range" % i)
    return i


def _parent(doc, pointer):
    tokens = _tokens(pointer)
    if not tokens:
        raise PatchError("cannot operate on the whole document")
    node = doc
    for token in tokens[:-1]:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list):
            node = node[_index(node, token, False)]
        else:
            raise PatchError('path "%s" does not exist' % pointer)
    return node, tokens[-1]


def _get(doc, pointer):
    node = doc
    for token in _tokens(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list):
            node = node[_index(node, token, False)]
        else:
            raise PatchError('path "%s" does not exist' % pointer)
    return node


def _add(doc, pointer, value):
    parent, token = _parent(doc, pointer)
    if isinstance(parent, dict):
        parent[token] = value
    elif isinstance(parent, list):
        parent.insert(_index(parent, token, True), value)
    else:
        raise PatchError('path "%s" has no container' % pointer)


def _remove(doc, pointer):
    parent, token = _parent(doc, pointer)
    if isinstance(parent, dict):
        if token not in parent:
            raise PatchError('path "%s" does not exist' % pointer)
        return parent.pop(token)
    if isinstance(parent, list):
        return parent.pop(_index(parent, token, False))
    raise PatchError('path "%s" has no container' % pointer)


def json_patch(target, ops):
    if not isinstance(ops, list):
        raise PatchError("a JSON patch must be an array of operations")
    doc = copy.deepcopy(target)
    for op in ops:
        if not isinstance(op, dict) or "op" not in op or "path" not in op:
            raise PatchError("each operation needs op and path")
        kind, path = op["op"], op["path"]
        if kind == "add":
            _add(doc, path, copy.deepcopy(op.get("value")))
        elif kind == "remove":
            _remove(doc, path)
        elif kind == "replace":
            _remove(doc, path)
            _add(doc, path, copy.deepcopy(op.get("value")))
        elif kind == "move":
            _add(doc, path, _remove(doc, op["from"]))
        elif kind == "copy":
            _add(doc, path, copy.deepcopy(_get(doc, op["from"])))
        elif kind == "test":
            if _get(doc, path) != op.get("value"):
                raise PatchError('testing value %s failed' % path)
        else:
            raise PatchError('unexpected kind of operation "%s"' % kind)
    return doc


PATCH_TYPES = {
    "application/merge-patch+json": merge_patch,
    "application/strategic-merge-patch+json": merge_patch,
    "application/json-patch+json": json_patch,
}
