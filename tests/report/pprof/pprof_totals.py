#!/usr/bin/env python3
"""An independent reader of pmclog-report's pprof output, for the tests.

Reads gzip-compressed profile.proto files with nothing but gzip and a hand-written
protobuf wire-format reader (field numbers from google/pprof's proto/profile.proto),
checks the references the schema requires, and prints, summed over all the files given,
tab-separated lines:

  type    NAME UNIT                       each sample type (of the first file)
  label   KEY KIND                        every label key seen, KIND str or num
  samples EVENT N                         samples per sample type
  func    EVENT SELF TOTAL NAME           per function name: self = the leaf location's
                                          first (innermost) line; total = every sample with
                                          the function anywhere in its stack, counted once
  bylabel KEY VALUE EVENT N               samples per value of the labels pid, comm, file,
                                          thread
  mapping FILENAME START LIMIT OFFSET BUILDID HAS_FUNCTIONS
Exits 1 with a message on stderr when a file breaks the schema's rules.
"""
import gzip
import sys
from collections import defaultdict


class Bad(Exception):
    pass


def varint(buf, i):
    shift = 0
    value = 0
    while True:
        if i >= len(buf):
            raise Bad("truncated varint")
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        if b < 0x80:
            return value, i
        shift += 7
        if shift > 63:
            raise Bad("varint too long")


def fields(buf):
    """(field number, wire type, value) of one message: ints for varints, bytes otherwise."""
    i = 0
    while i < len(buf):
        key, i = varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(buf, i)
        elif wt == 1:
            v, i = int.from_bytes(buf[i:i + 8], "little"), i + 8
        elif wt == 2:
            n, i = varint(buf, i)
            if i + n > len(buf):
                raise Bad("length past the end")
            v, i = buf[i:i + n], i + n
        elif wt == 5:
            v, i = int.from_bytes(buf[i:i + 4], "little"), i + 4
        else:
            raise Bad("wire type %d" % wt)
        yield num, wt, v


def ints(wt, v):
    """A repeated integer field: packed (one length-delimited run) or one varint."""
    if wt == 0:
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = varint(v, i)
        out.append(x)
    return out


def signed(x):
    return x - (1 << 64) if x >= 1 << 63 else x


def message(buf, spec):
    """Fields by name; spec maps number -> (name, repeated, kind)."""
    out = {name: ([] if rep else (b"" if kind == "bytes" else 0)) for name, rep, kind in spec.values()}
    for num, wt, v in fields(buf):
        if num not in spec:
            continue
        name, rep, kind = spec[num]
        if kind == "bytes":
            if wt != 2:
                raise Bad("field %s is not length-delimited" % name)
            if rep:
                out[name].append(v)
            else:
                out[name] = v
        else:
            vals = ints(wt, v)
            if kind == "int64":
                vals = [signed(x) for x in vals]
            if rep:
                out[name].extend(vals)
            elif vals:
                out[name] = vals[-1]
    return out


PROFILE = {1: ("sample_type", True, "bytes"), 2: ("sample", True, "bytes"),
           3: ("mapping", True, "bytes"), 4: ("location", True, "bytes"),
           5: ("function", True, "bytes"), 6: ("string_table", True, "bytes"),
           11: ("period_type", False, "bytes"), 12: ("period", False, "int64"),
           14: ("default_sample_type", False, "int64")}
VALUE_TYPE = {1: ("type", False, "int64"), 2: ("unit", False, "int64")}
SAMPLE = {1: ("location_id", True, "uint64"), 2: ("value", True, "int64"),
          3: ("label", True, "bytes")}
LABEL = {1: ("key", False, "int64"), 2: ("str", False, "int64"), 3: ("num", False, "int64"),
         4: ("num_unit", False, "int64")}
MAPPING = {1: ("id", False, "uint64"), 2: ("memory_start", False, "uint64"),
           3: ("memory_limit", False, "uint64"), 4: ("file_offset", False, "uint64"),
           5: ("filename", False, "int64"), 6: ("build_id", False, "int64"),
           7: ("has_functions", False, "uint64")}
LOCATION = {1: ("id", False, "uint64"), 2: ("mapping_id", False, "uint64"),
            3: ("address", False, "uint64"), 4: ("line", True, "bytes")}
LINE = {1: ("function_id", False, "uint64"), 2: ("line", False, "int64")}
FUNCTION = {1: ("id", False, "uint64"), 2: ("name", False, "int64"),
            3: ("system_name", False, "int64"), 4: ("filename", False, "int64")}


def read(path, acc):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] != b"\x1f\x8b":
        raise Bad("not gzip")
    prof = message(gzip.decompress(data), PROFILE)
    strings = [s.decode("utf-8") for s in prof["string_table"]]  # proto3: valid UTF-8
    if not strings or strings[0] != "":
        raise Bad('string_table[0] is not ""')

    def s(i):
        if i < 0 or i >= len(strings):
            raise Bad("string index %d out of range" % i)
        return strings[i]

    types = []
    for vt in prof["sample_type"]:
        m = message(vt, VALUE_TYPE)
        types.append((s(m["type"]), s(m["unit"])))
    if not types:
        raise Bad("no sample_type")
    if acc["types"] is None:
        acc["types"] = types
    functions = {}
    for b in prof["function"]:
        m = message(b, FUNCTION)
        if m["id"] == 0 or m["id"] in functions:
            raise Bad("function id %d zero or repeated" % m["id"])
        s(m["system_name"]), s(m["filename"])
        functions[m["id"]] = s(m["name"])
    mappings = {}
    for b in prof["mapping"]:
        m = message(b, MAPPING)
        if m["id"] == 0 or m["id"] in mappings:
            raise Bad("mapping id %d zero or repeated" % m["id"])
        if m["memory_limit"] < m["memory_start"]:
            raise Bad("mapping %d ends before it starts" % m["id"])
        mappings[m["id"]] = m
        acc["mappings"].add((s(m["filename"]), m["memory_start"], m["memory_limit"],
                             m["file_offset"], s(m["build_id"]), m["has_functions"]))
    locations = {}
    for b in prof["location"]:
        m = message(b, LOCATION)
        if m["id"] == 0 or m["id"] in locations:
            raise Bad("location id %d zero or repeated" % m["id"])
        if m["mapping_id"] != 0:
            mp = mappings.get(m["mapping_id"])
            if mp is None:
                raise Bad("location %d: no mapping %d" % (m["id"], m["mapping_id"]))
            if not mp["memory_start"] <= m["address"] < mp["memory_limit"]:
                raise Bad("location %d: address 0x%x outside its mapping" % (m["id"], m["address"]))
        names = []
        for lb in m["line"]:
            line = message(lb, LINE)
            if line["function_id"] not in functions:
                raise Bad("location %d: no function %d" % (m["id"], line["function_id"]))
            names.append(functions[line["function_id"]])
        if not names:
            raise Bad("location %d has no line" % m["id"])  # pmclog-report names every frame
        locations[m["id"]] = names  # innermost first
    for b in prof["sample"]:
        m = message(b, SAMPLE)
        if len(m["value"]) != len(types):
            raise Bad("a sample has %d values for %d sample types" % (len(m["value"]), len(types)))
        if not m["location_id"]:
            raise Bad("a sample without locations")
        stack = []
        for lid in m["location_id"]:  # leaf first
            if lid not in locations:
                raise Bad("a sample names location %d, which is not there" % lid)
            stack.extend(locations[lid])
        labels = {}
        for lb in m["label"]:
            l = message(lb, LABEL)
            key = s(l["key"])
            kind = "str" if l["str"] != 0 else "num"
            acc["labels"].add((key, kind))
            labels[key] = s(l["str"]) if kind == "str" else str(l["num"])
        for k, (event, _) in enumerate(types):
            n = m["value"][k]
            if n == 0:
                continue
            acc["samples"][event] += n
            acc["self"][(event, stack[0])] += n
            for name in set(stack):
                acc["total"][(event, name)] += n
            for key in ("pid", "comm", "file", "thread"):
                if key in labels:
                    acc["bylabel"][(key, labels[key], event)] += n


def main(argv):
    acc = {"types": None, "labels": set(), "samples": defaultdict(int), "self": defaultdict(int),
           "total": defaultdict(int), "bylabel": defaultdict(int), "mappings": set()}
    if len(argv) < 2:
        print("usage: pprof_totals.py PROFILE.pb.gz...", file=sys.stderr)
        return 2
    for path in argv[1:]:
        try:
            read(path, acc)
        except (Bad, OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as e:
            print("%s: %s" % (path, e), file=sys.stderr)
            return 1
    out = sys.stdout
    for name, unit in acc["types"]:
        out.write("type\t%s\t%s\n" % (name, unit))
    for key, kind in sorted(acc["labels"]):
        out.write("label\t%s\t%s\n" % (key, kind))
    for event, n in sorted(acc["samples"].items()):
        out.write("samples\t%s\t%d\n" % (event, n))
    for (event, name), total in sorted(acc["total"].items()):
        out.write("func\t%s\t%d\t%d\t%s\n" % (event, acc["self"].get((event, name), 0), total, name))
    for (key, value, event), n in sorted(acc["bylabel"].items()):
        out.write("bylabel\t%s\t%s\t%s\t%d\n" % (key, value, event, n))
    for m in sorted(acc["mappings"]):
        out.write("mapping\t%s\t0x%x\t0x%x\t0x%x\t%s\t%d\n" % m)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
