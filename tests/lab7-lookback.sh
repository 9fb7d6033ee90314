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
build() {
    make -s --no-print-directory bin SRC_DIR="$1" BIN="$1/lab" LAB_DEFINES="${3:-$LAB7_DEEP_DEFINES} $2" \
        >"$1/build.log" 2>&1 || { echo "FAIL lab7-lookback: $1 does not build"; tail -5 "$1/build.log"; return 1; }
}

# runs DIR: every case under two schedules; prints the first failing run
# (and returns 1) or nothing
runs() {
    for sched in random:1 reverse; do
        for args in "--order 8" "--order 3 --tuple 2" "--order 8 -t int64" "--tuple 8" "--order 1" \
                    "--variant compact"; do
            CUEMU_THREADS=$LAB7_DEEP_WORKERS CUEMU_SCHEDULE=$sched CUEMU_TIMEOUT=60 "$1/lab" --variant decode $args \
                -n 2000003 -r 0 -q --timeout 120 >"$1/run.log" 2>&1 ||
                { echo "$args under CUEMU_SCHEDULE=$sched: exit $?"; return 1; }
        done
    done
    return 0
}

fail=0
# look-back warps at orders above 1, and warps a tile (-: LAB7_DEEP_DEFINES)
for shape in "2 -" "1 -" "2 4"; do
    set -- $shape
    d="$tmp/w$1-t$2" tiles="" what="small tiles"
    [ "$2" = - ] || { tiles="-DTILE_THREADS=$((32 * $2))"; what="tiles of $2 warps"; }
    mkdir -p "$d" && cp $sol/*.cu "$d/"
    build "$d" "-DLOOKBACK_WARPS_ORDERS=$1" "$tiles" || { fail=1; continue; }
    if bad=$(runs "$d"); then
        echo "ok   lab7-lookback: $1 look-back warp(s) at orders above 1, $what: every run passes"
    else
        echo "FAIL lab7-lookback: $1 look-back warp(s), $what: $bad"; sed -n '1,5p' "$d/run.log"; fail=1
    fi
done

# The mutant: older windows moved by a tile's span instead of a window's
# (further_back, in the look-back layer).  The layers are copied beside
# scan.cu: a quoted #include looks in the including file's folder first, so
# the copies, the mutated one among them, are the ones compiled.
d="$tmp/mutant"
mkdir -p "$d"
cp $sol/*.cu common/lookback.cuh common/sam_*.cuh "$d/"
layer=common/sam_lookback.cuh
sed 's/bin\.c\[B_WINDOW\]\[e\]/bin.c[B_TILES][e]/' $layer >"$d/$(basename $layer)"
if cmp -s $layer "$d/$(basename $layer)"; then
    echo "FAIL lab7-lookback: the mutation changed nothing (the reference moved on?)"; fail=1
elif build "$d" "-DLOOKBACK_WARPS_ORDERS=1"; then
    if runs "$d" >/dev/null; then
        echo "FAIL lab7-lookback: older windows moved wrongly went unnoticed: no run reached them"; fail=1
    else
        echo "ok   lab7-lookback: older windows moved wrongly fail, so the runs reach them"
    fi
else
    fail=1
fi
exit $fail
