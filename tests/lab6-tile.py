#!/usr/bin/env python3
"""lab6-tile.py - lab 6's suite follows the tile of its solution (issue 15).

The tile shape is defined once, in solutions/lab6-scan-single-pass/scan.cu
(TILE_THREADS, ROWS, VEC from common/warp_tile.cuh), and the solution writes
its float tolerance from it ("chain:" TOL_CHAIN "+" TOL_INSIDE).  A suite
cannot compute, so grader/suites/lab6.suite states the numbers, and this
script checks that they are the solution's:
  - every float sum case's tol= is the solution's tolerance;
  - every group tests n = TILE - 1, TILE and TILE + 1 (a partial tile, one
    whole tile, one element more);
  - the header's "TILE = N elements (T threads x I)" is the solution's shape.
Exit 0 when they agree, 1 with one line per disagreement.
"""
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLUTION = os.path.join(TOP, "solutions", "lab6-scan-single-pass", "scan.cu")
SUITE = os.path.join(TOP, "grader", "suites", "lab6.suite")
sys.path.insert(0, os.path.join(TOP, "common", "tools"))
from bench import parse_size as size  # noqa: E402 (a suite size, as the harness takes it)


def defines(*paths):
    """name -> body of each object-like #define (the first one of a name:
    the default under #ifndef), comments left out."""
    out = {}
    for path in paths:
        text = re.sub(r"/\*.*?\*/", " ", open(path).read(), flags=re.S)
        for m in re.finditer(r"^[ \t]*#define[ \t]+(\w+)[ \t]+(.*)$", text, re.M):
            out.setdefault(m.group(1), m.group(2).strip())
    return out


def value(name, table, depth=0):
    """A macro's integer value: its body with every name replaced, as C's
    integer arithmetic (+, -, *, / rounding down, parentheses)."""
    if depth > 20 or name not in table:
        raise KeyError("%s is not an integer macro of the solution" % name)
    body = re.sub(r"[A-Za-z_]\w*", lambda m: str(value(m.group(0), table, depth + 1)),
                  table[name])
    if not re.fullmatch(r"[\d\s()+*/-]*", body):
        raise ValueError("%s = %s is not integer arithmetic" % (name, table[name]))
    return eval(body.replace("/", "//"))


def main():
    table = defines(SOLUTION, os.path.join(TOP, "common", "warp_tile.cuh"))
    tile = value("TILE", table)
    threads, items = value("TILE_THREADS", table), value("ITEMS", table)
    tol = "chain:%d+%d" % (value("TOL_CHAIN", table), value("TOL_INSIDE", table))
    text = open(SUITE).read()
    bad = []

    m = re.search(r"TILE = (\d+) elements\s*#?\s*\((\d+) threads x (\d+)\)", text)
    if not m or tuple(map(int, m.groups())) != (tile, threads, items):
        bad.append("the header does not say 'TILE = %d elements (%d threads x %d)'"
                   % (tile, threads, items))
    if "tol=%s" % tol not in re.sub(r"\s*\n#\s*", " ", text):
        bad.append("the header does not state the tolerance tol=%s" % tol)

    sizes = {}  # group -> every n its cases test
    for no, line in enumerate(text.splitlines(), 1):
        if not line.startswith("cases "):
            continue
        f = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
        sizes.setdefault(f["group"], set()).update(size(w) for w in f["n"].split(","))
        float_sum = "float32" in f.get("dtype", "int32").split(",") and \
            "sum" in f.get("op", "sum").split(",")
        if float_sum and f.get("tol") != tol:
            bad.append("line %d: a float sum with tol=%s, the solution's is %s"
                       % (no, f.get("tol", "(default)"), tol))
        elif "tol" in f and f["tol"] != tol:
            bad.append("line %d: tol=%s, the solution's is %s" % (no, f["tol"], tol))
    if not sizes:
        bad.append("no cases lines")
    for group, ns in sorted(sizes.items()):
        missing = sorted({tile - 1, tile, tile + 1} - ns)
        if missing:
            bad.append("group %s does not test n = %s (TILE = %d)"
                       % (group, ", ".join(map(str, missing)), tile))

    for b in bad:
        print("FAIL lab6-tile: %s" % b)
    if not bad:
        print("ok   lab6-tile: the suite's sizes and tol=%s follow the solution's TILE = %d"
              % (tol, tile))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
