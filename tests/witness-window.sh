#!/bin/sh
# witness-window.sh - a witnessed case list says when it times kernels
# (common/witness_window.h): before each case's first launch it sends 'r'
# on KIT_WITNESS_WINDOW's first descriptor and waits for a byte on the
# second (the grader's, once it holds the GPU alone), after the case's
# timed launches 'd'; raw outputs are written after the last case
# (common/raw_out.h), the same as a case run alone writes.  Here a shell plays the grader for lab 1's reference
# on the emulator: two cases, bytes r d r d, and no case goes past its 'r'
# before the byte comes, nor times out waiting for it.  A malformed KIT_WITNESS_WINDOW is said and the
# run goes on without a window.  Exit status 1 on any difference.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
need_emu witness-window
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
make -s build/emu/ref/lab1 >/dev/null || { echo "witness-window: build failed"; exit 1; }
fail=0
bad() { echo "witness-window: FAILED: $*"; fail=1; }
for i in 0 1; do
    echo "k$i -v hierarchical -n 2^12+$i -s $((i + 1)) -r 2 -w 0 --timeout 2 --graded --quiet --witness" \
         "--witness-mark $i --out $tmp/case$i" >> "$tmp/cases"
done
mkfifo "$tmp/win" "$tmp/go" || exit 1
exec 7<>"$tmp/win" 8<>"$tmp/go"
KIT_WITNESS_WINDOW=7,8 build/emu/ref/lab1 --cases "$tmp/cases" --progress "$tmp/prog" \
    >"$tmp/log" 2>&1 &
pid=$!
byte() { timeout 20 dd bs=1 count=1 <&7 2>/dev/null; }
for i in 0 1; do
    b=$(byte); [ "$b" = r ] || bad "case $i began with '$b', not r"
    [ -e "$tmp/case0.bin" ] && bad "case 0's output was written before the last case's timing"
    sleep 2.5 # (past the case's --timeout 2: the wait is not the run's time)
    grep -q "end k$i" "$tmp/prog" && bad "case $i ran on before the grader's byte"
    printf g >&8
    b=$(byte); [ "$b" = d ] || bad "case $i's timed launches ended with '$b', not d"
done
wait $pid || bad "the run failed: $(tail -3 "$tmp/log")"
[ "$(grep -c '^end k[01] 0' "$tmp/prog")" = 2 ] || bad "not both cases ended well: $(cat "$tmp/prog")"
# the outputs kept until the end are those a case run alone writes at once
for i in 0 1; do
    args=$(sed -n "$((i + 1))s/^k$i //p" "$tmp/cases" | sed "s/ --witness-mark $i//; s|case$i|alone$i|")
    # shellcheck disable=SC2086
    build/emu/ref/lab1 $args >"$tmp/alone.log" 2>&1 || bad "case $i alone failed"
    cmp -s "$tmp/case$i.bin" "$tmp/alone$i.bin" || bad "case $i's kept output differs from its own"
done
exec 7>&- 8>&-
KIT_WITNESS_WINDOW=7 build/emu/ref/lab1 -v hierarchical -n 4096 -r 1 -w 0 --witness --quiet \
    >"$tmp/log2" 2>&1 || bad "a malformed window stopped the run: $(tail -2 "$tmp/log2")"
grep -q "KIT_WITNESS_WINDOW='7' is not W,G" "$tmp/log2" || bad "a malformed window went unsaid"
[ $fail = 0 ] && echo "witness-window: r d r d, each case waiting for the grader's byte"
exit $fail
