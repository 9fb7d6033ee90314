#!/usr/bin/env python3
"""trace_read.py - read the emulator's recorder (CUEMU_TRACE, a lab binary's
--trace FILE; format in common/emu/README.md, "Recorder") into what
draw.py draws and the tests check: the dataflow of one block of one launch
as rows of phases (section kernels, labs 1-5), or the tiles' timeline of a
single-pass scan (lab 6).  No drawing here: the result is plain data
(`dataflow()` and `timeline()` return dicts that draw.py writes beside each
picture as JSON, and tests/draw.py reads).

Dataflow, per thread: the elements it read since its last write feed the
element it writes next (an arrow each).  A read of an element that another
thread of the block writes in the same phase (no barrier between them) is a
race.  Outputs are checked against the case's scan or reduction computed
from the input values the kernels loaded.
"""
import json
import sys

ESIZE = {"int32": 4, "float32": 4, "int64": 8}
NEVER = 1 << 30  # the phase of the output row when no drawn phase wrote it


class TraceError(Exception):
    """A trace that cannot be read: said in one line, never guessed around."""


def load(path):
    """The records of a trace file: (note, names {alloc: name}, launches
    {l: record}, events [records with "q"], cut: whether it was cut short)."""
    note, names, launches, events, cut = {}, {}, {}, [], False
    try:
        with open(path) as f:
            for k, line in enumerate(f, 1):
                try:
                    r = json.loads(line)
                except ValueError:
                    raise TraceError("%s:%d: not a JSON line" % (path, k))
                t = r.get("t")
                if t == "note":
                    note.update(r)
                elif t == "name":
                    names[r["a"]] = r["name"]
                    note.setdefault("data", {})[r["name"]] = r.get("hex", "")
                elif t == "launch":
                    launches[r["l"]] = r
                elif t == "cut":
                    cut = True
                elif t in ("ld", "st", "atom", "bar"):
                    events.append(r)
    except OSError as e:
        raise TraceError("cannot read the trace %s: %s" % (path, e.strerror))
    if not launches:
        raise TraceError("%s: no kernel was launched (did the run reach its kernels?)" % path)
    events.sort(key=lambda r: r["q"])
    return note, names, launches, events, cut


def array_name(r, names):
    """The array an access falls in: "in", "out", "g2" (another device
    allocation), "shared0" (a static __shared__ array), "dynamic shared"."""
    if r["sp"] == "g":
        return names.get(r["a"], "g%d" % r["a"])
    if r["sp"] == "s":
        return "shared%d" % r["a"]
    return "dynamic shared"


def element(r, esize):
    """The element index of an access: by the case's element size, or the
    access's own for another size (a tile's 8-byte descriptor)."""
    z = esize if r["z"] in (esize, 16) else r["z"]
    return r["o"] // z


def as_value(bits, dtype):
    """An element's value from its recorded bits."""
    if bits is None:
        return None
    if dtype == "float32":
        import struct
        return struct.unpack("<f", struct.pack("<I", bits & 0xffffffff))[0]
    width = 64 if dtype == "int64" else 32
    bits &= (1 << width) - 1
    return bits - (1 << width) if bits >> (width - 1) else bits


def pick_launch(launches, events, names, want=None):
    """The launch drawn: `want`, else the first that reads the input."""
    if want is not None:
        if want not in launches:
            raise TraceError("no launch %d in the trace (it has %d)" % (want, len(launches)))
        return want
    for r in events:
        if r["t"] == "ld" and r["sp"] == "g" and names.get(r["a"]) == "in":
            return r["l"]
    return min(launches)


def expected_outputs(note, inputs):
    """What the case's outputs should be, from the input values (missing
    where an input is unknown); {} for a kind this does not check."""
    n, kind = note.get("n", len(inputs)), note.get("kind", "scan")
    if kind not in ("reduce", "scan", "section-scan"):
        return {}  # lab 7's decodes and compactions: not checked here (the grader does)
    op = {"sum": lambda a, b: a + b, "min": min, "max": max}[note.get("op", "sum")]
    vals = [inputs.get(i) for i in range(n)]
    if kind == "reduce":
        if any(v is None for v in vals) or not vals:
            return {}
        acc = vals[0]
        for v in vals[1:]:
            acc = op(acc, v)
        return {0: acc}
    section = note.get("section") or n
    out, exclusive = {}, note.get("exclusive", 0)
    for start in range(0, n, section):
        acc = None
        for i in range(start, min(n, start + section)):
            if exclusive:
                if acc is not None:
                    out[i] = acc
                elif note.get("op", "sum") == "sum":
                    out[i] = 0
            if vals[i] is None:
                break
            acc = vals[i] if acc is None else op(acc, vals[i])
            if not exclusive:
                out[i] = acc
    return out


def blame(note, inputs, j, actual):
    """For a wrong sum at output j: the inputs it lacks and those it has
    twice, found from the values (as the grader's report does); empty when
    no simple explanation fits."""
    if note.get("op", "sum") != "sum" or note.get("dtype") == "float32" or actual is None:
        return [], []
    section = note.get("section") or note.get("n", 0)
    lo = 0 if note.get("kind") == "reduce" else j - j % section if section else 0
    hi = (note.get("n", 0) - 1 if note.get("kind") == "reduce"
          else j - 1 if note.get("exclusive") else j)
    want = set(range(lo, hi + 1))
    v = [inputs.get(i, 0) for i in range(note.get("n", 0))]
    full = sum(v[i] for i in want)
    for k in sorted(want):
        if full - v[k] == actual and v[k] != 0:
            return [k], []
    for k in range(len(v)):
        if full + v[k] == actual and v[k] != 0:
            return [], [k]
    for a in range(len(v)):
        for b in range(a, len(v)):
            if sum(v[a:b + 1]) == actual:
                have = set(range(a, b + 1))
                return sorted(want - have), sorted(have - want)
    return [], []


def final_outputs(events, names, esize, dtype):
    """Each output element's last stored value, over every launch."""
    out = {}
    for r in events:
        if r["t"] in ("st", "atom") and r["sp"] == "g" and names.get(r["a"]) == "out":
            out[element(r, esize)] = as_value(r.get("v"), dtype)
    return out


def input_values(events, names, esize, dtype, note):
    """Each input element's value: from the bytes recorded with the input's
    name (the harness's --trace), else as the kernels loaded it."""
    raw = bytes.fromhex(note.get("data", {}).get("in", ""))
    n = note.get("n", 0)
    if raw and len(raw) >= n * esize:
        return {i: as_value(int.from_bytes(raw[i * esize:(i + 1) * esize], "little"), dtype)
                for i in range(n)}
    vals = {}
    for r in events:
        if r["t"] == "ld" and r["sp"] == "g" and names.get(r["a"]) == "in":
            vals.setdefault(element(r, esize), as_value(r.get("v"), dtype))
    return vals


def thread_steps(evs, names, esize, dtype, width):
    """Writes of one block in order, each with the reads its thread made
    since its previous write (its inputs), and the races: a read of an
    element another thread writes in the same phase, unless both are lanes
    of one warp that met in a warp operation between the write and the read.  Only elements below
    width are kept (the drawn columns); hidden counts the reads of elements
    past them that fed a drawn write."""
    reads, writes, writers, hidden = {}, [], {}, 0
    for r in evs:
        if r["t"] == "bar":
            continue
        key = (array_name(r, names), element(r, esize))
        if r["t"] == "ld":
            reads.setdefault(r["th"], []).append((key, r["p"], r["q"], r.get("w", 0)))
            continue
        writers.setdefault((key, r["p"]), []).append((r["th"], r["q"], r.get("w", 0)))
        ins = reads.pop(r["th"], [])
        if key[1] < width:
            hidden += sum(1 for i in ins if i[0][1] >= width)
            writes.append({"array": key[0], "index": key[1], "phase": r["p"], "thread": r["th"],
                           "q": r["q"], "atomic": r["t"] == "atom",
                           "value": as_value(r.get("v"), dtype),
                           "reads": [{"array": k[0], "index": k[1], "phase": p, "q": q, "w": ws}
                                     for k, p, q, ws in ins if k[1] < width]})
    races = []
    for w in writes:
        for rd in w["reads"]:
            for th, q, ws in writers.get(((rd["array"], rd["index"]), rd["phase"]), []):
                # lanes of one warp that met in a warp operation between the
                # write and the read, either way round (__syncwarp, a
                # shuffle), are ordered
                synced = th // 32 == w["thread"] // 32 and rd["w"] != ws
                if th != w["thread"] and not synced:
                    rd["race"] = True
                    races.append({"array": rd["array"], "index": rd["index"],
                                  "phase": rd["phase"], "reader": w["thread"], "writer": th,
                                  "written_first": q < rd["q"]})
    return writes, races, hidden


def drop_idle(writes):
    """Writes without news in the drawn columns left out: the element
    rewritten with its own value, from itself and elements past the last
    column only (a tree's step whose partners, all identities, lie past
    it).  Returns (the writes kept, how many phases held only idle ones)."""
    last, kept, idle_phases, busy = {}, [], set(), set()
    for w in writes:
        key = (w["array"], w["index"])
        idle = (key in last and last[key] == w["value"] and
                all((r["array"], r["index"]) == key for r in w["reads"]))
        last[key] = w["value"]
        (idle_phases if idle else busy).add((w["phase"], w["array"]))
        if not idle:
            kept.append(w)
    return kept, len(idle_phases - busy)


def rows_of(writes):
    """One row per (phase, array) with a drawn write, in order; arrays read
    before any write (the input) get a row of their own first."""
    rows, seen = [], set()
    first_write = {}
    for w in writes:
        first_write.setdefault(w["array"], w["q"])
        if (w["phase"], w["array"]) not in seen:
            seen.add((w["phase"], w["array"]))
            rows.append({"phase": w["phase"], "array": w["array"]})
    initial = []
    for w in writes:
        for rd in w["reads"]:
            if rd["q"] < first_write.get(rd["array"], float("inf")) and \
                    rd["array"] not in [r["array"] for r in initial]:
                initial.append({"phase": -1, "array": rd["array"]})
    rows.sort(key=lambda r: r["phase"])
    if not any(r["array"] == "in" for r in initial):
        initial.insert(0, {"phase": -1, "array": "in"})
    if not any(r["array"] == "out" for r in rows):
        rows.append({"phase": NEVER, "array": "out"})  # a kernel that never stored its output
    return initial + rows


def dataflow(path, width=16, launch=None, block=0):
    """The picture of one block of one launch as data: rows (phase, array),
    writes with their reads, races, the outputs and the first wrong one
    with the inputs it lacks or has extra.  width: the columns drawn."""
    note, names, launches, events, cut = load(path)
    dtype = note.get("dtype", "int32")
    esize = ESIZE.get(dtype, 4)
    l = pick_launch(launches, events, names, launch)
    evs = [r for r in events if r["l"] == l and r["b"] == block]
    writes, races, hidden = thread_steps(evs, names, esize, dtype, width)
    writes, idle_rows = drop_idle(writes)
    inputs = input_values(events, names, esize, dtype, note)
    outs = final_outputs(events, names, esize, dtype)
    want = expected_outputs(note, inputs)
    wrong = [j for j in sorted(want) if j < width and outs.get(j) != want[j]]
    first = None
    if wrong:
        j = wrong[0]
        lacks, extra = blame(note, inputs, j, outs.get(j))
        first = {"index": j, "value": outs.get(j), "expected": want[j], "lacks": lacks,
                 "extra": extra}
    phases = sorted({r["p"] for r in evs if r["t"] == "bar"})
    shown = {k: v for k, v in note.items() if k != "data"}
    return {"note": shown, "launch": l, "kernel": launches[l]["kernel"], "block": block,
            "width": width, "cut": cut, "barriers": len(phases), "rows": rows_of(writes),
            "writes": writes, "races": races, "hidden_reads": hidden, "idle_rows": idle_rows, "inputs": inputs, "outputs": outs,
            "expected": want, "wrong": wrong, "first_wrong": first}


def tile_state(evs, names):
    """Where a single-pass scan keeps its tiles' state: the writes of
    blocks to device memory other than the input and output, at words no
    other block writes (a ticket counter, written by every block, is left
    out).  Returns (state writes, {(alloc, size): offset of tile 0's word},
    number of tiles): a block's tile is its lowest such word, counted from
    the lowest any block wrote with that size (chained scan: its flag)."""
    writers = {}
    for r in evs:
        if r["t"] in ("st", "atom") and r["sp"] == "g" and names.get(r["a"]) not in ("in", "out"):
            writers.setdefault((r["a"], r["o"]), set()).add(r["b"])
    own = [r for r in evs if r["t"] in ("st", "atom") and r["sp"] == "g"
           and len(writers.get((r["a"], r["o"]), ())) == 1]
    base = {}
    for r in own:
        k = (r["a"], r["z"])
        base[k] = min(base.get(k, r["o"]), r["o"])
    lowest = {}
    for r in own:
        lowest[r["b"]] = min(lowest.get(r["b"], (r["o"], r)), (r["o"], r), key=lambda x: x[0])
    return own, base, len(lowest)


def publication(r):
    """What a write to a tile's state says: "A" (its aggregate), "P" (its
    inclusive prefix, or a chained scan's flag), from a descriptor's status
    word (lookback.cuh: status in the high 32 bits)."""
    v = r.get("v") or 0
    if r["z"] == 8:
        return {1: "A", 2: "P"}.get(v >> 32, "X")
    return "P"


def timeline(path, launch=None):
    """The tiles of a single-pass scan over time: for each tile (the
    element of the state it publishes), when it published its aggregate and
    its inclusive prefix, and which predecessors its look-back read (a
    tile's polls of one predecessor that saw nothing new folded into its
    first, with a count).  Time
    is the order of the recorded events."""
    note, names, launches, events, cut = load(path)
    l = pick_launch(launches, events, names, launch)
    evs = [r for r in events if r["l"] == l]
    own, base, ntiles = tile_state(evs, names)
    if not own:
        raise TraceError("launch %d wrote no tile state (no word of device memory that one "
                         "block alone writes): not a single-pass scan?" % l)

    def tile(r):
        return ((r["o"] - base[(r["a"], r["z"])]) // r["z"])

    tile_of, pubs, reads, latest = {}, [], [], {}
    for r in own:
        if tile(r) < ntiles:
            tile_of.setdefault(r["b"], tile(r))
            pubs.append({"tile": tile(r), "q": r["q"], "what": publication(r), "array": r["a"]})
    for r in evs:
        if r["t"] != "ld" or r["sp"] != "g" or (r["a"], r["z"]) not in base or \
                r["b"] not in tile_of:
            continue
        me, pred = tile_of[r["b"]], tile(r)
        if pred == me or not 0 <= pred < ntiles:
            continue
        seen = publication(r) if r["z"] == 8 else ("P" if r.get("v") else "X")
        last = latest.get((me, pred))
        if last and last["seen"] == seen:  # a poll again (of any lane), nothing new
            last["polls"] += 1
            last["q_end"] = r["q"]
            continue
        latest[(me, pred)] = {"tile": me, "pred": pred, "q": r["q"], "q_end": r["q"],
                              "seen": seen, "polls": 1, "array": r["a"]}
        reads.append(latest[(me, pred)])
    shown = {k: v for k, v in note.items() if k != "data"}
    return {"note": shown, "launch": l, "kernel": launches[l]["kernel"], "cut": cut,
            "tiles": sorted(set(tile_of.values())), "publications": pubs, "reads": reads}


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: trace_read.py TRACE [timeline]")
    try:
        d = timeline(sys.argv[1]) if sys.argv[2:] == ["timeline"] else dataflow(sys.argv[1])
    except TraceError as e:
        sys.exit("trace_read.py: %s" % e)
    json.dump(d, sys.stdout, indent=1, default=str)
