#!/bin/bash
# device-batch.sh - issue 6's class, graded on a GPU machine without help:
# 20 correct copies of lab 1 and every lab-1 submission of
# tests/bad-submissions.sh (does not compile, hangs, crashes, writes out of
# bounds, prints a fake verdict, uses CUB, writes a huge file, forks many
# processes, ships its own harness, is correct but slow), by `./grade
# --batch` as root (each worker's students run as a user of their own).  Then: every CSV row and
# NAME.json against Gradescope's fields (tests/batch/check.py), the correct
# copies at 100 with speed, --sanitize on a correct and a broken copy, and
# a student's copy (make dist) timing against its prebuilt reference.
# JOBS workers (default 8) share the GPU: builds and correctness runs in
# parallel, each speed test alone (grader/gpulock.h), so the correct copies
# should all reach 100.
set -u
OUT=${OUT:-/tmp/device-batch}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
make -s -j16 grader batch prebuild >/dev/null || exit 1
cls=$(mktemp -d); chmod 711 "$cls"
sh tests/bad-submissions.sh --make "$cls/class"
for d in "$cls"/class/*; do [ -f "$d/reduce.cu" ] || rm -rf "$d"; done # lab 6's cases
for i in $(seq -w 1 20); do cp -r solutions/lab1-reduce-naive "$cls/class/correct-$i"; done
chmod -R a+rX "$cls"
echo "class: $(ls "$cls/class" | wc -l) submissions"
start=$(date +%s)
./grade --batch "$cls/class" lab1 --jobs "${JOBS:-8}" --limit 600 --json-dir "$OUT/json" \
    --csv "$OUT/grades.csv" 2>&1 | tail -3
echo "batch wall-clock: $(( $(date +%s) - start )) s"
fail=0
: >"$cls/expect"
for d in "$cls"/class/*; do
    case $(basename "$d") in compile-error) st="build failed" ;; forbidden-cub) st=forbidden ;; *) st=graded ;; esac
    echo "$(basename "$d")|*|$st" >>"$cls/expect"
done
python3 tests/batch/check.py csv "$OUT/grades.csv" "$cls/expect" || fail=1
for j in "$OUT"/json/*.json; do
    python3 tests/batch/check.py gradescope "$j" >/dev/null || { echo "FAIL $j"; fail=1; }
done
echo "Gradescope JSON checked: $(ls "$OUT"/json/*.json | wc -l) files"
python3 - "$OUT/grades.csv" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
ok = [r for r in rows if r["student"].startswith("correct-") and r["student"] != "correct-but-slow"]
totals = sorted(float(r["total"]) for r in ok)
print("correct copies: %d, totals %s" % (len(ok), totals))
for r in rows:
    if r not in ok:
        print("%-18s %6s %-14s %s" % (r["student"], r["total"], r["status"], r.get("note", "")[:90]))
bad = [r for r in ok if float(r["total"]) < 80 or r["status"] != "graded"]
if any(float(r["total"]) < 100 for r in ok):
    print("note: not every correct copy reached 100 (speed under a shared GPU?)")
sys.exit(1 if len(ok) != 20 or bad else 0)
PY
./grade lab1 --submission "$cls/class/correct-01" --sanitize --no-speed >"$OUT/sanitize-correct.txt" 2>&1
./grade lab1 --submission "$cls/class/out-of-bounds" --sanitize --no-speed >"$OUT/sanitize-oob.txt" 2>&1
grep -E "^  (CLEAN|SANITIZER)|taken off|sanitize:" "$OUT"/sanitize-*.txt | cut -c1-200
# A student's copy (make dist): speed graded against the prebuilt reference.
make -s dist >/dev/null 2>&1 && tar -xzf build/dist/reduce-scan-kit.tar.gz -C "$cls" &&
    cp solutions/lab1-reduce-naive/reduce.cu "$cls/reduce-scan-kit/labs/lab1-reduce-naive/" &&
    (cd "$cls/reduce-scan-kit" && ./grade lab1) >"$OUT/dist-grade-lab1.txt" 2>&1
if grep -q "yours .* reference" "$OUT/dist-grade-lab1.txt"; then
    echo "ok   make dist: $(grep -m1 'yours' "$OUT/dist-grade-lab1.txt" | cut -c1-150)"
else
    echo "FAIL make dist: no speed line against refbin/"; tail -5 "$OUT/dist-grade-lab1.txt"; fail=1
fi
rm -rf "$cls"
echo "device-batch: $([ $fail = 0 ] && echo passed || echo FAILED)"
exit $fail
