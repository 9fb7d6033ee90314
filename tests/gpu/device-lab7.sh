#!/bin/bash
# device-lab7.sh - on a GPU machine (H200, H100): lab 7's reference against
# the issue's anchors, each line one process that times the kernel, a device
# copy of the same bytes and CUB's way of doing the same (median of 30 after
# 5 warm-ups, 2^28 int32):
#   decode order 1..8 (CUB: InclusiveSum k times in a row; k = 1 is CUB once),
#   decode tuple 1..8 (CUB: InclusiveScan over records of d ints with an
#   element-wise sum, for d = 1, 2, 4, 8),
#   compaction x > 0 and x % 4 == 0 (CUB: DeviceSelect::If), fused and 3-step,
# then int64 at 2^27 (the same bytes), 100 repeated launches compared bit
# for bit, compute-sanitizer's three tools on each variant (and on the int64
# kernels of longer runs), and a table of
# the issue's goals computed from the JSON results.  PART=grade grades the
# reference and the skeleton with ./grade lab7 (the speed lines) instead;
# the default runs both (each half fits one 10-minute device call).
# Transcripts go to $OUT.  Nothing here is counted as passed without a GPU.
set -u
PART=${PART:-all}
OUT=${OUT:-/tmp/device-lab7}
N=${N:-2^28}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "device-lab7: SKIPPED: no NVIDIA GPU here"
    exit 0
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$OUT/gpu.txt"
make -s -j16 grader build/gpu/ref/lab7 build/gpu/lab7 >/dev/null || { echo "build failed"; exit 1; }
B=build/gpu/ref/lab7
line() { tr '\n' ' ' | sed -e 's/  */ /g' -e 's/lab7-scan-at-work //' -e 's/self-check //' -e 's/on NVIDIA [^C]*//'; echo; }
# run TAG OPTIONS...: one process, its line, and its JSON kept as $OUT/json/TAG.json
run() {
    local tag=$1; shift
    printf '%-10s ' "$tag"
    "$B" "$@" -r 30 -w 5 --out "$OUT/json/$tag" --no-raw 2>&1 | line
}
if [ "$PART" != grade ]; then
mkdir -p "$OUT/json"
{
echo "== decode, order 1..8, $N int32 (CUB column: InclusiveSum k times)"
for k in 1 2 3 4 5 6 7 8; do run order$k --variant decode -n $N --order $k; done
echo "== decode, tuple 1..8, $N int32 (CUB column for d = 1, 2, 4, 8: InclusiveScan of d-int records)"
for d in 1 2 3 4 5 6 7 8; do run tuple$d --variant decode -n $N --tuple $d; done
echo "== decode, order 8 of 8-tuples, $N int32"
run o8t8 --variant decode -n $N --order 8 --tuple 8
echo "== compaction, $N int32 wide (CUB column: DeviceSelect::If)"
for p in mult4 positive; do
    run c-$p --variant compact -n $N -d wide --pred $p
    run c3-$p --variant compact-3step -n $N -d wide --pred $p
done
echo "== int64, half the elements (the same bytes)"
run i64-order1 --variant decode -n 2^27 -t int64
run i64-order8 --variant decode -n 2^27 -t int64 --order 8
run i64-tuple8 --variant decode -n 2^27 -t int64 --tuple 8
run i64-c-mult4 --variant compact -n 2^27 -t int64 -d wide --pred mult4
} | tee "$OUT/measure.txt"
{
echo "== the issue's goals, from the runs above"
python3 - "$OUT/json" <<'PY'
import json, os, sys
d = sys.argv[1]
def r(tag):
    try:
        return json.load(open(os.path.join(d, tag + ".json")))
    except (OSError, ValueError):
        return None
def ms(x, key="median_ms"):
    v = x.get(key) if x else None
    return v if isinstance(v, (int, float)) else float("nan")
o1, o8, t8, c = r("order1"), r("order8"), r("tuple8"), r("c-mult4")
copy = ms(o1, "copy_median_ms")
print("| what | ms | ratio | goal | met |")
print("|---|---|---|---|---|")
print("| device copy of the same bytes | %.3f | 1.00 | | |" % copy)
print("| CUB InclusiveSum once | %.3f | %.2f of copy | | |" % (ms(o1, "cub_median_ms"), copy / ms(o1, "cub_median_ms")))
print("| CUB InclusiveSum 8 times | %.3f | | | |" % ms(o8, "cub_median_ms"))
print("| lab 7 order-1 decode | %.3f | %.2f of copy | | |" % (ms(o1), copy / ms(o1)))
ratio = ms(o8) / ms(o1)
speedup = ms(o8, "cub_median_ms") / ms(o8)
print("| lab 7 order-8 decode | %.3f | %.2fx order-1; %.1fx faster than CUB x8 | <= 1.2x, >= 8x | %s |"
      % (ms(o8), ratio, speedup, "yes" if ratio <= 1.2 and speedup >= 8 else "NO"))
frac = copy / ms(t8) if t8 else float("nan")
cs = ms(t8, "cub_median_ms")
print("| CUB InclusiveScan, 8-int records | %.3f | | | |" % cs)
print("| lab 7 8-tuple decode | %.3f | %.2f of copy; %.1fx faster than CUB's record scan | >= 0.85 of copy, >= 5x | %s |"
      % (ms(t8), frac, cs / ms(t8), "yes" if frac >= 0.85 and cs / ms(t8) >= 5 else "NO"))
cc = ms(c, "cub_median_ms")
print("| lab 7 fused compaction (x %% 4 == 0, 25%% kept) | %.3f | %.2fx CUB DeviceSelect::If (%.3f ms) | <= 1.0x | %s |"
      % (ms(c), ms(c) / cc, cc, "yes" if ms(c) <= cc else "NO"))
PY
} | tee "$OUT/goals.txt"
{
echo "== 100 repeated launches (bit for bit)"
"$B" --variant decode -n 2^24+77 --order 8 -r 0 --verify 100 2>&1 | line
"$B" --variant decode -n 2^24+77 --tuple 7 -t int64 -r 0 --verify 100 2>&1 | line
"$B" --variant decode -n 2^24+77 --tuple 8 -r 0 --verify 100 2>&1 | line
"$B" --variant decode -n 2^24+77 --tuple 4 -t int64 -r 0 --verify 100 2>&1 | line
"$B" --variant decode -n 2^24+77 --order 8 -t int64 -r 0 --verify 100 2>&1 | line
"$B" --variant compact -n 2^24+77 -d wide -r 0 --verify 100 2>&1 | line
"$B" --variant compact-3step -n 2^24+77 -r 0 --verify 100 2>&1 | line
} | tee "$OUT/verify.txt"
{
echo "== compute-sanitizer (n = 2^19 + 3)"
for tool in memcheck racecheck synccheck; do
    for v in "decode --order 3 --tuple 5" "decode --order 8" "decode -t int64 --order 8" \
             "decode --tuple 8" "decode -t int64 --tuple 8" "compact" "compact-3step"; do
        printf '%-10s %-28s ' $tool "$v"
        compute-sanitizer --tool $tool --error-exitcode 9 "$B" --variant $v -n 2^19+3 -r 0 -q >"$OUT/san.log" 2>&1
        rc=$?; echo "exit $rc: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san.log" | tr '\n' ' ')"
    done
done
rm -f "$OUT/san.log"
} | tee "$OUT/sanitizer.txt"
fi
[ "$PART" = measure ] && exit 0
{
echo "== ./grade lab7 (reference solution)"
./grade lab7 --submission solutions/lab7-scan-at-work
echo "== ./grade lab7 (untouched skeleton: expect 0)"
./grade lab7 --no-speed
} 2>&1 | tee "$OUT/grade.txt"
