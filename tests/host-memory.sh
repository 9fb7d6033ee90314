#!/bin/sh
# host-memory.sh - a lab binary whose host runs out of memory says so and
# exits EXIT_HOST_ERROR (4, common/cuda_exit.h), which the grader reports
# as HOST-ERROR, never as a CUDA error (issue 15; the grader's side is
# tests/test_judge.c, host_memory_is_not_a_cuda_error).  The lab 1
# solution runs under a ulimit on its address space that a small case fits
# in and a case of 2^26 elements does not.  Emulator only (a GPU's driver
# needs more address space than any such limit leaves); SKIPPED elsewhere.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
need_emu host-memory
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/lab1
if ! make -s --no-print-directory bin SRC_DIR=solutions/lab1-reduce-naive BIN="$bin" \
        >"$tmp/build.log" 2>&1; then
    echo "FAIL host-memory: the lab 1 solution does not build"; cat "$tmp/build.log"; exit 1
fi
limit_kib=400000
# The limit must leave room for the binary and a small case: else this
# machine cannot tell, and the check says so instead of passing.
if ! (ulimit -v $limit_kib && CUEMU_THREADS=2 "$bin" -n 1000 -r 0) >"$tmp/small" 2>&1; then
    echo "host-memory: SKIPPED: a small case does not run within $limit_kib KiB here"
    cat "$tmp/small"
    exit 0
fi
(ulimit -v $limit_kib && CUEMU_THREADS=2 exec "$bin" -n 2^26 -r 0) >"$tmp/big" 2>&1
rc=$?
if [ $rc -ne 4 ]; then
    echo "FAIL host-memory: exit $rc with too little host memory, expected 4 (EXIT_HOST_ERROR)"
    cat "$tmp/big"; exit 1
elif ! grep -q "out of host memory" "$tmp/big" || grep -q "CUDA error" "$tmp/big"; then
    echo "FAIL host-memory: expected 'out of host memory' and no CUDA error"; cat "$tmp/big"; exit 1
fi
echo "ok   host-memory: out of host memory -> exit 4, '$(head -1 "$tmp/big")'"
