#!/bin/sh
# missing-fence.sh - the CPU emulator's weak memory mode (CUEMU_MEMORY=weak,
# common/emu/README.md) catches a missing __threadfence() between a value
# and the flag that publishes it, which the default mode (like a GPU, most
# days) lets pass.  Each case below removes fences from a reference
# solution, builds the copy with the emulator and runs its variants under
# three weak seeds on two workers: "caught" cases must give a wrong result
# (or a diagnostic) in some run.  A "clean" case removes nothing: lab 7
# publishes each 32-bit half of a state together with its status in one
# 64-bit atomic word, so it needs no fence, and its reference must pass
# every run in the weak mode.  Every fence of every solution must be
# removed by some case, so that a new fence is classified here.
# Prints the table, one line per case: the fence(s) removed (file:line),
# then the first run that failed in the weak mode (variant, n, seed, exit
# status, whether the emulator warned) and what the same run gives in the
# default mode.  Exit status 1 if any FAIL.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
need_emu missing-fence
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
make -s --no-print-directory emu-runtime build/emu/common/harness.o >/dev/null 2>&1

lab6=solutions/lab6-scan-single-pass/scan.cu
lab7=solutions/lab7-scan-at-work/scan.cu
# name|solution|sed script (which fences go)|caught or report
cat >"$tmp/cases" <<CASES
writer-and-reader|$lab6|s/^\( *\)__threadfence();/\1\/* fence removed *\//|caught
writer (value, then flag)|$lab6|/st.prefix\[id\] = bits;/{n;s/__threadfence();/\/* fence removed *\//;}|caught
reader (flag, then value)|$lab6|/back_off(&ns);/{n;s/__threadfence();/\/* fence removed *\//;}|caught
none: self-validating words|$lab7||clean
CASES

fail=0
# Every fence statement of every solution must be removed by some case.
for sol in solutions/lab*/*.cu; do
    for line in $(grep -n '^ *__threadfence();' "$sol" | cut -d: -f1); do
        covered=""
        while IFS='|' read -r name f script want; do
            [ "$f" = "$sol" ] || continue
            sed "$script" "$sol" | sed -n "${line}p" | grep -q '__threadfence' || covered=yes
        done <"$tmp/cases"
        [ -n "$covered" ] || { echo "FAIL $sol line $line: a fence no case of $0 removes"; fail=1; }
    done
done

# One case: build the copy; report the first (variant, n, seed) run that fails
# in the weak mode, with what the same run gives in the default mode.
run_case() { # name solution script want dir
    sed "$3" "$2" >"$5/$(basename "$2")"
    if [ "$4" != clean ] && cmp -s "$2" "$5/$(basename "$2")"; then
        echo "FAIL $1: the edit removed nothing (solution changed?)"; return 1
    fi
    lines=$(diff "$2" "$5/$(basename "$2")" | sed -n 's/^\([0-9][0-9]*\)[c,].*/\1/p' | tr '\n' ' ')
    where="$(basename "$2"):${lines% }"
    if ! make -s --no-print-directory bin SRC_DIR="$5" BIN="$5/lab" >"$5/build.log" 2>&1; then
        echo "FAIL $1: does not build"; return 1
    fi
    lab=$(basename "$(dirname "$2")")
    for v in $("$5/lab" --list | awk '/^  /{print $1}' | grep -v blockidx); do
        for n in 16385 300007; do
            for seed in 1 2 3; do
                CUEMU_MEMORY=weak:$seed CUEMU_THREADS=2 CUEMU_TIMEOUT=10 "$5/lab" --variant "$v" \
                    -n $n -r 0 -q --timeout 30 >"$5/run.log" 2>&1
                rc=$?
                [ $rc -eq 0 ] && continue
                CUEMU_THREADS=2 CUEMU_TIMEOUT=10 "$5/lab" --variant "$v" -n $n -r 0 -q \
                    --timeout 30 >"$5/strong.log" 2>&1
                strong=$?
                warned=no
                grep -q "cuemu: warning" "$5/run.log" && warned=yes
                if [ "$4" = clean ]; then
                    echo "FAIL $lab | $1 | $v n=$n CUEMU_MEMORY=weak:$seed exit $rc," \
                         "warning $warned | default mode: exit $strong"
                    return 1
                fi
                echo "ok   $lab | $1 | $where | caught: $v n=$n CUEMU_MEMORY=weak:$seed exit $rc," \
                     "warning $warned | default mode: exit $strong"
                return 0
            done
        done
    done
    if [ "$4" = clean ]; then
        echo "ok   $lab | $1 | - | every run right in the weak mode (seeds 1-3) | -"
        return 0
    fi
    echo "FAIL $lab | $1 | $where | unnoticed in the weak mode"
    return 1
}

echo "     lab | fence removed | line | weak mode (first failing run) | default mode"
k=0
while IFS='|' read -r name sol script want; do
    k=$((k + 1))
    mkdir -p "$tmp/case$k"
    run_case "$name" "$sol" "$script" "$want" "$tmp/case$k" </dev/null || fail=1
done <"$tmp/cases"
exit $fail
