#!/bin/bash
# lab1-experiments.sh - the edits to lab 1's reference that handouts/lab1.md
# section 7 quotes, rebuilt and timed (int32 sum, n = 2^28, 50 runs):
# each is a copy of the solution changed by one sed expression.
set -u
cd "$(dirname "$0")/../.."
sol=solutions/lab1-reduce-naive/reduce.cu
tmp=$(mktemp -d)
while IFS='|' read -r name edit; do
    mkdir -p "$tmp/$name"
    sed "$edit" "$sol" >"$tmp/$name/reduce.cu"
    make -s bin SRC_DIR="$tmp/$name" BIN="$tmp/$name/lab1" >/dev/null 2>&1 || { echo "$name: build failed"; continue; }
    printf '%-14s ' "$name"
    "$tmp/$name/lab1" -n 2^28 -r 50 -w 5 2>&1 | grep -E 'time:|self-check' | tr '\n' ' '
    echo
done <<'EDITS'
reference|s/^//
mask|s/if (t % stride == 0)/if ((t \& (stride - 1)) == 0)/
no-tree|/for (unsigned int stride = 1; stride <= blockDim.x; stride \*= 2) {/,/^    }/c\    __syncthreads();
plain-store|s/atomic_combine(op, out, partial\[0\]);/*out = partial[0];/
EDITS
echo "--- barrier inside the if (synccheck)"
mkdir -p "$tmp/barrier-in-if"
sed 's/^        __syncthreads();$//; s/partial\[2 \* t\] = op(partial\[2 \* t\], partial\[2 \* t + stride\]);/{ partial[2 * t] = op(partial[2 * t], partial[2 * t + stride]); __syncthreads(); }/' "$sol" >"$tmp/barrier-in-if/reduce.cu"
grep -c "__syncthreads(); }" "$tmp/barrier-in-if/reduce.cu"
make -s bin SRC_DIR="$tmp/barrier-in-if" BIN="$tmp/barrier-in-if/lab1" >/dev/null 2>&1 && {
    "$tmp/barrier-in-if/lab1" -n 2^20 -r 0 2>&1 | head -2
    compute-sanitizer --tool synccheck "$tmp/barrier-in-if/lab1" -n 4096 -r 0 2>&1 | tail -2
}
rm -rf "$tmp"
