#!/usr/bin/env python3
"""bench/run configures a build folder that a failed configure left half made, instead of
building it and failing with "No rule to make target 'Makefile'"."""
import importlib.machinery
import importlib.util
import os
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
loader = importlib.machinery.SourceFileLoader("bench_run", os.path.join(here, "run"))
spec = importlib.util.spec_from_loader("bench_run", loader)
run = importlib.util.module_from_spec(spec)
loader.exec_module(run)

failures = []
with tempfile.TemporaryDirectory() as d:
    def check(state, want):
        if run.needs_configure(d) != want:
            failures.append(f"{state}: needs_configure is {not want}, should be {want}")
    check("empty folder", True)
    open(os.path.join(d, "CMakeCache.txt"), "w").close()
    check("cache only (a failed configure)", True)
    open(os.path.join(d, "Makefile"), "w").close()
    check("cache and Makefile", False)
    os.remove(os.path.join(d, "Makefile"))
    open(os.path.join(d, "build.ninja"), "w").close()
    check("cache and build.ninja", False)
    os.remove(os.path.join(d, "CMakeCache.txt"))
    check("build files without a cache", True)
for f in failures:
    print(f, file=sys.stderr)
sys.exit(1 if failures else 0)
