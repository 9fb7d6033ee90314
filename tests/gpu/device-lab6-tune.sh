#!/bin/bash
# device-lab6-tune.sh - lab 6's stage-3 reference in several tile sizes and
# back-off settings at 2^28 (int32), next to copy and CUB; then lab 6 and
# lab 3 graded (their [emu ...] cases build the CPU emulator on this machine).
set -u
OUT=${OUT:-/tmp/device-lab6-tune}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
make -s -j8 grader build/gpu/ref/lab6 >/dev/null || { echo "build failed"; exit 1; }
objs="build/gpu/common/*.o build/host/*.o"
i=0
while read -r name flags; do
    nvcc -O3 -std=c++17 -arch=sm_90 -I common $flags -o /tmp/tune-$name \
        solutions/lab6-scan-single-pass/scan.cu $objs &
done <<'CONFIGS'
256x16 -DTILE_THREADS=256 -DITEMS=16
256x16-spin -DTILE_THREADS=256 -DITEMS=16 -DMAX_BACKOFF_NS=0
256x32 -DTILE_THREADS=256 -DITEMS=32
256x32-spin -DTILE_THREADS=256 -DITEMS=32 -DMAX_BACKOFF_NS=0
512x16 -DTILE_THREADS=512 -DITEMS=16
384x24 -DTILE_THREADS=384 -DITEMS=24
1024x8 -DTILE_THREADS=1024 -DITEMS=8
CONFIGS
wait
for b in /tmp/tune-*; do
    printf '%-14s ' ${b#/tmp/tune-}; $b -n 2^28 -r 30 -w 5 | tr '\n' ' ' | sed 's/  */ /g'; echo
done 2>&1 | tee "$OUT/tune.txt"
./grade lab6 --submission solutions/lab6-scan-single-pass >"$OUT/grade-lab6-solution.txt" 2>&1
grep -E "TOTAL|yours|emu|^  [A-Z-]{4,} " "$OUT/grade-lab6-solution.txt" | grep -v "^  PASS  .*[0-9] ms$" | head -20
./grade lab3 --submission solutions/lab3-scan-kogge-stone --no-speed >"$OUT/grade-lab3-solution.txt" 2>&1
grep -E "TOTAL|emu" "$OUT/grade-lab3-solution.txt"
