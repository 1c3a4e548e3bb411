#!/usr/bin/env python3
"""Turns the fenced code blocks of Markdown pages into steps for tests/e2e/docs_pages_test.sh.

`doc_steps.py PAGE...` prints one bash call per step (arguments quoted with shlex.quote), for the
test to source:
  doc_block WHERE ATTRS          a block with a <!-- test: ATTRS --> annotation starts
  doc_file WHERE NAME CONTENT    (attr file=NAME) the block is a file the commands use
  doc_run WHERE COMMAND EXPECTED one command of the block and the output lines quoted after it
  doc_block_end WHERE
  doc_error WHERE MESSAGE        a block the test cannot run: a kkadm command without an
                                 annotation, a bad annotation, or a non-command line in a block
                                 of commands
WHERE is page:line. The conventions are documented atop tests/e2e/docs_pages_test.sh.

`doc_steps.py --match OUTPUT-FILE` reads expected lines on standard input and prints each one that
no line of OUTPUT-FILE contains; "<anything>" in an expected line matches any text.
"""
import re
import shlex
import sys

FENCE = re.compile(r"^\s*(```+|~~~+)(.*)$")
ANNOTATION = re.compile(r"^\s*<!--\s*test:\s*(.*?)\s*-->\s*$")
ATTR = re.compile(r"^(file|node|exit|scenario)=([A-Za-z0-9._-]+)$")
# A line a reader would run with kkadm in it: a command starting with kkadm (after an optional
# "$ " prompt and "sudo"), or kkadm after a pipe or a command separator.
KKADM_COMMAND = re.compile(r"(^\s*(\$\s+)?(sudo\s+)?kkadm(\s|$))|([|;&]\s*(sudo\s+)?kkadm(\s|$))")


def emit(*words):
    print(" ".join(shlex.quote(str(w)) for w in words))


def parse_attrs(text, where):
    attrs = {}
    for word in text.split():
        m = ATTR.match(word)
        if not m:
            emit("doc_error", where,
                 f"bad annotation word {word!r} (file=, node=, exit=, scenario=)")
            return None
        attrs[m.group(1)] = m.group(2)
    if ("file" in attrs) == ("node" in attrs):
        emit("doc_error", where, "an annotation names exactly one of file= and node=")
        return None
    return attrs


def blocks(path):
    """(line of the fence, annotation text or None, lines of the block) for each fenced block."""
    annotation = None
    fence = None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if m:
            fence, start, body = m.group(1), i + 1, []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                body.append(lines[i])
                i += 1
            yield start, annotation, body
            annotation = None
        elif ANNOTATION.match(line):
            annotation = ANNOTATION.match(line).group(1)
        elif line.strip():
            annotation = None
        i += 1


def commands(body, where):
    """[(command, [expected output lines])]: with "$ " prompts, the lines after a command up to
    the next prompt are its output; without prompts every line is a command. Comment lines
    ("# ...") and empty lines are skipped."""
    prompted = any(l.startswith("$ ") for l in body)
    result = []
    for line in body:
        if prompted:
            if line.startswith("$ "):
                result.append((line[2:], []))
            elif result and line.strip() and line.strip() != "...":
                result[-1][1].append(line.rstrip())
            elif line.strip() and line.strip() != "...":
                emit("doc_error", where, f"output before the first command: {line!r}")
        elif line.strip() and not line.lstrip().startswith("#"):
            result.append((line, []))
    return result


def page_steps(path, name):
    for start, annotation, body in blocks(path):
        where = f"{name}:{start}"
        if annotation is None:
            for line in body:
                if KKADM_COMMAND.search(line):
                    emit("doc_error", where, "kkadm command in a block without a test "
                         f"annotation: {line.strip()!r}")
            continue
        attrs = parse_attrs(annotation, where)
        if attrs is None:
            continue
        emit("doc_block", where, " ".join(f"{k}={v}" for k, v in attrs.items()))
        if "file" in attrs:
            emit("doc_file", where, attrs["file"], "\n".join(body) + "\n")
        else:
            for command, expected in commands(body, where):
                emit("doc_run", where, command, "\n".join(expected))
        emit("doc_block_end", where)


def pattern(expected):
    """A regex for one expected output line: literal text, each <placeholder> any text."""
    parts = re.split(r"<[^<>]*>", expected.strip())
    return re.compile(".*".join(re.escape(p) for p in parts))


def missing_lines(output_path, expected_lines):
    with open(output_path, encoding="utf-8", errors="replace") as f:
        output = f.read().split("\n")
    return [e for e in expected_lines if e.strip()
            and not any(pattern(e).search(line) for line in output)]


def main():
    if sys.argv[1:2] == ["--match"]:
        for line in missing_lines(sys.argv[2], sys.stdin.read().split("\n")):
            print(line)
        return
    for path in sys.argv[1:]:
        page_steps(path, path.rsplit("/", 1)[-1])


if __name__ == "__main__":
    main()
