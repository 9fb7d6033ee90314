#!/bin/sh
# counters.sh - the counted build (emu-nvcc --count, common/emu/src/count.cpp)
# against counts known by hand: tests/emu/counted/counters.cu (divergent
# branches; shared-memory strides 1, 2, 32 and 33, a broadcast, dynamic
# shared memory through a raw pointer, 8-byte elements; barriers), the same
# counts under every schedule, nothing printed by an ordinary build, and the
# labs' references: lab 1's interleaved tree diverges 96 times per block,
# lab 2's convergent one 6 times; lab 3's Kogge-Stone has no bank conflict,
# lab 4's phases read and write with 8-way conflicts.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
fail=0
no() { echo "FAIL counters: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc=common/emu/emu-nvcc

# check FILE LAUNCH KEY=VALUE...: the launch's counts (JSON line) hold each pair.
check() {
    python3 - "$@" <<'PY' || fail=1
import json, sys
path, launch, pairs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
runs = [json.loads(l) for l in open(path) if l.strip()]
r = runs[launch - 1] if launch <= len(runs) else {}
for p in pairs:
    key, want = p.split("=")
    if str(r.get(key)) != want:
        print("FAIL counters: %s launch %d (%s): %s is %s, not %s"
              % (path.split("/")[-1], launch, r.get("kernel"), key, r.get(key), want))
        sys.exit(1)
PY
}

$nvcc --count -O2 -g -o "$tmp/counters" tests/emu/counted/counters.cu || no "counted build failed"
$nvcc -O2 -g -o "$tmp/plain" tests/emu/counted/counters.cu || no "plain build failed"
for s in inorder reverse random:3 warps; do
    CUEMU_SCHEDULE=$s CUEMU_COUNT_OUT="$tmp/c-$s.json" "$tmp/counters" >/dev/null ||
        no "counted run under $s failed"
done
c="$tmp/c-inorder.json"
check "$c" 1 kernel=branches branches=14 divergent=8 barriers=0
check "$c" 2 kernel='strided<1>' shared_loads=1 shared_stores=1 wavefronts_ld=1 conflicts_ld=0 \
    conflicts_st=0 barriers=2 barrier_warps=2
check "$c" 3 kernel='strided<2>' wavefronts_ld=2 wavefronts_st=2 conflicts_ld=1 conflicts_st=1
check "$c" 4 kernel='strided<32>' wavefronts_ld=32 wavefronts_st=32 conflicts_ld=31 conflicts_st=31
check "$c" 5 kernel='strided<33>' wavefronts_ld=1 conflicts_ld=0 conflicts_st=0
check "$c" 6 kernel=broadcast shared_loads=1 wavefronts_ld=1 conflicts_ld=0 divergent=1
check "$c" 7 kernel=dynamic wavefronts_ld=2 wavefronts_st=2 conflicts_st=1 \
    "not_counted=['1 atomics on shared memory (not requests)']"
check "$c" 8 kernel=wide shared_loads=1 wavefronts_ld=2 conflicts_ld=0 conflicts_st=0
for s in reverse random:3 warps; do
    cmp -s "$c" "$tmp/c-$s.json" || no "the counts under $s differ from inorder's"
done
"$tmp/plain" >"$tmp/plain.out" 2>&1 || no "plain run failed"
grep -q "cuemu counts" "$tmp/plain.out" && no "an ordinary build printed counts"
"$tmp/counters" 2>"$tmp/err" >/dev/null
grep -q "  branches       14 warp-level, 8 divergent" "$tmp/err" || no "stderr report missing"

# The labs' references (build/count/ref/labN, as make profile builds them).
make -s --no-print-directory EMU=1 build/count/ref/lab1 build/count/ref/lab2 \
    build/count/ref/lab3 build/count/ref/lab4 >"$tmp/make.out" 2>&1 ||
    { cat "$tmp/make.out"; no "counted builds of the references failed"; }
lab() { # lab N VARIANT: counts of one run at n = 2^16 into $tmp/labN-VARIANT.json
    CUEMU_COUNT_OUT="$tmp/lab$1-$2.json" build/count/ref/lab$1 -v "$2" -n 2^16 -r 0 -w 0 -q \
        >/dev/null 2>&1 || no "lab $1 $2: the run failed"
}
lab 1 hierarchical; lab 2 convergent; lab 2 coarsened; lab 3 kogge-stone
lab 4 brent-kung; lab 4 three-phase
# 64 blocks each: 96 divergent per block (interleaved) against 6 (convergent).
check "$tmp/lab1-hierarchical.json" 1 blocks=64 divergent=6144 barriers=640
check "$tmp/lab2-convergent.json" 1 blocks=64 divergent=384 barriers=640
check "$tmp/lab2-coarsened.json" 1 blocks=64 divergent=64
check "$tmp/lab3-kogge-stone.json" 1 blocks=64 barriers=1280 conflicts_ld=0 conflicts_st=0
check "$tmp/lab4-brent-kung.json" 1 blocks=64 barriers=1280 conflicts_ld=32384 conflicts_st=16192
# Phase 1 reads xy[t * 8 + k]: 8 wavefronts for each of its requests.
check "$tmp/lab4-three-phase.json" 1 blocks=32 conflicts_ld=41216 conflicts_st=26880
python3 - "$tmp/lab4-three-phase.json" <<'PY' || no "lab 4 three-phase: phase 1 is not 8-way"
import json, sys
r = json.loads(open(sys.argv[1]).readline())
sys.exit(0 if any(req * 8 == waves for _, req, waves, _ in r["conflicts_at"]) else 1)
PY

[ $fail = 0 ] && echo "ok   counters: divergence, bank conflicts (strides 1/2/32/33, broadcast," \
    "dynamic, 8-byte), barriers; schedule-independent; labs 1-4's references"
exit $fail
