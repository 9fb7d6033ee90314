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
#
# Made to come back whole from a machine lent for a limited time:
#   - JOBS programs at a time (default: half the CPUs); a program's two
#     builds run at once, then its GPU run and its three emulator schedules
#     (each emulator run has CUEMU_THREADS workers, default all CPUs, so
#     the CPUs stay busy while a run's host code is serial); programs start
#     longest first
#     (HINTS: "program seconds" lines, default tests/gpu/corpus-times.txt;
#     a program not listed counts as HINT_DEFAULT seconds);
#   - TIMEOUT (default 120) limits each run (BUILD_TIMEOUT, default 300,
#     each build); an emulator run past it while
#     the GPU's finished is the row's diagnostic "emulator over N s";
#   - DEADLINE (seconds from the start; default none): no run starts after
#     it, a run still going is stopped at it ("cut: deadline"), programs
#     never started are "not run: deadline", the table is written all the
#     same and the exit status is 3;
#   - each program drops its binaries and the files it wrote as soon as its
#     runs end, and keeps at most KEEP_BYTES of each output, so $OUT stays
#     small whenever it is copied back;
#   - $OUT/table.md is rewritten as each program finishes, and
#     $OUT/times.txt (each program's slowest run, in seconds) can be the
#     next run's HINTS;
#   - PROGRAMS (names, blank-separated) restricts the run to those programs,
#     SKIP (names) leaves those out (a GPU-sized one given a call of its own);
#     CORPUS (default corpus) names another folder of programs (tests);
#   - $OUT/machine.txt names the host's processor and its count;
#   - every run's stdout is line-buffered (stdbuf -oL, where there is one):
#     a run stopped at its limit keeps the lines it printed (stdout to a
#     file is otherwise held in a 4 KiB buffer, and the 2026-11-28 H200
#     run's cs_binomialOptions, stopped at 150 s, came back empty);
#   - SCHEDS (default "inorder reverse random:7") names the emulator
#     schedules that run; SCHEDS= runs the GPU side alone (its cells "-"),
#     for a program whose emulator runs need more CPU time than a lent
#     GPU host gives: they run on a machine without a GPU (there the GPU
#     side is skipped), the GPU side's run-gpu.* files are copied into that
#     run's program folder, and REJUDGE (next) judges the two together;
#   - REJUDGE=DIR judges an earlier run's outputs (DIR: its $OUT, as it came
#     back) again with this filter, without building or running anything.
# Output: one row per program, $OUT/table.md, logs under $OUT/<program>/.
set -u
OUT=${OUT:-/tmp/device-corpus}
TIMEOUT=${TIMEOUT:-120}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-300}
JOBS=${JOBS:-$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))}
DEADLINE=${DEADLINE:-}
KEEP_BYTES=${KEEP_BYTES:-65536}
HINT_DEFAULT=${HINT_DEFAULT:-30}
cd "$(dirname "$0")/../.."
root=$(pwd)
HINTS=${HINTS:-$root/tests/gpu/corpus-times.txt}
CORPUS=${CORPUS:-corpus}
if [ ! -d "$CORPUS" ]; then echo "device-corpus: SKIPPED: no $CORPUS/ here"; exit 0; fi
linebuf=; command -v stdbuf >/dev/null && linebuf="stdbuf -oL"
mkdir -p "$OUT"
start=$(date +%s)
deadline_at=
[ -n "$DEADLINE" ] && deadline_at=$((start + DEADLINE))
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
# unit in parentheses ("Time (ms): 0.19") or after a rate's name ("GOP/s:
# 408.8", "Gsamples/s = 52.9") or after "per second" ("Options per second
# : 32.99") becomes '#'.  Nothing else is touched.  (The
# H200 run of 2026-11-28 showed device lines written "CUDA device [NAME] has
# 132 Multi-Processors" and "> [NAME] has 132 MP(s)", and rates named before
# their number or written MB/sec: they were added then; the 2026-11-29 run,
# rates written "Gigaoptions per second : 82.4".)
filter() {
    sed -E -e '/GPU Device|[Dd]evice *[0-9]+ *:|[Dd]evice name|MapSMtoCores|[Cc]ompute [Cc]apability|[Mm]ultiprocessors|[Mm]ulti-[Pp]rocessors|MP\(s\)|CUDA Driver|> Using|[Dd]evice: /d' \
        -e 's/[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)? *(ms|msec|msecs|s|sec|secs|seconds|us|usec|GB\/s|MB\/s|[A-Za-z]+\/sec|[A-Za-z]+\/s)\b/# \3/g' \
        -e 's/([A-Za-z]+\/s(ec)?\b *[=:]? *)[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/\1#/g' \
        -e 's/((time|Time|TIME|elapsed|Elapsed|Throughput|Bandwidth)s?\b *[=:]? *)[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/\1#/g' \
        -e 's/(\((ms|msec|s|sec|us)\) *[=:]? *)[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/\1#/g' \
        -e 's/(per second *[=:]? *)[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/\1#/g'
}

columns="inorder reverse random:7" # the table's schedules
scheds=${SCHEDS-$columns}          # those that run

# The program slots: a pipe holding one byte per free slot; the main loop
# takes one per program, the program gives it back as it ends.  take waits
# for a slot (at most until the deadline: false if it passed).
slots=$(mktemp -u /tmp/device-corpus-slots.XXXXXX)
mkfifo "$slots"; exec 9<>"$slots"; rm -f "$slots"
for _ in $(seq "$JOBS"); do printf x >&9; done
take() {
    local left
    if [ -z "$deadline_at" ]; then read -r -n1 -u9 _; return 0; fi
    left=$((deadline_at - $(date +%s)))
    [ $left -gt 0 ] && read -r -t "$left" -n1 -u9 _
}
give() { printf x >&9; }

# The limit of a run or build starting now: $1 (TIMEOUT or BUILD_TIMEOUT),
# or less if the deadline comes first (0: it has passed, nothing starts).
limit_now() {
    local left
    if [ -z "$deadline_at" ]; then echo "$1"; return; fi
    left=$((deadline_at - $(date +%s)))
    [ $left -lt 0 ] && left=0
    [ $left -lt "$1" ] && echo $left || echo "$1"
}

# A build's verdict from its exit status $1 under limit $2: yes, no, "no
# (over N s)", or "not run: deadline" when the deadline stopped it.
build_verdict() {
    case $1 in
    0) echo yes ;;
    124|137) [ "$2" -lt "$BUILD_TIMEOUT" ] && echo "not run: deadline" || echo "no (over $BUILD_TIMEOUT s)" ;;
    *) echo no ;;
    esac
}

# One timed run of ./prog in folder $1 (a copy of the binary of its own, so
# that files a program writes beside itself never meet another schedule's),
# outputs $2.out/.err/.rc/.secs/.limit; $3...: the environment (VAR=value).
# rc 125 with "not run: deadline" in .why when the deadline had passed.
timed_run() {
    local dir=$1 f=$2 lim t0 rc
    shift 2
    lim=$(limit_now "$TIMEOUT")
    echo "$lim" >"$f.limit"
    if [ "$lim" -le 0 ]; then echo 125 >"$f.rc"; echo "not run: deadline" >"$f.why"; return; fi
    t0=$(date +%s.%N)
    (cd "$dir" && env "$@" timeout -k 5 "$lim" $linebuf ./prog >"$f.out" 2>"$f.err"); rc=$?
    echo $rc >"$f.rc"
    echo "$(date +%s.%N) $t0" | awk '{printf "%.1f\n", $1 - $2}' >"$f.secs"
    if [ $rc = 124 ] || [ $rc = 137 ]; then
        if [ "$lim" -lt "$TIMEOUT" ]; then echo "cut: deadline" >"$f.why"; else echo "over $TIMEOUT s" >"$f.why"; fi
    fi
}

# The two builds of program folder $1 into $2/gpu/prog and $2/emu/prog, at
# once; sets nb and eb (yes, no, SKIPPED, or "not run: deadline").  A build
# the deadline stops is "not run: deadline" too.
build_both() {
    local d=$1 o=$2 lim pid=
    read -r -a args <"$d/build.txt"
    nb=SKIPPED
    lim=$(limit_now "$BUILD_TIMEOUT")
    if [ "$lim" -le 0 ]; then
        [ -n "$NVCC" ] && nb="not run: deadline"
        eb="not run: deadline"; return
    fi
    if [ -n "$NVCC" ]; then
        ( cd "$d" && timeout -k 5 "$lim" "$NVCC" -O2 $arch -o "$o/gpu/prog" "${args[@]}" ) \
            >"$o/nvcc-build.log" 2>&1 &
        pid=$!
    fi
    (cd "$d" && timeout -k 5 "$lim" "$root/common/emu/emu-nvcc" -O2 -o "$o/emu/prog" "${args[@]}") \
        >"$o/emu-build.log" 2>&1; eb=$(build_verdict $? "$lim")
    if [ -n "$pid" ]; then wait "$pid"; nb=$(build_verdict $? "$lim"); fi
}

# The GPU run and the three emulator schedules of a built program, all at
# once, each in a folder of its own.
run_all() {
    local o=$1 s dir pids=() kinds=()
    [ $gpu = 1 ] && [ "$nb" = yes ] && kinds+=(gpu)
    [ "$eb" = yes ] && kinds+=($scheds)
    for s in "${kinds[@]}"; do
        dir="$o/cwd-${s/:/-}"; mkdir -p "$dir"
        if [ "$s" = gpu ]; then
            cp "$o/gpu/prog" "$dir/prog"; timed_run "$dir" "$o/run-gpu" &
        else
            cp "$o/emu/prog" "$dir/prog"; timed_run "$dir" "$o/run-${s/:/-}" CUEMU_SCHEDULE="$s" &
        fi
        pids+=($!)
    done
    [ ${#pids[@]} -gt 0 ] && wait "${pids[@]}"
}

# The cell of schedule $2 of program folder $1: same, DIFF(rc=N), a named
# diagnostic (emulator over N s, cut: deadline, not run: deadline), or
# rc=N (seconds) without a GPU run to compare with.
cell() {
    local o=$1 f="$1/run-${2/:/-}" rc why=
    [ -f "$f.rc" ] || { echo -; return; }
    rc=$(cat "$f.rc"); [ -f "$f.why" ] && why=$(cat "$f.why")
    [ -f "$f.out" ] && filter <"$f.out" >"$f.filtered"
    if [ "$why" = "not run: deadline" ] || [ "$why" = "cut: deadline" ]; then echo "$why"; return; fi
    if [ ! -f "$o/run-gpu.rc" ]; then echo "rc=$rc${why:+ ($why)}"; return; fi
    local grc why_gpu=
    grc=$(cat "$o/run-gpu.rc"); [ -f "$o/run-gpu.why" ] && why_gpu=$(cat "$o/run-gpu.why")
    if [ -n "$why_gpu" ]; then echo "GPU: $why_gpu"; return; fi
    if [ -n "$why" ]; then echo "emulator $why"; return; fi
    filter <"$o/run-gpu.out" >"$o/run-gpu.filtered"
    if [ "$rc" = "$grc" ] && diff "$o/run-gpu.filtered" "$f.filtered" >"$f.diff"; then
        echo same
    else
        echo "DIFF(rc=$rc)"
    fi
}

# Drop what a program's runs leave that is not evidence: its binaries and
# whatever it wrote beside itself; an output over KEEP_BYTES keeps its head.
clean_program() {
    local o=$1 f
    rm -rf "$o/gpu" "$o/emu"
    for s in gpu $columns; do rm -rf "$o/cwd-${s/:/-}"; done
    find "$o" -type f -size +"$KEEP_BYTES"c | while read -r f; do
        head -c "$KEEP_BYTES" "$f" >"$f.head"
        printf '\n[device-corpus: cut to its first %s bytes of %s]\n' "$KEEP_BYTES" "$(stat -c %s "$f")" >>"$f.head"
        mv "$f.head" "$f"
    done
}

# One program, in the slot the main loop took for it (given back at the
# end): builds, runs, comparison, its row in $o/row.md and $o/row.txt,
# "same" in $o/verdict when every schedule printed what the GPU printed,
# "deadline" in $o/unfinished when the deadline cut it short.
one_program() {
    local d=$1 name o s cells=() secs=()
    name=$(basename "$d"); o="$OUT/$name"
    rm -rf "$o"; mkdir -p "$o/gpu" "$o/emu"
    build_both "$d" "$o"
    run_all "$o"
    for s in $columns; do cells+=("$(cell "$o" "$s")"); done
    case "$nb $eb ${cells[*]}" in *deadline*) echo deadline >"$o/unfinished" ;; esac
    for s in gpu $columns; do
        [ -f "$o/run-${s/:/-}.secs" ] && secs+=("$(cat "$o/run-${s/:/-}.secs")") || secs+=(-)
    done
    clean_program "$o"
    write_row "$o" "${secs[*]}" "${cells[@]}"
    write_table
    give
}

# Program folder $1's row from nb, eb, its seconds $2 and its three cells
# ($3...): row.txt, row.md (whole, by mv) and "same" in verdict when every
# schedule printed what the GPU printed.  A program that nvcc refuses and
# the emulator refuses too (code from before CUDA 9, say) behaves the same
# on both: counted as identical.
write_row() {
    local o=$1 secs=$2 name
    shift 2
    local cells=("$@")
    name=$(basename "$o")
    rm -f "$o/verdict"
    [ "$nb" = no ] && [ "$eb" = no ] && cells=("both refuse" "both refuse" "both refuse")
    case "${cells[*]}" in "same same same"|"both refuse both refuse both refuse") echo same >"$o/verdict" ;; esac
    printf '%-28s | %-10s | %-9s | %s\n' "$name" "$nb" "$eb" "$(printf "%s | " "${cells[@]}")" >"$o/row.txt"
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$nb" "$eb" "${cells[@]}" "$secs" >"$o/row.md.tmp"
    mv "$o/row.md.tmp" "$o/row.md"
}

# $OUT/table.md and $OUT/times.txt from the rows written so far; a program
# without a row is "running", or with $1 = final "not run: deadline".  Each
# writer has its own temporary files, and mv makes each table whole.
write_table() {
    local final=${1:-} bt name o t="$OUT/table.md.$BASHPID" tt="$OUT/times.txt.$BASHPID"
    printf '| program | builds nvcc | builds emu | inorder | reverse | random:7 | seconds (GPU, inorder, reverse, random:7) |\n|---|---|---|---|---|---|---|\n' >"$t"
    : >"$tt"
    for bt in $(build_files); do
        name=$(basename "$(dirname "$bt")"); o="$OUT/$name"
        if [ -f "$o/row.md" ]; then
            cat "$o/row.md" >>"$t"
            awk -F'|' -v n="$name" '{split($8, a, " "); m = 0; for (i in a) if (a[i] != "-" && a[i] + 0 > m) m = a[i] + 0; print n, m}' "$o/row.md" >>"$tt"
        elif [ "$final" = final ]; then
            printf '| %s | - | - | not run: deadline | not run: deadline | not run: deadline | - |\n' "$name" >>"$t"
        else
            printf '| %s | - | - | running or waiting | | | |\n' "$name" >>"$t"
        fi
    done
    mv "$t" "$OUT/table.md"; mv "$tt" "$OUT/times.txt"
}

# The build.txt of every program of corpus/, or of those PROGRAMS names,
# less those SKIP names.
build_files() {
    local bt name
    for bt in "$CORPUS"/*/build.txt; do
        name=$(basename "$(dirname "$bt")")
        [[ " ${SKIP:-} " == *" $name "* ]] && continue
        [ -z "${PROGRAMS:-}" ] || [[ " $PROGRAMS " == *" $name "* ]] && echo "$bt"
    done
}

# The programs, longest first by HINTS (those not listed: HINT_DEFAULT s).
ordered_programs() {
    local bt name h
    for bt in $(build_files); do
        name=$(basename "$(dirname "$bt")")
        h=$( [ -f "$HINTS" ] && awk -v n="$name" '$1 == n {print $2; exit}' "$HINTS")
        echo "${h:-$HINT_DEFAULT} $(dirname "$bt")"
    done | sort -k1,1gr -k2 | cut -d' ' -f2
}

# REJUDGE=DIR: no build and no run; the rows of an earlier run's $OUT (DIR,
# as it came back) judged again from the outputs it kept, with today's
# filter, and its table rewritten (its builds and seconds as they were).
rejudge_program() {
    local o=$1 s cells=() secs
    nb=$(awk -F' *[|] *' '{print $3}' "$o/row.md"); eb=$(awk -F' *[|] *' '{print $4}' "$o/row.md")
    secs=$(awk -F' *[|] *' '{print $8}' "$o/row.md")
    rm -f "$o"/run-*.diff
    for s in $columns; do cells+=("$(cell "$o" "$s")"); done
    write_row "$o" "$secs" "${cells[@]}"
}
if [ -n "${REJUDGE:-}" ]; then
    OUT=$REJUDGE gpu=1
    for o in "$OUT"/*/; do [ -f "$o/row.md" ] && rejudge_program "${o%/}"; done
else
rm -f "$OUT"/*/row.md "$OUT"/*/row.txt "$OUT"/*/verdict "$OUT"/*/unfinished
# The host's processor, for host code whose speed depends on it (subnormal
# floats take a slow path on some processors and not on others).
{ echo "cpus: $(nproc)"; grep -m1 'model name' /proc/cpuinfo; } >"$OUT/machine.txt" 2>/dev/null
write_table
for d in $(ordered_programs); do
    take || break
    one_program "$d" &
done
# Wait for the programs under way: every run and build stops by the
# deadline (timeout, 5 s more to kill), so 20 s past it whatever is left is
# stopped, by its ids.
while [ -n "$(jobs -rp)" ]; do
    if [ -n "$deadline_at" ] && [ "$(date +%s)" -gt $((deadline_at + 20)) ]; then
        for p in $(jobs -rp); do pkill -KILL -P "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
        sleep 1; break
    fi
    sleep 1
done
wait 2>/dev/null
fi
write_table final
rows=0; good=0; unfinished=0
for bt in $(build_files); do
    rows=$((rows + 1)); o="$OUT/$(basename "$(dirname "$bt")")"
    [ -f "$o/row.txt" ] && cat "$o/row.txt"
    [ -f "$o/verdict" ] && good=$((good + 1))
    { [ -f "$o/unfinished" ] || [ ! -f "$o/row.md" ]; } && unfinished=$((unfinished + 1))
done
if [ $gpu = 1 ]; then
    line="$good of $rows programs build with the emulator and print what the GPU prints"
else
    line="GPU side SKIPPED: $rows programs, emulator runs only (rc per schedule above)"
fi
[ $unfinished -gt 0 ] && line="$line; $unfinished not finished by the deadline${DEADLINE:+ ($DEADLINE s)}"
line="$line; $(( $(date +%s) - start )) s"
echo "$line"; printf '\n%s\n' "$line" >>"$OUT/table.md"
# clean_program keeps each file small; this is for what it never saw.
find "$OUT" -type f -size +1M -printf 'device-corpus: dropped %p (%s bytes)\n' -delete
[ $rows -gt 0 ] || exit 1
[ $unfinished -gt 0 ] && exit 3
exit 0
