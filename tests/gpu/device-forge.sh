#!/bin/bash
# device-forge.sh - issue 11's forged speed, on a GPU machine: lab 1's
# solution plus code that rewrites the result files its process wrote, to
# claim a faster kernel (tests/gpu/forge/forge.inc): from a destructor after
# main returns, from a forked child that outlives the process, and through
# /proc/self/cwd; claiming 10x (beyond a device copy) and 2x (within it).
# Each is graded twice: GRADE_WITNESS=off (the copy bound alone, as before
# the witness) and as configured (ncu times the kernels outside the
# student's process, witness.h).  With the witness no forged time may be
# credited: each speed test is IMPLAUSIBLE, or credited at the witnessed
# time (within SPEED_FULL_RATIO of the reference, as the honest solution).
# Then the references of labs 1, 5 and 7 graded with the witness: full
# marks, and how far the witnessed time is from the reported one.
# Prints ok/FAIL per line; reports go to $OUT.  Exit 1 on a FAIL.
set -u
OUT=${OUT:-/tmp/device-forge}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
make -s -j8 grader prebuild >/dev/null || exit 1
fail=0

# grade_forged MODE DIV WITNESS: lab 1's solution with the forger appended.
grade_forged() {
    local tmp=$(mktemp -d) name="forge-mode$1-div$2-witness-$3"
    chmod 755 "$tmp"
    { echo "#define FORGE_MODE $1"; echo "#define FORGE_DIV $2"
      cat solutions/lab1-*/reduce.cu tests/gpu/forge/forge.inc; } >"$tmp/reduce.cu"
    chmod a+r "$tmp/reduce.cu"
    GRADE_WITNESS=$3 ./grade lab1 --submission "$tmp" >"$OUT/$name.txt" 2>&1
    rm -rf "$tmp"
    local credited_fast=$(grep -E "yours .* ms: 0\.[0-7][0-9]x the reference" "$OUT/$name.txt" | head -1)
    echo "--- $name: $(grep -E '^TOTAL|TOTAL' "$OUT/$name.txt" | tail -1)"
    grep -E "yours|IMPLAUSIBLE|reported|timed outside|not witnessed|->" "$OUT/$name.txt" | head -8
    if [ "$3" != off ] && [ -n "$credited_fast" ]; then
        echo "FAIL: $name: a forged time was credited: $credited_fast"; fail=1
    else
        echo "ok: $name"
    fi
}

for mode in ${MODES:-0 1 2}; do
    for div in ${DIVS:-10 2}; do
        grade_forged $mode $div off
        grade_forged $mode $div auto
    done
done

# The references, witnessed: full marks, and the witnessed time.
for lab in ${LABS:-lab1 lab5 lab7}; do
    ./grade $lab --check-suite >"$OUT/ref-$lab.txt" 2>&1
    rc=$?
    echo "--- reference $lab: rc=$rc $(grep -E 'TOTAL' "$OUT/ref-$lab.txt" | tail -1)"
    grep -E "yours|timed outside|not witnessed|IMPLAUSIBLE|->" "$OUT/ref-$lab.txt" | head -12
    [ $rc = 0 ] || { echo "FAIL: reference $lab (--check-suite exit $rc)"; fail=1; }
done
exit $fail
