#!/usr/bin/env bash
# Checks the documents, so that a reader who follows one never lands nowhere:
#  - every relative link in a tracked Markdown file, [text](path) or [text](path#anchor),
#    and every href/src in one, names a file or folder that is tracked in the tree
#    (http:, https:, mailto: and other schemes, and links to an anchor of the same file, are
#    not checked; nor are anchors into other files);
#  - no tracked file refers to a document that is not in the tree (the old design and
#    ecosystem notes, the upper-case external format specification, a sibling "shared"
#    folder) or to an issue number (the word issue, PR or bug followed by a number, or a
#    bare hash and digits): a reader of the tree can follow neither. Say the fact instead.
# Each finding is printed as FILE:LINE: WHAT; the exit status is 1 if there is any.
#   bash scripts/check_docs.sh [SOURCE_DIR]      # default: the tree this script is in
# ctest runs it as docs.links.
set -euo pipefail
src=${1:-$(dirname "$0")/..}
cd "$src"
command -v python3 >/dev/null || { echo "check_docs.sh: python3 is needed" >&2; exit 2; }
exec python3 - <<'PY'
import os
import re
import subprocess
import sys
import urllib.parse

SELF = "scripts/check_docs.sh"


def tracked_files():
    """The tracked files (git ls-files); without git, every file outside .git and build*."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], capture_output=True, check=True).stdout
        files = [f for f in out.decode("utf-8", "surrogateescape").split("\0") if f]
        if files:
            # A file deleted in the work tree but not yet in the index is not there to read.
            return [f for f in files if os.path.lexists(f)]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for root, dirs, names in os.walk("."):
        dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("build")]
        for n in names:
            files.append(os.path.relpath(os.path.join(root, n), "."))
    return files


files = sorted(tracked_files())
known = set(files)
for f in files:  # every folder that holds a tracked file can be linked to
    d = os.path.dirname(f)
    while d:
        known.add(d)
        d = os.path.dirname(d)
known.add(".")

findings = []


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def blank_code(text):
    """The text with fenced code blocks and inline code spans blanked out (newlines kept, so
    that offsets and line numbers stay those of the file): links shown as code are examples."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"^\s*(`{3,}|~{3,})", line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append(" " * len(line))
            continue
        if m:
            fence = m.group(1)
            out.append(" " * len(line))
            continue
        out.append(line)
    text = "\n".join(out)
    return re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), text, flags=re.S)


# [text](target "title"), ![alt](target), [id]: target, href="target", src="target"
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^\s)]*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFDEF = re.compile(r"^[ ]{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)", re.M)
HTML = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']*)["']""", re.I)


def check_links(md):
    with open(md, encoding="utf-8", errors="replace") as f:
        text = blank_code(f.read())
    base = os.path.dirname(md)
    for rx in (INLINE, REFDEF, HTML):
        for m in rx.finditer(text):
            target = m.group(1).strip("<>")
            if not target or target.startswith("#"):
                continue  # an anchor of this file
            if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target):
                continue  # http:, https:, mailto: ...
            path = urllib.parse.unquote(re.split(r"[#?]", target, maxsplit=1)[0])
            if not path:
                continue
            full = os.path.normpath(path.lstrip("/") if path.startswith("/") else os.path.join(base, path))
            if full.startswith("..") or full not in known:
                findings.append(f"{md}:{line_of(text, m.start(1))}: dead link: {target}")


# What a reader of the tree cannot follow. The external specification is FORMAT.md in upper
# case; the project's own docs/format.md (cited as "format.md §N") is fine.
REFS = [
    (re.compile(r"\b(?:DESIGN|ECOSYSTEM)\.md\b", re.I), "names a document that is not in the tree"),
    (re.compile(r"\bFORMAT\.md\b"), "names the external format specification; cite docs/format.md"),
    (re.compile(r"\.\./shared\b"), "names a folder outside the tree"),
    (re.compile(r"\bissues?\s+(?:point\s+|number\s+|no\.?\s*)?#?\d+", re.I), "cites an issue number"),
    (re.compile(r"\b(?:PR|pull request|bug)\s*#\d+", re.I), "cites an issue number"),
    (re.compile(r"(?:^|[\s(\[,;])#\d+\b(?![-\w])"), "cites an issue number"),
]


def check_refs(path):
    if path == SELF:
        return
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return
    if b"\0" in data[:8192]:
        return  # binary (the logs in fixtures/)
    for n, line in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
        for rx, what in REFS:
            m = rx.search(line)
            if m:
                findings.append(f"{path}:{n}: {what}: {m.group(0).strip()}")


mds = [f for f in files if f.endswith(".md")]
for md in mds:
    check_links(md)
for f in files:
    if os.path.isfile(f):
        check_refs(f)

for line in findings:
    print(line)
if findings:
    print(f"check_docs.sh: {len(findings)} finding(s) in {len(files)} files", file=sys.stderr)
    sys.exit(1)
print(f"check_docs.sh: {len(mds)} Markdown files, {len(files)} files: no dead link, no outside reference")
PY
