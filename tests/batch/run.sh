#!/bin/sh
# tests/batch/run.sh - batch grading end to end, without a GPU (the CPU
# emulator; speed is not graded there, so a correct lab 1 scores 80 / 80, speed pending).
#
# Builds a class folder: three correct copies of lab 1 as folders (one named
# with a comma, for CSV quoting), one as .zip, one as .tar.gz, the skeleton,
# one that does not compile, one with no reduce.cu, and two archives with a
# ../evil member (tar.gz and zip; refused, nothing extracted).  Then:
#   1. ./grade --batch on 2 workers: the CSV (scores, statuses, notes, quoting,
#      order) and every NAME.json against Gradescope's fields;
#   2. resume: a second run grades nothing that has a result; deleting one
#      result and corrupting another regrades exactly those two;
#   3. a hanging submission under a short --limit: status timeout, and no
#      process of it left behind;
#   4. run_autograder (Gradescope) for a correct submission and with a
#      grader failure, autolab.sh's last line;
#   5. plot.py when matplotlib is importable (else SKIPPED).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/batch"
cd "$top" || exit 1
if ! make -s --no-print-directory backend-check >/dev/null 2>&1; then
    echo "batch: SKIPPED: no GPU and no CPU emulator here"
    exit 0
fi
command -v python3 >/dev/null 2>&1 || { echo "batch: FAIL: python3 is needed"; exit 1; }
make -s --no-print-directory grader || { echo "batch: FAIL: make grader"; exit 1; }
# build/batch: the Makefile's rule when there is one, else compiled here.
if ! make -s --no-print-directory build/batch >/dev/null 2>&1; then
    mkdir -p build
    ${CC:-cc} -O2 -std=c11 -Wall -Wextra -Wno-format-truncation -D_POSIX_C_SOURCE=200809L \
        -I common -I grader -o build/batch grader/batch/*.c -lm ||
        { echo "batch: FAIL: cannot compile grader/batch"; exit 1; }
fi
batch="$top/build/batch"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# When run as root the grader builds and runs student code as 'nobody' in a
# folder below TMPDIR: that user must be able to traverse down to it.
chmod 711 "$tmp"
fail=0
nfail=0
no() { echo "FAIL $*"; fail=1; nfail=$((nfail + 1)); }
mark=0
section() { mark=$nfail; }                      # start of a group of checks
ok() { [ $nfail -eq $mark ] && echo "ok   $*"; mark=$nfail; }

# ---- the class ------------------------------------------------------------
sol=solutions/lab1-reduce-naive
subs="$tmp/subs"
mkdir -p "$subs" "$tmp/t"
. "$here/class.sh"
batch_class "$subs" "$tmp/pack" "$sol"
echo "notes for the TA" >"$subs/README"   # not a submission: ignored with a message
cat >"$tmp/expect" <<'EOF2'
alice|80|graded
carol|80|graded
smith, jo|80|graded
dave|80|graded
erin|80|graded
skeleton|0|graded
broken|0|build failed
empty|0|missing file
mallory|0|unpack failed
trudy|0|unpack failed
EOF2

section
# ---- 1. the batch ------------------------------------------------------------
out="$tmp/out"
t0=$(date +%s)
TMPDIR="$tmp/t" "$batch" "$subs" lab1 --json-dir "$out" --csv "$tmp/grades.csv" --jobs 2 \
    >"$tmp/batch1.log" 2>&1
rc=$?
t1=$(date +%s)
echo "== batch of 10 submissions, 2 workers: exit $rc, $((t1 - t0)) s"
cat "$tmp/batch1.log"
[ $rc -eq 0 ] || no "batch exited $rc"
python3 "$here/check.py" csv "$tmp/grades.csv" "$tmp/expect" || no "the CSV"
# The closing account: every student the grader ran (not the two refused
# archives), with correctness time spent.
grep -Eq '^batch:   emulator, 8 student\(s\): builds [0-9]+, correctness [1-9][0-9]*, ' \
    "$tmp/batch1.log" || no "the batch's account of where the time went"
grep -q '^"smith, jo",' "$tmp/grades.csv" || no "the name with a comma is not CSV-quoted"
section
for s in alice carol "smith, jo" dave erin skeleton broken empty; do
    python3 "$here/check.py" gradescope "$out/$s.json" >/dev/null || no "$s.json"
    grep -q "TOTAL" "$out/$s.txt" || no "$s.txt has no report"
done
ok "8 NAME.json files have Gradescope's fields; 8 NAME.txt reports"
section
for s in mallory trudy; do
    [ ! -e "$out/$s.json" ] || no "$s.json exists for a refused archive"
    grep -q "archive refused, nothing extracted: member '../evil' is a '..' component" \
        "$out/$s.txt" || { no "$s: no refusal message"; cat "$out/$s.txt"; }
done
grep -q "ignoring .*README: not a folder" "$tmp/batch1.log" || no "README not reported as ignored"
[ -z "$(find "$tmp" -name evil)" ] || no "an evil file was extracted: $(find "$tmp" -name evil)"
[ -z "$(ls -A "$tmp/t")" ] || no "scratch left behind: $(ls -A "$tmp/t")"
grep -q "the submission has no reduce.cu" "$tmp/grades.csv" || no "empty: the note does not say why"
ok "archives with ../evil refused with a message, nothing extracted, scratch removed"

section
# ---- 2. resume -------------------------------------------------------------
t0=$(date +%s)
TMPDIR="$tmp/t" "$batch" "$subs" lab1 --json-dir "$out" --csv "$tmp/grades2.csv" --jobs 2 \
    >"$tmp/batch2.log" 2>&1 || no "second batch exited $?"
t1=$(date +%s)
# The refused archives have no result, so they are looked at again (instantly).
grep -q "2 to grade, 8 already graded" "$tmp/batch2.log" || { no "resume regraded"; cat "$tmp/batch2.log"; }
[ $((t1 - t0)) -le 10 ] || no "resume took $((t1 - t0)) s"
python3 "$here/check.py" csv "$tmp/grades2.csv" "$tmp/expect" >/dev/null || no "resumed CSV"
ok "resume: nothing graded again ($((t1 - t0)) s)"
section
rm "$out/alice.json"
head -c 40 "$out/carol.json" >"$out/carol.json.cut" && mv "$out/carol.json.cut" "$out/carol.json"
TMPDIR="$tmp/t" "$batch" "$subs" lab1 --json-dir "$out" --csv "$tmp/grades3.csv" --jobs 2 \
    >"$tmp/batch3.log" 2>&1 || no "third batch exited $?"
grep -q "4 to grade, 6 already graded" "$tmp/batch3.log" || { no "partial resume"; cat "$tmp/batch3.log"; }
grep -q "alice: graded 80" "$tmp/batch3.log" && grep -q "carol: graded 80" "$tmp/batch3.log" ||
    no "alice and carol were not regraded"
python3 "$here/check.py" csv "$tmp/grades3.csv" "$tmp/expect" >/dev/null || no "third CSV"
ok "resume: a missing and a corrupt result (only those) graded again"

section
# ---- 3. a hang under the batch's wall-clock limit ----------------------------------
mkdir -p "$tmp/hangs/hang"
sed 's/stride \*= 2)/stride *= 1)/' "$sol/reduce.cu" >"$tmp/hangs/hang/reduce.cu"
TMPDIR="$tmp/t" "$batch" "$tmp/hangs" lab1 --json-dir "$tmp/hout" --limit 6 \
    >"$tmp/hang.log" 2>&1 || no "hang batch exited $?"
grep -q '^hang,0,.*,timeout,[0-9.]*,grading killed after' "$tmp/hout/grades.csv" || { no "hang: not a timeout"; cat "$tmp/hout/grades.csv" "$tmp/hang.log"; }
sleep 1
left=$(ps -eo args | grep -F "$tmp/t/" | grep -v grep)
[ -z "$left" ] || no "processes left after the timeout: $left"
ok "hang: status timeout after --limit 6, nothing left running"

section
# ---- 4. Gradescope and Autolab ---------------------------------------------------
gs="$tmp/gs"
KIT_DIR="$top" SUBMISSION_DIR="$subs/alice" RESULTS_DIR="$gs" LAB=lab1 \
    sh grader/batch/run_autograder >"$tmp/gs.log" 2>&1 || no "run_autograder exited $?"
python3 "$here/check.py" gradescope "$gs/results.json" leaderboard | grep "score=80" >/dev/null ||
    { no "run_autograder: not a valid 80-point results.json"; cat "$gs/results.json"; }
python3 -c "import json,sys; lb=json.load(open(sys.argv[1]))['leaderboard']; print('ok   leaderboard', lb)" "$gs/results.json"
section
KIT_DIR="$top" SUBMISSION_DIR="$subs/alice" RESULTS_DIR="$gs" LAB=lab99 \
    sh grader/batch/run_autograder >"$tmp/gs2.log" 2>&1 || no "run_autograder exited $?"
python3 "$here/check.py" gradescope "$gs/results.json" | grep "score=0" >/dev/null &&
    grep -q "could not grade" "$gs/results.json" ||
    { no "run_autograder: grader failure did not give a valid score-0 results.json"; cat "$gs/results.json"; }
ok "run_autograder: grader failure -> valid results.json, score 0, error in output"
sh grader/batch/autolab.sh lab1 "$subs/broken" >"$tmp/autolab0.txt" 2>&1
python3 "$here/check.py" autolab "$tmp/autolab0.txt" | grep "score=0" >/dev/null || no "autolab broken"
(cd "$subs/alice" && sh "$top/grader/batch/autolab.sh" lab1) >"$tmp/autolab.txt" 2>&1
python3 "$here/check.py" autolab "$tmp/autolab.txt" | tee "$tmp/autolab.chk" | grep "score=80" >/dev/null ||
    { no "autolab: last line"; tail -3 "$tmp/autolab.txt"; }
grep "^ok" "$tmp/autolab.chk"

# ---- 5. issue 11: suite checks, resume keys, status fields, picking files -------
sh "$here/integrity.sh" || no "integrity.sh (above)"

# ---- 6. the plot -------------------------------------------------------------
if python3 -c "import matplotlib" 2>/dev/null; then
    python3 grader/batch/plot.py "$tmp/grades.csv" -o "$tmp/grades.png" &&
        [ -s "$tmp/grades.png" ] && echo "ok   plot.py wrote a PNG" || no "plot.py"
else
    python3 grader/batch/plot.py "$tmp/grades.csv" -o "$tmp/grades.png" 2>"$tmp/plot.err"
    [ $? -eq 1 ] && grep -q "apt-get install -y python3-matplotlib" "$tmp/plot.err" ||
        no "plot.py without matplotlib: no exit 1 with the install command"
    echo "plot: SKIPPED: matplotlib is not installed (plot.py says how to install it)"
fi

[ $fail -eq 0 ] && echo "batch: passed" || echo "batch: FAILED"
exit $fail
