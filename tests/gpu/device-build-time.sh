#!/bin/bash
# device-build-time.sh - how long nvcc takes over each lab's reference, as a
# student's build pays it (the Makefile's flags), then lab 7 again with
# --split-compile 0 (NVVM's optimizer on every core).  Wall seconds, one
# build at a time, on whatever machine runs it.  Report on stdout.
set -u
cd "$(dirname "$0")/../.."
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
arch=${ARCH:-sm_90}
flags="-O3 -lineinfo -std=c++17 -arch=$arch -I common -diag-suppress 177"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "nproc $(nproc), $($nvcc --version | tail -1)"
for sol in solutions/lab*/*.cu; do
    s=$(date +%s.%N)
    $nvcc $flags -c -o "$tmp/x.o" "$sol" || echo "BUILD FAILED: $sol"
    printf '%-40s %6s s\n' "$sol" "$(since $s)"
done
s=$(date +%s.%N)
$nvcc $flags --split-compile 0 -c -o "$tmp/x.o" solutions/lab7-scan-at-work/scan.cu
printf '%-40s %6s s (--split-compile 0)\n' solutions/lab7-scan-at-work/scan.cu "$(since $s)"
