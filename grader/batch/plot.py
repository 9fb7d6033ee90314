#!/usr/bin/env python3
"""plot.py - the class's grade distribution, for the instructor.

usage: python3 grader/batch/plot.py grades.csv [-o grades.png]

Reads the gradebook written by `./grade --batch` and writes a PNG with a
histogram of the totals and the mean points of each test group (as a
fraction of its maximum).  Students whose status is not "graded" or
"build failed" (grader error, timeout, ...) are left out and counted in the
title, so a broken grading run does not look like a class of zeros.
"""
import argparse
import csv
import sys

FIXED = {"student", "total", "max", "status", "seconds", "note"}


def main():
    ap = argparse.ArgumentParser(description="Plot the class distribution from the CSV.")
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", default="grades.png")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("plot.py: matplotlib is missing; install it with\n"
                         "    sudo apt-get install -y python3-matplotlib   (Debian/Ubuntu)\n"
                         "or  python3 -m pip install matplotlib\n")
        return 1
    try:
        with open(args.csv, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.stderr.write("plot.py: %s\n" % e)
        return 1
    if not rows:
        sys.stderr.write("plot.py: %s has no students\n" % args.csv)
        return 1
    groups = [c for c in rows[0].keys() if c not in FIXED]
    used = [r for r in rows if r.get("status") in ("graded", "build failed")]
    left_out = len(rows) - len(used)
    totals = [float(r["total"] or 0) for r in used]
    maxima = [float(r["max"]) for r in used if r.get("max")]
    top = max(maxima) if maxima else (max(totals) if totals else 1)

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5),
                                   gridspec_kw={"width_ratios": [3, 2]})
    bins = [top * i / 20 for i in range(21)]
    ax1.hist(totals, bins=bins, color="#4878a8", edgecolor="white")
    ax1.set_xlabel("total (out of %g)" % top)
    ax1.set_ylabel("students")
    ax1.yaxis.get_major_locator().set_params(integer=True)
    mean = sum(totals) / len(totals) if totals else 0
    ax1.axvline(mean, color="#c04040", linestyle="--", label="mean %.1f" % mean)
    ax1.legend()
    title = "%d students graded" % len(used)
    if left_out:
        title += " (%d left out: grader error, timeout, not graded)" % left_out
    ax1.set_title(title)

    # Per-group mean as a fraction of the group's best possible score: the
    # CSV has no per-group maximum, so the best score seen stands for it.
    names, means, labels = [], [], []
    for g in groups:
        vals = [float(r[g]) for r in used if r.get(g) not in (None, "")]
        if not vals:
            continue
        best = max(vals)
        names.append(g if len(g) <= 28 else g[:26] + "..")
        means.append(sum(vals) / len(vals) / (best or 1.0))
        labels.append("%.1f / %g" % (sum(vals) / len(vals), best))
    ax2.barh(range(len(names)), means, color="#58a868")
    ax2.set_yticks(range(len(names)))
    ax2.set_yticklabels(names, fontsize=8)
    ax2.invert_yaxis()
    ax2.set_xlim(0, 1.15)
    ax2.set_xlabel("class mean / best score seen")
    for i, text in enumerate(labels):
        ax2.text(min(means[i], 1.0) + 0.01, i, text, va="center", fontsize=8)
    ax2.set_title("mean per test group")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print("plot.py: wrote %s" % args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
