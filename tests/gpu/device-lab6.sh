#!/bin/bash
# device-lab6.sh - lab 6 on a GPU: tile-size configurations of the stage-3
# reference timed against a device copy and CUB at 2^28 (int32, float32);
# every stage timed; repeated launches verified; compute-sanitizer; then
# the solution and the skeleton graded (the solution with its speed tests).
set -u
OUT=${OUT:-/tmp/device-lab6}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
make -s -j8 grader build/gpu/ref/lab6 lab6 >/dev/null || { echo "build failed"; exit 1; }
objs="build/gpu/common/*.o build/host/*.o"
configs=${CONFIGS:-"256x16 128x24 256x8 512x8 128x16"}
for c in $configs; do
    th=${c%x*}; it=${c#*x}
    nvcc -O3 -std=c++17 -arch=sm_90 -I common -DTILE_THREADS=$th -DITEMS=$it \
        -o /tmp/lab6-$c solutions/lab6-scan-single-pass/scan.cu $objs &
done
wait
echo "=== stage 3 configurations, 2^28 (median of 50)"
for c in $configs; do
    for t in int32 float32; do
        printf '%-7s ' $c; /tmp/lab6-$c -n 2^28 -t $t -r 50 -w 5 | tr '\n' ' ' | sed 's/  */ /g'; echo
    done
done 2>&1 | tee "$OUT/configs.txt"
echo "=== every stage, default configuration"
for v in chained lookback lookback-warp; do
    for n in 2^24 2^28; do
        build/gpu/ref/lab6 --variant $v -n $n -r 50 -w 5 | tr '\n' ' ' | sed 's/  */ /g'; echo
    done
done 2>&1 | tee "$OUT/stages.txt"
echo "=== repeated launches"
for v in chained lookback lookback-warp; do
    for n in 1000003 2^24+5 2^28; do
        build/gpu/ref/lab6 --variant $v -n $n -r 0 --verify 100 | tr '\n' ' '; echo
    done
    build/gpu/ref/lab6 --variant $v -n 2^24+5 -t float32 -d wide -r 0 --verify 20 | tr '\n' ' '; echo
done 2>&1 | tee "$OUT/verify.txt"
echo "=== compute-sanitizer"
for v in chained lookback lookback-warp; do
    for tool in memcheck racecheck synccheck; do
        compute-sanitizer --tool $tool --error-exitcode 9 build/gpu/ref/lab6 --variant $v -n 300007 -r 1 -w 0 -q >/tmp/san.log 2>&1
        echo "$tool $v n=300007: exit=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log)"
    done
done 2>&1 | tee "$OUT/sanitizer.txt"
echo "=== grading"
./grade lab6 --submission solutions/lab6-scan-single-pass --json "$OUT/results-lab6.json" >"$OUT/grade-lab6-solution.txt" 2>&1
grep -E "TOTAL|yours|->|^  [A-Z-]{4,} " "$OUT/grade-lab6-solution.txt" | grep -v "^  PASS"
./grade lab6 --submission labs/lab6-scan-single-pass --no-speed >"$OUT/grade-lab6-skeleton.txt" 2>&1
grep TOTAL "$OUT/grade-lab6-skeleton.txt"
