#!/usr/bin/env python3
"""draw_lab.py - what `make draw LAB=labN [VARIANT=name] [N=16]` runs: the
student's counted emulator build and the reference's (if this copy of the
kit has one) each run the same case once with --trace (the recorder), and
draw.py draws the two records side by side.

usage: draw_lab.py --lab labN --yours BIN [--ref BIN] [--variant NAME] [-n N]
                   [--width W] [--timeline] -o OUT.png|.svg [-- more options of the lab]

A wrong or failing run of yours is still drawn (that is the point); a run
that leaves no trace (it did not build a kernel launch, or crashed before)
is said, and the exit status is 2.  The schedule is the emulator's
(CUEMU_SCHEDULE from the environment, inorder by default); one worker
thread unless CUEMU_THREADS says more (make draw gives lab 6 four, so that
tiles run at once and a look-back finds predecessors still working: that
picture changes from run to run, as a GPU's would).
"""
import argparse
import os
import subprocess
import sys

import draw

RUN_TIMEOUT = 120  # s: a drawn run is small (N = 16 to 1024); past this it hangs


def record(binary, trace, args):
    """Run binary once with --trace; True when a trace came out."""
    env = dict(os.environ, CUEMU_COUNT_OUT=os.devnull)
    env.setdefault("CUEMU_THREADS", "1")
    if os.path.exists(trace):
        os.remove(trace)
    cmd = [binary] + args + ["-r", "0", "--trace", trace]
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        print("draw: %s did not finish in %d s" % (" ".join(cmd), RUN_TIMEOUT), file=sys.stderr)
        return os.path.exists(trace)
    tail = (p.stdout + p.stderr).strip().splitlines()[-3:]
    print("draw: ran %s (exit %d)%s" % (" ".join(cmd), p.returncode,
                                         "".join("\n  " + t for t in tail)))
    return os.path.exists(trace)


def main(argv):
    """Record both runs of the case, then draw them (draw.main)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--lab", required=True)
    ap.add_argument("--yours", required=True)
    ap.add_argument("--ref")
    ap.add_argument("--variant")
    ap.add_argument("-n", default="16")
    ap.add_argument("--width", type=int)
    ap.add_argument("--timeline", action="store_true")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("rest", nargs="*", help="more options of the lab binary, after --")
    a = ap.parse_args(argv)
    args = ["-n", a.n] + (["-v", a.variant] if a.variant else []) + a.rest
    base = os.path.splitext(a.out)[0]
    traces, titles = [], []
    for binary, name in ((a.yours, "yours"), (a.ref, "reference")):
        if not binary:
            continue
        t = "%s.%s.jsonl" % (base, name)
        if record(binary, t, args):
            traces.append(t)
            titles.append("%s (%s)" % (name, os.path.relpath(binary)))
        else:
            print("draw: %s left no record (it stopped before any kernel ran)" % binary,
                  file=sys.stderr)
    if not traces:
        return 2
    width = a.width or min(int(a.n) if a.n.isdigit() else 16, 32)
    opts = ["-o", a.out, "--width", str(width), "--titles", ",".join(titles)]
    return draw.main(traces + opts + (["--timeline"] if a.timeline else []))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
