#!/bin/bash
# device-witness-spread.sh - on a GPU machine: how many profiled calls the
# witness needs.  Every suite's speed case is run by the reference binary
# under ncu as the witness runs it (--witness --graded, the checked call
# then WARMUP and REPS calls), RUNS times; tests/gpu/witness_spread.py
# splits ncu's table into calls and prints, per case, the per-call time
# over all calls and over the first K, and how far apart the runs are.
# What the witness credits is the mean per call (grader/witness.c), so
# the runs' spread of that mean at K calls is the noise a grade sees.
# WARMUP (2), REPS (8), RUNS (3), LABS (all).  Report to stdout and $OUT.
set -u
OUT=${OUT:-/tmp/device-witness-spread}
WARMUP=${WARMUP:-2} REPS=${REPS:-8} RUNS=${RUNS:-3}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s -j16 solutions >/dev/null || { echo "reference build failed"; exit 1; }
for lab in ${LABS:-$(ls grader/suites | sed -n 's/\.suite$//p')}; do
    grep '^speed ' grader/suites/$lab.suite | while read -r _ line; do
        args="" name=""
        for kv in $line; do
            k=${kv%%=*} v=${kv#*=}
            case $k in
                variant) args="$args -v $v"; name=$v ;;
                dtype) args="$args -t $v" ;;
                op) args="$args -p $v" ;;
                n) args="$args -n $v" ;;
                order|tuple|pred) args="$args --$k $v"; name="$name-$k$v" ;;
            esac
        done
        for r in $(seq "$RUNS"); do
            s=$(date +%s.%N)
            "$NCU" --metrics gpu__time_duration.sum --csv --print-units base --cache-control none \
                --clock-control none build/gpu/ref/$lab $args -s 7 --witness --graded \
                -r "$REPS" -w "$WARMUP" >"$OUT/$lab-$name-$r.csv" 2>/dev/null
            echo "$lab $name run $r: ncu $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}') s"
        done
        python3 tests/gpu/witness_spread.py $((1 + WARMUP + REPS)) "$OUT"/$lab-$name-*.csv
    done
done
