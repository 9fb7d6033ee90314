#!/bin/bash
# device-witness-steps.sh - on a GPU machine: where a witnessed run's
# seconds go.  A reference binary runs one speed case as the grader's
# witness runs it (--graded --witness, raw output to /dev/shm), three
# ways: alone, under ncu with 0 + 3 calls after the first launch, and
# under ncu with 2 + 8; KIT_TRACE=1 makes the harness print its steps
# (device opened, input and buffers, first launch, timed launches, result
# files written), and every line is stamped with the seconds since the
# start (tests/gpu/stamp.py).  CASES: "LAB:ARGS;..." (default: lab 1's,
# lab 3's and lab 7's order-8 speed case).  RUNS (default 2) each.
set -u
cd "$(dirname "$0")/../.."
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
CASES=${CASES:-"lab1:-v hierarchical -n 2^26 -t int32;lab3:-v kogge-stone -n 2^26 -t int32;lab7:-v decode -n 2^26 -t int32 --order 8 --tuple 1"}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
out=$(mktemp -d /dev/shm/steps.XXXXXX)
trap 'rm -rf "$out"' EXIT
IFS=';' read -r -a list <<<"$CASES"
for item in "${list[@]}"; do
    lab=${item%%:*} args=${item#*:}
    make -s -j16 build/gpu/ref/$lab >/dev/null || { echo "build of $lab failed"; continue; }
    for run in $(seq "${RUNS:-2}"); do
        for how in alone "ncu 0+3" "ncu 2+8"; do
            case $how in
                alone) pre=(); w=0; r=3 ;;
                "ncu 0+3") pre=("$NCU" --metrics gpu__time_duration.sum --csv --print-units base \
                                --cache-control none --clock-control none); w=0; r=3 ;;
                *) w=2; r=8 ;;
            esac
            echo "--- $lab $args: $how, run $run"
            KIT_TRACE=1 python3 tests/gpu/stamp.py "${pre[@]}" build/gpu/ref/$lab $args -s 7 \
                --graded --witness -w $w -r $r --out "$out/x" --quiet |
                grep -E "harness: trace|==PROF==|ncu: end"
            rm -f "$out"/x.*
        done
    done
done
