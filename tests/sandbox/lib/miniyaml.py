"""A small YAML subset reader for the sandbox: enough for kubeconfigs and static Pod manifests.

Supports block mappings, block sequences (including "- key: value" items), plain/single/double
quoted scalars, flow collections on one line ({}, [a, b], {a: b}), comments, and JSON documents.
Not supported: anchors, tags, multi-line quoted or plain scalars, flow collections spanning lines,
multiple documents.
"""
import json
import re


class YamlError(ValueError):
    pass


def _scalar(text):
    text = text.strip()
    if text == "":
        return None
    if text[0] in "{[":
        return _flow(text)
    if text[0] == '"':
        return json.loads(text)
    if text[0] == "'":
        return text[1:-1].replace("''", "'")
    if text in ("null", "~", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if re.fullmatch(r"[-+]?[0-9]+", text):
        return int(text)
    if re.fullmatch(r"[-+]?([0-9]*\.[0-9]+|[0-9]+\.[0-9]*)([eE][-+]?[0-9]+)?", text):
        return float(text)
    return text


def _split_flow(body):
    parts, depth, cur, quote = [], 0, "", None
    for ch in body:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def _flow(text):
    body = text[1:-1]
    if text[0] == "[":
        return [_scalar(p) for p in _split_flow(body)]
    out = {}
    for part in _split_flow(body):
        key, _, value = part.partition(":")
        out[_scalar(key)] = _scalar(value)
    return out


def _strip_comment(line):
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip()
    return line.rstrip()


def _key_value(text):
    """Splits "key: value" (value may be empty); returns None when text is not a mapping entry."""
    m = re.match(r"""^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:{}\[\]"'#\s](?:[^#:]|:(?!\s|$))*?)\s*:(\s+|$)(.*)$""", text)
    if not m:
        return None
    return _scalar(m.group(1)), m.group(3)


class _Parser:
    def __init__(self, text):
        self.raw = text.split("\n")
        self.lines = []  # (indent, content, raw index)
        for i, line in enumerate(self.raw):
            content = _strip_comment(line)
            if content.strip() == "" or content.strip() in ("---", "..."):
                continue
            self.lines.append((len(content) - len(content.lstrip(" ")), content.strip(), i))
        self.pos = 0

    def parse(self):
        if not self.lines:
            return None
        value = self.block(self.lines[0][0])
        if self.pos != len(self.lines):
            raise YamlError("unexpected content at line %d" % (self.lines[self.pos][2] + 1))
        return value

    def block(self, indent):
        if self.lines[self.pos][1].startswith("- ") or self.lines[self.pos][1] == "-":
            return self.sequence(indent)
        return self.mapping(indent)

    def value_after(self, rest, indent, raw_index):
        """The value of a key or item whose inline text is `rest`, with children deeper than indent."""
        if rest in ("|", "|-", ">", ">-", "|+", ">+"):
            return self.block_scalar(rest, indent, raw_index)
        if rest != "":
            return _scalar(rest)
        if self.pos < len(self.lines):
            child_indent = self.lines[self.pos][0]
            is_item = self.lines[self.pos][1].startswith("-")
            if child_indent > indent or (child_indent == indent and is_item):
                return self.block(child_indent)
        return None

    def block_scalar(self, style, indent, raw_index):
        # The scalar is every following raw line that is blank or indented deeper than its key
        # (comment-looking lines included); parsing resumes after it.
        end = raw_index + 1
        while end < len(self.raw) and (self.raw[end].strip() == "" or
                                       len(self.raw[end]) - len(self.raw[end].lstrip(" ")) > indent):
            end += 1
        while self.pos < len(self.lines) and self.lines[self.pos][2] < end:
            self.pos += 1
        body = self.raw[raw_index + 1:end]
        while body and body[-1].strip() == "":
            body.pop()
        nonblank = [l for l in body if l.strip()]
        cut = min(len(l) - len(l.lstrip(" ")) for l in nonblank) if nonblank else 0
        collected = [l[cut:] for l in body]
        text = ("\n" if style[0] == "|" else " ").join(collected)
        return text if style.endswith("-") else text + "\n"

    def mapping(self, indent):
        out = {}
        while self.pos < len(self.lines) and self.lines[self.pos][0] == indent:
            ind, content, raw_index = self.lines[self.pos]
            if content.startswith("- "):
                break
            kv = _key_value(content)
            if kv is None:
                if len(self.lines) == 1 or content[0] in "{[":
                    self.pos += 1
                    return _scalar(content)
                raise YamlError("expected a mapping entry at line %d" % (raw_index + 1))
            self.pos += 1
            out[kv[0]] = self.value_after(kv[1], indent, raw_index)
        return out

    def sequence(self, indent):
        out = []
        while self.pos < len(self.lines) and self.lines[self.pos][0] == indent:
            ind, content, raw_index = self.lines[self.pos]
            if not (content.startswith("- ") or content == "-"):
                break
            rest = content[1:].strip()
            if rest == "":
                self.pos += 1
                out.append(self.value_after("", indent, raw_index))
                continue
            if rest.startswith("- ") or rest == "-" or _key_value(rest) is not None:
                # "- key: value" / "- - item": a mapping or sequence at the item's content column.
                item_indent = indent + (len(content) - len(rest))
                self.lines[self.pos] = (item_indent, rest, raw_index)
                out.append(self.block(item_indent))
                continue
            self.pos += 1
            out.append(self.value_after(rest, indent, raw_index))
        return out


def loads(text):
    """Parses a YAML (subset) or JSON document; raises YamlError on what it cannot read."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            return json.loads(stripped)
        except json.JSONDecodeError:
            pass
    return _Parser(text).parse()
