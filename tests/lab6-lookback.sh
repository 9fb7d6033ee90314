#!/bin/sh
# lab6-lookback.sh - lab 6's warp look-back past its first window, under
# the CPU emulator.  With the reference's tiles (8,192 elements) and the
# emulator's few workers, a tile's nearest P always lies among the 32
# predecessors its warp reads first, so tests/labs.sh never runs the
# window loop's later turns (warp_lookback_prefix, `end -= 32`): on a GPU
# many tiles do.  Here the reference is built with tiles of 2 warps and one
# row (LAB6_DEEP_* in tests/lib.sh) and run on 64 workers, so that tiles
# wait on predecessors more than a window back.  Every run must pass its
# self-check, and a copy whose window steps back by 31 tiles instead of 32
# (each later window then re-reads one tile, which is counted twice) must
# fail in some run: that proves the later windows were reached.  Exit
# status 1 on any failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
need_emu lab6-lookback
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sol=solutions/lab6-scan-single-pass

# build DIR: the lab 6 sources in DIR into DIR/lab, with small tiles
build() { deep_build lab6-lookback "$1" "$LAB6_DEEP_DEFINES"; }

# runs DIR: lookback-warp on every case under two schedules; prints the
# first failing run (and returns 1) or nothing
runs() {
    deep_runs "$1" "$LAB6_DEEP_WORKERS" "--variant lookback-warp" "-n 2^18+1" "-n 2^18+1 -x" \
        "-n 2^18+1 -t float32 -p max" "-n 2^20+3"
}

make -s --no-print-directory prebuild EMU=1 >/dev/null 2>&1
fail=0
mkdir -p "$tmp/sol" "$tmp/mutant"
cp $sol/*.cu "$tmp/sol/"
cp $sol/*.cu "$tmp/mutant/"
sed 's/end -= 32)/end -= 31)/' $sol/scan.cu >"$tmp/mutant/scan.cu"
if ! build "$tmp/sol"; then
    fail=1
elif bad=$(runs "$tmp/sol"); then
    echo "ok   lab6-lookback: small tiles on $LAB6_DEEP_WORKERS workers: every run passes"
else
    echo "FAIL lab6-lookback: the reference with small tiles: $bad"; sed -n '1,5p' "$tmp/sol/run.log"
    fail=1
fi
if cmp -s $sol/scan.cu "$tmp/mutant/scan.cu"; then
    echo "FAIL lab6-lookback: the mutation changed nothing (the reference moved on?)"; fail=1
elif ! build "$tmp/mutant"; then
    fail=1
elif runs "$tmp/mutant" >/dev/null; then
    echo "FAIL lab6-lookback: windows stepped back wrongly went unnoticed: no run reached them"
    fail=1
else
    echo "ok   lab6-lookback: windows stepped back wrongly fail, so the runs reach them"
fi
exit $fail
