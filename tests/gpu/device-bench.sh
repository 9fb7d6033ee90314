#!/bin/bash
# device-bench.sh - every lab's reference over 2^16 .. 2^28 (int32, median
# of 20 after 3 warm-ups) next to the device copy and CUB of the same runs,
# as CSV and plots (common/tools/bench.py, plot_bench.py) in $OUT, for the
# handouts' figures and docs/perf-notes.md.
set -u
OUT=${OUT:-/tmp/device-bench}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -s -j16 solutions >/dev/null || { echo "make solutions failed"; exit 1; }
for b in build/gpu/ref/lab*; do
    lab=$(basename "$b")
    python3 common/tools/bench.py --yours "$b" -o "$OUT/$lab.csv" | grep -v "^bench: wrote"
    # (a machine without matplotlib: draw the plots later from the CSVs with plot_bench.py)
    python3 -c "import matplotlib" 2>/dev/null &&
        python3 common/tools/plot_bench.py "$OUT/$lab.csv" -o "$OUT/$lab.png" --title "$lab reference"
done
