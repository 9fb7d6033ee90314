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
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# name | lab | sed expression applied to its solution | text the report must contain
while IFS='|' read -r name lab edit expect; do
    [ -n "$name" ] || continue
    sol=$(ls solutions/$lab-*/*.cu)
    mkdir -p "$tmp/$name"
    sed "$edit" "$sol" >"$tmp/$name/$(basename "$sol")"
    if cmp -s "$sol" "$tmp/$name/$(basename "$sol")"; then
        echo "FAIL $name: the edit '$edit' changed nothing (solution changed?)"; fail=1; continue
    fi
    ./grade $lab --submission "$tmp/$name" --no-speed --timeout 10 >"$tmp/$name.log" 2>&1
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
compile-error|lab1|s/const Op op;/const Op op; this is not C++;/|BUILD FAILED
hang|lab1|s/stride \*= 2)/stride *= 1)/|TIMEOUT
out-of-bounds|lab1|s/\*out = partial\[0\];/out[3] = partial[0];/|OUT-OF-BOUNDS
host-crash|lab1|s/const T identity = Op::identity();/const T identity = Op::identity(); *(volatile int *)0 = 1;/|CRASH
no-identity-init|lab1|/CUDA_CHECK(cudaMemcpy(out, \&identity/d|WRONG  *hierarchical int32 sum
zero-padding|lab1|s/: Op::identity();/: T(0);/|WRONG
blockidx-order|lab6|s/ticket = atomicAdd(next_tile, 1u);/ticket = blockIdx.x;/|EMU-ERROR  *chained int32 sum small n=300007 seed=3 \[emu reverse\]
no-state-reset|lab6|s/CUDA_CHECK(cudaMemsetAsync(scratch, 0, bytes, 0));//|EMU-ERROR\|RACE\|WRONG
CASES
exit $fail
