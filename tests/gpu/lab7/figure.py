#!/usr/bin/env python3
"""figure.py - the handout's plot of lab 7's measured decode times.

usage: figure.py OUT.svg LABEL=measure.txt [LABEL=measure.txt ...]

Why: the handout's table gives the goals' figures, but the point of SAM is
a shape, that the decode's time barely grows with the order k and the tuple
size d while CUB's grows with them; a plot shows it at a glance.  The input
is the transcript that `PART=measure bash tests/gpu/device-lab7.sh` writes
(its order1..order8 and tuple1..tuple8 lines: the median, the GB/s of the
kernel and of a device copy of the same bytes in the same process, and
CUB's median where there is one), so the figure is redrawn from a committed
transcript, never typed in.  One panel per sweep, the time on a log scale:
the lab's decode, the device copy, and CUB (InclusiveSum k times; the
record scan for d = 1, 2, 4, 8).  Exit 1 when a transcript lacks a line.
"""
import re
import sys

LINE = re.compile(r"^(order|tuple)(\d)\s.*?median ([\d.]+) ms.*?runs; ([\d.]+) GB/s"
                  r" = [\d.]+ of a device copy \(([\d.]+) GB/s\)(?:.*?CUB does the same in ([\d.]+) ms)?")


def read(path):
    """{("order" | "tuple", k): (ms, copy_ms, cub_ms or None)} from one transcript."""
    runs = {}
    for line in open(path):
        m = LINE.match(line)
        if not m:
            continue
        ms, gbps, copy_gbps = float(m.group(3)), float(m.group(4)), float(m.group(5))
        copy_ms = ms * gbps / copy_gbps  # the same bytes at the copy's rate
        runs[(m.group(1), int(m.group(2)))] = (ms, copy_ms, float(m.group(6)) if m.group(6) else None)
    missing = [f"{s}{k}" for s in ("order", "tuple") for k in range(1, 9) if (s, k) not in runs]
    if missing:
        sys.exit(f"figure.py: {path} has no line for {', '.join(missing)}")
    return runs


def panel(ax, gpus, sweep, title, cub_name):
    """One sweep (order or tuple) of every GPU: decode, copy and CUB against k."""
    from matplotlib.ticker import FormatStrFormatter, NullFormatter
    ks = range(1, 9)
    for (label, runs), color in zip(gpus, ("tab:blue", "tab:orange", "tab:green")):
        ax.plot(ks, [runs[(sweep, k)][0] for k in ks], "o-", color=color, label=f"lab 7 decode, {label}")
        ax.plot(ks, [runs[(sweep, k)][1] for k in ks], ":", color=color, label=f"device copy, {label}")
        cub = [(k, runs[(sweep, k)][2]) for k in ks if runs[(sweep, k)][2] is not None]
        ax.plot([k for k, _ in cub], [c for _, c in cub], "s--", color=color, label=f"{cub_name}, {label}")
    ax.set_yscale("log")
    ax.set_yticks([0.5, 0.6, 0.8, 1, 1.5, 2, 3, 4, 6, 8])
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xticks(list(ks))
    ax.set_title(title)
    ax.set_ylabel("ms (log scale), 2^28 int32")
    ax.grid(True, which="both", alpha=0.3)


def main():
    if len(sys.argv) < 3 or any("=" not in a for a in sys.argv[2:]):
        sys.exit(__doc__)
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "lab7"  # the same SVG from the same input
    import matplotlib.pyplot as plt
    gpus = [(a.split("=", 1)[0], read(a.split("=", 1)[1])) for a in sys.argv[2:]]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    panel(left, gpus, "order", "order-k decode", "CUB InclusiveSum k times")
    left.set_xlabel("order k")
    panel(right, gpus, "tuple", "d-tuple decode", "CUB record scan")
    right.set_xlabel("tuple size d")
    left.legend(fontsize=7)
    right.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(sys.argv[1], metadata={"Date": None})


if __name__ == "__main__":
    main()
