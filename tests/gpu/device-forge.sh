#!/bin/bash
# device-forge.sh - issue 11's forged speed, on a GPU machine: lab 1's
# solution plus a destructor that, after main returns, rewrites every
# result file it wrote to claim a 10x faster kernel (tests/gpu/forge/).
# The grader must not credit it: each speed test IMPLAUSIBLE, 0 points.
# Prints ok/FAIL; the report goes to $OUT.
set -u
OUT=${OUT:-/tmp/device-forge}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
make -s -j8 grader prebuild >/dev/null || exit 1
tmp=$(mktemp -d); chmod 755 "$tmp"
cat solutions/lab1-*/reduce.cu tests/gpu/forge/forge.inc >"$tmp/reduce.cu"
chmod a+r "$tmp/reduce.cu"
./grade lab1 --submission "$tmp" >"$OUT/forge-lab1.txt" 2>&1
grep -E "== Speed|yours|IMPLAUSIBLE|reported|->|TOTAL" "$OUT/forge-lab1.txt"
implausible=$(grep -c "IMPLAUSIBLE\|not credited" "$OUT/forge-lab1.txt")
speed_tests=$(grep -c "^== Speed" "$OUT/forge-lab1.txt")
rm -rf "$tmp"
if [ "$implausible" -ge 1 ] && ! grep -q "x the reference's time" "$OUT/forge-lab1.txt"; then
    echo "device-forge: passed ($speed_tests speed tests, none credited)"
else
    echo "device-forge: FAILED (a forged time was credited)"; exit 1
fi
