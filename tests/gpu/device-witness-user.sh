#!/bin/bash
# device-witness-user.sh - on a GPU, as root: the witness (ncu) runs as the
# sandbox user, not root.  Grades lab1's solution with the witness required
# (speed points only when witnessed), then the attack paths-witness-uid,
# whose program, under the witness, prints its uid and whether it can read
# /etc/shadow or write its cgroup (its log is kept with --keep), and spoils
# the witness run if it can.  Output: $OUT/witness-user.txt.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
out=${OUT:-/tmp}/witness-user.txt
exec > >(tee "$out") 2>&1
echo "== $(date -u) uid=$(id -u) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
echo "ptrace_scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo none)"
make -s grader batch || exit 1
echo "== lab1 solution, GRADE_WITNESS=require"
GRADE_WITNESS=require ./grade lab1 --submission solutions/lab1-* 2>&1 | tail -12
echo "== the attack: what the witnessed program saw"
sub=$(mktemp -d) && chmod 755 "$sub"
sed -e "s|SCRATCH|$sub|g" tests/attacks/paths-witness-uid/append.cu |
    cat solutions/lab1-*/reduce.cu - >"$sub/reduce.cu"
chmod -R a+rX "$sub"
GRADE_WITNESS=require ./grade lab1 --submission "$sub" --keep >"$sub/report" 2>&1
tail -12 "$sub/report"
kept=$(sed -n 's/^scratch folder kept: //p' "$sub/report")
echo "-- the program's log under the witness:"
cat "$kept"/box/witness/run.log 2>/dev/null | grep '^attack:' | sort | uniq -c
grep -q 'not witnessed\|no witness' "$sub/report" && echo "RESULT: FAIL (not witnessed)" ||
    echo "RESULT: ok (witnessed; uid above must not be 0)"
rm -rf "$sub" "$kept"
