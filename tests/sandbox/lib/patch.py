"""PATCH bodies: JSON merge patch (RFC 7386), JSON patch (RFC 6902), strategic merge patch.

Strategic merge patch is a JSON merge patch plus: lists whose field has a patch merge key in
MERGE_KEYS (containers by name, volumeMounts by mountPath, ...) are merged element by element
(`$patch: delete`/`replace` honoured on elements), `finalizers` merge as a set, and the directives
`$setElementOrder/...`, `$retainKeys`, `$deleteFromPrimitiveList/...` are understood enough not to be
stored. Lists without a merge key (Node spec.taints, ...) are replaced whole, as kube-apiserver does.
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


# Field name -> patch merge key (k8s.io/api patchMergeKey tags for the kinds the sandbox serves).
MERGE_KEYS = {"containers": "name", "initContainers": "name", "ephemeralContainers": "name",
              "volumes": "name", "env": "name", "volumeMounts": "mountPath", "volumeDevices": "devicePath",
              "imagePullSecrets": "name", "hostAliases": "ip", "conditions": "type",
              "ownerReferences": "uid", "addresses": "type", "topologySpreadConstraints": "topologyKey"}
SET_LISTS = ("finalizers",)


def _merge_key(field, items):
    if field == "ports":
        return "containerPort" if any(isinstance(i, dict) and "containerPort" in i for i in items) else "port"
    return MERGE_KEYS.get(field)


def _merge_list(field, current, patch_items):
    key = _merge_key(field, patch_items)
    if field in SET_LISTS and isinstance(current, list):
        return current + [x for x in patch_items if x not in current]
    if not key or not isinstance(current, list) or not all(isinstance(i, dict) for i in patch_items):
        return [strategic_merge_patch(None, i) for i in patch_items]
    if any(i.get("$patch") == "replace" for i in patch_items):
        return [{k: v for k, v in i.items() if k != "$patch"} for i in patch_items if i.get("$patch") != "replace"]
    result = copy.deepcopy(current)
    for item in patch_items:
        index = next((n for n, c in enumerate(result) if isinstance(c, dict) and c.get(key) == item.get(key)), None)
        if item.get("$patch") == "delete":
            if index is not None:
                result.pop(index)
        elif index is None:
            result.append(strategic_merge_patch(None, item))
        else:
            result[index] = strategic_merge_patch(result[index], item)
    return result


def strategic_merge_patch(target, patch):
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    if patch.get("$patch") == "replace":
        return {k: copy.deepcopy(v) for k, v in patch.items() if k != "$patch"}
    if patch.get("$patch") == "delete":
        return None
    result = copy.deepcopy(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if key.startswith("$setElementOrder/") or key in ("$retainKeys", "$patch"):
            continue
        if key.startswith("$deleteFromPrimitiveList/"):
            field = key.split("/", 1)[1]
            if isinstance(result.get(field), list):
                result[field] = [x for x in result[field] if x not in (value or [])]
            continue
        if value is None:
            result.pop(key, None)
        elif isinstance(value, list):
            result[key] = _merge_list(key, result.get(key), value)
        else:
            merged = strategic_merge_patch(result.get(key), value)
            if merged is None:
                result.pop(key, None)
            else:
                result[key] = merged
    return result


PATCH_TYPES = {
    "application/merge-patch+json": merge_patch,
    "application/strategic-merge-patch+json": strategic_merge_patch,
    "application/json-patch+json": json_patch,
}
