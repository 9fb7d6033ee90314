#!/bin/sh
# sandbox.sh - the grader's policy where students' code cannot be isolated
# (a container that forbids namespaces, simulated with
# GRADE_SANDBOX_SIMULATE_FAILURE=1): in the instructor's tree it refuses by
# default, plainly and with exit 3, grading nothing; --sandbox unsandboxed
# (or GRADE_SANDBOX=unsandboxed) grades and says so in the report; a mode
# that does not exist is a usage error.  Where the sandbox works, an
# explicit --sandbox refuse grades as usual.  (A student's copy, with no
# solutions/, grades unsandboxed by default: tests/dist.sh.)
set -u
unset GRADE_SANDBOX # (the defaults are what is tested)
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if ! make -s --no-print-directory backend-check >/dev/null 2>&1; then
    echo "sandbox: SKIPPED: no GPU and no CPU emulator here"
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fail=0
no() { echo "FAIL sandbox: $*"; fail=1; }
sub=solutions/lab1-reduce-naive
warn="WARNING: students' code ran WITHOUT filesystem isolation"

# refuse, by default: exit 3, the reason and the way out, no report
GRADE_SANDBOX_SIMULATE_FAILURE=1 ./grade lab1 --submission $sub --no-speed >"$tmp/r.log" 2>&1
rc=$?
[ $rc = 3 ] || no "refuse (default): exit $rc, expected 3"
tail -n 1 "$tmp/r.log" | grep -q "refused: cannot isolate students' code here (unshare.*--sandbox unsandboxed" ||
    no "refuse: the last line does not give the reason and the way out"
grep -q "nothing is graded (sandbox policy: refuse, the default" "$tmp/r.log" || no "refuse: policy not named"
grep -q "TOTAL" "$tmp/r.log" && no "refuse: it graded anyway"

# unsandboxed, chosen by option and by variable: grades, and says so
GRADE_SANDBOX_SIMULATE_FAILURE=1 ./grade lab1 --submission $sub --no-speed --sandbox unsandboxed \
    >"$tmp/u.log" 2>&1 || no "--sandbox unsandboxed: exit $?"
GRADE_SANDBOX_SIMULATE_FAILURE=1 GRADE_SANDBOX=unsandboxed ./grade lab1 --submission $sub \
    --no-speed >"$tmp/v.log" 2>&1 || no "GRADE_SANDBOX=unsandboxed: exit $?"
for f in u v; do
    grep -q "TOTAL 80.0 / 80.0" "$tmp/$f.log" || no "unsandboxed ($f): not graded: $(tail -3 "$tmp/$f.log")"
    grep -q "$warn" "$tmp/$f.log" || no "unsandboxed ($f): the report does not say it was not isolated"
done

# a mode that does not exist
./grade lab1 --sandbox off >"$tmp/b.log" 2>&1; rc=$?
[ $rc = 2 ] || no "--sandbox off: exit $rc, expected 2 (usage)"
GRADE_SANDBOX=maybe ./grade lab1 >"$tmp/c.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "GRADE_SANDBOX='maybe'" "$tmp/c.log" || no "GRADE_SANDBOX=maybe: exit $rc"

# where it works, refuse changes nothing and nothing is announced
./grade lab1 --submission $sub --no-speed --sandbox refuse >"$tmp/ok.log" 2>&1; rc=$?
if grep -q "cannot isolate" "$tmp/ok.log"; then
    echo "sandbox: namespaces unavailable here; the isolated grading itself is not checked ($(grep cannot "$tmp/ok.log"))"
else
    [ $rc = 0 ] && grep -q "TOTAL 80.0 / 80.0" "$tmp/ok.log" || no "--sandbox refuse where it works: exit $rc"
    grep -q "$warn" "$tmp/ok.log" && no "isolated grading reported as not isolated"
fi
[ $fail = 0 ] && echo "ok   sandbox: refuses plainly by default, grades when told unsandboxed and says so"
exit $fail
