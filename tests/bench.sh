#!/bin/sh
# bench.sh - make bench / make plots on this machine's backend, small sizes:
# the skeleton's runs are rows that say "wrong result" (never a time), the
# reference's have times and the copy yardstick, the plot is written (when
# matplotlib is importable, else SKIPPED), and bad input stops with exit 2.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if ! make -s --no-print-directory backend-check >/dev/null 2>&1; then
    echo "bench: SKIPPED: no GPU and no CPU emulator here"
    exit 0
fi
fail=0
no() { echo "FAIL bench: $*"; fail=1; }
csv=build/bench/lab1.csv
rm -f "$csv" build/bench/lab1.png
make -s --no-print-directory bench LAB=lab1 BENCH_SIZES="2^10 2^12" REPS=2 >/tmp/bench.$$ 2>&1 ||
    { tail -5 /tmp/bench.$$; no "make bench LAB=lab1"; }
python3 - "$csv" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ref = [r for r in rows if r["who"] == "reference"]
yours = [r for r in rows if r["who"] == "yours"]
# lab 1: two variants (single-block stops at n = 1024) x two sizes
bad = [r for r in yours if r["status"] == "ok" or r["median_ms"]]
ok = [r for r in ref if r["status"] == "ok" and float(r["median_ms"]) > 0 and float(r["copy_gbps"]) > 0]
if len(yours) != 4 or len(ref) != 4 or bad or len(ok) < 3:
    print("FAIL bench: rows %r" % rows)
    sys.exit(1)
PY
if python3 -c "import matplotlib" 2>/dev/null; then
    make -s --no-print-directory plots LAB=lab1 >/dev/null 2>&1 && [ -s build/bench/lab1.png ] || no "make plots"
else
    echo "bench: plots SKIPPED: matplotlib is not installed"
fi
make -s --no-print-directory bench LAB=lab0 >/dev/null 2>&1; [ $? = 2 ] || no "make bench LAB=lab0 did not exit 2"
python3 common/tools/bench.py --yours build/emu/lab1 --sizes "2^x" -o /tmp/x.csv >/dev/null 2>&1
[ $? = 2 ] || no "bench.py with a bad size did not exit 2"
rm -f /tmp/bench.$$
[ $fail = 0 ] && echo "ok   bench: make bench and make plots (lab 1, 2 sizes; skeleton rows say 'wrong result')"
exit $fail
