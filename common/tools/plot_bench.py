#!/usr/bin/env python3
"""plot_bench.py - draw what bench.py measured: bandwidth against size.

usage: plot_bench.py BENCH.csv [-o OUT.png] [--title TEXT]

One panel per variant: GB/s (the bytes the operation must move, as the
harness counts them) against n on a log scale, for your kernel, the
reference, the device-to-device copy and CUB timed in the same runs.  The
copy is the ceiling a kernel can approach; a curve that flattens below it
at large n is bandwidth bound at that fraction, one that keeps rising is
still paying per-launch or per-block costs.  Failed runs are left out and
counted in the panel's title.
"""
import argparse
import csv
import math
import sys
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", default="bench.png")
    ap.add_argument("--title", default="")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("plot_bench.py: matplotlib is missing; install it with\n"
                         "    sudo apt-get install -y python3-matplotlib   (Debian/Ubuntu)\n"
                         "or  python3 -m pip install matplotlib\n")
        return 1
    try:
        with open(args.csv, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.stderr.write("plot_bench.py: %s\n" % e)
        return 1
    if not rows:
        sys.stderr.write("plot_bench.py: %s has no runs\n" % args.csv)
        return 1
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    series = defaultdict(lambda: defaultdict(list))  # variant -> line -> [(n, GB/s)]
    failed = defaultdict(int)
    for r in rows:
        if r["status"] != "ok":
            failed[r["variant"]] += 1
            continue
        n, v = int(r["n"]), r["variant"]
        series[v][r["who"]].append((n, float(r["gbps"])))
        if r["who"] == "yours":  # the yardsticks, once per size
            series[v]["device copy"].append((n, float(r["copy_gbps"])))
            if r["cub_gbps"]:
                series[v]["CUB"].append((n, float(r["cub_gbps"])))
    style = {"yours": dict(color="#c04040", marker="o", lw=2),
             "reference": dict(color="#4878a8", marker="s", ls="--"),
             "device copy": dict(color="black", ls=":"),
             "CUB": dict(color="grey", ls="-.")}
    cols = min(len(variants), 2)
    rows_n = math.ceil(len(variants) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(6.5 * cols, 4.2 * rows_n), squeeze=False)
    for i, v in enumerate(variants):
        ax = axes[i // cols][i % cols]
        for line in ("yours", "reference", "device copy", "CUB"):
            pts = sorted(series[v].get(line, []))
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], label=line, **style[line])
        ax.set_xscale("log", base=2)
        ax.set_xlabel("n (elements)")
        ax.set_ylabel("GB/s")
        ax.set_title(v + (" (%d runs failed)" % failed[v] if failed[v] else ""))
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    for j in range(len(variants), rows_n * cols):
        axes[j // cols][j % cols].axis("off")
    device = next((r["device"] for r in rows if r.get("device")), "")
    fig.suptitle((args.title + " - " if args.title else "") + device, fontsize="medium")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print("plot_bench.py: wrote %s" % args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
