#!/bin/bash
# device-lab7-trace.sh - on a GPU machine: where one graded speed case of
# lab 7 spends its time (the harness's KIT_TRACE steps), as the grader
# starts it for the student (raw output) and for the reference (--no-raw),
# and the whole process's wall time.  Reports under $OUT.
set -u
OUT=${OUT:-/tmp/device-lab7-trace}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
make -s -j16 lab7 >/dev/null || { echo "lab 7 build failed"; exit 1; }
bin=build/gpu/lab7
scratch=$(mktemp -d /dev/shm/trace.XXXXXX)
for args in "--variant decode --order 8" "--variant decode --tuple 8" "--variant compact --pred mult4"; do
    for raw in "" "--no-raw"; do
        s=$(date +%s.%N)
        KIT_TRACE=1 $bin $args -n 2^26 --seed 7 -r 50 -w 5 --out "$scratch/x" --quiet --graded $raw \
            >"$OUT/trace.tmp" 2>&1
        e=$(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
        echo "== $args $raw: $e s wall"
        cat "$OUT/trace.tmp"
    done
done
rm -rf "$scratch" "$OUT/trace.tmp"
