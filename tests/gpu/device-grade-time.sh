#!/bin/bash
# device-grade-time.sh - on a GPU machine: how long ./grade takes, lab by
# lab, for the solution (with speed) and the skeleton (correctness only),
# one grading at a time; then the cost of starting a CUDA process.  "again"
# grades the solution a second time: the reference is built and its witness
# ratios are kept (build/gpu/ref/witness) by then, as for every student but
# the first.  LABS (default all), KINDS (default "solution again skeleton").
# Reports under $OUT.
set -u
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
OUT=${OUT:-/tmp/device-grade-time}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
labs=${LABS:-$(ls grader/suites | sed -n 's/\.suite$//p')}
kinds=${KINDS:-solution again skeleton}
nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader
t0=$(date +%s.%N)
make -s -j16 grader prebuild >/dev/null && make -s -j16 prebuild EMU=1 >/dev/null || { echo "kit build failed"; exit 1; }
echo "kit prebuild (grader, harness, emulator runtime): $(since $t0) s"
for lab in $labs; do
    dir=$(sed -n 's/^lab [^ ]* dir=\([^ ]*\).*/\1/p' grader/suites/$lab.suite)
    for kind in $kinds; do
        src=solutions/$dir; flags=""
        [ $kind = skeleton ] && { src=labs/$dir; flags=--no-speed; }
        s=$(date +%s.%N)
        GRADE_TRACE=1 ./grade $lab --submission $src $flags >"$OUT/grade-$lab-$kind.txt" 2>&1
        e=$(since $s)
        printf '%-5s %-8s wall %6s s | %s | %s\n' $lab $kind $e \
            "$(grep -E '^TOTAL' "$OUT/grade-$lab-$kind.txt" | tr -s ' ')" \
            "$(grep -E '^time:' "$OUT/grade-$lab-$kind.txt")"
    done
done
cat > /tmp/start.cu <<'C'
#include <cstdio>
int main(){ int n; cudaGetDeviceCount(&n); cudaFree(0); return 0; }
C
nvcc -o /tmp/start /tmp/start.cu && { s=$(date +%s.%N); for i in $(seq 10); do /tmp/start; done;
  echo "ten CUDA process starts: $(since $s) s"; }
