#!/bin/sh
# emu-pace.sh - on the CPU emulator, a lab binary run by hand at a size the
# emulator cannot do in time says so (and what to do) instead of ending in
# a TIMEOUT that blames the kernel; timed runs it cannot finish are skipped
# with the same advice; its time line says GPU speed is not measured there.
# Emulator only; SKIPPED elsewhere.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
need_emu emu-pace
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/lab3
if ! make -s --no-print-directory bin SRC_DIR=solutions/lab3-scan-kogge-stone BIN="$bin" \
        >"$tmp/build.log" 2>&1; then
    echo "FAIL emu-pace: the lab 3 solution does not build"; cat "$tmp/build.log"; exit 1
fi
fail=0
# expect NAME WANT_RC TEXT -- command...: the run exits WANT_RC and says TEXT
expect() {
    name=$1 want=$2 text=$3
    shift 4
    start=$(date +%s)
    "$@" >"$tmp/out" 2>&1
    rc=$? took=$(($(date +%s) - start))
    if [ $rc -ne "$want" ]; then
        echo "FAIL emu-pace $name: exit $rc, expected $want"; cat "$tmp/out"; fail=1
    elif [ -n "$text" ] && ! grep -q -- "$text" "$tmp/out"; then
        echo "FAIL emu-pace $name: expected '$text'"; cat "$tmp/out"; fail=1
    else
        echo "ok   emu-pace $name ($took s): $(grep -m1 -- "$text" "$tmp/out" | cut -c1-110)"
    fi
}
# the issue's handout command: refused at once, not 38 s and 4 GB later
expect refused 2 "this size is slow on the CPU emulator: n = 2^28" -- \
    "$bin" -n 2^28 -t float32 -r 50
# timed runs that cannot finish: the check runs, the timing is skipped (the
# estimate comes from the first launch, so --timeout 1 makes it certain)
expect timing-skipped 0 "timing skipped: this size is slow on the CPU emulator" -- \
    "$bin" -n 2^18 -r 100 --timeout 1
expect no-gbps 0 "GPU speed is not measured here" -- "$bin" -n 2^12 -r 3
if grep -q "GB/s = " "$tmp/out"; then
    echo "FAIL emu-pace no-gbps: the emulator still prints a GB/s figure"; fail=1
fi
# a graded run is never refused (the grader sizes its cases itself): the
# same command refused by hand runs with --graded
expect by-hand 2 "slow on the CPU emulator" -- "$bin" -n 2^14 -r 30 --timeout 0.01
expect graded 0 "" -- "$bin" -n 2^14 -r 30 --timeout 0.01 --graded --out "$tmp/g" --quiet
[ -s "$tmp/g.json" ] || { echo "FAIL emu-pace graded: no result file"; fail=1; }
exit $fail
