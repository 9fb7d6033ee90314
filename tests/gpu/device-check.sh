#!/bin/bash
# device-check.sh - what the kit claims about real GPUs, in one call of the
# device machine (see docs/perf-notes.md): build, grade skeletons and
# solutions, time the solutions at large sizes, run compute-sanitizer.
# Output: a log on stdout, copies of the important parts under $OUT.
set -u
OUT=${OUT:-/tmp/device-check}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,clocks.max.sm --format=csv
nvcc --version | tail -2
date -u
make -s clean
echo "=== make lab1 && ./grade lab1 (untouched skeleton)"
make lab1 2>&1 | tail -2 && ./grade lab1 2>&1 | tee "$OUT/grade-lab1-skeleton.txt"
echo "=== ./grade lab1 --submission solutions/lab1-reduce-naive --json"
./grade lab1 --submission solutions/lab1-reduce-naive --json "$OUT/results-lab1.json" 2>&1 | tee "$OUT/grade-lab1-solution.txt"
echo "=== bad submissions (tests/bad-submissions.sh)"
sh tests/bad-submissions.sh 2>&1 | tee "$OUT/bad-submissions.txt"
make -s solutions
echo "=== perf: reference solutions"
for lab in build/gpu/ref/lab*; do
    [ "${PERF:-1}" = 1 ] || break
    for v in $($lab --list | awk '/^  /{print $1}'); do
        for n in 2^24 2^28; do
            for t in int32 float32; do
                $lab --variant $v -n $n -t $t -r 50 -w 5 2>&1 | grep -v '^ *This is' || true
                $lab --variant $v -n $n -t $t -r 50 -w 5 -p max 2>&1 | grep -v '^ *This is' || true
            done
        done
    done
done 2>&1 | tee "$OUT/perf.txt"
echo "=== compute-sanitizer"
for tool in memcheck racecheck synccheck; do
    for lab in build/gpu/ref/lab*; do
        for v in $($lab --list | awk '/^  /{print $1}'); do
            n=65536; [ "$v" = single-block ] && n=1000
            echo "--- $tool $lab $v n=$n"
            compute-sanitizer --tool $tool --error-exitcode 9 $lab --variant $v -n $n -r 1 -w 0 -q >/tmp/san.log 2>&1
            echo "exit=$?"; tail -3 /tmp/san.log
        done
    done
done 2>&1 | tee "$OUT/sanitizer.txt"
