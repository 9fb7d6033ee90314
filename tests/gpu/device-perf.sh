#!/bin/bash
# device-perf.sh - on a GPU machine: every reference variant timed at 2^24
# and 2^28 next to a device copy and CUB (same process); compute-sanitizer
# memcheck / racecheck / synccheck on each variant; lab 1's experiments;
# and the emulator's comparison program built with the real nvcc.
set -u
OUT=${OUT:-/tmp/device-perf}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
make -s -j8 solutions >/dev/null || { echo "build failed"; exit 1; }
echo "=== perf (median of 50 after 5 warm-ups)"
for lab in build/gpu/ref/lab*; do
    for v in $($lab --list | awk '/^  /{print $1}'); do
        [ "$v" = single-block ] && continue
        for args in "-n 2^24" "-n 2^28" "-n 2^28 -t float32" "-n 2^28 -x"; do
            case "$args" in *-x*) $lab --list | grep -q "^  $v .*scan" || true ;; esac
            $lab --variant $v $args -r 50 -w 5 2>&1 | grep -v '^ *This is\|exclusive.*reduction'
        done
    done
done 2>&1 | tee "$OUT/perf.txt"
echo "=== compute-sanitizer"
for lab in build/gpu/ref/lab*; do
    for v in $($lab --list | awk '/^  /{print $1}'); do
        n=65537; [ "$v" = single-block ] && n=1000
        for tool in memcheck racecheck synccheck; do
            compute-sanitizer --tool $tool --error-exitcode 9 $lab --variant $v -n $n -r 1 -w 0 -q >/tmp/san.log 2>&1
            echo "$tool $(basename $lab) $v n=$n: exit=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log)"
        done
    done
done 2>&1 | tee "$OUT/sanitizer.txt"
echo "=== lab 1 experiments"
bash tests/gpu/lab1-experiments.sh 2>&1 | tee "$OUT/lab1-experiments.txt"
echo "=== emulator comparison program, real GPU"
nvcc -O2 -arch=sm_90 -o /tmp/shfl_reduce tests/emu/programs/shfl_reduce.cu && /tmp/shfl_reduce 2>&1 | tee "$OUT/shfl_reduce-gpu.txt"
