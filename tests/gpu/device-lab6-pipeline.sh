#!/bin/bash
# device-lab6-pipeline.sh - is lab 6's reference latency bound (too few tiles
# in flight per SM)?  Times, at 2^28 next to a device copy and CUB in the
# same process: the reference; the reference with its look-back replaced by
# the identity (what everything else costs); and the tile pipeline of
# tests/gpu/lab6/pipeline.py (cp.async into shared memory, scan in place,
# MIN_BLOCKS blocks per SM) in several shapes.  Then the fastest pipeline
# shape: float32, 100 repeated launches compared bit for bit, compute-
# sanitizer, and ncu's occupancy and DRAM throughput for it and the reference.
set -u
OUT=${OUT:-/tmp/device-lab6-pipeline}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version,clocks.max.memory --format=csv,noheader
make -s -j16 build/gpu/ref/lab6 >/dev/null || { echo "build failed"; exit 1; }
objs="build/gpu/common/*.o build/host/*.o"
src=$(mktemp -d)
python3 tests/gpu/lab6/pipeline.py "$src/pipeline.cu" || exit 1
python3 tests/gpu/lab6/pipeline.py "$src/pipeline-const.cu" --const-prefix || exit 1
sed 's/T before = warp_lookback_prefix<T, Op>(st, id, aggregate);/T before = Op::identity(); (void)st;/' \
    solutions/lab6-scan-single-pass/scan.cu >"$src/reference-const.cu"
cp solutions/lab6-scan-single-pass/scan.cu "$src/reference.cu"
# the reference as it is, but made to fit more blocks per SM (v[] then spills)
sed 's/__launch_bounds__(TILE_THREADS)/__launch_bounds__(TILE_THREADS, MIN_BLOCKS)/' \
    solutions/lab6-scan-single-pass/scan.cu >"$src/reference-lb.cu"
while read -r name file flags; do
    nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -I common -Xptxas -v $flags -o "$src/$name" \
        "$src/$file" $objs 2>"$src/$name.ptxas" &
done <<'CONFIGS'
ref-256x16 reference.cu -DTILE_THREADS=256 -DITEMS=16
ref-256x16-const reference-const.cu -DTILE_THREADS=256 -DITEMS=16
ref-256x16-lb6 reference-lb.cu -DTILE_THREADS=256 -DITEMS=16 -DMIN_BLOCKS=6
ref-256x16-lb8 reference-lb.cu -DTILE_THREADS=256 -DITEMS=16 -DMIN_BLOCKS=8
pipe-256x16-mb8 pipeline.cu -DTILE_THREADS=256 -DITEMS=16 -DMIN_BLOCKS=8
pipe-256x16-mb6 pipeline.cu -DTILE_THREADS=256 -DITEMS=16 -DMIN_BLOCKS=6
pipe-256x16-mb4 pipeline.cu -DTILE_THREADS=256 -DITEMS=16 -DMIN_BLOCKS=4
pipe-256x24-mb8 pipeline.cu -DTILE_THREADS=256 -DITEMS=24 -DMIN_BLOCKS=8
pipe-256x24-mb6 pipeline.cu -DTILE_THREADS=256 -DITEMS=24 -DMIN_BLOCKS=6
pipe-128x16-mb16 pipeline.cu -DTILE_THREADS=128 -DITEMS=16 -DMIN_BLOCKS=16
pipe-128x24-mb12 pipeline.cu -DTILE_THREADS=128 -DITEMS=24 -DMIN_BLOCKS=12
pipe-512x16-mb4 pipeline.cu -DTILE_THREADS=512 -DITEMS=16 -DMIN_BLOCKS=4
pipe-256x16-mb8-const pipeline-const.cu -DTILE_THREADS=256 -DITEMS=16 -DMIN_BLOCKS=8
CONFIGS
wait
echo "=== registers (int32 sum, lookback-warp)"
for p in "$src"/*.ptxas; do
    printf '%-24s %s\n' "$(basename "$p" .ptxas)" "$(grep -A3 'i3SumIiELi3E' "$p" | grep -o 'Used [0-9]* registers\|[0-9]* bytes spill stores' | tr '\n' ' ')"
done | tee "$OUT/registers.txt"
echo "=== int32, 2^28, lookback-warp, median of 30"
for b in "$src"/ref-* "$src"/pipe-*; do
    case $b in *.ptxas) continue ;; esac
    [ -x "$b" ] || { echo "$(basename "$b"): not built"; continue; }
    printf '%-24s ' "$(basename "$b")"
    "$b" -n 2^28 -r 30 -w 5 2>&1 | tr '\n' ' ' | sed 's/  */ /g; s/lab6-scan-single-pass //'
    echo
done | tee "$OUT/times.txt"
best=$(grep '^pipe-' "$OUT/times.txt" | grep -v const | grep 'self-check PASS' |
       sed 's/.*median \([0-9.]*\) ms.*/\1 &/' | sort -n | head -1 | awk '{print $2}')
echo "=== fastest pipeline shape: ${best:-none}"
[ -n "$best" ] || exit 1
b="$src/$best"
{
    "$b" -n 2^28 -r 30 -w 5 --dtype float32
    "$b" -n 2^28 -r 30 -w 5 --exclusive
    for n in 1000003 2^24+5 2^28; do "$b" -n $n -r 0 --verify 100 -q; done
    for v in chained lookback; do "$b" --variant $v -n 2^24 -r 20 -w 3; done
} 2>&1 | tee "$OUT/best.txt"
for tool in memcheck racecheck synccheck; do
    printf '%s: ' $tool
    compute-sanitizer --tool $tool --error-exitcode 9 "$b" -n 300007 -r 0 -q 2>&1 | tail -1
done | tee "$OUT/sanitizer.txt"
for b in "$src/ref-256x16" "$src/$best"; do
    echo "--- ncu $(basename "$b")"
    ncu --launch-skip 2 --launch-count 1 -k regex:single_pass --metrics \
launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum \
        "$b" -n 2^28 -r 2 -w 1 -q 2>&1 | grep -E "single_pass|launch__|sm__|dram__|gpu__"
done | tee "$OUT/ncu.txt"
rm -rf "$src"
