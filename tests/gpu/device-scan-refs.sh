#!/bin/bash
# device-scan-refs.sh - on a GPU machine, one call: the lab 5 and lab 6
# references next to a device copy and CUB in the same process (median of
# 30 after 5 warm-ups): every variant at 2^24 and 2^28, int32 and float32,
# inclusive and exclusive; the default variants over 2^16..2^28; 100
# repeated launches compared bit for bit; compute-sanitizer's memcheck,
# racecheck and synccheck on every variant; then both labs graded (the
# speed lines).  Transcripts go to $OUT.  PART=measure or PART=grade runs
# one half (each fits one 10-minute device call); the default runs both.
# PART=grade also runs make bench's tool on both references over
# 2^16..2^28 next to copy and CUB, as CSV and plots (labN.csv, labN.png).
set -u
PART=${PART:-all}
OUT=${OUT:-/tmp/device-scan-refs}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$OUT/gpu.txt"
make -s -j16 grader build/gpu/ref/lab5 build/gpu/ref/lab6 >/dev/null || { echo "build failed"; exit 1; }
line() { tr '\n' ' ' | sed -e 's/  */ /g' -e 's/lab[56]-scan-[a-z-]* //' -e 's/self-check //' -e 's/on NVIDIA [^C]*//'; echo; }
run() { printf '%-5s ' "$1"; shift; "$@" -r 30 -w 5 2>&1 | line; }
if [ "$PART" != grade ]; then
{
echo "== every variant, 2^28 and 2^24"
for n in 2^28 2^24; do
    for t in int32 float32; do
        for x in "" -x; do
            for v in lookback-warp lookback; do run lab6 build/gpu/ref/lab6 --variant $v -n $n -t $t $x; done
            for v in reduce-then-scan hierarchical; do run lab5 build/gpu/ref/lab5 --variant $v -n $n -t $t $x; done
        done
    done
    run lab6 build/gpu/ref/lab6 --variant chained -n $n
done
} | tee "$OUT/variants.txt"
{
echo "== sizes, int32 inclusive"
for n in 2^16 2^17 2^18 2^19 2^20 2^21 2^22 2^23 2^24 2^25 2^26 2^27 2^28; do
    run lab6 build/gpu/ref/lab6 -n $n
    run lab5 build/gpu/ref/lab5 --variant reduce-then-scan -n $n
done
} | tee "$OUT/sizes.txt"
{
echo "== 100 repeated launches, int32 (bit for bit)"
for v in lookback-warp lookback chained; do build/gpu/ref/lab6 --variant $v -n 2^24+77 -r 0 --verify 100 2>&1 | line; done
for v in reduce-then-scan hierarchical; do build/gpu/ref/lab5 --variant $v -n 2^24+77 -r 0 --verify 100 2>&1 | line; done
} | tee "$OUT/verify.txt"
{
echo "== compute-sanitizer (n = 2^17 + 3, every variant)"
for tool in memcheck racecheck synccheck; do
    for lv in "lab6 lookback-warp" "lab6 lookback" "lab6 chained" "lab5 reduce-then-scan" "lab5 hierarchical"; do
        set -- $lv
        printf '%-10s %-5s %-17s ' $tool $1 $2
        compute-sanitizer --tool $tool --error-exitcode 9 build/gpu/ref/$1 --variant $2 -n 2^17+3 -r 0 -q >"$OUT/san.log" 2>&1
        rc=$?; echo "exit $rc: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san.log" | tr '\n' ' ')"
    done
done
} | tee "$OUT/sanitizer.txt"
rm -f "$OUT/san.log"
fi
[ "$PART" = measure ] && exit 0
for lv in "lab6 lookback-warp,lookback" "lab5 reduce-then-scan,hierarchical"; do
    set -- $lv
    python3 common/tools/bench.py --yours build/gpu/ref/$1 --variants $2 --reps 30 \
        --sizes "2^16 2^18 2^20 2^22 2^24 2^26 2^28" -o "$OUT/$1.csv" | grep -v "^bench: wrote"
    python3 common/tools/plot_bench.py "$OUT/$1.csv" -o "$OUT/$1.png" --title "$1 reference"
done
for lab in lab5 lab6; do
    dir=$(sed -n 's/^lab [^ ]* dir=\([^ ]*\).*/\1/p' grader/suites/$lab.suite)
    start=$(date +%s)
    timeout 280 ./grade $lab --submission solutions/$dir >"$OUT/grade-$lab-solution.txt" 2>&1
    echo "grade $lab took $(( $(date +%s) - start )) s" >>"$OUT/grade-$lab-solution.txt"
    grep -E "TOTAL|yours|== Speed|^  [A-Z-]{4,} " "$OUT/grade-$lab-solution.txt" | grep -v "^  PASS " | grep -v SKIPPED
done
