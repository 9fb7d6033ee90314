#!/usr/bin/env python3
"""bench.py - a lab's kernels over a range of sizes, yours next to the reference.

usage: bench.py --yours BIN [--ref BIN] [--sizes "2^16 2^18 ..."] [--reps R]
                [--variants a,b] [--dtype int32] -o OUT.csv

A --variants entry may carry options for the binary after the name
("decode --order 8"): lab 7's orders and tuple sizes.  The row's variant
is then the whole entry, so each setting is a line of its own in the plot.

For every variant the binary lists (--list; demonstrations that can
deadlock are left out unless named) and every size, runs the binary with
--reps R after 3 warm-up runs and reads the result file the harness writes:
the median time, GB/s, and the device copy and CUB timed in the same
process.  Writes one CSV row per run ("who" is yours or reference); a run
that fails is a row with its status, never a number.  plot_bench.py draws
the CSV.  Under the CPU emulator the times are CPU times (the CSV says
so in its "device" column).
"""
import argparse
import csv
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

FIELDS = ["who", "variant", "n", "dtype", "status", "median_ms", "gbps", "copy_gbps",
          "cub_gbps", "fraction_of_copy", "device"]


def parse_size(text):
    """'2^20', '2^20+3' or digits, as the harness takes them."""
    m = re.fullmatch(r"2\^(\d+)([+-]\d+)?|(\d+)", text.strip())
    if not m:
        raise argparse.ArgumentTypeError("bad size %r (digits or 2^k)" % text)
    if m.group(3):
        return int(m.group(3))
    return (1 << int(m.group(1))) + int(m.group(2) or 0)


def variants_of(binary):
    """(name, summary) of each variant, from the binary's --list."""
    out = subprocess.run([binary, "--list"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        sys.exit("bench.py: %s --list failed: %s" % (binary, out.stderr.strip()))
    found = []
    for line in out.stdout.splitlines():
        m = re.match(r"  (\S+)\s+(.*)", line)
        if m:
            found.append((m.group(1), m.group(2)))
    return found


def run_one(binary, entry, n, dtype, reps, timeout):
    """One timed run of a --variants entry (name, then any options); a dict
    of the CSV fields (status 'ok' or why not)."""
    row = {"variant": entry, "n": n, "dtype": dtype}
    words = shlex.split(entry)
    with tempfile.TemporaryDirectory() as tmp:
        prefix = os.path.join(tmp, "run")
        cmd = [binary, "--variant", words[0], "-n", str(n), "--dtype", dtype, "--reps",
               str(reps), "--warmup", "3", "--out", prefix, "--quiet", "--timeout", str(timeout)]
        cmd += words[1:]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 30)
        except subprocess.TimeoutExpired:
            row["status"] = "timeout"
            return row
        try:
            with open(prefix + ".json") as f:
                r = json.load(f)
        except (OSError, ValueError):
            lines = (done.stderr or done.stdout).strip().splitlines()
            row["status"] = "exit %d: %s" % (done.returncode, lines[-1][:120] if lines else "")
            return row
    if not r.get("self_check_ok"):
        row["status"] = "wrong result"
        return row
    row.update(status="ok", median_ms=r["median_ms"], gbps=r["gbps"],
               copy_gbps=r["copy_gbps"], cub_gbps=r.get("cub_gbps") or "",
               fraction_of_copy=r["gbps"] / r["copy_gbps"] if r.get("copy_gbps") else "",
               device=r.get("device", ""))
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--yours", required=True, help="your lab binary (make labN)")
    ap.add_argument("--ref", help="the reference binary, for comparison")
    ap.add_argument("--sizes", default="2^16 2^18 2^20 2^22 2^24 2^26 2^28")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--variants", help="comma-separated, each a name and any options "
                    "(default: every variant listed)")
    ap.add_argument("--dtype", default="int32", choices=["int32", "float32", "int64"])
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    try:
        sizes = [parse_size(s) for s in args.sizes.split()]
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    if not sizes or args.reps < 1:
        ap.error("need at least one size and --reps >= 1")
    for b in [args.yours] + ([args.ref] if args.ref else []):
        if not os.access(b, os.X_OK):
            ap.error("%s is not an executable (build it first)" % b)
    listed = variants_of(args.yours)
    if args.variants:
        names = [v.strip() for v in args.variants.split(",") if v.strip()]
        unknown = [v for v in names if shlex.split(v)[0] not in dict(listed)]
        if unknown:
            ap.error("unknown variant(s) %s; the binary lists %s"
                     % (", ".join(unknown), ", ".join(v for v, _ in listed)))
    else:  # a demonstration that can deadlock is not benchmarked unless asked for
        names = [v for v, summary in listed if "demonstration" not in summary]
    rows = []
    for variant in names:
        for n in sizes:
            for who, binary in (("yours", args.yours), ("reference", args.ref)):
                if not binary:
                    continue
                row = run_one(binary, variant, n, args.dtype, args.reps, args.timeout)
                row["who"] = who
                rows.append(row)
                shown = ("%.4f ms, %.2f of copy" % (row["median_ms"], row["fraction_of_copy"])
                         if row["status"] == "ok" else row["status"])
                print("bench: %-9s %-16s n=%-10d %s" % (who, variant, n, shown), flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for row in rows:
            w.writerow({k: row.get(k, "") for k in FIELDS})
    print("bench: wrote %s (%d runs)" % (args.output, len(rows)))
    if any("emulator" in str(r.get("device", "")) for r in rows):
        print("bench: CPU emulator: these are CPU times and say nothing about GPU speed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
