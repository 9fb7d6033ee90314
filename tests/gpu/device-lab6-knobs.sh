#!/bin/bash
# device-lab6-knobs.sh - lab 6's lookback-warp reference with one tuning
# knob changed at a time (tile shape: TILE_THREADS, ROWS; MAX_BACKOFF_NS),
# at N (default 2^28) int32.  Each line is one process: kernel, copy and
# CUB.  KNOBS="name flags..." lines replace the default list.  (The
# transcripts of 2026-11-23 also used hooks of an intermediate version:
# CONST_PREFIX, MIN_BLOCKS, STREAMING; docs/perf-notes.md says what they did.)
set -u
OUT=${OUT:-/tmp/device-lab6-knobs}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
make -s -j16 build/gpu/ref/lab6 >/dev/null || { echo "build failed"; exit 1; }
objs="build/gpu/common/*.o build/host/*.o"
while read -r name flags; do
    nvcc -O3 -std=c++17 -arch=sm_90 -I common $flags -Xptxas -warn-spills -o /tmp/knob-$name \
        solutions/lab6-scan-single-pass/scan.cu $objs 2>&1 | grep -i spill | head -2 | sed "s/^/$name: /" &
done <<CONFIGS
${KNOBS:-base
r4 -DROWS=4
r6 -DROWS=6
t512-r4 -DTILE_THREADS=512 -DROWS=4
t384-r8 -DTILE_THREADS=384 -DROWS=8
bo64 -DMAX_BACKOFF_NS=64
bo256 -DMAX_BACKOFF_NS=256}
CONFIGS
wait
line() { tr '\n' ' ' | sed -e 's/  */ /g' -e 's/lab6-scan-single-pass //' -e 's/self-check //' -e 's/on NVIDIA [^C]*//'; echo; }
for n in ${N:-2^28}; do for b in /tmp/knob-*; do
    printf '%-12s ' ${b#/tmp/knob-}; $b -n $n -r 30 -w 5 2>&1 | line
done; done | tee "$OUT/knobs.txt"
