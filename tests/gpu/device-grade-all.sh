#!/bin/bash
# device-grade-all.sh - on a GPU machine: every lab's skeleton graded (in
# parallel, correctness only: it must score 0 without crashing), then every
# reference solution graded with its speed tests, one lab at a time so the
# timings are not disturbed.  Reports go to $OUT/grade-labN-{skeleton,solution}.txt.
set -u
OUT=${OUT:-/tmp/device-grade}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
labs=${LABS:-$(ls grader/suites | sed -n 's/\.suite$//p')}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s -j8 grader solutions $labs >/dev/null || { echo "build failed"; exit 1; }
for lab in $labs; do
    dir=$(sed -n 's/^lab [^ ]* dir=\([^ ]*\).*/\1/p' grader/suites/$lab.suite)
    ./grade $lab --submission labs/$dir --no-speed >"$OUT/grade-$lab-skeleton.txt" 2>&1 &
done
wait
for lab in $labs; do
    printf '%-6s skeleton: ' $lab; grep TOTAL "$OUT/grade-$lab-skeleton.txt" || echo "no TOTAL line"
done
for lab in $labs; do
    dir=$(sed -n 's/^lab [^ ]* dir=\([^ ]*\).*/\1/p' grader/suites/$lab.suite)
    ./grade $lab --submission solutions/$dir --json "$OUT/results-$lab.json" >"$OUT/grade-$lab-solution.txt" 2>&1
    printf '%-6s solution: ' $lab; grep TOTAL "$OUT/grade-$lab-solution.txt" || echo "no TOTAL line"
    grep -E "^  (WRONG|UNWRITTEN|OUT-OF|RACE|TIMEOUT|CRASH|CUDA|NO-RES)" "$OUT/grade-$lab-solution.txt" | head -5
    grep -A1 "== Speed" "$OUT/grade-$lab-solution.txt" | grep -E "yours|not" 
done
