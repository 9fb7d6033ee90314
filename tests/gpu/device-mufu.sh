#!/bin/sh
# device-mufu.sh - on a GPU machine: what its special-function unit returns
# for the approximations behind CUDA's fast-math intrinsics, and whether the
# emulator's model (common/emu/src/mufu.h) gives the same bits for every
# input (tests/gpu/mufu-capture.cu says how).  Also the SASS nvcc makes of
# the intrinsics as programs call them (without -ftz: the instructions
# around each MUFU).  Output under $OUT (default /tmp/device-mufu):
# mufu.txt (the mismatch counts, the GPU, the SASS) and the seven tables
# xz-compressed as common/emu/mufu/ keeps them (the same bytes when the
# GPU's unit is the same).  Without nvcc or a
# GPU: SKIPPED, exit 0; exit 1 when any count is not 0.
set -u
OUT=${OUT:-/tmp/device-mufu}
cd "$(dirname "$0")/../.." || exit 1
mkdir -p "$OUT"
NVCC=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
if [ -z "$NVCC" ] || ! nvidia-smi -L >/dev/null 2>&1; then
    echo "device-mufu: SKIPPED: no nvcc or no GPU here"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$NVCC" -O2 -arch=native -o "$tmp/capture" tests/gpu/mufu-capture.cu >"$OUT/build.log" 2>&1 ||
    { echo "device-mufu: FAIL: build ($OUT/build.log)"; exit 1; }
# The intrinsics as a program calls them, compiled as the corpus builds
# (nvcc -O2, no --use_fast_math): the SASS around each MUFU (rsqrtf's
# beside __powf's).
cat >"$tmp/calls.cu" <<'EOF'
__global__ void calls(float *o, const float *a, const float *b)
{
    int i = threadIdx.x;
    o[4 * i] = __expf(a[i]);
    o[4 * i + 1] = __logf(a[i]);
    o[4 * i + 2] = __fdividef(a[i], b[i]);
    o[4 * i + 3] = __powf(a[i], b[i]) + rsqrtf(b[i]);
}
EOF
{
    date -u +"%Y-%m-%d %H:%M UTC"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    "$NVCC" --version | tail -1
    s=$(date +%s.%N)
    "$tmp/capture" "$tmp" || echo "device-mufu: FAIL: mufu-capture exited $?"
    echo "capture and checks: $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
    echo "# SASS of __expf, __logf, __fdividef, __powf + rsqrtf (nvcc -O2 -arch=native -cubin, cuobjdump -sass)"
    "$NVCC" -O2 -arch=native -cubin -o "$tmp/calls.cubin" "$tmp/calls.cu" &&
        "$(dirname "$NVCC")/cuobjdump" -sass "$tmp/calls.cubin" | grep -E '^\s+/\*[0-9a-f]{4}\*/' | sed 's#/\* 0x[0-9a-f]* \*/##'
} >"$OUT/mufu.txt" 2>&1
for t in rcp ex2_pos ex2_neg lg2 lg2_half rsq_even rsq_odd; do
    [ -f "$tmp/$t.bin" ] && python3 -c '
import lzma, sys
data = open(sys.argv[1], "rb").read()
filters = [{"id": lzma.FILTER_DELTA, "dist": 4}, {"id": lzma.FILTER_LZMA2, "preset": 9}]
open(sys.argv[2], "wb").write(lzma.compress(data, format=lzma.FORMAT_XZ, filters=filters))
' "$tmp/$t.bin" "$OUT/$t.bin.xz"
done
same="" differ=""
for t in rcp ex2_pos ex2_neg lg2 lg2_half rsq_even rsq_odd; do
    if cmp -s "$OUT/$t.bin.xz" "common/emu/mufu/$t.bin.xz"; then same="$same $t"; else differ="$differ $t"; fi
done
echo "tables the same as the emulator's (common/emu/mufu/):${same:- none}; different:${differ:- none}" >>"$OUT/mufu.txt"
ls -l "$OUT" | sed 1d
cat "$OUT/mufu.txt"
# A check as well as a capture: every count must be 0, and there must be twelve.
n=$(grep -cE ' [0-9]+ of [0-9]+ inputs differ from the model$' "$OUT/mufu.txt")
if [ "$n" -ne 12 ] || grep -qE ' [1-9][0-9]* of [0-9]+ inputs differ from the model$' "$OUT/mufu.txt"; then
    echo "device-mufu: FAIL: the emulator's model differs from this GPU's unit, or a check did not run ($n of 12 counts)"
    exit 1
fi
echo "device-mufu: ok: 12 of 12 checks, 0 mismatches"
