#!/bin/bash
# device-kinds.sh - on a GPU machine: every reference variant of every lab run
# by hand (not graded), so that the paths only a GPU takes are exercised
# through the table of kinds (common/kinds/): the input made and, for a
# decode, encoded on the device, the output copied back, and CUB timed
# beside the kernel with the algorithm the kind names (DeviceReduce,
# DeviceScan, DeviceSelect::If, strided scans; none for a section scan).
# Each run must pass its own check; a kind with a CUB yardstick must print
# CUB's time and one without must not.  Logs go to $OUT/kinds-LAB-VARIANT*.txt,
# the summary to $OUT/kinds-summary.txt.  Exit 0 only when every run passed.
set -u
OUT=${OUT:-/tmp/device-kinds}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.." || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/kinds-summary.txt"
labs=$(ls grader/suites | sed -n 's/\.suite$//p')
make -s -j8 $(for l in $labs; do echo build/gpu/ref/$l; done) >"$OUT/kinds-build.txt" 2>&1 ||
    { echo "build failed (see kinds-build.txt)" | tee -a "$OUT/kinds-summary.txt"; exit 1; }
fail=0
# one run: LAB VARIANT WANT_CUB(yes|no) OPTIONS...
one() {
    lab=$1 variant=$2 want=$3
    shift 3
    log="$OUT/kinds-$lab-$variant$(echo "$*" | tr -c 'a-z0-9\n' '_').txt"
    build/gpu/ref/$lab --variant "$variant" "$@" >"$log" 2>&1
    rc=$?
    cub=no
    grep -q "CUB does the same" "$log" && cub=yes
    if [ $rc -eq 0 ] && grep -q "self-check PASS" "$log" && [ $cub = $want ]; then
        echo "ok   $lab $variant $* (CUB: $cub)"
    else
        echo "FAIL $lab $variant $*: exit $rc, CUB printed: $cub, expected: $want"; fail=1
    fi
}
{
    for lab in lab1 lab2; do
        for v in $(build/gpu/ref/$lab --list | awk '/^  /{print $1}'); do
            big=2^22; [ $v = single-block ] && big=1024 # (one block: at most 1024 elements)
            one $lab $v yes -n 1000 ; one $lab $v yes -n $big -t float32 --op max
        done
    done
    for lab in lab3 lab4; do
        for v in $(build/gpu/ref/$lab --list | awk '/^  /{print $1}'); do
            one $lab $v no -n 2^22 ; one $lab $v no -n 2^20 --exclusive -t float32
        done
    done
    for lab in lab5 lab6; do
        for v in $(build/gpu/ref/$lab --list | awk '/^  /{print $1}'); do
            [ $v = chained-blockidx ] && continue # (can deadlock: a demonstration)
            one $lab $v yes -n 2^24 ; one $lab $v yes -n 2^22 --exclusive --op min
        done
    done
    for v in compact-3step compact; do
        one lab7 $v yes -n 2^24 ; one lab7 $v yes -n 2^24 -t int64 --pred mult4
    done
    one lab7 decode yes -n 2^24 --order 8
    one lab7 decode yes -n 2^24 --order 2 --tuple 4 -t int64
    one lab7 decode no -n 2^24 --tuple 3 # (no CUB record of 3: cub_baseline.cu)
} | tee -a "$OUT/kinds-summary.txt"
grep -q "^FAIL" "$OUT/kinds-summary.txt" && fail=1
echo "device-kinds: $([ $fail = 0 ] && echo passed || echo FAILED)" | tee -a "$OUT/kinds-summary.txt"
exit $fail
