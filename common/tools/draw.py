#!/usr/bin/env python3
"""draw.py - `make draw LAB=labN`: pictures of what a kernel did, drawn from
the emulator's recorder (trace_read.py reads it), the student's run beside
the reference's for the same input.

usage: draw.py TRACE [REF_TRACE] -o OUT.png|OUT.svg [--width N] [--launch L]
               [--timeline] [--title TEXT]

Section kernels (labs 1-5): one row per phase between barriers (and per
array written in it; a phase that only rewrote elements with their own
values, from elements past the last column, is left out and counted in the
title), one column per element; an arrow from each element a
thread read to the element it wrote next; shared and global memory in
different colours; the first wrong output circled, the inputs it lacks or
has extra marked; a read of an element another thread writes in the same
phase (a missing barrier) drawn red and dashed.  --timeline (lab 6): the
tiles over time: when each published its aggregate (A) and inclusive
prefix (P), and each look-back read of a predecessor.

Beside the picture, OUT.json holds what was drawn (the tests read it, not
the pixels).  Exit status: 0 drawn, 2 bad usage or an unreadable trace,
3 matplotlib missing.
"""
import argparse
import json
import os
import sys

import trace_read

COLOUR = {"g": "#e8913a", "s": "#3a78c2", "atomic": "#8e44ad", "race": "#d62728",
          "wrong": "#d62728", "lacks": "#ff9f1c", "extra": "#c2185b"}
CELL = 0.42  # inches per element column
ROW = 0.62   # inches per row


def space_of(array):
    """'g' for a device allocation (in, out, g2), 's' for shared memory."""
    return "s" if "shared" in array else "g"


def row_label(r):
    """A row's name: the array, its memory, the phase."""
    mem = "shared" if space_of(r["array"]) == "s" else "global"
    if r["phase"] == trace_read.NEVER:
        return "%s (%s): never written" % (r["array"], mem)
    if r["phase"] < 0:
        return "%s (%s)" % (r["array"], mem)
    return "phase %d: %s (%s)" % (r["phase"], r["array"], mem)


def source_row(rows, array, phase):
    """The row an arrow starts from: the last row of array before phase
    (what a read in that phase sees), else the array's first row."""
    best = None
    for i, r in enumerate(rows):
        if r["array"] == array and r["phase"] < phase:
            best = i
    if best is None:
        for i, r in enumerate(rows):
            if r["array"] == array:
                return i
    return best


def fmt(v):
    """A value short enough for a cell."""
    if v is None:
        return ""
    if isinstance(v, float):
        return "%.3g" % v
    return str(v) if abs(v) < 10000 else "%.0e" % v


def draw_cells(ax, d, rows):
    """Every row's cells: filled where written in that row, with values;
    an element not written there shows its last value, in grey."""
    from matplotlib.patches import Rectangle
    W = d["width"]
    last = {}
    for i, r in enumerate(rows):
        y = -i
        written = {w["index"]: w for w in d["writes"]
                   if w["phase"] == r["phase"] and w["array"] == r["array"]}
        c = COLOUR[space_of(r["array"])]
        for x in range(W):
            w = written.get(x)
            ax.add_patch(Rectangle((x - 0.4, y - 0.25), 0.8, 0.5, facecolor=c if w else "white",
                                   alpha=0.35 if w else 1, edgecolor=c, lw=0.8))
            if w:
                v = last[(r["array"], x)] = w["value"]
            else:
                v = d["inputs"].get(x) if r["array"] == "in" else last.get((r["array"], x))
            if v is not None and W <= 32:
                ax.text(x, y, fmt(v), ha="center", va="center", fontsize=7 if W <= 16 else 5,
                        color="black" if w or r["array"] == "in" else "#999999")
        ax.text(-0.8, y, row_label(r), ha="right", va="center", fontsize=8)


def draw_arrows(ax, d, rows):
    """An arrow from each element read to the element written with it."""
    index = {(r["phase"], r["array"]): i for i, r in enumerate(rows)}
    for w in d["writes"]:
        to = index[(w["phase"], w["array"])]
        for rd in w["reads"]:
            frm = source_row(rows, rd["array"], rd["phase"])
            if frm is None or frm >= to:
                frm = to - 1 if to > 0 else to
            race = rd.get("race")
            col = COLOUR["race"] if race else COLOUR["atomic"] if w["atomic"] else \
                COLOUR[space_of(rd["array"])]
            ax.annotate("", xy=(w["index"], -to + 0.25), xytext=(rd["index"], -frm - 0.25),
                        arrowprops=dict(arrowstyle="->", color=col, lw=1.4 if race else 0.7,
                                        ls="--" if race else "-", alpha=0.9,
                                        shrinkA=0, shrinkB=0))


def draw_wrong(ax, d, rows):
    """The first wrong output circled; the inputs it lacks or has extra."""
    from matplotlib.patches import Ellipse
    f = d["first_wrong"]
    if not f:
        return
    out_rows = [i for i, r in enumerate(rows) if r["array"] == "out"]
    in_rows = [i for i, r in enumerate(rows) if r["array"] == "in"]
    if out_rows:
        y = -out_rows[-1]
        ax.add_patch(Ellipse((f["index"], y), 1.1, 0.8, fill=False, ec=COLOUR["wrong"], lw=2.2))
        ax.text(f["index"], y - 0.55, "expected %s" % fmt(f["expected"]), ha="center",
                va="top", fontsize=7, color=COLOUR["wrong"])
    if in_rows:
        for key in ("lacks", "extra"):
            for k in f[key]:
                if k < d["width"]:
                    ax.add_patch(Ellipse((k, -in_rows[0]), 1.0, 0.75, fill=False,
                                         ec=COLOUR[key], lw=2, ls=":" if key == "lacks" else "-"))


def legend(fig):
    """What each colour and line means."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    items = [Patch(fc=COLOUR["g"], alpha=0.4, ec=COLOUR["g"], label="global memory (written)"),
             Patch(fc=COLOUR["s"], alpha=0.4, ec=COLOUR["s"], label="shared memory (written)"),
             Line2D([], [], color=COLOUR["g"], label="read from global"),
             Line2D([], [], color=COLOUR["s"], label="read from shared"),
             Line2D([], [], color=COLOUR["atomic"], label="atomic"),
             Line2D([], [], color=COLOUR["race"], ls="--", lw=1.5,
                    label="read of an element another thread writes in the same phase "
                          "(missing barrier)"),
             Line2D([], [], marker="o", ls="", mfc="none", mec=COLOUR["wrong"], ms=10, mew=2,
                    label="first wrong output"),
             Line2D([], [], marker="o", ls="", mfc="none", mec=COLOUR["lacks"], ms=10, mew=2,
                    label="input it lacks"),
             Line2D([], [], marker="o", ls="", mfc="none", mec=COLOUR["extra"], ms=10, mew=2,
                    label="input it has extra or twice")]
    fig.legend(handles=items, loc="lower center", ncol=3, fontsize=8, frameon=False)


def nothing(ax, d, title):
    """A run with nothing to draw (no kernel ran, no tile state): why."""
    ax.text(0.5, 0.5, "nothing to draw: " + d["error"], ha="center", va="center", fontsize=9,
            wrap=True, transform=ax.transAxes)
    ax.set_title(title, fontsize=9)
    ax.set_axis_off()


def panel(ax, d, title, nrows):
    """One run's dataflow on one set of axes, nrows tall (the taller run's
    rows: both panels at one scale)."""
    if "error" in d:
        return nothing(ax, d, title)
    rows = d["rows"]
    draw_cells(ax, d, rows)
    draw_arrows(ax, d, rows)
    draw_wrong(ax, d, rows)
    ax.set_xlim(-0.6, d["width"] - 0.4)
    ax.set_ylim(-nrows + 0.3 - 0.6, 0.7)
    ax.set_xticks(range(d["width"]))
    ax.tick_params(labelsize=7, length=0)
    ax.set_yticks([])
    for s in ax.spines.values():
        s.set_visible(False)
    verdict = "%d wrong output(s)" % len(d["wrong"]) if d["wrong"] else \
        "outputs correct" if d["expected"] else "outputs not checked here"
    if d["cut"]:
        verdict += " (the record was cut short: a smaller N)"
    if d["races"]:
        verdict += ", %d racing read(s)" % len(d["races"])
    if d["hidden_reads"]:
        verdict += "\n(%d read(s) of elements past column %d not drawn" % (d["hidden_reads"],
                                                                      d["width"] - 1)
        verdict += ";\n%d phase(s) that changed nothing here left out)" % d["idle_rows"] \
            if d["idle_rows"] else ")"
    ax.set_title("%s\n%s, block %d, launch %d: %s" % (title, d["kernel"], d["block"], d["launch"],
                                                       verdict), fontsize=9)


def attempt(read, *args):
    """One run's data, or {"error": why} when its record holds nothing to
    draw (a skeleton that launches no kernel): the other run is still
    drawn beside the reason."""
    try:
        return read(*args)
    except trace_read.TraceError as e:
        return {"error": str(e)}


def draw_dataflow(runs, out, width, launch):
    """The section-kernel picture: each run a panel, side by side (one
    above the other past 16 columns, to stay readable)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ds = [(attempt(trace_read.dataflow, p, width, launch), t) for p, t in runs]
    if all("error" in d for d, _ in ds):
        raise trace_read.TraceError("; ".join(d["error"] for d, _ in ds))
    nrows = max(len(d.get("rows", ())) for d, _ in ds)
    side = width <= 16 and len(ds) > 1
    panel_w = width * CELL + 2.8
    fig_w = panel_w * (len(ds) if side else 1)
    fig_h = (nrows * ROW + 1.5) * (1 if side else len(ds)) + 1.3
    fig, axes = plt.subplots(1 if side else len(ds), len(ds) if side else 1,
                             figsize=(fig_w, fig_h), squeeze=False)
    for ax, (d, t) in zip(axes.flat, ds):
        panel(ax, d, t, nrows)
    legend(fig)
    fig.subplots_adjust(left=2.4 / fig_w, right=0.98, top=1 - 1.0 / fig_h,
                        bottom=1.1 / fig_h, wspace=0.45, hspace=0.35)
    fig.savefig(out, dpi=130)
    return [d for d, _ in ds]


def draw_timeline(runs, out, launch):
    """Lab 6: the tiles over time, each run a panel."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    ds = [(attempt(trace_read.timeline, p, launch), t) for p, t in runs]
    if all("error" in d for d, _ in ds):
        raise trace_read.TraceError("; ".join(d["error"] for d, _ in ds))
    fig, axes = plt.subplots(len(ds), 1, figsize=(10, 3.2 * len(ds) + 0.8), squeeze=False)
    seen_col = {"X": "#999999", "A": "#e8b83a", "P": "#2ca02c"}
    for ax, (d, t) in zip(axes.flat, ds):
        if "error" in d:
            nothing(ax, d, t)
            continue
        qs = sorted({p["q"] for p in d["publications"]} | {r["q"] for r in d["reads"]})
        rank = {q: i for i, q in enumerate(qs)}
        for r in d["reads"]:
            x = rank[r["q"]]
            ax.plot([x, x], [r["tile"], r["pred"]], color=seen_col[r["seen"]], lw=0.8, alpha=0.7)
            ax.plot([x], [r["pred"]], "o", ms=3 + min(r["polls"], 6), color=seen_col[r["seen"]])
        for p in d["publications"]:
            ax.plot([rank[p["q"]]], [p["tile"]], "^" if p["what"] == "A" else "*",
                    ms=9 if p["what"] == "A" else 12,
                    color=seen_col.get(p["what"], "k"), mec="k", mew=0.5)
        ax.set_yticks(d["tiles"])
        ax.set_ylabel("tile")
        ax.set_xlabel("order of events (publications and look-back reads)")
        ax.set_title("%s: %s, %d tiles" % (t, d["kernel"], len(d["tiles"])), fontsize=9)
    fig.legend(handles=[
        Line2D([], [], marker="^", ls="", color=seen_col["A"], mec="k", ms=9,
               label="tile publishes its aggregate (A)"),
        Line2D([], [], marker="*", ls="", color=seen_col["P"], mec="k", ms=12,
               label="tile publishes its inclusive prefix (P)"),
        Line2D([], [], marker="o", color=seen_col["X"], label="look-back read: nothing yet (X)"),
        Line2D([], [], marker="o", color=seen_col["A"], label="read an aggregate"),
        Line2D([], [], marker="o", color=seen_col["P"], label="read a prefix (look-back ends)")],
        loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.subplots_adjust(bottom=0.8 / (3.2 * len(ds) + 0.8) + 0.08, hspace=0.5, top=0.93)
    fig.savefig(out, dpi=130)
    return [d for d, _ in ds]


def main(argv):
    """Parse, draw, and write what was drawn beside the picture."""
    ap = argparse.ArgumentParser(description="draw the emulator's record of a kernel run")
    ap.add_argument("traces", nargs="+", help="yours, then the reference's (optional)")
    ap.add_argument("-o", "--out", required=True, help="picture: .png or .svg")
    ap.add_argument("--width", type=int, default=16, help="element columns drawn")
    ap.add_argument("--launch", type=int, help="which launch (default: the first to read the input)")
    ap.add_argument("--timeline", action="store_true", help="lab 6: tiles over time")
    ap.add_argument("--titles", default="yours,reference", help="panel titles, comma-separated")
    a = ap.parse_args(argv)
    if len(a.traces) > 2 or not a.out.endswith((".png", ".svg")):
        ap.error("one or two traces, and an output ending in .png or .svg")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("draw.py: matplotlib is missing (make deps installs python3-matplotlib)",
              file=sys.stderr)
        return 3
    runs = list(zip(a.traces, a.titles.split(",")))
    try:
        ds = draw_timeline(runs, a.out, a.launch) if a.timeline else \
            draw_dataflow(runs, a.out, a.width, a.launch)
    except trace_read.TraceError as e:
        print("draw.py: %s" % e, file=sys.stderr)
        return 2
    with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
        json.dump(ds, f, indent=1, default=str)
    print("drew %s (what it shows: %s)" % (a.out, os.path.splitext(a.out)[0] + ".json"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
