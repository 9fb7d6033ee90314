#!/bin/bash
# device-witness-cost.sh - on a GPU machine: what the speed witness costs.
# (1) ncu's own start: a program with one tiny kernel, under ncu, three times;
# (2) ncu's cost per profiled kernel: the same program launching 10 and 100
# kernels; (3) `./grade labN` of the solution, witness required, with
# GRADE_TRACE's lines (each witness run, each speed round) for LABS
# (default "lab1 lab6 lab7").  Reports under $OUT.
set -u
OUT=${OUT:-/tmp/device-witness-cost}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }'; }
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
"$NCU" --version | tail -1
cat > /tmp/tiny.cu <<'C'
#include <cstdlib>
__global__ void tiny(int *p) { p[threadIdx.x] += 1; }
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1, *p;
    cudaMalloc(&p, 1024);
    for (int i = 0; i < n; i++) tiny<<<1, 32>>>(p);
    return cudaDeviceSynchronize() != cudaSuccess;
}
C
nvcc -o /tmp/tiny /tmp/tiny.cu || exit 1
s=$(date +%s.%N); /tmp/tiny 1; echo "tiny, no ncu: $(since $s) s"
for k in 1 10 100; do
    for r in 1 2; do
        s=$(date +%s.%N)
        "$NCU" --metrics gpu__time_duration.sum --csv --cache-control none --clock-control none \
            /tmp/tiny $k >/dev/null 2>&1
        echo "ncu, $k kernels (try $r): $(since $s) s"
    done
done
make -s -j16 grader prebuild >/dev/null || { echo "kit build failed"; exit 1; }
for lab in ${LABS:-lab1 lab6 lab7}; do
    dir=$(sed -n 's/^lab [^ ]* dir=\([^ ]*\).*/\1/p' grader/suites/$lab.suite)
    ./grade $lab --submission solutions/$dir >/dev/null 2>&1 # builds and caches the reference
    s=$(date +%s.%N)
    GRADE_WITNESS=require GRADE_TRACE=1 ./grade $lab --submission solutions/$dir >"$OUT/$lab.txt" 2>&1
    echo "$lab: wall $(since $s) s | $(grep -E '^TOTAL' "$OUT/$lab.txt" | tr -s ' ') | $(grep -E '^time:' "$OUT/$lab.txt")"
    grep -E "trace: (correctness|speed round|witness|sandbox)" "$OUT/$lab.txt"
done
