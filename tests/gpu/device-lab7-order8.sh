#!/bin/bash
# device-lab7-order8.sh - on a GPU machine: why lab 7's order-8 decode runs
# at 2.5-3.3x its order-1 time (issue 13 asks 1.2x).  First ncu's view of the
# reference's order-8 kernel (registers, occupancy, where warps stall), then
# the reference rebuilt with other shapes and blocks per SM for the
# KMAX-order kernel (MINB_ORDERS, the second __launch_bounds__ argument), each
# timed at 2^28 int32: order 1, order 8 and 8-tuples, with copy and CUB in
# the same process.  Any tuning shape can be compared the same way (it
# replaced device-lab7-shapes.sh): SHAPES overrides the list ("TAG FLAGS...;TAG FLAGS..."); NCU_TAG picks
# the build ncu looks at (default ref); SRC another source to build (an
# earlier version of the solution, to compare in the same session).
set -u
OUT=${OUT:-/tmp/device-lab7-order8}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi -L >/dev/null 2>&1 || { echo "device-lab7-order8: SKIPPED: no NVIDIA GPU here"; exit 0; }
make -s -j16 build/gpu/ref/lab7 >/dev/null || exit 1
objs=$(make -B -n build/gpu/ref/lab7 2>/dev/null | tail -1 | grep -o 'build/[^ ]*\.o' | tr '\n' ' ')
line() { tr '\n' ' ' | sed -e 's/  */ /g' -e 's/lab7-scan-at-work //' -e 's/on NVIDIA [^C]*//'; echo; }
src=${SRC:-solutions/lab7-scan-at-work/scan.cu}
build() { # TAG FLAGS...
    local tag=$1; shift
    nvcc -O3 -std=c++17 -arch=sm_90 -I common -I solutions/lab7-scan-at-work -Xptxas -v "$@" \
        -o "$OUT/lab7-$tag" "$src" $objs >"$OUT/build-$tag.log" 2>&1 || echo "build $tag failed"
    echo "$tag order-8 kernel: $(grep -A4 "entry function '_Z13decode_kernelIjLi8ELi1E" \
        "$OUT/build-$tag.log" | grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" | tr '\n' ' ')"
}
IFS=';' read -ra shapes <<<"${SHAPES:-ref -DMINB_ORDERS=2;minb1 -DMINB_ORDERS=1;minb3 -DMINB_ORDERS=3;run64 -DMINB_ORDERS=2 -DRUN_BYTES=64;run64m3 -DMINB_ORDERS=3 -DRUN_BYTES=64;run64m4 -DMINB_ORDERS=4 -DRUN_BYTES=64;t128 -DMINB_ORDERS=4 -DTILE_THREADS=128}"
for s in "${shapes[@]}"; do build $s & done
wait
if [ "${NCU:-1}" = 1 ] && command -v ncu >/dev/null; then
    ncu --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
        -k regex:decode_kernel --launch-count 1 "$OUT/lab7-${NCU_TAG:-ref}" --variant decode --order 8 -n 2^26 -r 0 \
        >"$OUT/ncu-order8.txt" 2>&1
    grep -E "Registers Per|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|Compute \(SM\)|Duration|Stall|Warp Cycles Per Issued|Block Limit" "$OUT/ncu-order8.txt" | head -30
fi
for b in $OUT/lab7-*; do
    [ -x "$b" ] || continue
    echo "== $b"
    for v in "decode" "decode --order 8" "decode --tuple 8"; do
        printf '%-20s ' "$v"; "$b" --variant $v -n 2^28 -r 30 -w 5 --no-raw 2>&1 | line
    done
done
