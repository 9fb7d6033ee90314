#!/bin/sh
# bad-submissions.sh - broken variants of lab 1's solution, made by small
# edits at test time (so they follow the solution as it changes), each
# graded by ./grade and expected to get a specific verdict, never a hang
# or a pass.  Runs on this machine's backend; SKIPPED where there is none.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if ! make -s --no-print-directory backend-check >/dev/null 2>&1; then
    echo "bad-submissions: SKIPPED: no GPU and no CPU emulator here"
    exit 0
fi
sol=solutions/lab1-reduce-naive/reduce.cu
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# name | sed expression applied to the solution | text the report must contain
while IFS='|' read -r name edit expect; do
    [ -n "$name" ] || continue
    mkdir -p "$tmp/$name"
    sed "$edit" "$sol" >"$tmp/$name/reduce.cu"
    if cmp -s "$sol" "$tmp/$name/reduce.cu"; then
        echo "FAIL $name: the edit '$edit' changed nothing (solution changed?)"; fail=1; continue
    fi
    ./grade lab1 --submission "$tmp/$name" --no-speed --timeout 10 >"$tmp/$name.log" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL $name: ./grade exited $rc"; tail -5 "$tmp/$name.log"; fail=1
    elif ! grep -q -- "$expect" "$tmp/$name.log"; then
        echo "FAIL $name: expected '$expect' in the report"; tail -30 "$tmp/$name.log"; fail=1
    elif grep -q "TOTAL 80.0 / 80.0\|TOTAL 100.0 / 100.0" "$tmp/$name.log"; then
        echo "FAIL $name: full marks for a broken submission"; fail=1
    else
        echo "ok   $name -> $expect"
    fi
done <<'CASES'
compile-error|s/const Op op;/const Op op; this is not C++;/|BUILD FAILED
hang|s/stride \*= 2)/stride *= 1)/|TIMEOUT
out-of-bounds|s/\*out = partial\[0\];/out[3] = partial[0];/|OUT-OF-BOUNDS
host-crash|s/const T identity = Op::identity();/const T identity = Op::identity(); *(volatile int *)0 = 1;/|CRASH
no-identity-init|/CUDA_CHECK(cudaMemcpy(out, &identity/d|WRONG  *hierarchical int32 sum
zero-padding|s/: Op::identity();/: T(0);/|WRONG
CASES
exit $fail
