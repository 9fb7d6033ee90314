#!/usr/bin/env python3
"""profile_lab.py - `make profile LAB=labN`: Nsight Compute's counters for the
few metrics a lab's handout discusses, your kernels next to the reference's.

usage: profile_lab.py --preflight [--backend gpu|emu]
       profile_lab.py --lab labN --yours BIN [--ref BIN] [--variant NAME] [-n N] [--save DIR]
       profile_lab.py --lab labN --from-csv YOURS.csv [REF.csv] [--variant NAME] [-n N]

Each variant (every one the binary lists but demonstrations, or --variant)
runs once under `ncu` with `-r 0`: one launch of the variant's kernels and
nothing else (no warm-up, timing, copy or CUB).  A kernel filter made of the
lab's own __global__ names leaves out the harness's input and poison
kernels.  The rows and their metrics are in profile_metrics.py; ncu's CSV
is read by ncu_csv.py.  --from-csv prints the table from saved reports
(--save keeps them) without a GPU.

Exit status: 0 profiled (a wrong result is a note, not a failure), 2 bad
usage, 3 no GPU (or binaries built for the CPU emulator), 4 no ncu,
5 ncu may not read the GPU's counters, 6 a profile produced no report.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

import ncu_csv
import profile_metrics
from bench import parse_size

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXIT_NO_GPU, EXIT_NO_NCU, EXIT_NO_PERMISSION, EXIT_NO_REPORT = 3, 4, 5, 6
DEFAULT_N = "2^24"      # 64 MiB of int32: far past the L2, yet each run takes seconds
MAX_LAUNCHES = 64       # ncu --launch-count: lab 5's recursion at 2^30 is under 10
HARNESS_TIMEOUT = 120   # s, the binary's own watchdog: ncu replays each kernel ~10 times
NCU_TIMEOUT = 600       # s, for ncu and the binary together (it starts slowly)

NO_GPU = """\
make profile: no NVIDIA GPU here (nvidia-smi lists none), and profiling needs one:
  ncu reads the GPU's hardware counters while your kernel runs.
  Here the CPU emulator checks correctness, not speed: ./grade {lab} and build/{lab}
  find wrong results, races (CUEMU_SCHEDULE=reverse or random) and deadlocks, but
  keep no count of divergence, bank conflicts or DRAM traffic. Count those by
  hand with the handout's tables (handouts/{lab}.md, "Measure it"), and run
  `make profile LAB={lab}` on a machine with an NVIDIA GPU and the CUDA toolkit."""
EMU_BUILD = """\
make profile: this machine has a GPU, but the labs build for the CPU emulator
  (EMU=1, or nvcc not found): ncu profiles only the GPU build. Drop EMU=1, or
  point NVCC= or CUDA_HOME= at the CUDA toolkit."""
NO_NCU = """\
make profile: ncu (Nsight Compute) not found{where}.
  It comes with the CUDA toolkit ($CUDA_HOME/bin/ncu, or nsight-compute/ beside it);
  set NCU=/path/to/ncu or put it on PATH."""
NO_PERMISSION = """\
make profile: ncu may not read the GPU's performance counters (ERR_NVGPUCTRPERM).
  The driver keeps them for administrators: run as root, or ask for the driver
  option NVreg_RestrictProfilingToAdminUsers=0 (NVIDIA's "ERR_NVGPUCTRPERM" page)."""


def have_gpu():
    """Whether nvidia-smi lists a GPU, as the Makefile decides it."""
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return any(line.startswith("GPU") for line in out.stdout.splitlines())


def find_ncu():
    """ncu's path: $NCU if set (even if wrong: it is what was asked for),
    else PATH, else the places the CUDA toolkit installs it; or None."""
    if os.environ.get("NCU"):
        ncu = os.environ["NCU"]
        return ncu if os.access(ncu, os.X_OK) else None
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    found = [shutil.which("ncu"), os.path.join(cuda, "bin", "ncu")]
    found += sorted(glob.glob(os.path.join(cuda, "nsight-compute*", "ncu")), reverse=True)
    found += sorted(glob.glob("/opt/nvidia/nsight-compute/*/ncu"), reverse=True)
    return next((f for f in found if f and os.access(f, os.X_OK)), None)


def preflight(lab, backend):
    """0 when a profile can run here, else the exit status, said plainly."""
    if not have_gpu():
        print(NO_GPU.format(lab=lab or "labN"), file=sys.stderr)
        return EXIT_NO_GPU
    if backend == "emu":
        print(EMU_BUILD, file=sys.stderr)
        return EXIT_NO_GPU
    if not find_ncu():
        where = " at NCU=%s" % os.environ["NCU"] if os.environ.get("NCU") else ""
        print(NO_NCU.format(where=where), file=sys.stderr)
        return EXIT_NO_NCU
    return 0


def kernel_names(lab):
    """The __global__ functions of the lab's sources (skeleton and solution):
    the kernel filter, so that the harness's own kernels are not profiled."""
    names = []
    for path in sorted(glob.glob(os.path.join(TOP, "labs", lab + "-*", "*.cu")) +
                       glob.glob(os.path.join(TOP, "solutions", lab + "-*", "*.cu"))):
        text = open(path, errors="replace").read()
        bounds = r"(?:__launch_bounds__\s*\((?:[^()]|\([^()]*\))*\)\s*)?"
        for m in re.finditer(r"__global__\s+(?:static\s+)?void\s+" + bounds + r"(\w+)\s*\(", text):
            if m.group(1) not in names:
                names.append(m.group(1))
    return names


def variants(binary):
    """The variants a binary lists, demonstrations (which may deadlock) left out."""
    out = subprocess.run([binary, "--list"], capture_output=True, text=True, timeout=60)
    found = re.findall(r"^  (\S+)\s+(.*)$", out.stdout, re.M)
    return [name for name, summary in found if "demonstration" not in summary]


def ncu_command(ncu, lab, binary, variant, n, log):
    """The ncu command line of one profile: the lab's metrics, its kernels,
    one launch of the variant (-r 0), ncu's report into `log`."""
    return [ncu, "--csv", "--page", "details", "--print-units", "base",
            "--metrics", ",".join(profile_metrics.metrics_for(lab)),
            "--kernel-name", "regex:^(%s)$" % "|".join(kernel_names(lab)),
            "--launch-count", str(MAX_LAUNCHES), "--log-file", log,
            binary, "--variant", variant, "-n", str(n), "--dtype", "int32",
            "-r", "0", "-w", "0", "--timeout", str(HARNESS_TIMEOUT), "-q"]


def profile_one(ncu, lab, binary, variant, n, save_as):
    """Profile one side; (ncu's report text, the run's own output)."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "ncu.csv")
        env = dict(os.environ, LC_ALL="C")  # "1,5" is not a decimal comma
        try:
            done = subprocess.run(ncu_command(ncu, lab, binary, variant, n, log), env=env,
                                  capture_output=True, text=True, timeout=NCU_TIMEOUT)
            output = done.stdout + done.stderr
        except subprocess.TimeoutExpired:
            output = "ncu did not finish within %d s" % NCU_TIMEOUT
        report = open(log, errors="replace").read() if os.path.exists(log) else ""
    if save_as:
        with open(save_as, "w") as f:
            f.write(report)
    return report, output


def cell(value, row):
    """One number of the table, or '-' where the metric is missing."""
    return "-" if value is None else row["fmt"] % value


def kernels_line(who, runs):
    """'yours: scan_sections x2 81.0 us, add_section_prefix x1 76.0 us': each
    kernel's launches and time, in launch order (lab 5 times its kernels)."""
    counts, ns = {}, {}
    for launch in runs:
        k = launch["kernel"]
        counts[k] = counts.get(k, 0) + 1
        ns[k] = ns.get(k, 0.0) + (launch["metrics"].get(profile_metrics.TIME) or 0.0)
    listed = ", ".join("%s x%d %.1f us" % (k, c, ns[k] / 1e3) for k, c in counts.items())
    return "  %-10s %s" % (who + ":", listed or "none profiled")


def table(lab, variant, n, sides):
    """The side-by-side table: one line per row of the lab, then which
    kernels each side ran.  `sides` is [(who, launches)]."""
    lines = ["== %s %s, n = %d (int32)" % (lab, variant, n)]
    head = ["metric"] + [who for who, _ in sides] + ["what it means"]
    body = [[row["label"]] + [cell(ncu_csv.row_value(runs, row, n), row) for _, runs in sides]
            + [row["means"]] for row in profile_metrics.rows_for(lab)]
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head) - 1)]
    for r in [head] + body:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1])
    lines += [kernels_line(who, runs) for who, runs in sides]
    return "\n".join(lines)


def explain_failure(who, report, output):
    """Why a side has no report, from ncu's words; its exit status."""
    if "ERR_NVGPUCTRPERM" in report + output:
        print(NO_PERMISSION, file=sys.stderr)
        return EXIT_NO_PERMISSION
    tail = "\n".join(("    " + l) for l in (report + output).strip().splitlines()[-8:])
    print("make profile: no ncu report for %s; ncu and the program said:\n%s" % (who, tail),
          file=sys.stderr)
    return EXIT_NO_REPORT


def profile_variant(args, ncu, variant, n):
    """Both sides of one variant profiled and printed; 0 or an exit status."""
    sides, status, notes = [], 0, []
    for who, binary in (("yours", args.yours), ("reference", args.ref)):
        if not binary:
            continue
        save = args.save and os.path.join(args.save, "%s-%s-%s.csv" % (args.lab, variant, who))
        report, output = profile_one(ncu, args.lab, binary, variant, n, save)
        runs = ncu_csv.launches(report)
        if not runs:
            status = status or explain_failure(who, report, output)
        if "self-check FAIL" in output:
            notes.append("note: %s result is wrong (the harness's self-check failed): these "
                         "counters describe a kernel that does not do the job yet" %
                         ("your" if who == "yours" else "the reference's"))
        sides.append((who, runs))
    print(table(args.lab, variant, n, sides))
    for note in notes:
        print("  " + note)
    return status


def from_csv(args):
    """The table from saved reports (no GPU needed)."""
    sides = []
    for who, path in zip(("yours", "reference"), args.from_csv):
        sides.append((who, ncu_csv.launches(open(path, errors="replace").read())))
    print(table(args.lab, args.variant or "(variant not given)", parse_size(args.n or DEFAULT_N),
                sides))
    return 0 if all(runs for _, runs in sides) else EXIT_NO_REPORT


def parse_args(argv):
    """The command line; argparse exits 2 on a mistake."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preflight", action="store_true", help="only check for a GPU and ncu")
    ap.add_argument("--backend", choices=["gpu", "emu"], help="what make built the labs for")
    ap.add_argument("--lab", help="lab1 ... lab7 (picks the table's rows)")
    ap.add_argument("--yours", help="your lab binary (make labN)")
    ap.add_argument("--ref", help="the reference binary")
    ap.add_argument("--variant", help="one variant (default: every one listed)")
    ap.add_argument("-n", help="input elements (default %s; at most 1024 for lab 1's single-block)"
                    % DEFAULT_N)
    ap.add_argument("--save", help="keep each ncu report (CSV) in this folder")
    ap.add_argument("--from-csv", nargs="+", metavar="CSV", help="print the table from reports")
    args = ap.parse_args(argv)
    if not args.preflight and not args.lab:
        ap.error("--lab is needed")
    if not args.preflight and not args.from_csv and not args.yours:
        ap.error("--yours (or --from-csv) is needed")
    try:
        parse_size(args.n or DEFAULT_N)
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    for b in (args.yours, args.ref):
        if b and not args.from_csv and not os.access(b, os.X_OK):
            ap.error("%s is not an executable (build it first)" % b)
    return args


def main(argv):
    args = parse_args(argv)
    if args.from_csv:
        return from_csv(args)
    status = preflight(args.lab, args.backend)
    if status or args.preflight:
        return status
    ncu = find_ncu()
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    names = [args.variant] if args.variant else variants(args.yours)
    if not names:
        print("make profile: %s --list names no variant" % args.yours, file=sys.stderr)
        return EXIT_NO_REPORT
    worst = 0
    for variant in names:
        n = parse_size(args.n or DEFAULT_N)
        n = min(n, profile_metrics.VARIANT_MAX_N.get((args.lab, variant), n))
        worst = profile_variant(args, ncu, variant, n) or worst
    print("ncu: %s (clocks locked to base, caches flushed before each kernel: times "
          "differ from the harness's)" % ncu)
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
