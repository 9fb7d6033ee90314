#!/bin/sh
# dist.sh - `make dist` (a student's copy of the kit): the tarball has no
# solutions/, hidden tests (grader/suites/hidden/), answer keys (handouts/keys/), tests/ or .ci/, has
# every lab's skeleton as committed and a prebuilt reference per lab; unpacked, it builds and grades a lab (the
# skeleton 0, the solution full correctness), and says why `make test` and
# `make solutions` cannot run there.  Needs nvcc (SKIPPED without).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
nvcc=$(command -v nvcc 2>/dev/null || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
if [ ! -x "$nvcc" ] || ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "dist: SKIPPED: make dist needs nvcc and a git checkout"
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fail=0
no() { echo "FAIL dist: $*"; fail=1; }
make -s --no-print-directory dist DIST_ARCHS=sm_90 >"$tmp/dist.log" 2>&1 || { cat "$tmp/dist.log"; no "make dist"; exit 1; }
tar -xzf build/dist/reduce-scan-kit.tar.gz -C "$tmp" || { no "cannot unpack"; exit 1; }
kit="$tmp/reduce-scan-kit"
for d in solutions tests .ci grader/suites/hidden handouts/keys; do [ -e "$kit/$d" ] && no "$d/ is in the student's copy"; done
[ -d handouts/keys ] || no "this checkout has no handouts/keys/ to leave out"
tar -tzf build/dist/reduce-scan-kit.tar.gz | grep -q "handouts/keys" && no "the tarball lists handouts/keys"
[ -d grader/suites/hidden ] || no "this checkout has no grader/suites/hidden/ to leave out"
tar -tzf build/dist/reduce-scan-kit.tar.gz | grep -q "grader/suites/hidden" && no "the tarball lists grader/suites/hidden"
for d in labs/lab*-*/; do
    lab=$(basename "$d" | cut -d- -f1)
    for f in "$d"*.cu; do git diff --quiet HEAD -- "$f" && { cmp -s "$f" "$kit/$f" || no "$f differs from the committed skeleton"; }; done
    head -c 4 "$kit/refbin/$lab" 2>/dev/null | grep -q ELF || no "no prebuilt reference refbin/$lab"
done
[ -f "$kit/refbin/README.md" ] || no "refbin/README.md missing"
cd "$kit" || exit 1
make -s test >"$tmp/t.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "not in this copy" "$tmp/t.log" || no "make test there: exit $rc, $(cat "$tmp/t.log")"
make -s solutions >"$tmp/s.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "no solutions/" "$tmp/s.log" || no "make solutions there: exit $rc"
./grade lab1 --no-speed --json "$tmp/skel.json" >"$tmp/g1.log" 2>&1 || no "./grade lab1 on the skeleton failed"
mkdir -p "$tmp/sub" && cp "$top/solutions/lab1-reduce-naive/reduce.cu" "$tmp/sub/" && chmod -R a+rX "$tmp/sub"
./grade lab1 --submission "$tmp/sub" --no-speed --json "$tmp/sol.json" >"$tmp/g2.log" 2>&1 ||
    no "./grade lab1 on the solution failed"
# no namespaces in a student's copy: grades anyway (nothing of the instructor's
# to protect there), and the report says it was not isolated
GRADE_SANDBOX_SIMULATE_FAILURE=1 ./grade lab1 --submission "$tmp/sub" --no-speed >"$tmp/g3.log" 2>&1 ||
    no "./grade lab1 without namespaces in the student's copy: exit $?"
grep -q "WITHOUT filesystem isolation (.*the default in a kit without solutions/)" "$tmp/g3.log" ||
    no "the student's copy graded without isolation and did not say so"
python3 - "$tmp/skel.json" "$tmp/sol.json" <<'PY' || fail=1
import json, sys
skel, sol = (json.load(open(p)) for p in sys.argv[1:3])
full = sum(t["max_score"] for t in sol["tests"] if not t["name"].startswith("Speed"))
if skel["score"] != 0 or sol["score"] != full:
    print("FAIL dist: in the student's copy the skeleton scored %s (0 expected) and the "
          "solution %s (%s expected)" % (skel["score"], sol["score"], full))
    sys.exit(1)
PY
[ $fail = 0 ] && echo "ok   dist: student's copy $(du -h "$top/build/dist/reduce-scan-kit.tar.gz" | cut -f1): no solutions, hidden tests, answer keys or kit tests, references prebuilt, grades lab 1"
exit $fail
