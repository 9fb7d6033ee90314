#!/bin/sh
# corpus-script.sh - tests/gpu/device-corpus.sh on a corpus of two small
# programs of its own (CORPUS=): one prints a line and exits, one prints a
# line and then sleeps past TIMEOUT.  The stopped run must keep the line
# it printed (its stdout is line-buffered: on 2026-11-28 a GPU run stopped
# at 150 s came back with no output at all, so nothing said how far it
# got), the quick one must finish with its output, REJUDGE= must judge
# the run's outputs again to the same rows, SKIP= leaves a program out,
# SCHEDS= runs no schedule, and a GPU side merged into an emulator-only run
# is judged by REJUDGE with the filter (a "per second" rate masked, another
# number not).  Emulator runs only here (the GPU side says SKIPPED without a GPU;
# with one, the GPU runs are checked the same way).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if ! make -s --no-print-directory backend-check EMU=1 >/dev/null 2>&1; then
    echo "corpus-script: SKIPPED: no CPU emulator here"
    exit 0
fi
if ! command -v stdbuf >/dev/null; then
    echo "corpus-script: SKIPPED: no stdbuf here"
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/corpus/quick" "$tmp/corpus/stuck"
cat >"$tmp/corpus/quick/main.cu" <<'EOS'
#include <stdio.h>
int main() { printf("quick: done\n"); return 0; }
EOS
cat >"$tmp/corpus/stuck/main.cu" <<'EOS'
#include <stdio.h>
#include <unistd.h>
int main() { printf("stuck: started\n"); sleep(60); printf("stuck: never\n"); return 0; }
EOS
echo main.cu >"$tmp/corpus/quick/build.txt"
echo main.cu >"$tmp/corpus/stuck/build.txt"
fail=0
no() { echo "FAIL $*"; fail=1; }
CORPUS="$tmp/corpus" OUT="$tmp/out" TIMEOUT=3 JOBS=2 HINTS=/dev/null \
    bash tests/gpu/device-corpus.sh >"$tmp/log" 2>&1
o="$tmp/out"
for s in inorder reverse random-7 gpu; do
    [ -f "$o/stuck/run-$s.rc" ] || { [ $s = gpu ] && continue; no "stuck: no $s run"; continue; }
    grep -q "stuck: started" "$o/stuck/run-$s.out" ||
        no "stuck ($s): the line printed before the run was stopped is lost"
    grep -q "stuck: never" "$o/stuck/run-$s.out" && no "stuck ($s): ran past its limit"
    case $(cat "$o/stuck/run-$s.rc") in 124|137) ;; *) no "stuck ($s): not stopped at TIMEOUT" ;; esac
    grep -qx "quick: done" "$o/quick/run-$s.out" || no "quick ($s): its output is missing"
    [ "$(cat "$o/quick/run-$s.rc")" = 0 ] || no "quick ($s): exit status $(cat "$o/quick/run-$s.rc")"
done
grep -q "^cpus: [0-9]" "$o/machine.txt" 2>/dev/null || no "no processor count in \$OUT/machine.txt"
[ $fail = 0 ] && echo "ok   a run stopped at TIMEOUT keeps the lines it printed; a quick one finishes; machine.txt"
grep '^| [qs]' "$o/table.md" >"$tmp/rows-before"
CORPUS="$tmp/corpus" REJUDGE="$o" bash tests/gpu/device-corpus.sh >"$tmp/rejudge.log" 2>&1
grep '^| [qs]' "$o/table.md" >"$tmp/rows-after"
if [ -s "$tmp/rows-before" ] && diff "$tmp/rows-before" "$tmp/rows-after" >"$tmp/diff" 2>&1; then
    echo "ok   REJUDGE= gives the run's rows again"
else
    no "REJUDGE= changed the rows:"; cat "$tmp/diff"
fi
CORPUS="$tmp/corpus" OUT="$tmp/skip" TIMEOUT=3 JOBS=2 HINTS=/dev/null SKIP="stuck" \
    bash tests/gpu/device-corpus.sh >"$tmp/skip.log" 2>&1
if grep -q '^| quick' "$tmp/skip/table.md" 2>/dev/null && ! grep -q '^| stuck' "$tmp/skip/table.md"; then
    echo "ok   SKIP= leaves a program out"
else
    no "SKIP=stuck: the table is not quick's alone"; cat "$tmp/skip/table.md" 2>/dev/null
fi
# SCHEDS= runs the GPU side alone (here, without a GPU: nothing), its cells "-"
CORPUS="$tmp/corpus" OUT="$tmp/gpuside" TIMEOUT=3 HINTS=/dev/null PROGRAMS=quick SCHEDS= \
    bash tests/gpu/device-corpus.sh >"$tmp/gpuside.log" 2>&1
if ls "$tmp/gpuside/quick"/run-inorder.* >/dev/null 2>&1; then
    no "SCHEDS=: an emulator schedule ran"
elif grep -q '^| quick | [^|]* | [^|]* | - | - | - |' "$tmp/gpuside/table.md" 2>/dev/null; then
    echo "ok   SCHEDS= runs no emulator schedule"
else
    no "SCHEDS=: quick's row is not '- - -'"; cat "$tmp/gpuside/table.md" 2>/dev/null
fi
# The merge the script's header describes: a GPU side's run-gpu.* files in
# an emulator-only run's folder, judged by REJUDGE.  A rate the filter
# masks ("per second : N") differs harmlessly; any other number does not.
q="$o/quick"
printf 'quick: done\nOptions per second : 1008867.009293\n' >"$q/run-gpu.out"
echo 0 >"$q/run-gpu.rc"
for s in inorder reverse random-7; do
    printf 'quick: done\nOptions per second : 32.992620\n' >"$q/run-$s.out"
done
CORPUS="$tmp/corpus" REJUDGE="$o" bash tests/gpu/device-corpus.sh >"$tmp/merge.log" 2>&1
if grep -q '^| quick | [^|]* | [^|]* | same | same | same |' "$o/table.md"; then
    echo "ok   a GPU side merged into an emulator run is judged; 'per second' rates are masked"
else
    no "merged GPU side: quick is not the same under all three"; grep '^| quick' "$o/table.md"
fi
printf 'quick: done\nL1 norm: 2.220273E-04\n' >"$q/run-reverse.out"
printf 'quick: done\nL1 norm: 2.220214E-04\n' >"$q/run-gpu.out"
CORPUS="$tmp/corpus" REJUDGE="$o" bash tests/gpu/device-corpus.sh >"$tmp/merge2.log" 2>&1
grep -q '^| quick | [^|]* | [^|]* | [^|]* | DIFF(rc=0) |' "$o/table.md" ||
    no "a result that differs in its last digits was judged the same"
[ $fail = 0 ] || { cat "$tmp/log"; exit 1; }
