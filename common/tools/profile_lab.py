#!/usr/bin/env python3
"""profile_lab.py - `make profile LAB=labN`: Nsight Compute's counters for the
few metrics a lab's handout discusses, your kernels next to the reference's.

usage: profile_lab.py --preflight [--backend gpu|emu]
       profile_lab.py --lab labN --yours BIN [--ref BIN] [--variant NAME] [-n N] [--save DIR]
       profile_lab.py --backend emu --lab labN --yours BIN [--ref BIN] [--variant NAME] [-n N]
       profile_lab.py --lab labN --from-csv YOURS.csv [REF.csv] [--variant NAME] [-n N]

Each variant (every one the binary lists but demonstrations, or --variant)
runs once under `ncu` with `-r 0`: one launch of the variant's kernels and
nothing else (no warm-up, timing, copy or CUB).  A kernel filter made of the
lab's own __global__ names leaves out the harness's input and poison
kernels.  The rows and their metrics are in profile_metrics.py; ncu's CSV
is read by ncu_csv.py.  --from-csv prints the table from saved reports
(--save keeps them) without a GPU.

With --backend emu (no GPU: the labs build for the CPU emulator) the
binaries are counted builds (emu-nvcc --count, made by the Makefile into
build/count/), each variant runs once with -r 0 on the emulator, and the
table shows the emulator's exact counts (profile_metrics.EMU_LABS): the
same lessons of divergence, barriers and bank conflicts, no time or
bandwidth.

Exit status: 0 profiled (a wrong result is a note, not a failure), 2 bad
usage, 3 no GPU for the GPU build (EMU=0 on a machine without one), 4 no
ncu, 5 ncu may not read the GPU's counters, 6 a profile produced no report
(ncu or the program failed), 7 a variant launched none of the lab's
kernels (a skeleton whose launching TODOs are not done yet): the other
side's column is printed all the same.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import ncu_csv
import profile_metrics
import traffic
from bench import parse_size

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXIT_NO_GPU, EXIT_NO_NCU, EXIT_NO_PERMISSION, EXIT_NO_REPORT, EXIT_NO_KERNEL = 3, 4, 5, 6, 7
DEFAULT_N = "2^24"      # 64 MiB of int32: far past the L2, yet each run takes seconds
MAX_LAUNCHES = 64       # ncu --launch-count: lab 5's recursion at 2^30 is under 10
HARNESS_TIMEOUT = 120   # s, the binary's own watchdog: ncu replays each kernel ~10 times
EMU_TIMEOUT = 300       # s, a counted emulator run (2^16 elements take about a second)
NCU_TIMEOUT = 600       # s, for ncu and the binary together (it starts slowly)

NO_GPU = """\
make profile: no NVIDIA GPU here (nvidia-smi lists none), and EMU=0 asks for the
  GPU build, which ncu profiles by reading the GPU's hardware counters.
  Without EMU=0, `make profile LAB={lab}` counts on the CPU emulator instead:
  divergent branches, barriers and bank conflicts, exactly (no time or bandwidth)."""
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
    """0 when a profile can run here, else the exit status, said plainly.
    The emulator's counts need no GPU and no ncu."""
    if backend == "emu":
        return 0
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


def emu_kernels_line(who, runs):
    """'yours: reduce_blocks x1 (64 blocks of 512)': the emulator's launches."""
    listed = ", ".join("%s x1 (%d block%s of %d threads)" % (
        r["kernel"], r["metrics"]["blocks"], "s"[:r["metrics"]["blocks"] != 1],
        r["metrics"]["block_threads"]) for r in runs)
    return "  %-10s %s" % (who + ":", listed or "no kernel of the lab launched")


def table(lab, variant, n, sides, emu=False):
    """The side-by-side table: one line per row of the lab, then which
    kernels each side ran.  `sides` is [(who, launches)]; emu: the
    emulator's counts and rows instead of ncu's."""
    rows = profile_metrics.emu_rows_for(lab) if emu else profile_metrics.rows_for(lab)
    lines = ["== %s %s, n = %d (int32%s)" % (lab, variant, n,
                                           ", CPU emulator's exact counts" if emu else "")]
    head = ["metric"] + [who for who, _ in sides] + ["what it means"]
    body = [[row["label"]] + [cell(ncu_csv.row_value(runs, row, n), row) for _, runs in sides]
            + [row["means"]] for row in rows]
    widths = [max(len(r[i]) for r in [head] + body) for i in range(len(head) - 1)]
    for r in [head] + body:
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1])
    lines += [(emu_kernels_line if emu else kernels_line)(who, runs) for who, runs in sides]
    return "\n".join(lines)


NO_KERNEL = """\
make profile: {whose} {variant} launched no kernel of {lab} ({names}), so there is
  nothing to count on {side}: {hint}{other}"""


def no_kernel(lab, who, variant, side, other_side):
    """Say plainly that a side launched none of the lab's kernels."""
    mine = who == "yours"
    hint = ("most likely the TODOs that launch it are not done yet (the skeleton's "
            "host code returns before a launch)." if mine else
            "the reference should launch one; is the build out of date?")
    other = ("\n  The %s's column is printed all the same." % other_side) if other_side else ""
    print(NO_KERNEL.format(whose="your" if mine else "the reference's", variant=variant,
                           lab=lab, names=", ".join(kernel_names(lab)), side=side, hint=hint,
                           other=other), file=sys.stderr)
    return EXIT_NO_KERNEL


def launched_nothing(text):
    """ncu ran the program and profiled nothing: it says so in words on some
    paths ("No kernels were profiled"); on an H100 (ncu 2025.3.1) a program
    whose variant launches no kernel shows only that ncu connected to the
    process and never a "==PROF== Profiling" line (the skeletons of labs 1
    and 5)."""
    return ("no kernels were profiled" in text.lower() or
            ("==PROF== Connected to process" in text and "==PROF== Profiling" not in text))


def wrong_result_note(who, output, what):
    """[the note that a side's numbers describe a wrong kernel], or []."""
    if "self-check FAIL" not in output:
        return []
    return ["note: %s result is wrong (the harness's self-check failed): these %s describe a "
            "kernel that does not do the job yet" % ("your" if who == "yours" else
                                                     "the reference's", what)]


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
        if not runs and launched_nothing(report + output):
            other = "reference" if who == "yours" and args.ref else ""
            status = status or no_kernel(args.lab, who, variant, "the GPU", other)
        elif not runs:
            status = status or explain_failure(who, report, output)
        notes += wrong_result_note(who, output, "counters")
        sides.append((who, runs))
    print(table(args.lab, variant, n, sides))
    d = traffic.design(args.lab, variant)
    if d:
        print("  this design moves at least %g n elements (%g DRAM bytes / element): %s"
              % (d[0], 4 * d[0], d[1]))
    for note in notes:
        print("  " + note)
    return status


def emu_run(lab, binary, variant, n):
    """One counted emulator run of a variant: (its launches of the lab's
    kernels in ncu_csv's shape, or None when the program wrote no counts;
    the program's output; what the emulator could not count)."""
    with tempfile.TemporaryDirectory() as tmp:
        counts = os.path.join(tmp, "counts.jsonl")
        env = dict(os.environ, CUEMU_COUNT_OUT=counts)
        cmd = [binary, "--variant", variant, "-n", str(n), "--dtype", "int32", "-r", "0",
               "-w", "0", "--timeout", str(EMU_TIMEOUT), "-q"]
        try:
            done = subprocess.run(cmd, env=env, capture_output=True, text=True,
                                  timeout=EMU_TIMEOUT + 30)
            output = done.stdout + done.stderr
        except subprocess.TimeoutExpired:
            output = "the emulator did not finish within %d s" % EMU_TIMEOUT
        if not os.path.exists(counts):
            return None, output, []
        found = [json.loads(line) for line in open(counts) if line.strip()]
    names = kernel_names(lab)
    runs, skipped = [], []
    for r in found:
        k = ncu_csv.base_name(r["kernel"])
        if k in names:
            runs.append({"id": str(r["launch"]), "kernel": k, "metrics": r})
            skipped += r["not_counted"]
    return runs, output, sorted(set(skipped))


def emu_profile_variant(args, variant, n):
    """The emulator's table of one variant; 0 or an exit status."""
    sides, status, notes = [], 0, []
    for who, binary in (("yours", args.yours), ("reference", args.ref)):
        if not binary:
            continue
        runs, output, skipped = emu_run(args.lab, binary, variant, n)
        if runs is None:
            tail = "\n".join("    " + l for l in output.strip().splitlines()[-8:])
            print("make profile: %s wrote no counts (is it a counted build, emu-nvcc --count?); "
                  "it said:\n%s" % (binary, tail), file=sys.stderr)
            status = status or EXIT_NO_REPORT
            runs = []
        elif not runs:
            other = "reference" if who == "yours" and args.ref else ""
            status = status or no_kernel(args.lab, who, variant, "the emulator", other)
        notes += wrong_result_note(who, output, "counts")
        notes += ["not counted (%s): %s" % (who, what) for what in skipped]
        sides.append((who, runs))
    print(table(args.lab, variant, n, sides, emu=True))
    kind = "reduce" if args.lab in ("lab1", "lab2") else "scan"
    for who, runs in sides:
        if runs:
            whose = "your" if who == "yours" else "the reference's"
            print("  %s" % traffic.line(args.lab, variant, [r["metrics"] for r in runs], n, 4,
                                        kind, whose))
    for note in notes:
        print("  " + note)
    return status


EXIT_NO_VARIANT = -1  # each_variant's "nothing listed" (reported as EXIT_NO_REPORT)


def each_variant(args, default_n, profile):
    """profile(variant, n) for the asked variant or every one the binary
    lists, n capped per variant; the first non-zero status, or
    EXIT_NO_VARIANT (said on stderr) when none is listed."""
    names = [args.variant] if args.variant else variants(args.yours)
    if not names:
        print("make profile: %s --list names no variant" % args.yours, file=sys.stderr)
        return EXIT_NO_VARIANT
    worst = 0
    for variant in names:
        n = parse_size(args.n or default_n)
        n = min(n, profile_metrics.VARIANT_MAX_N.get((args.lab, variant), n))
        worst = profile(variant, n) or worst
    return worst


def emu_main(args):
    """make profile on the CPU emulator: every variant's counted table."""
    worst = each_variant(args, profile_metrics.EMU_DEFAULT_N,
                         lambda variant, n: emu_profile_variant(args, variant, n))
    if worst == EXIT_NO_VARIANT:
        return EXIT_NO_REPORT
    print("counted on the CPU emulator (emu-nvcc --count; common/emu/README.md, \"Counters\"): "
          "exact, and the same under every schedule.\nNot on the emulator: %s: those need a "
          "GPU's counters (make profile LAB=%s on a machine with an NVIDIA GPU and ncu)."
          % (", ".join(profile_metrics.gpu_only_labels(args.lab)), args.lab))
    return worst


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
    ap.add_argument("-n", help="input elements (default %s on a GPU, %s on the emulator; at "
                    "most 1024 for lab 1's single-block)" % (DEFAULT_N, profile_metrics.EMU_DEFAULT_N))
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
    if args.backend == "emu":
        return emu_main(args)
    ncu = find_ncu()
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    worst = each_variant(args, DEFAULT_N, lambda variant, n: profile_variant(args, ncu, variant, n))
    if worst == EXIT_NO_VARIANT:
        return EXIT_NO_REPORT
    print("ncu: %s (clocks locked to base, caches flushed before each kernel: times "
          "differ from the harness's)" % ncu)
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
