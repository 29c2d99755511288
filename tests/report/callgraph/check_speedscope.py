#!/usr/bin/env python3
"""Checks a speedscope JSON file against speedscope's published file format
(https://www.speedscope.app/file-format-schema.json, generated from
jlfwong/speedscope src/lib/file-format-spec.ts): the required members of the file, of each
frame and of each profile by type, their types, and that every frame index is in range.
Strict JSON, strict UTF-8. On success prints, one per line, tab-separated, strings as JSON:
  profile NAME TOTAL_WEIGHT N_SAMPLES
  stack   PROFILE_INDEX "root;...;leaf" WEIGHT    (sampled stacks, root first)
  frame   NAME FILE_OR_null LINE_OR_null
  active  INDEX
On failure prints the problem on standard error and exits 1.
Usage: check_speedscope.py FILE
"""
import json
import math
import sys

SCHEMA = "https://www.speedscope.app/file-format-schema.json"
UNITS = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"}


class Bad(Exception):
    pass


def need(cond, what):
    if not cond:
        raise Bad(what)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def no_constant(c):
    raise Bad("not JSON: " + c)


def check(doc):
    out = []
    need(isinstance(doc, dict), "the file is not an object")
    for k in ("$schema", "shared", "profiles"):
        need(k in doc, "missing required member " + k)
    need(doc["$schema"] == SCHEMA, "$schema is not " + SCHEMA)
    for k in ("name", "exporter"):
        if k in doc:
            need(isinstance(doc[k], str), k + " is not a string")
    shared = doc["shared"]
    need(isinstance(shared, dict) and isinstance(shared.get("frames"), list),
         "shared.frames is not an array")
    frames = shared["frames"]
    for i, f in enumerate(frames):
        need(isinstance(f, dict), "frame %d is not an object" % i)
        need(isinstance(f.get("name"), str), "frame %d has no string name" % i)
        if "file" in f:
            need(isinstance(f["file"], str), "frame %d file is not a string" % i)
        for k in ("line", "col"):
            if k in f:
                need(is_num(f[k]), "frame %d %s is not a number" % (i, k))
        out.append("frame\t%s\t%s\t%s" % (json.dumps(f["name"]), json.dumps(f.get("file")),
                                          json.dumps(f.get("line"))))
    profiles = doc["profiles"]
    need(isinstance(profiles, list), "profiles is not an array")
    for i, p in enumerate(profiles):
        need(isinstance(p, dict), "profile %d is not an object" % i)
        need(p.get("type") in ("sampled", "evented"), "profile %d type is not sampled/evented" % i)
        common = ("type", "name", "unit", "startValue", "endValue")
        extra = ("samples", "weights") if p["type"] == "sampled" else ("events",)
        for k in common + extra:
            need(k in p, "profile %d misses required member %s" % (i, k))
        need(isinstance(p["name"], str), "profile %d name is not a string" % i)
        need(p["unit"] in UNITS, "profile %d unit %r is not a speedscope unit" % (i, p["unit"]))
        need(is_num(p["startValue"]) and is_num(p["endValue"]), "profile %d values" % i)
        need(p["endValue"] >= p["startValue"], "profile %d ends before it starts" % i)
        need(p["type"] == "sampled", "profile %d: only sampled profiles are expected" % i)
        samples, weights = p["samples"], p["weights"]
        need(isinstance(samples, list) and isinstance(weights, list), "profile %d arrays" % i)
        need(len(samples) == len(weights), "profile %d: %d samples but %d weights" %
             (i, len(samples), len(weights)))
        total = 0
        for s, w in zip(samples, weights):
            need(isinstance(s, list), "profile %d: a sample is not an array" % i)
            for x in s:
                need(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < len(frames),
                     "profile %d: frame index %r out of range (%d frames)" % (i, x, len(frames)))
            need(is_num(w) and w >= 0, "profile %d: weight %r" % (i, w))
            total += w
            out.append("stack\t%d\t%s\t%s" % (i, json.dumps(";".join(frames[x]["name"] for x in s)),
                                              json.dumps(w)))
        out.append("profile\t%s\t%s\t%d" % (json.dumps(p["name"]), json.dumps(total), len(samples)))
    if "activeProfileIndex" in doc:
        a = doc["activeProfileIndex"]
        need(isinstance(a, int) and 0 <= a < max(len(profiles), 1), "activeProfileIndex %r" % a)
        out.append("active\t%d" % a)
    return out


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    try:
        with open(argv[1], "rb") as f:
            text = f.read().decode("utf-8", errors="strict")
        doc = json.loads(text, parse_constant=no_constant)
        lines = check(doc)
    except (Bad, ValueError, UnicodeDecodeError) as e:
        sys.stderr.write("check_speedscope: %s\n" % e)
        return 1
    sys.stdout.write("".join(l + "\n" for l in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
