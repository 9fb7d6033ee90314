#!/bin/sh
# witness-input.sh - a witnessed run's input is made on the host (no
# kernel of the harness's own may run under the profiler: harness.cu),
# split across the cores (common/regen.h) and, for a decode, encoded there
# by reference.c's k passes, each split across the cores too; every other
# run makes it on the device and encodes it there in one pass
# (buffers.cu's encode_kernel; on the emulator, from the host's copy).
# Both ways must give the kernel the same input, bit for bit: the raw
# output of the reference's one launch (-r 0) with --witness must equal
# the one without, for a scan (lab 3), an order-8 decode and a 5-tuple
# order-3 decode of int64 (lab 7); the order-8 one at 2^23+5, which takes
# two slices on two cores.  Exit status 1 on any difference or failed run.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
need_emu witness-input
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
make -s build/emu/ref/lab3 build/emu/ref/lab7 >/dev/null || { echo "witness-input: build failed"; exit 1; }
fail=0
one() { # LAB ARGS...: the two raw outputs compared
    lab=$1; shift
    for how in device witness; do
        w=""; [ $how = witness ] && w=--witness
        if ! build/emu/ref/$lab "$@" -s 5 -r 0 --graded --quiet $w --out "$tmp/$how" \
                >"$tmp/$how.log" 2>&1; then
            echo "witness-input: FAILED: $lab $* ($how run): $(tail -2 "$tmp/$how.log")"; fail=1; return
        fi
    done
    if cmp -s "$tmp/device.bin" "$tmp/witness.bin"; then
        echo "witness-input: same output: $lab $*"
    else
        echo "witness-input: FAILED: $lab $*: the witnessed run's input differs"; fail=1
    fi
}
one lab3 -v kogge-stone -n 2^20+5 -t int32
one lab7 -v decode -n 2^23+5 -t int32 --order 8 --tuple 1
one lab7 -v decode -n 2^20+3 -t int64 --order 3 --tuple 5
exit $fail
