#!/bin/bash
# device-sandbox.sh - the sandboxed grader on a GPU machine (as root, so
# students' code runs as nobody): lab 1's solution graded with speed, the
# bad submissions, and a small batch.
set -u
OUT=${OUT:-/tmp/device-sandbox}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
id -un; ls -l /dev/nvidia* 2>/dev/null | head -4
make -s -j8 grader batch prebuild >/dev/null
./grade lab1 --submission solutions/lab1-reduce-naive >"$OUT/grade-lab1-solution.txt" 2>&1
grep -E "TOTAL|yours|warning|^  [A-Z-]{4,} " "$OUT/grade-lab1-solution.txt" | grep -v "^  PASS" | head
sh tests/bad-submissions.sh 2>&1 | grep -E "^(ok|FAIL)" | tee "$OUT/bad-submissions.txt"
b=$(mktemp -d); chmod 755 $b
for s in alice bob; do mkdir -p $b/$s; cp solutions/lab1-reduce-naive/reduce.cu $b/$s/; done
mkdir -p $b/carol; cp labs/lab1-reduce-naive/reduce.cu $b/carol/; chmod -R a+rX $b
./grade --batch $b lab1 --json-dir $OUT/batch --csv $OUT/batch.csv --no-speed 2>&1 | tail -4
cat $OUT/batch.csv
