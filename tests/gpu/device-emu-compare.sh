#!/bin/bash
# device-emu-compare.sh - issue 12: the emulator prints what a GPU prints.
# Builds each of the emulator's real-CUDA test programs twice, with nvcc for
# the GPU and with common/emu/emu-nvcc (plain g++, so it builds on the GPU
# machine too), runs the GPU build once and the emulator build under the
# inorder, reverse and random schedules, and compares the outputs line by
# line.  Transcripts go to $OUT: PROG.gpu.txt, PROG.emu-SCHEDULE.txt and
# PROG.diff for each program, summary.txt for all.  Exit status 0 when every
# program builds both ways and every output is identical.
set -u
OUT=${OUT:-/tmp/device-emu-compare}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
PROGS="cg_tiles cg_coalesced intrinsics launch_forms launch_errors runtime_breadth diag_cg shfl_reduce device_h100 coop_full warp_volatile kernel_args math_rounding fma_contract"
# Programs that read device memory nothing wrote (issue 39): the emulator
# warns on stderr (initcheck), so only stdout is compared: the GPU's answer
# must be the emulator's under CUEMU_FRESH=zero, its default.
STDOUT_PROGS="initcheck_managed_accumulator initcheck_second_launch initcheck_short_memset"
SCHEDULES="inorder reverse random:7"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
ARCH=${ARCH:-native}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
fail=0
: >"$OUT/summary.txt"
say() { echo "$*" | tee -a "$OUT/summary.txt"; }

command -v "$NVCC" >/dev/null || { say "SKIPPED: no nvcc here"; exit 1; }
nvidia-smi -L >"$OUT/gpu.txt" 2>&1 || { say "SKIPPED: no GPU here (nvidia-smi failed)"; exit 1; }
say "GPU: $(head -1 "$OUT/gpu.txt"); nvcc: $("$NVCC" --version | tail -1)"
common/emu/emu-nvcc --build-runtime || { say "FAIL: the emulator's runtime does not build"; exit 1; }

for p in $PROGS; do
    src=tests/emu/programs/$p.cu
    if ! "$NVCC" -O2 -arch="$ARCH" -std=c++17 -o "$bin/$p.gpu" "$src" >"$OUT/$p.nvcc.log" 2>&1; then
        say "FAIL $p: nvcc does not build it (see $p.nvcc.log)"; fail=1; continue
    fi
    if ! common/emu/emu-nvcc -O2 -o "$bin/$p.emu" "$src" >"$OUT/$p.emu-nvcc.log" 2>&1; then
        say "FAIL $p: emu-nvcc does not build it (see $p.emu-nvcc.log)"; fail=1; continue
    fi
    timeout 120 "$bin/$p.gpu" >"$OUT/$p.gpu.txt" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { say "FAIL $p: the GPU build exited $rc"; fail=1; }
    for s in $SCHEDULES; do
        tag=emu-${s%%:*}
        CUEMU_SCHEDULE=$s CUEMU_THREADS=2 timeout 300 "$bin/$p.emu" >"$OUT/$p.$tag.txt" 2>&1
        rc=$?
        [ $rc -eq 0 ] || { say "FAIL $p: the emulator build exited $rc under $s"; fail=1; }
        if diff "$OUT/$p.gpu.txt" "$OUT/$p.$tag.txt" >"$OUT/$p.$tag.diff"; then
            rm -f "$OUT/$p.$tag.diff"
            say "same   $p under $s: $(wc -l <"$OUT/$p.gpu.txt") lines"
        else
            say "DIFFER $p under $s: $(grep -c '^[<>]' "$OUT/$p.$tag.diff") lines (see $p.$tag.diff)"
            fail=1
        fi
    done
done
for p in $STDOUT_PROGS; do
    src=tests/emu/programs/$p.cu
    "$NVCC" -O2 -arch="$ARCH" -std=c++17 -o "$bin/$p.gpu" "$src" >"$OUT/$p.nvcc.log" 2>&1 &&
        common/emu/emu-nvcc -O2 -g -o "$bin/$p.emu" "$src" >"$OUT/$p.emu-nvcc.log" 2>&1 ||
        { say "FAIL $p: a build failed (see $p.nvcc.log, $p.emu-nvcc.log)"; fail=1; continue; }
    timeout 120 "$bin/$p.gpu" >"$OUT/$p.gpu.txt" 2>"$OUT/$p.gpu.err" || { say "FAIL $p: the GPU build failed"; fail=1; }
    CUEMU_THREADS=2 timeout 300 "$bin/$p.emu" >"$OUT/$p.emu.txt" 2>"$OUT/$p.emu.err"
    if diff "$OUT/$p.gpu.txt" "$OUT/$p.emu.txt" >"$OUT/$p.emu.diff"; then
        say "same   $p (stdout; the emulator warned: $(grep -c 'never written' "$OUT/$p.emu.err") line(s))"
    else
        say "DIFFER $p: GPU '$(head -1 "$OUT/$p.gpu.txt")', emulator '$(head -1 "$OUT/$p.emu.txt")'"; fail=1
    fi
done
[ $fail -eq 0 ] && say "all programs print the same on the GPU and under every schedule"
exit $fail
