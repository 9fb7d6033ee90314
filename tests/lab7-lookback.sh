#!/bin/sh
# lab7-lookback.sh - lab 7's look-back past its first window, under the CPU
# emulator.  With the reference's tiles (16,384 elements) and the
# emulator's few workers, a tile's nearest inclusive prefix always lies in
# the first window of 32 tiles, so tests/labs.sh never reaches the code
# that adds older windows (state_before, lookback's loop): on a GPU most
# tiles do.  Here the reference is built with tiles of 2 warps and run on
# 64 workers (LAB7_DEEP_* in tests/lib.sh), so that tiles wait on
# predecessors more than a window back; once with two look-back warps at
# orders above 1 (the default) and once with one (every older window then
# goes through lookback's loop), and once with tiles of 4 warps (warp 2 is
# then left over after the two look-back warps, so it scans the warps'
# totals while warp 0 publishes A: SCANNER_WARP).  Every run must pass its
# self-check, and a copy whose older windows are moved by the wrong span (B_TILES for
# B_WINDOW) must fail in some run: that proves the older windows were
# reached.  Exit status 1 on any failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
need_emu lab7-lookback
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sol=solutions/lab7-scan-at-work

# build DIR EXTRA-DEFINES [TILE-DEFINES]: the lab 7 sources in DIR into
# DIR/lab, small tiles (LAB7_DEEP_DEFINES unless TILE-DEFINES are given)
build() { deep_build lab7-lookback "$1" "${3:-$LAB7_DEEP_DEFINES} $2"; }

# runs DIR: every case under two schedules; prints the first failing run
# (and returns 1) or nothing
runs() {
    deep_runs "$1" "$LAB7_DEEP_WORKERS" "--variant decode -n 2000003" "--order 8" \
        "--order 3 --tuple 2" "--order 8 -t int64" "--tuple 8" "--order 1" "--variant compact"
}

# One shape: look-back warps at orders above 1, and warps a tile (-: the
# deep build's, LAB7_DEEP_DEFINES); its verdict in $d/verdict.
check_shape() {
    d=$1 warps=$2 tile=$3 tiles="" what="small tiles"
    [ "$tile" = - ] || { tiles="-DTILE_THREADS=$((32 * tile))"; what="tiles of $tile warps"; }
    mkdir -p "$d" && cp $sol/*.cu "$d/"
    if ! build "$d" "-DLOOKBACK_WARPS_ORDERS=$warps" "$tiles" >"$d/verdict"; then
        return
    elif bad=$(runs "$d"); then
        echo "ok   lab7-lookback: $warps look-back warp(s) at orders above 1, $what: every run passes"
    else
        echo "FAIL lab7-lookback: $warps look-back warp(s), $what: $bad"; sed -n '1,5p' "$d/run.log"
    fi >"$d/verdict"
}

# The mutant: older windows' carries moved by the wrong power; some run
# must fail, or the runs never reach past the first window.
check_mutant() {
    d=$1
    mkdir -p "$d"
    cp $sol/*.cu common/lookback.cuh common/sam_*.cuh "$d/"
    layer=common/sam_lookback.cuh
    sed 's/bin\.c\[B_WINDOW\]\[e\]/bin.c[B_TILES][e]/' $layer >"$d/$(basename $layer)"
    if cmp -s $layer "$d/$(basename $layer)"; then
        echo "FAIL lab7-lookback: the mutation changed nothing (the reference moved on?)"
    elif ! build "$d" "-DLOOKBACK_WARPS_ORDERS=1"; then
        :
    elif runs "$d" >/dev/null; then
        echo "FAIL lab7-lookback: older windows moved wrongly went unnoticed: no run reached them"
    else
        echo "ok   lab7-lookback: older windows moved wrongly fail, so the runs reach them"
    fi >"$d/verdict"
}

# The four checks at once (each is one busy emulated run after another),
# after one prebuild of what they all link; the verdicts in order.
make -s --no-print-directory prebuild EMU=1 >/dev/null 2>&1
check_shape "$tmp/w2" 2 - &
check_shape "$tmp/w1" 1 - &
check_shape "$tmp/w2-t4" 2 4 &
check_mutant "$tmp/mutant" &
wait
fail=0
for d in w2 w1 w2-t4 mutant; do
    cat "$tmp/$d/verdict" 2>/dev/null || echo "FAIL lab7-lookback: $d gave no verdict"
    grep -q "^ok" "$tmp/$d/verdict" 2>/dev/null || fail=1
done
exit $fail
