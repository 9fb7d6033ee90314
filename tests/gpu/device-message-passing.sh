#!/bin/bash
# device-message-passing.sh - tests/emu/programs/message_passing.cu built by
# nvcc and run on a GPU (the emulator runs it in make test-emu): the modes
# with fences, an atomic, a packed word or fenced lanes (fence, atomic,
# packed, warp) must report stale=0; the modes with a fence missing
# (nofence, relaxed, reader, warpnofence) are a real bug that a GPU usually
# hides, so their stale count is reported, not judged.  Prints "ok"/"FAIL"
# per mode and the program's own line; the outputs go to $OUT.
set -u
OUT=${OUT:-/tmp/device-message-passing}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
NVCC=${NVCC:-nvcc}
if ! command -v "$NVCC" >/dev/null || ! nvidia-smi >/dev/null 2>&1; then
    echo "device-message-passing: SKIPPED: needs nvcc and an NVIDIA GPU (not counted as passed)"
    exit 0
fi
"$NVCC" -O2 -std=c++17 -arch=sm_90 -I tests/emu/programs -o "$OUT/message_passing" \
    tests/emu/programs/message_passing.cu || { echo "FAIL: does not build with nvcc"; exit 1; }
fail=0
for mode in fence atomic packed warp nofence relaxed reader warpnofence; do
    for run in 1 2 3; do
        "$OUT/message_passing" "$mode" >"$OUT/$mode-$run.txt" 2>&1
        line=$(head -1 "$OUT/$mode-$run.txt")
        case $mode in
        nofence | relaxed | reader | warpnofence) echo "info $mode (run $run, a bug the GPU may hide): $line" ;;
        *) if grep -q "stale=0 of" "$OUT/$mode-$run.txt"; then echo "ok   $mode (run $run): $line"
           else echo "FAIL $mode (run $run): $line"; fail=1; fi ;;
        esac
    done
done
exit $fail
