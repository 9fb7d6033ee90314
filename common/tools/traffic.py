#!/usr/bin/env python3
"""traffic.py - global memory traffic per input element, as the emulator's
counted builds measure it (count.cpp: global_load_bytes, global_store_bytes
per launch in CUEMU_COUNT_OUT's JSON lines), next to what each lab's design
needs at least.  make profile prints the line; tests/draw.sh checks the
references against the table.

DESIGNS is the one table of the designs' minima, in elements moved per
input element (reads + writes of global memory), each with its reason.
"""
import json

# (lab, variant or None for every variant) -> (minimum n moved, reason)
DESIGNS = {
    ("lab1", None): (1, "a reduction reads each input once; its output is one element"),
    ("lab2", None): (1, "a reduction reads each input once; its output is one element"),
    ("lab3", None): (2, "a section scan reads each input once and writes each output once"),
    ("lab4", None): (2, "a section scan reads each input once and writes each output once"),
    ("lab5", "hierarchical"): (4, "scan-then-add: scan reads n, writes n; add reads n, writes n"),
    ("lab5", "reduce-then-scan"): (3, "reduce-then-scan: reduce reads n; scan reads n, writes n"),
    ("lab6", None): (2, "a single pass reads each input once and writes each output once"),
    ("lab7", None): (2, "one pass over the data: read once, write once"),
    ("lab7", "compact"): (1, "one pass reads each input once and writes only the kept "
                             "elements: 1 n plus the share kept"),
    ("lab7", "compact-3step"): (5, "flags written, scanned (read and written) and read again: "
                                   "5 n, plus the kept elements' positions, values and copies"),
}
SINGLE_PASS = 2  # what any scan must move: read n, write n


def design(lab, variant):
    """(minimum, reason) for a lab's variant, or None when none is stated."""
    return DESIGNS.get((lab, variant)) or DESIGNS.get((lab, None))


def moved(count_lines, n, esize):
    """Elements loaded and stored per input element, over the launches of
    one run (the JSON lines of CUEMU_COUNT_OUT); atomics apart."""
    ld = sum(c.get("global_load_bytes", 0) for c in count_lines)
    st = sum(c.get("global_store_bytes", 0) for c in count_lines)
    at = sum(c.get("global_atomics", 0) for c in count_lines)
    unit = float(n * esize) if n else 1.0
    return ld / unit, st / unit, at


def line(lab, variant, count_lines, n, esize, kind="scan", whose="your"):
    """The sentence make profile prints: what the run moved, what a single
    pass needs, and the design's minimum with its reason."""
    ld, st, at = moved(count_lines, n, esize)
    compaction = (variant or "").startswith("compact")
    what = "reduction" if kind == "reduce" else "compaction" if compaction else "scan"
    text = "%s %s moved %.2f n elements (%.2f n read, %.2f n written%s)" % (
        whose, what, ld + st, ld, st, ", %d atomics" % at if at else "")
    if kind != "reduce" and not compaction:  # a compaction writes only what it keeps
        text += "; a single pass needs %d n" % SINGLE_PASS
    d = design(lab, variant)
    if d:
        text += "; this design: %g n (%s)" % d
    return text


def read_counts(path):
    """The JSON lines of a CUEMU_COUNT_OUT file."""
    with open(path) as f:
        return [json.loads(x) for x in f if x.strip()]
