#!/bin/bash
# device-corpus.sh - how much public CUDA code of the reduction / scan family
# the emulator runs as a GPU does.  corpus/ (ignored by git, never committed:
# third-party code) holds unmodified public programs, one folder each, with
# build.txt (the sources and -I flags of the compile line, relative to the
# folder) and SOURCE (repository, commit, path); tests/gpu/corpus-sources.txt
# lists every program's origin (43 programs since 2026-11-28).  Each program is built with
# nvcc and with common/emu/emu-nvcc from the same sources and flags, run once
# on the GPU and under CUEMU_SCHEDULE=inorder, reverse and random:7 on the
# emulator, and its filtered stdout and exit status compared with the GPU's
# (a program that nvcc and the emulator both refuse to build counts as the same).
# corpus/ is made by tests/gpu/corpus-fetch.sh.  Without corpus/ it is skipped; without nvcc or a GPU only the emulator half
# runs (nvcc, when present, still compiles) and the GPU side says SKIPPED.
# Output: one row per program, $OUT/table.md, logs under $OUT/<program>/.
set -u
OUT=${OUT:-/tmp/device-corpus}
TIMEOUT=${TIMEOUT:-120}
cd "$(dirname "$0")/../.."
root=$(pwd)
if [ ! -d corpus ]; then echo "device-corpus: SKIPPED: no corpus/ here"; exit 0; fi
mkdir -p "$OUT"
NVCC=$(command -v nvcc || { [ -x /usr/local/cuda/bin/nvcc ] && echo /usr/local/cuda/bin/nvcc; })
gpu=0
[ -n "$NVCC" ] && nvidia-smi -L >/dev/null 2>&1 && gpu=1
arch=-arch=sm_90; [ $gpu = 1 ] && arch=-arch=native
[ -n "$NVCC" ] || echo "device-corpus: no nvcc: GPU side SKIPPED"
[ -n "$NVCC" ] && [ $gpu = 0 ] && echo "device-corpus: no GPU: nvcc compiles only, GPU runs SKIPPED"
make -s emu-runtime >/dev/null 2>&1 || common/emu/emu-nvcc --build-runtime >/dev/null 2>&1

# The filter: what differs between two correct runs of one program is the
# machine, not the program.  (1) Lines naming the device or its properties
# are dropped (the emulator is not an H100; names, SM counts, clock rates).
# (2) Timings are masked, not dropped, since programs often print a result
# and its time on one line: a number before a time or rate unit (ms, msec, s,
# sec, seconds, us, GB/s, MB/s, .../s) or after a timing word (time, elapsed,
# Throughput, Bandwidth, Time; only blanks, '=' or ':' between) or after a
# unit in parentheses ("Time (ms): 0.19") becomes '#'.  Nothing else is touched.
filter() {
    sed -E -e '/GPU Device|[Dd]evice *[0-9]+ *:|[Dd]evice name|MapSMtoCores|[Cc]ompute [Cc]apability|[Mm]ultiprocessors|CUDA Driver|> Using|[Dd]evice: /d' \
        -e 's/[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)? *(ms|msec|msecs|s|sec|secs|seconds|us|usec|GB\/s|MB\/s|[A-Za-z]+\/s)\b/# \3/g' \
        -e 's/((time|Time|TIME|elapsed|Elapsed|Throughput|Bandwidth)s?\b *[=:]? *)[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/\1#/g' \
        -e 's/(\((ms|msec|s|sec|us)\) *[=:]? *)[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/\1#/g'
}

scheds="inorder reverse random:7"

# One program: builds, runs, comparison; its row in $o/row.txt and $o/row.md,
# and "same" in $o/verdict when every schedule printed what the GPU printed.
one_program() {
    local d=$1 name o nb eb rc f s
    name=$(basename "$d"); o="$OUT/$name"
    rm -rf "$o"; mkdir -p "$o/gpu" "$o/emu"
    read -r -a args <"$d/build.txt"
    # builds (from the program's folder, so build.txt's paths hold)
    nb=SKIPPED
    if [ -n "$NVCC" ]; then
        (cd "$d" && "$NVCC" -O2 $arch -o "$o/gpu/prog" "${args[@]}") >"$o/nvcc-build.log" 2>&1 && nb=yes || nb=no
    fi
    (cd "$d" && "$root/common/emu/emu-nvcc" -O2 -o "$o/emu/prog" "${args[@]}") >"$o/emu-build.log" 2>&1 && eb=yes || eb=no
    # runs; both binaries are ./prog run from their folder, so argv[0] matches
    if [ $gpu = 1 ] && [ $nb = yes ]; then
        (cd "$o/gpu" && timeout "$TIMEOUT" ./prog >../gpu.out 2>../gpu.err); echo $? >"$o/gpu.rc"
        filter <"$o/gpu.out" >"$o/gpu.filtered"
    fi
    local cells=()
    for s in $scheds; do
        f="$o/emu-${s/:/-}"
        if [ $eb != yes ]; then cells+=(-); continue; fi
        (cd "$o/emu" && CUEMU_SCHEDULE=$s timeout "$TIMEOUT" ./prog >"$f.out" 2>"$f.err"); rc=$?
        echo $rc >"$f.rc"; filter <"$f.out" >"$f.filtered"
        if [ ! -f "$o/gpu.rc" ]; then cells+=("rc=$rc"); continue; fi
        if [ "$rc" = "$(cat "$o/gpu.rc")" ] && diff "$o/gpu.filtered" "$f.filtered" >"$f.diff"; then
            cells+=(same)
        else
            cells+=("DIFF(rc=$rc)")
        fi
    done
    # A program that nvcc refuses and the emulator refuses too (code from
    # before CUDA 9, say) behaves the same on both: counted as identical.
    if [ "$nb" = no ] && [ "$eb" = no ]; then
        cells=("both refuse" "both refuse" "both refuse")
        echo same >"$o/verdict"
    fi
    [ "${cells[*]}" = "same same same" ] && echo same >"$o/verdict"
    printf '%-28s | %-10s | %-9s | %s\n' "$name" "$nb" "$eb" "${cells[*]}" >"$o/row.txt"
    printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$nb" "$eb" "${cells[@]}" >"$o/row.md"
}

# JOBS programs at a time (default 4): the emulator runs are the long part.
rows=0
for bt in corpus/*/build.txt; do
    rows=$((rows + 1))
    while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-4}" ]; do wait -n; done
    one_program "$(dirname "$bt")" &
done
wait
table="$OUT/table.md"
printf '| program | builds nvcc | builds emu | inorder | reverse | random:7 |\n|---|---|---|---|---|---|\n' >"$table"
printf '%-28s | %-10s | %-9s | %s\n' program "nvcc" "emu" "same under inorder/reverse/random:7"
good=0
for bt in corpus/*/build.txt; do
    o="$OUT/$(basename "$(dirname "$bt")")"
    cat "$o/row.txt"; cat "$o/row.md" >>"$table"
    [ -f "$o/verdict" ] && good=$((good + 1))
done
if [ $gpu = 1 ]; then
    line="$good of $rows programs build with the emulator and print what the GPU prints"
else
    line="GPU side SKIPPED: $rows programs, emulator runs only (rc per schedule above)"
fi
echo "$line"; printf '\n%s\n' "$line" >>"$table"
# Only the evidence stays under $OUT: the binaries and whatever a program
# wrote beside itself (images, data files) are dropped, so the transcript
# comes back from a GPU machine whole (a copy back holds 16 MiB a file).
find "$OUT" \( -path '*/gpu/*' -o -path '*/emu/*' \) -type f -delete
find "$OUT" -type f -size +256k -printf 'device-corpus: dropped %p (%s bytes)\n' -delete
[ $rows -gt 0 ] || exit 1
exit 0
