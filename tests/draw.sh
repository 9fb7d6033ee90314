#!/bin/sh
# draw.sh - make draw's pictures are right about the kernels they show, read
# from the records beside them (tests/draw_records.py), and the emulator's
# global traffic of the references matches their designs (~4n scan-then-add,
# ~3n reduce-then-scan, ~2n single pass, ~1n read for lab 2's reduction), and
# a lab binary's --traffic counts what it should.
# Pictures: the reference Kogge-Stone and Brent-Kung at n = 16, and a
# Kogge-Stone without its barrier between read and write (a mutant made
# here) beside the reference.  Emulator only; SKIPPED without matplotlib.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
need_emu draw
python3 -c 'import matplotlib' 2>/dev/null || { echo "draw: SKIPPED (no matplotlib)"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
make -s --no-print-directory EMU=1 build/draw/ref/lab3 build/draw/ref/lab4 build/draw/ref/lab6 build/count/ref/lab2 \
    build/count/ref/lab5 build/count/ref/lab6 >/dev/null || { echo "draw: FAIL (build)"; exit 1; }
objs="$(for f in common/*.cu; do printf 'build/emu/common/%s.o ' "$(basename "$f" .cu)"; done)"
objs="$objs $(for f in common/*.c common/kinds/*.c; do g=${f#common/}; printf 'build/host/%s.o ' "${g%.c}"; done)"
# the mutant: the second __syncthreads() of the Kogge-Stone loop removed
sol=solutions/lab3-scan-kogge-stone/scan.cu
line=$(grep -n '^ *__syncthreads();' "$sol" | sed -n 2p | cut -d: -f1)
sed "${line}d" "$sol" > "$tmp/scan.cu"
common/emu/emu-nvcc --count -O2 -std=c++17 -I common -o "$tmp/ks-mutant" "$tmp/scan.cu" $objs \
    || { echo "draw: FAIL (mutant build)"; exit 1; }
cd common/tools || exit 1
d=../../build/draw/ref
python3 draw_lab.py --lab lab3 --yours $d/lab3 -o "$tmp/ks.png" >/dev/null &&
python3 draw_lab.py --lab lab4 --yours $d/lab4 -o "$tmp/bk.png" >/dev/null &&
python3 draw_lab.py --lab lab3 --yours "$tmp/ks-mutant" --ref $d/lab3 -o "$tmp/ks-mutant.png" >/dev/null \
    || { echo "draw: FAIL (draw_lab.py)"; exit 1; }
for v in chained lookback; do
    CUEMU_THREADS=4 python3 draw_lab.py --lab lab6 --yours $d/lab6 --variant $v -n 4096 --timeline \
        -o "$tmp/lab6-$v.png" >/dev/null || { echo "draw: FAIL (draw_lab.py lab6 $v)"; exit 1; }
done
cd "$top" || exit 1
for c in lab2:convergent lab5:hierarchical lab5:reduce-then-scan lab6:lookback lab6:lookback-warp; do
    lab=${c%%:*} v=${c#*:}
    # one worker: blocks in order, so no look-back polls a tile still running (polls are
    # reads, and how many a busy machine makes would decide the count)
    CUEMU_THREADS=1 CUEMU_COUNT_OUT="$tmp/traffic-$lab-$v.json" build/count/ref/$lab -n 65536 -r 0 -v "$v" -q \
        >/dev/null || { echo "draw: FAIL ($lab $v did not run)"; exit 1; }
done
# --traffic (any emulator build; the grader's speed line): lab 3 reads n and writes n, exactly
build/draw/ref/lab3 -n 2048 -r 0 -q --traffic --out "$tmp/t3" >/dev/null &&
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit(0 if (d["traffic_load_bytes"], d["traffic_store_bytes"]) == (8192, 8192) else 1)' "$tmp/t3.json" \
    && echo "ok: --traffic counts lab 3's 2048 loads and 2048 stores of 4 bytes" \
    || { echo "draw: FAIL (--traffic of lab 3 is not n read, n written)"; exit 1; }
python3 tests/draw_records.py "$tmp" || { echo "draw: FAIL"; exit 1; }
echo "draw: PASS"
