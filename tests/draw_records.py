#!/usr/bin/env python3
"""draw_records.py - checks of what make draw drew, read from the records
beside the pictures (draw.py's OUT.json), not from the pixels; and of the
global traffic the emulator counts for the references against the designs'
minima (common/tools/traffic.py).  Run by tests/draw.sh, which makes the
files:  draw_records.py DIR  (DIR/ks.json, bk.json, ks-mutant.json,
lab6-chained.json, lab6-lookback.json, DIR/traffic-LAB-VARIANT.json).  Exit 1 on the first failed check."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "common", "tools"))
import traffic  # noqa: E402

FAILED = []


def check(ok, what):
    print("%s: %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        FAILED.append(what)


def combine_rows(d):
    """Rows of shared memory whose writes combine two elements: (phase,
    number of writes, number of reads)."""
    out = []
    for r in d["rows"]:
        ws = [w for w in d["writes"] if w["phase"] == r["phase"] and w["array"] == r["array"]]
        if "shared" in r["array"] and ws and all(len(w["reads"]) >= 2 for w in ws):
            out.append((r["phase"], len(ws), sum(len(w["reads"]) for w in ws)))
    return out


def kogge_stone(d):
    rows = combine_rows(d)
    check(len(rows) == 4, "Kogge-Stone at n=16 has 4 combining phases (got %d)" % len(rows))
    reads = [r[2] for r in rows]
    want = [2 * (16 - s) for s in (1, 2, 4, 8)]
    check(reads == want, "Kogge-Stone's reads per phase are 2(16 - s): %s (got %s)" % (want, reads))
    check(not d["races"] and not d["wrong"], "the reference has no race and no wrong output")


def brent_kung(d):
    rows = combine_rows(d)
    writes = [r[1] for r in rows]
    check(writes == [8, 4, 2, 1, 1, 3, 7],
          "Brent-Kung at n=16: up-sweep writes 8, 4, 2, 1, down-sweep 1, 3, 7 (got %s)" % writes)
    check(all(r[2] == 2 * r[1] for r in rows), "each Brent-Kung write combines two reads")


def mutant(d, ref):
    check(d["races"], "the missing-barrier mutant's picture marks racing reads")
    pair = any(r["reader"] == r["index"] + 1 and r["writer"] == r["index"] for r in d["races"])
    check(pair, "the racing pair of stride 1: thread t+1 reads xy[t] as thread t writes it")
    check(d["first_wrong"] is not None and d["first_wrong"]["extra"],
          "its first wrong output is marked with the input it has twice")
    check(not ref["races"], "the reference beside it has no racing read")


def timeline(d, variant):
    """Lab 6's tiles: each publishes one prefix; a look-back tile its
    aggregate first; a chained tile reads only its predecessor; every tile
    but the first ends its look-back on a prefix."""
    tiles = d["tiles"]
    check(tiles == list(range(8)), "lab 6 %s: 8 tiles of 512 elements (got %s)" % (variant, tiles))
    for t in tiles:
        pubs = [p["what"] for p in d["publications"] if p["tile"] == t]
        reads = [r for r in d["reads"] if r["tile"] == t]
        ok = pubs.count("P") == 1 and (variant == "chained" or t == 0 or pubs[0] == "A")
        check(ok, "lab 6 %s: tile %d publishes %s" % (variant, t, pubs))
        if t == 0:
            continue
        check(any(r["seen"] == "P" for r in reads),
              "lab 6 %s: tile %d's look-back reaches a prefix" % (variant, t))
        if variant == "chained":
            check(all(r["pred"] == t - 1 for r in reads),
                  "lab 6 chained: tile %d reads only tile %d" % (t, t - 1))


def traffic_checks(folder):
    cases = {"lab2-convergent": (1.0, 0.0), "lab5-hierarchical": (4.0, None),
             "lab5-reduce-then-scan": (3.0, None), "lab6-lookback": (2.0, None),
             "lab6-lookback-warp": (2.0, None)}
    for name, (want, want_st) in sorted(cases.items()):
        path = os.path.join(folder, "traffic-%s.json" % name)
        if not os.path.exists(path):
            check(False, "traffic of %s was counted (%s missing)" % (name, path))
            continue
        ld, st, _ = traffic.moved(traffic.read_counts(path), 65536, 4)
        lab, variant = name.split("-", 1)
        design = traffic.design(lab, variant)[0]
        check(abs(ld + st - want) <= 0.15 * want and design == want,
              "%s moves %.2f n, its design %g n" % (name, ld + st, design))
        if want_st is not None:
            check(st == want_st, "%s writes %.2f n of global memory (want %g)" % (name, st, want_st))


def main(folder):
    load = lambda f: json.load(open(os.path.join(folder, f)))  # noqa: E731
    kogge_stone(load("ks.json")[0])
    brent_kung(load("bk.json")[0])
    m = load("ks-mutant.json")
    mutant(m[0], m[1])
    for v in ("chained", "lookback"):
        timeline(load("lab6-%s.json" % v)[0], v)
    traffic_checks(folder)
    print("draw_records: %d check(s) failed" % len(FAILED) if FAILED else "draw_records: all passed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
