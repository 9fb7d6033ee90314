#!/bin/bash
# device-isolation.sh - the grader's filesystem view (grader/fsview.h,
# isolation.h) on a GPU machine, as root: never run on the 2-core CI box,
# so nothing here counts as passed until the lead has run it.  Checks:
#   1. the view's unit tests, including the GPU ones skipped without a GPU
#      (nvidia-smi inside the view as root's nobody and in a user namespace);
#   2. every lab's solution graded with speed: full marks means nvcc built
#      inside the view for the right architecture, CUDA started there
#      (/dev/nvidia*, /dev/nvidia-uvm, the driver libraries, /proc, /sys)
#      and the reference ran there too;
#   3. --sanitize inside the view (compute-sanitizer from the CUDA toolkit);
#   4. the attacks: the lab-3 #include of the solution through a macro and
#      the lab-1 run that looks for the kit's private parts;
#   5. the refuse / unsandboxed policy (tests/sandbox.sh);
#   6. the cost: the probe's time, and lab 1 graded with and without the view.
# Output under $OUT; a line "FAIL ..." or a score short of full is a failure.
set -u
OUT=${OUT:-/tmp/device-isolation}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
export PATH=$PATH:/usr/local/cuda/bin
id; nvidia-smi -L; ls -l /dev/nvidia* 2>&1 | head -12
make -s -j8 grader batch prebuild >/dev/null || { echo "FAIL build"; exit 1; }
echo "=== 1. unit tests of the view"
if [ -f /usr/include/criterion/criterion.h ] && make -s build/tests/test_fsview >/dev/null; then
    build/tests/test_fsview --verbose 2>&1 | tee "$OUT/test_fsview.txt" | grep -E "SKIP|FAIL|Synthesis"
else
    echo "SKIPPED: Criterion is not installed here (make deps); parts 2-6 still run"
fi
echo "=== 2. every solution, with speed, inside the view"
for d in solutions/lab*-*; do
    lab=$(basename "$d" | cut -d- -f1)
    GRADE_TRACE=1 ./grade "$lab" --submission "$d" >"$OUT/grade-$lab.txt" 2>&1
    echo "$lab: exit $? $(grep -E '^TOTAL' "$OUT/grade-$lab.txt") $(grep -E 'sandbox probe' "$OUT/grade-$lab.txt")"
    grep -E "warning|WARNING|cannot isolate|SKIPPED|CUDA-ERROR|NO-RESULT" "$OUT/grade-$lab.txt" | head -5
done
echo "=== 3. --sanitize inside the view"
./grade lab1 --submission solutions/lab1-reduce-naive --no-speed --sanitize >"$OUT/sanitize-lab1.txt" 2>&1
grep -E "CLEAN|SANITIZER|not run|compute-sanitizer|TOTAL" "$OUT/sanitize-lab1.txt" | head -8
echo "=== 4. the attacks (bad submissions)"
ONLY="macro-include reads-the-kit extra-files" sh tests/bad-submissions.sh 2>&1 | tee "$OUT/attacks.txt"
echo "=== 5. the policy where namespaces are forbidden (simulated)"
sh tests/sandbox.sh 2>&1 | tee "$OUT/policy.txt"
echo "=== 6. cost: lab 1 with the view, and without it (simulated failure, unsandboxed)"
for i in 1 2 3; do
    ./grade lab1 --submission solutions/lab1-reduce-naive 2>&1 | grep "^time:" | sed 's/^/with view:    /'
    GRADE_SANDBOX_SIMULATE_FAILURE=1 ./grade lab1 --sandbox unsandboxed \
        --submission solutions/lab1-reduce-naive 2>/dev/null | grep "^time:" | sed 's/^/without view: /'
done | tee "$OUT/cost.txt"
