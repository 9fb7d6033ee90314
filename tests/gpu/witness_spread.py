#!/usr/bin/env python3
"""witness_spread.py CALLS RUN.csv... - the witness's noise, from ncu tables.

Each file is one ncu run of a lab binary making CALLS calls of its run()
(--witness: no kernel but the lab's).  The kernels are split into CALLS
equal groups, in launch order; a call's time is its kernels' sum.  Printed
per run: every call's time, and the mean per call over the first K calls
for K = 2..CALLS (what the witness would credit with K calls); then, per
K, the spread of that mean over the runs (max/min - 1)."""
import csv
import sys


def durations(path):
    """The gpu__time_duration.sum values of an ncu --csv table, in ns."""
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    out = []
    for row in csv.DictReader(lines):
        if row.get("Metric Name") == "gpu__time_duration.sum":
            out.append(float(row["Metric Value"].replace(",", "")))
    return out


def main():
    calls = int(sys.argv[1])
    means = {}
    for path in sys.argv[2:]:
        d = durations(path)
        if not d or len(d) % calls:
            print(f"  {path}: {len(d)} kernels, not {calls} equal calls: skipped")
            continue
        per = len(d) // calls
        ms = [sum(d[i * per:(i + 1) * per]) / 1e6 for i in range(calls)]
        print(f"  {path.rsplit('/', 1)[-1]}: {per} kernels a call; calls (ms): "
              + " ".join(f"{m:.4f}" for m in ms))
        for k in range(2, calls + 1):
            means.setdefault(k, []).append(sum(ms[:k]) / k)
    for k, v in sorted(means.items()):
        print(f"  first {k:2d} calls: mean per call {min(v):.4f}-{max(v):.4f} ms, "
              f"spread {max(v) / min(v) - 1:.2%} over {len(v)} runs")


if __name__ == "__main__":
    main()
