#!/bin/sh
# mufu-selftest.sh - tests/gpu/mufu-capture.cu checks itself on the CPU
# emulator before a GPU session spends time on it: built with
# -DMUFU_SELFTEST, its "units" are stand-ins, an exact reciprocal, an ex2
# that cuts its input as the model does and an exactly rounded 1/sqrt, so
# common/emu/src/mufu.h's rcp, ex2 and rsq built from their captured tables
# must report no mismatch over every 4099th input, while its lg2 must report
# some against an exactly rounded log2: a check that always agreed, or
# miscounted, would show here.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if ! make -s --no-print-directory backend-check EMU=1 >/dev/null 2>&1; then
    echo "mufu-selftest: SKIPPED: no CPU emulator here"
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
common/emu/emu-nvcc -O2 -DMUFU_SELFTEST -o "$tmp/capture" tests/gpu/mufu-capture.cu \
    >"$tmp/build.log" 2>&1 || { echo "FAIL mufu-selftest: build"; cat "$tmp/build.log"; exit 1; }
"$tmp/capture" "$tmp" 4099 >"$tmp/out.txt" 2>&1 || { echo "FAIL mufu-selftest: run"; cat "$tmp/out.txt"; exit 1; }
fail=0
count() { sed -n "s/^$1 *\([0-9]*\) of \([0-9]*\) inputs differ from the model$/\1 \2/p" "$tmp/out.txt"; }
for model in rcp.approx.ftz ex2.approx.ftz rsqrt.approx.ftz; do
    set -- $(count "$model")
    { [ "${1:-x}" = 0 ] && [ "${2:-0}" -gt 100000 ]; } || { echo "FAIL mufu-selftest: $model: ${1:-?} of ${2:-?}"; fail=1; }
done
for model in lg2.approx.ftz; do
    set -- $(count "$model")
    [ "${1:-0}" -gt 0 ] || { echo "FAIL mufu-selftest: $model: no mismatch found"; fail=1; }
done
for t in rcp ex2_pos ex2_neg lg2 lg2_half rsq_even rsq_odd; do
    [ "$(stat -c %s "$tmp/$t.bin" 2>/dev/null)" = 33554432 ] || { echo "FAIL mufu-selftest: $t.bin"; fail=1; }
done
[ $fail = 0 ] && echo "ok   mufu-capture: rcp, ex2 and rsq report no mismatch, lg2 some; seven tables of 2^23"
[ $fail = 0 ] || cat "$tmp/out.txt"
exit $fail
