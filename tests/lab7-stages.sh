#!/bin/sh
# lab7-stages.sh - each of lab 7's stages graded with only its own TODOs
# done (the reference's code of those regions, common/tools/mkskeleton.py
# --keep; every other region as the skeleton has it), under the CPU
# emulator: the stage's groups must get full points.  A student does the
# stages in the handout's order, so a stage whose given code is built from
# a later stage's TODOs marks a right answer wrong.  Stage 1a's scan step
# was lab 7's decode kernel (TODO 5-7): 1.8 of 15 points for right flags
# and scatter, and deadlocks under the emulator; common/scan_given.cuh
# gives it a scan of its own.
# Stage 1b still leans on TODO 6-7 (its counts are scanned by
# warp_scan_states, TODO 7, and every move of a count in the block layer
# goes through advance, TODO 6), although handouts/lab7.md section 3.2
# calls that scan given; until a count scan is given too, it is graded
# here with them (STAGE_1B), so that it leans on nothing more.
# Every case of each group, at the suite's emulator sizes (emu_max, emu_n).
# Exit status 1 on any failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
need_emu lab7-stages
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
sol=solutions/lab7-scan-at-work/scan.cu
STAGE_1B=3,4,6,7 # 3,4 once stage 1b's count scan is given

# stage NAME TODOS GROUPS: a submission of only TODOS, graded on GROUPS
# (comma-separated group ids); its verdict in $tmp/NAME.verdict.
stage() {
    d=$tmp/$1
    mkdir -p "$d/sub" "$d/scratch"
    if ! python3 common/tools/mkskeleton.py --keep "$2" $sol "$d/sub/scan.cu" >"$d/log" 2>&1 ||
       ! python3 tests/suite_subset.py lab7 "$d/suites" --groups "$3" >>"$d/log" 2>&1; then
        echo "FAIL lab7-stages: $1: $(cat "$d/log")" >"$d/verdict"
        return
    fi
    chmod -R a+rX "$d"
    TMPDIR="$d/scratch" ./grade lab7 --submission "$d/sub" --no-speed --suites "$d/suites" \
        --json "$d/results.json" >"$d/grade.log" 2>&1
    rc=$?
    got=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
m = sum(t["max_score"] for t in r["tests"] if not t["name"].startswith("Speed"))
print("%g of %g" % (r["score"], m) if m > 0 else "nothing graded")' "$d/results.json" 2>&1)
    if [ $rc -ne 0 ]; then
        echo "FAIL lab7-stages: $1 (TODO $2): ./grade exited $rc"; tail -5 "$d/grade.log"
    elif ! echo "$got" | awk '$2 == "of" && $1 == $3 { ok = 1 } END { exit !ok }'; then
        echo "FAIL lab7-stages: $1 with only TODO $2 gets $got on $3"
        grep -v "^  PASS" "$d/grade.log" | sed -n '1,12p'
    else
        echo "ok   lab7-stages: $1 with only TODO $2: $got on $3"
    fi >"$d/verdict"
}

make -s --no-print-directory grader prebuild EMU=1 >/dev/null 2>&1
stage 1a 1,2 compact-3step &
stage 1b $STAGE_1B compact &
stage 2-3 5,6,7 order,tuple &
wait
fail=0
for s in 1a 1b 2-3; do
    cat "$tmp/$s/verdict" 2>/dev/null || echo "FAIL lab7-stages: $s gave no verdict"
    grep -q "^ok" "$tmp/$s/verdict" 2>/dev/null || fail=1
done
exit $fail
