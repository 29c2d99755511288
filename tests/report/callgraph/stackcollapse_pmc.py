#!/usr/bin/env python3
"""The parsing rules of the two published readers of `pmcstat -G` text, re-implemented to
check that pmclog-report's `--format callgraph` keeps them working:

- brendangregg/FlameGraph stackcollapse-pmc.pl (default mode): a line counts only when it
  matches ^( *)[0-9.]+%  \\[([0-9]+)\\]\\s*(\\S+) (two spaces after '%'); its indent is its depth;
  when a line's indent is <= the previous one, the previous path is printed reversed
  (root first) and joined by ';' with the previous line's count; the last path is printed
  at the end. Perl reads bytes: \\s is [ \\t\\n\\r\\f\\v], \\S anything else.
- jlfwong/speedscope src/import/pmcstat-callgraph.ts (--speedscope): the same, with
  (?: @ (.*))?$ after the name; a frame's file is the last ' @ ' seen on any line before
  it. Frames are printed as name@@file.

Usage: stackcollapse_pmc.py [--speedscope] FILE  (folded lines on standard output)
"""
import re
import sys

PERL = re.compile(rb"^( *)[0-9.]+%  \[([0-9]+)\][ \t\n\r\f\v]*([^ \t\n\r\f\v]+)")
SPEEDSCOPE = re.compile(rb"^( *)[\d.]+%  \[(\d+)\][ \t\n\r\f\v]*([^ \t\n\r\f\v]+)(?: @ (.*))?$")


def collapse(data, speedscope):
    out = []
    stack = []
    prev_count = None
    prev_indent = -1
    file = None
    # Perl's <> keeps the newline; speedscope splits lines and its '$' ends before it.
    for line in data.split(b"\n"):
        m = (SPEEDSCOPE if speedscope else PERL).match(line)
        if not m:
            continue
        indent = len(m.group(1))
        if indent <= prev_indent:
            out.append(b";".join(reversed(stack[0:prev_indent + 1])) + b" " + prev_count)
        name = m.group(3)
        if speedscope:
            file = m.group(4) or file
            name = name + b"@@" + (file or b"")
        while len(stack) <= indent:
            stack.append(b"")
        stack[indent] = name
        prev_count = m.group(2)
        prev_indent = indent
    if prev_indent >= 0:
        out.append(b";".join(reversed(stack[0:prev_indent + 1])) + b" " + prev_count)
    return out


def main(argv):
    speedscope = "--speedscope" in argv
    files = [a for a in argv[1:] if a != "--speedscope"]
    if len(files) != 1:
        sys.stderr.write(__doc__)
        return 2
    with open(files[0], "rb") as f:
        data = f.read()
    for line in collapse(data, speedscope):
        sys.stdout.buffer.write(line + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
