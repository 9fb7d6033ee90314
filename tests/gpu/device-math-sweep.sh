#!/bin/sh
# device-math-sweep.sh - every device math function of the emulator
# (common/emu/include/cuemu_math.h) against a GPU: tests/gpu/math-sweep.cu
# is built with nvcc and with common/emu/emu-nvcc, both run the same
# inputs (edge cases and pseudo-random ones), and tests/gpu/math_compare.py
# compares them function by function (bit for bit, or within CUDA's
# documented ulp bound; its docstring says how).
# Output under $OUT (default /tmp/device-math-sweep): math-sweep.md (the
# transcript: one row per function, then the differences), gpu.txt.gz and
# emu.txt.gz (the raw outputs), build logs.  Idempotent.
# Exit status: that of math_compare.py (1 if a function DIFFERS); without
# nvcc or a GPU the GPU side prints SKIPPED (exit 0, never PASS) and only
# the emulator half runs.
set -u
OUT=${OUT:-/tmp/device-math-sweep}
cd "$(dirname "$0")/../.." || exit 1
mkdir -p "$OUT"
rm -f "$OUT"/math-sweep.md "$OUT"/*.txt.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
NVCC=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
gpu=0
[ -n "$NVCC" ] && nvidia-smi -L >/dev/null 2>&1 && gpu=1

common/emu/emu-nvcc -O2 -o "$tmp/emu" tests/gpu/math-sweep.cu >"$OUT/emu-build.log" 2>&1 ||
    { echo "device-math-sweep: FAIL: the emulator build failed ($OUT/emu-build.log)"; exit 1; }
"$tmp/emu" >"$tmp/emu.txt" 2>"$OUT/emu-run.log" ||
    { echo "device-math-sweep: FAIL: the emulator run failed ($OUT/emu-run.log)"; exit 1; }
gzip -c "$tmp/emu.txt" >"$OUT/emu.txt.gz"
echo "device-math-sweep: emulator: $(wc -l <"$tmp/emu.txt") cases of $(cut -f1 "$tmp/emu.txt" | uniq | wc -l) functions"

if [ $gpu = 0 ]; then
    echo "device-math-sweep: SKIPPED: no nvcc or no GPU here; only the emulator half ran"
    exit 0
fi
"$NVCC" -O2 -arch=native -o "$tmp/gpu" tests/gpu/math-sweep.cu >"$OUT/nvcc-build.log" 2>&1 ||
    { echo "device-math-sweep: FAIL: the nvcc build failed ($OUT/nvcc-build.log)"; exit 1; }
"$tmp/gpu" >"$tmp/gpu.txt" 2>"$OUT/gpu-run.log" ||
    { echo "device-math-sweep: FAIL: the GPU run failed ($OUT/gpu-run.log)"; exit 1; }
gzip -c "$tmp/gpu.txt" >"$OUT/gpu.txt.gz"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt" 2>&1
"$NVCC" --version | tail -2 >>"$OUT/gpu.txt"
python3 tests/gpu/math_compare.py "$tmp/gpu.txt" "$tmp/emu.txt" "$OUT/math-sweep.md"
st=$?
echo "device-math-sweep: transcript in $OUT/math-sweep.md (device: $(head -1 "$OUT/gpu.txt"))"
exit $st
