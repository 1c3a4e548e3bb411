"""A reader for the YAML subset kkadm writes (stand-in kubelet).

kkadm emits Pod manifests, kubeconfigs and the KubeletConfiguration as block YAML: maps, lists
(`- ` at the key's indent, Kubernetes style, or indented, yaml-cpp style), plain / single- /
double-quoted scalars, flow `{}` / `[]` (also small non-empty flow collections), `|` / `>`
block scalars, comments and `---` document markers. Anchors, tags and complex keys are not
supported: they raise YamlError. JSON documents are read with the json module.
"""

import json
import re

__all__ = ["YamlError", "load", "load_all"]


class YamlError(ValueError):
    pass


_KEY_RE = re.compile(r"""^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{\[\]},&*!|>%@`-][^#]*?|-[^\s#][^#]*?)\s*:(?:\s+|$)""")
_INT_RE = re.compile(r"^[-+]?(0|[1-9][0-9]*)$")
_FLOAT_RE = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_NULLS = {"", "~", "null", "Null", "NULL"}
_TRUES = {"true", "True", "TRUE"}
_FALSES = {"false", "False", "FALSE"}


def _strip_comment(text):
    """Drops a trailing ` # comment` that is outside quotes."""
    quote = None
    i = 0
    while i < len(text):
        c = text[i]
        if quote == '"' and c == "\\":
            i += 2
            continue
        if quote:
            if c == quote:
                quote = None
        elif c in "\"'" and (i == 0 or text[i - 1] in " \t:-[{,"):
            quote = c
        elif c == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
        i += 1
    return text.rstrip()


def _unescape_double(body):
    out = []
    i = 0
    simple = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "/": "/",
              " ": " ", "a": "\a", "b": "\b", "e": "\x1b", "f": "\f", "v": "\v"}
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1] if i + 1 < len(body) else ""
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e in "xuU":
            n = {"x": 2, "u": 4, "U": 8}[e]
            out.append(chr(int(body[i + 2:i + 2 + n], 16)))
            i += 2 + n
        else:
            raise YamlError("bad escape \\%s" % e)
    return "".join(out)


def _plain(text):
    if text in _NULLS:
        return None
    if text in _TRUES:
        return True
    if text in _FALSES:
        return False
    if _INT_RE.match(text):
        return int(text)
    if _FLOAT_RE.match(text) and any(ch.isdigit() for ch in text):
        return float(text)
    if text[:1] in "&*!%@`":
        raise YamlError("unsupported YAML construct: %r" % text)
    return text


class _Flow:
    """A small recursive reader for flow collections ({a: 1, b: [x, y]})."""

    def __init__(self, text):
        self.s = text
        self.i = 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in " \t\n":
            self.i += 1

    def value(self):
        self.ws()
        c = self.s[self.i:self.i + 1]
        if c == "[":
            return self.seq()
        if c == "{":
            return self.map()
        if c in "\"'":
            return self.quoted()
        start = self.i
        while self.i < len(self.s) and self.s[self.i] not in ",]}":
            if self.s[self.i] == ":" and self.s[self.i + 1:self.i + 2] in (" ", ""):
                break
            self.i += 1
        return _plain(self.s[start:self.i].strip())

    def quoted(self):
        q = self.s[self.i]
        j = self.i + 1
        while j < len(self.s):
            if q == '"' and self.s[j] == "\\":
                j += 2
                continue
            if self.s[j] == q:
                if q == "'" and self.s[j + 1:j + 2] == "'":
                    j += 2
                    continue
                break
            j += 1
        if j >= len(self.s):
            raise YamlError("unterminated quoted scalar")
        body = self.s[self.i + 1:j]
        self.i = j + 1
        return _unescape_double(body) if q == '"' else body.replace("''", "'")

    def expect(self, c):
        self.ws()
        if self.s[self.i:self.i + 1] != c:
            raise YamlError("expected %r in flow collection %r" % (c, self.s))
        self.i += 1

    def seq(self):
        self.expect("[")
        out = []
        self.ws()
        while self.s[self.i:self.i + 1] != "]":
            out.append(self.value())
            self.ws()
            if self.s[self.i:self.i + 1] == ",":
                self.i += 1
                self.ws()
        self.expect("]")
        return out

    def map(self):
        self.expect("{")
        out = {}
        self.ws()
        while self.s[self.i:self.i + 1] != "}":
            key = self.value()
            self.expect(":")
            out[key] = self.value()
            self.ws()
            if self.s[self.i:self.i + 1] == ",":
                self.i += 1
                self.ws()
        self.expect("}")
        return out


def _scalar(text):
    text = text.strip()
    if not text:
        return None
    if text[0] in "[{\"'":
        f = _Flow(text)
        v = f.value()
        f.ws()
        if f.i != len(text):
            raise YamlError("trailing text after %r" % text)
        return v
    return _plain(text)


class _Doc:
    def __init__(self, raw_lines):
        self.raw = raw_lines  # raw text lines, for block scalars
        self.lines = []       # [indent, text, raw index] of meaningful lines
        for n, raw in enumerate(raw_lines):
            if "\t" in raw[:len(raw) - len(raw.lstrip())]:
                raise YamlError("tab in indentation on line %d" % (n + 1))
            text = _strip_comment(raw.strip()) if raw.strip() else ""
            if text:
                self.lines.append([len(raw) - len(raw.lstrip(" ")), text, n])

    def parse(self):
        if not self.lines:
            return None
        value, i = self.block(0, self.lines[0][0])
        if i != len(self.lines):
            raise YamlError("unexpected indentation on line %d" % (self.lines[i][2] + 1))
        return value

    @staticmethod
    def is_item(text):
        return text == "-" or text.startswith("- ")

    def block(self, i, indent):
        text = self.lines[i][1]
        if self.is_item(text):
            return self.seq(i, indent)
        if _KEY_RE.match(text):
            return self.map(i, indent)
        if i + 1 < len(self.lines) and self.lines[i + 1][0] > indent:
            raise YamlError("multi-line plain scalars are not supported (line %d)" % (self.lines[i][2] + 1))
        return _scalar(text), i + 1

    def child(self, i, indent, rest):
        """The value after `key:` or `-` whose inline part is `rest`."""
        if rest and rest[0] in "|>":
            return self.block_scalar(i, indent, rest)
        if rest:
            return _scalar(rest), i + 1
        j = i + 1
        if j < len(self.lines):
            ind, text, _ = self.lines[j]
            if ind > indent:
                return self.block(j, ind)
            if ind == indent and self.is_item(text) and not self.is_item(self.lines[i][1]):
                return self.seq(j, indent)
        return None, j

    def map(self, i, indent):
        out = {}
        while i < len(self.lines) and self.lines[i][0] == indent:
            text = self.lines[i][1]
            m = _KEY_RE.match(text)
            if not m or self.is_item(text):
                break
            key = _scalar(m.group(1))
            out[key], i = self.child(i, indent, text[m.end():].strip())
        return out, i

    def seq(self, i, indent):
        out = []
        while i < len(self.lines) and self.lines[i][0] == indent and self.is_item(self.lines[i][1]):
            content = self.lines[i][1][1:].lstrip(" ")
            if not content:
                value, i = self.child(i, indent, "")
            elif content[0] in "|>":
                value, i = self.block_scalar(i, indent, content)
            elif self.is_item(content) or _KEY_RE.match(content):
                # "- key: v" opens a map (or "- - x" a list) whose column is that of its content.
                self.lines[i] = [indent + len(self.lines[i][1]) - len(content), content, self.lines[i][2]]
                value, i = self.block(i, self.lines[i][0])
            else:
                value, i = _scalar(content), i + 1
            out.append(value)
        return out, i

    def block_scalar(self, i, indent, header):
        m = re.match(r"^([|>])([-+]?)\s*$", header)
        if not m:
            raise YamlError("unsupported block scalar header %r" % header)
        start = self.lines[i][2] + 1
        j = i + 1
        while j < len(self.lines) and self.lines[j][0] > indent:
            j += 1
        end = self.lines[j][2] if j < len(self.lines) else len(self.raw)
        body = self.raw[start:end]
        while body and not body[-1].strip():
            body.pop()
        width = min((len(b) - len(b.lstrip(" ")) for b in body if b.strip()), default=0)
        lines = [b[width:] for b in body]
        text = "\n".join(lines) if m.group(1) == "|" else " ".join(x for x in lines)
        if m.group(2) != "-":
            text += "\n"
        return text, j


def _split_docs(text):
    docs, cur = [], []
    for raw in text.splitlines():
        if raw.startswith("---") and raw[3:4] in ("", " "):
            docs.append(cur)
            cur = [raw[4:]] if raw[4:].strip() else []
        elif raw.startswith("..."):
            continue
        elif raw.startswith("%"):
            continue
        else:
            cur.append(raw)
    docs.append(cur)
    return [d for d in docs if any(x.strip() and not x.strip().startswith("#") for x in d)]


def load_all(text):
    """Every document of `text`, as Python dicts / lists / scalars."""
    if text.lstrip().startswith(("{", "[")):
        try:
            return [json.loads(text)]
        except ValueError:
            pass
    return [_Doc(d).parse() for d in _split_docs(text)]


def load(text):
    """The single document of `text` (None when empty); YamlError when there are several."""
    docs = load_all(text)
    if len(docs) > 1:
        raise YamlError("expected one YAML document, found %d" % len(docs))
    return docs[0] if docs else None
