#!/bin/bash
# device-lab7-shapes.sh - on a GPU machine: lab 7's reference built with
# other tuning shapes (RUN_BYTES: a thread's run; MINB: blocks per SM the
# compiler must fit), each timed at 2^28 int32 on the issue's three goals
# (order-8 decode, 8-tuple decode, fused compaction) plus order 1, next to
# a device copy and CUB in the same process.  The kit's own reference is
# measured by device-lab7.sh; this script only compares shapes.
set -u
OUT=${OUT:-/tmp/device-lab7-shapes}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi -L >/dev/null 2>&1 || { echo "device-lab7-shapes: SKIPPED: no NVIDIA GPU here"; exit 0; }
make -s -j16 build/gpu/ref/lab7 >/dev/null || exit 1
objs=$(make -B -n build/gpu/ref/lab7 2>/dev/null | tail -1 | grep -o 'build/[^ ]*\.o' | tr '\n' ' ')
line() { tr '\n' ' ' | sed -e 's/  */ /g' -e 's/lab7-scan-at-work //' -e 's/on NVIDIA [^C]*//'; echo; }
build() { # TAG FLAGS...: the reference with other defines, in the background
    local tag=$1; shift
    nvcc -O3 -std=c++17 -arch=sm_90 -I common "$@" -o "$OUT/lab7-$tag" \
        solutions/lab7-scan-at-work/scan.cu $objs >"$OUT/build-$tag.log" 2>&1 || echo "build $tag failed"
}
for s in ${SHAPES:-"run64 -DRUN_BYTES=64" "t128 -DTILE_THREADS=128"}; do build $s & done
wait
for b in build/gpu/ref/lab7 $OUT/lab7-*; do
    [ -x "$b" ] || continue
    echo "== $b"
    for v in "decode" "decode --order 8" "decode --tuple 8" "compact -d wide --pred mult4"; do
        printf '%-30s ' "$v"; "$b" --variant $v -n 2^28 -r 30 -w 5 --no-raw 2>&1 | line
    done
done
