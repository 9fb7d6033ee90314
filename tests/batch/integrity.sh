#!/bin/sh
# tests/batch/integrity.sh - issue 11's batch and grader integrity, end to
# end on this machine's backend (the CPU emulator without a GPU; speed is
# not graded there, so a correct lab 1 scores 80 / 80, speed pending).  Each check was
# seen failing before the fix:
#   1. a suite with a misspelt key: ./grade and the batch exit 4 naming the
#      file and line, before anyone is graded (was: exit 0, all "grader error")
#   2. ./grade --check-suite: the reference gets full marks (exit 0); a suite
#      asking for a size the variant cannot take exits 5
#   3. a class with a CUB submission (status forbidden, its reason in the note),
#      a repository-shaped submission holding lab 2's reduce.cu too (graded 80,
#      the report names labs/lab1-reduce-naive/reduce.cu), two reduce.cu
#      (ambiguous file, both named), none (missing file), and bob/ + bob.tgz
#      (a CSV note)
#   4. resume: a changed suite regrades everyone, a resubmission regrades that
#      student only, and a result hand-edited to another maximum stops the CSV
# It grades with a kit of its own (links to this one, its own copy of the
# suites) so that the suites can be changed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/batch"
cd "$top" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 711 "$tmp"
fail=0
no() { echo "FAIL integrity: $*"; fail=1; }
kit="$tmp/kit"
mkdir -p "$kit/grader" "$tmp/t"
for x in Makefile common labs solutions build; do ln -s "$top/$x" "$kit/$x"; done
printf '#!/bin/sh\nKIT_TOP="%s" exec "%s/build/grader" "$@"\n' "$kit" "$top" >"$kit/grade"
chmod +x "$kit/grade" # this kit's ./grade: the grader already built, never a rebuild
cp -r grader/suites "$kit/grader/suites"
suite="$kit/grader/suites/lab1.suite"
cp "$suite" "$tmp/lab1.suite.orig"
sol=solutions/lab1-reduce-naive
# This kit is assembled from symbolic links to the real one, which the
# grader's filesystem view does not follow (a known gap: a kit must be a
# real folder to be sandboxed).  Isolation itself is tested by
# tests/test_fsview.c and tests/sandbox.sh; here, what is graded.
export GRADE_SANDBOX=unsandboxed
batch() { TMPDIR="$tmp/t" KIT_TOP="$kit" "$top/build/batch" "$@"; }
grade() { TMPDIR="$tmp/t" KIT_TOP="$kit" "$top/build/grader" "$@"; }

# ---- 1. a misspelt key --------------------------------------------------------
mkdir -p "$tmp/c1/alice" && cp "$sol/reduce.cu" "$tmp/c1/alice/"
chmod -R a+rX "$tmp/c1"
sed -i '0,/^cases group=generic/s/^\(cases group=generic.*\)$/\1 visiblity=hidden/' "$suite"
line=$(grep -n visiblity "$suite" | cut -d: -f1)
grade lab1 --submission "$tmp/c1/alice" >"$tmp/g1.log" 2>&1
rc=$?
[ $rc -eq 4 ] && grep -q "lab1.suite: line $line: unknown key 'visiblity' for cases (did you mean 'visibility'?)" "$tmp/g1.log" ||
    { no "./grade with visiblity=: exit $rc"; cat "$tmp/g1.log"; }
batch "$tmp/c1" lab1 --json-dir "$tmp/o1" --emu >"$tmp/b1.log" 2>&1
rc=$?
[ $rc -eq 4 ] && grep -q "line $line: unknown key 'visiblity'" "$tmp/b1.log" &&
    grep -q "nobody was graded" "$tmp/b1.log" && [ ! -e "$tmp/o1/alice.json" ] ||
    { no "batch with visiblity=: exit $rc"; cat "$tmp/b1.log"; }
mkdir -p "$kit/grader/batch" && cp grader/batch/run_autograder grader/batch/post.py "$kit/grader/batch/"
KIT_DIR="$kit" SUBMISSION_DIR="$tmp/c1/alice" RESULTS_DIR="$tmp/gs1" LAB=lab1 TMPDIR="$tmp/t" \
    sh "$kit/grader/batch/run_autograder" >"$tmp/gs1.log" 2>&1
grep -q "test suite is invalid" "$tmp/gs1/results.json" && ! grep -q visiblity "$tmp/gs1/results.json" ||
    { no "run_autograder with an invalid suite: students see its message"; cat "$tmp/gs1/results.json"; }
[ $fail -eq 0 ] && echo "ok   integrity: a misspelt key stops ./grade and the batch (exit 4, line $line)"
cp "$tmp/lab1.suite.orig" "$suite"

# ---- 2. --check-suite -------------------------------------------------------------
grade lab1 --check-suite --emu >"$tmp/cs.log" 2>&1 && grep -q "check-suite: ok: full marks" "$tmp/cs.log" ||
    { no "--check-suite on the shipped suite"; tail -5 "$tmp/cs.log"; }
# single-block takes at most 1024 elements: a suite asking for 5000 is wrong
echo "cases group=generic variant=single-block n=5000" >>"$suite"
grade lab1 --check-suite --emu >"$tmp/cs2.log" 2>&1
rc=$?
[ $rc -eq 5 ] && grep -q "check-suite: FAILED" "$tmp/cs2.log" && grep -q "single-block .*n=5000" "$tmp/cs2.log" ||
    { no "--check-suite with an impossible case: exit $rc"; tail -8 "$tmp/cs2.log"; }
cp "$tmp/lab1.suite.orig" "$suite"
[ $fail -eq 0 ] && echo "ok   integrity: --check-suite: full marks (exit 0), an impossible case exit 5"

# ---- 3. statuses, picking files, duplicate names ---------------------------------------
c="$tmp/c3"
mkdir -p "$c/alice" "$c/cub" "$c/repo/labs/lab2-reduce-convergent" "$c/repo/labs/lab1-reduce-naive" \
    "$c/twice/old" "$c/none" "$c/bob" "$tmp/pack/bob"
cp "$sol/reduce.cu" "$c/alice/"
sed 's/#include "ops.cuh"/#include "ops.cuh"\n#include <cub\/cub.cuh>/' "$sol/reduce.cu" >"$c/cub/reduce.cu"
cp solutions/lab2-reduce-convergent/reduce.cu "$c/repo/labs/lab2-reduce-convergent/"
cp "$sol/reduce.cu" "$c/repo/labs/lab1-reduce-naive/"
cp "$sol/reduce.cu" "$c/twice/" && cp labs/lab1-reduce-naive/reduce.cu "$c/twice/old/"
echo "no code" >"$c/none/README.txt"
cp "$sol/reduce.cu" "$c/bob/" && cp labs/lab1-reduce-naive/reduce.cu "$tmp/pack/bob/"
tar -czf "$c/bob.tgz" -C "$tmp/pack" bob
chmod -R a+rX "$c"
batch "$c" lab1 --json-dir "$tmp/o3" --emu --jobs 2 >"$tmp/b3.log" 2>&1 || no "class batch exited $?"
cat >"$tmp/expect3" <<'EOT'
alice|80|graded
bob|80|graded
cub|0|forbidden
none|0|missing file
repo|80|graded
twice|0|ambiguous file
EOT
python3 "$here/check.py" csv "$tmp/o3/grades.csv" "$tmp/expect3" >"$tmp/chk3.log" || { no "the class CSV"; cat "$tmp/chk3.log" "$tmp/b3.log"; }
grep -q '^cub,.*,forbidden,[0-9.]*,.*cub/cub.cuh. is not allowed' "$tmp/o3/grades.csv" || no "cub: no reason in the note"
grep -q '^bob,.*duplicate name: graded bob; bob.tgz not graded' "$tmp/o3/grades.csv" || no "bob: no duplicate note"
grep -q "^graded file(s): labs/lab1-reduce-naive/reduce.cu (in .*repo)" "$tmp/o3/repo.txt" || no "repo: the report does not name the file graded"
grep -q "AMBIGUOUS FILE: .*reduce.cu, old/reduce.cu\|AMBIGUOUS FILE: .*old/reduce.cu, reduce.cu" "$tmp/o3/twice.txt" || { no "twice: candidates not named"; grep AMBIG "$tmp/o3/twice.txt"; }
grep -q "MISSING FILE: the submission has no reduce.cu" "$tmp/o3/none.txt" || no "none: no MISSING FILE"
grep -q "MISSING-FILE" "$tmp/o3/none.json" || no "none: tests not marked MISSING-FILE in none.json"
[ $fail -eq 0 ] && echo "ok   integrity: forbidden with its reason, repository picks labs/<dir>, ambiguous and missing files, duplicate-name note"

# ---- 4. resume keys and one maximum ------------------------------------------------------
batch "$c" lab1 --json-dir "$tmp/o3" --emu --jobs 2 >"$tmp/b4.log" 2>&1 || no "resume exited $?"
grep -q "0 to grade, 6 already graded" "$tmp/b4.log" || { no "unchanged resume regraded"; cat "$tmp/b4.log"; }
cp labs/lab1-reduce-naive/reduce.cu "$c/alice/reduce.cu"   # alice resubmits the skeleton
batch "$c" lab1 --json-dir "$tmp/o3" --emu --jobs 2 >"$tmp/b5.log" 2>&1 || no "resume 2 exited $?"
grep -q "alice: graded again: submission changed" "$tmp/b5.log" && grep -q "1 to grade, 5 already graded" "$tmp/b5.log" ||
    { no "a resubmission was not regraded alone"; cat "$tmp/b5.log"; }
grep -q '^alice,0,80,' "$tmp/o3/grades.csv" || no "alice's resubmission not in the CSV"
sed -i 's/^group id=generic points=10/group id=generic points=15/' "$suite"
batch "$c" lab1 --json-dir "$tmp/o3" --emu --jobs 2 >"$tmp/b6.log" 2>&1 || no "resume 3 exited $?"
grep -q "6 to grade, 0 already graded" "$tmp/b6.log" && grep -q "repo: graded again: suite changed" "$tmp/b6.log" ||
    { no "a changed suite did not regrade everyone"; cat "$tmp/b6.log"; }
maxima=$(python3 -c 'import csv,sys; print(sorted({r["max"] for r in csv.DictReader(open(sys.argv[1]))}))' "$tmp/o3/grades.csv")
[ "$maxima" = "['85']" ] || no "maxima after the suite changed: $maxima"
python3 - "$tmp/o3/bob.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); r["tests"][0]["max_score"] += 5
json.dump(r, open(sys.argv[1], "w"))
PY
batch "$c" lab1 --json-dir "$tmp/o3" --emu >"$tmp/b7.log" 2>&1
rc=$?
[ $rc -eq 3 ] && grep -q "bob was graded out of 90, others out of 85" "$tmp/b7.log" ||
    { no "a mixed maximum: exit $rc"; cat "$tmp/b7.log"; }
[ $fail -eq 0 ] && echo "ok   integrity: resume regrades a resubmission alone and everyone after a suite change; mixed maxima exit 3"

# ---- 5. Gradescope's leaderboard shows visible points only --------------------------------
cat >"$tmp/gs.json" <<'EOT'
{"score": 50, "output": "student view", "extra_data": {"status": "graded"}, "tests": [
 {"name": "a", "score": 30, "max_score": 30},
 {"name": "Hidden: edges", "score": 20, "max_score": 20, "visibility": "after_due_date"}]}
EOT
echo "raw report: Hidden: edges hint" >"$tmp/gs.txt"
python3 grader/batch/post.py gradescope "$tmp/gs.json" "$tmp/gs.txt" || no "post.py failed"
python3 - "$tmp/gs.json" <<'PY' || no "post.py: hidden points or the raw report shown"
import json, sys
r = json.load(open(sys.argv[1]))
board = {e["name"]: e["value"] for e in r["leaderboard"]}
assert board["Score"] == 30, board
assert r["output"] == "student view", r["output"]
PY
[ $fail -eq 0 ] && echo "ok   integrity: Gradescope's leaderboard and output show no hidden points or text"
exit $fail
