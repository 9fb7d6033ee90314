#!/bin/sh
# missing-barrier.sh - every __syncthreads() in every reference solution is
# needed, and the CPU emulator proves it: for each barrier in turn, a copy
# of the solution without it must give a wrong result (or an emulator
# diagnostic) under at least one of the schedules inorder, reverse, random,
# warps, warps-reverse (the last two run one warp through a whole phase
# before the next: the only way to see a barrier missing between a store
# and a load that each warp reaches in step, after the same shuffles).
# Emulator only (a GPU may get lucky); SKIPPED elsewhere.
# Some barriers guard code that the default build and sizes never reach on
# the emulator's few workers: lab 7's look-back warps share what they found
# past the first window, and the nearest P lies in it unless tiles are
# small and many run at once.  For such a lab, DEEP below gives a second
# try: extra build flags, the run and its number of workers.
# A lab's barriers include those of the common/ layers it includes (lab 7's
# sam_block.cuh): each is removed from a copy of the layer set beside the lab.
# Usage: missing-barrier.sh [LAB-DIR-NAME ...]   (default: every lab)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
need_emu missing-barrier
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# what every copy links, built once before the copies build side by side
make -s --no-print-directory prebuild EMU=1 >/dev/null 2>&1
# LAB|DEFINES|RUN ARGUMENTS|CUEMU_THREADS
DEEP="lab7-scan-at-work|$LAB7_DEEP_DEFINES|--variant decode --order 8 -n 4000003|$LAB7_DEEP_WORKERS"
fail=0
sols=""
for lab in "$@"; do
    [ -d "solutions/$lab" ] || { echo "missing-barrier: no lab solutions/$lab" >&2; exit 2; }
    sols="$sols $(ls solutions/"$lab"/*.cu)"
done
[ -n "$sols" ] || sols=$(ls solutions/lab*/*.cu)
# kit_headers SOL: the headers of common/ that SOL includes, directly or
# through another (quoted includes): their barriers are the lab's too.
kit_headers() {
    todo=$1 seen=""
    while [ -n "$todo" ]; do
        set -- $todo; f=$1; shift; todo="$*"
        for h in $(sed -n 's/^#include "\(.*\)"$/\1/p' "$f"); do
            [ -f "common/$h" ] || continue
            case " $seen " in *" common/$h "*) continue ;; esac
            seen="$seen common/$h"; todo="$todo common/$h"
        done
    done
    echo $seen
}
# One barrier's check: a copy of the lab without the barrier at LINE of
# FILE, built and run until something notices; its verdict line in
# $dir/verdict (run in the background, a round at a time).
check_barrier() {
    sol=$1 lab=$2 file=$3 line=$4 dir=$5 headers=$6
    where="line $line"
    if [ "$file" != "$sol" ]; then
        # a layer's barrier: the layers beside the solution, this one
        # without it (a quoted #include looks in the includer's folder first)
        where="$file line $line"
        cp "$sol" $headers "$dir/"
    fi
    sed "${line}s/__syncthreads();/\/* barrier removed *\//" "$file" >"$dir/$(basename "$file")"
    if ! make -s --no-print-directory bin SRC_DIR="$dir" BIN="$dir/lab" >"$dir/build.log" 2>&1; then
        echo "FAIL $lab $where: does not build without the barrier" >"$dir/verdict"; return
    fi
    caught=""
    # (chained-blockidx deadlocks under reverse by design: it proves nothing here)
    for v in $("$dir/lab" --list | awk '/^  /{print $1}' | grep -v blockidx); do
        n=40000; [ "$v" = single-block ] && n=1000
        for s in inorder reverse random:3 warps warps-reverse; do
            CUEMU_SCHEDULE=$s CUEMU_TIMEOUT=10 "$dir/lab" --variant "$v" -n $n -r 0 -q \
                --timeout 20 >"$dir/run.log" 2>&1
            rc=$?
            [ $rc -ne 0 ] && { caught="$v under $s (exit $rc)"; break 2; }
        done
    done
    deep=$(echo "$DEEP" | grep "^$lab|")
    if [ -z "$caught" ] && [ -n "$deep" ]; then
        flags=$(echo "$deep" | cut -d'|' -f2); args=$(echo "$deep" | cut -d'|' -f3)
        workers=$(echo "$deep" | cut -d'|' -f4)
        if make -s --no-print-directory bin SRC_DIR="$dir" BIN="$dir/deep" \
               LAB_DEFINES="$flags" >"$dir/build-deep.log" 2>&1; then
            for s in inorder reverse random:3 warps warps-reverse; do
                CUEMU_THREADS=$workers CUEMU_SCHEDULE=$s CUEMU_TIMEOUT=30 "$dir/deep" $args -r 0 -q \
                    --timeout 60 >"$dir/run.log" 2>&1
                rc=$?
                [ $rc -ne 0 ] && { caught="$args ($flags, $workers workers) under $s (exit $rc)"; break; }
            done
        fi
    fi
    if [ -n "$caught" ]; then
        echo "ok   $lab $where: caught: $caught"
    else
        echo "FAIL $lab $where: removing this barrier went unnoticed"
    fi >"$dir/verdict"
}

# The barriers in rounds of JOBS checks at once (default: the cores), the
# verdicts in order.
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
round=""
finish_round() {
    wait
    for d in $round; do
        cat "$d/verdict" 2>/dev/null || echo "FAIL $d: no verdict"
        grep -q "^ok" "$d/verdict" 2>/dev/null || fail=1
    done
    round=""
}
for sol in $sols; do
    lab=$(basename "$(dirname "$sol")")
    headers=$(kit_headers "$sol")
    for file in "$sol" $headers; do
        lines=$(grep -n '^ *__syncthreads();' "$file" | cut -d: -f1) # statements, not comments
        for line in $lines; do
            dir=$tmp/$lab-$(basename "$file" | tr . -)-$line
            mkdir -p "$dir"
            check_barrier "$sol" "$lab" "$file" "$line" "$dir" "$headers" &
            round="$round $dir"
            [ $(echo $round | wc -w) -lt "$jobs" ] || finish_round
        done
    done
done
finish_round
exit $fail
