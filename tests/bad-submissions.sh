#!/bin/sh
# bad-submissions.sh - broken, hostile or cheating variants of the reference
# solutions, made by small edits at test time (so they follow the solutions
# as they change), each graded by ./grade: each must get its verdict, a
# clear message and the right score, and none may hang the grader or leave
# processes behind.  Runs on this machine's backend; SKIPPED where there is
# none.
# A case may name the groups of its lab's suite that are graded (the list's
# last field, groups=ID,...; tests/suite_subset.py writes that suite): the
# groups that catch its mistake, each still graded whole.  What this gives
# up: that the lab's other groups still give the mutant their points (the
# score is checked against the groups graded), and for hang, that the other
# groups too stop after their own two hangs (grader/correctness.c; hier
# does).  The lab 7 mutants, hang and blockidx-order graded every group:
# ~275 of the script's ~315 CPU seconds, now ~95.  hang also runs under
# timeout=5 (the others' limit is 10 s, which correct-but-slow needs): its
# two runs wait out the limit, while its one passing case (n=0) takes
# milliseconds; it comes last, so that no round waits on it and a lab 7 case.
# grid-stride-index (lab 7) reads in[] by the thread, not by i, once the
# grid-stride loop wraps: only cases above 2^20 elements see it, which on the
# emulator are the stand-ins of the 2^22+1 cases (emu_n, grader/suites/lab7.suite).
# With --make DIR it only writes the submissions, one folder per case, into
# DIR (tests/gpu/device-batch.sh grades them as a class).
# ONLY="name name..." runs only those cases.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
make_only=""
[ "${1:-}" = "--make" ] && make_only=$(mkdir -p "$2" && cd "$2" && pwd)
cd "$top" || exit 1
. tests/lib.sh
if [ -z "$make_only" ] && ! make -s --no-print-directory backend-check >/dev/null 2>&1; then
    echo "bad-submissions: SKIPPED: no GPU and no CPU emulator here"
    exit 0
fi
if [ -n "$make_only" ]; then
    tmp=$make_only
else
    tmp=$(mktemp -d) || exit 1
    trap 'rm -rf "$tmp"' EXIT
fi
chmod 755 "$tmp"
fail=0
# cases only the grader's filesystem view (grader/fsview.h) can contain
needs_isolation="macro-include reads-the-kit"

# The score a report's results.json gives, and its correctness maximum.
score() {
    python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
print(r["score"], sum(t["max_score"] for t in r["tests"] if not t["name"].startswith("Speed")))' "$1"
}

# name | lab | sed expression applied to its solution | text the report must contain | score
# [| groups=ID,... (default: every group) timeout=SEC (default 10)]
# score: zero (nothing), partial (more than 0, less than full correctness), notfull (less
# than full), full (all correctness points: the harmful part was contained), any (the
# forks cost it time, so some tests may time out: what matters is that grading finished,
# the report explains and no process is left behind)
# (in the expected text, ';' separates alternatives; KITTOP in an edit becomes this kit's path)
# One case's grading and verdict line, into $tmp/$name.verdict (run in the
# background, two or more at a time).
grade_case() {
    name=$1 lab=$2 expect=$3 want=$4 groups="" suites="" timeout=10
    for o in $5; do
        case $o in groups=*) groups=${o#groups=} ;; timeout=*) timeout=${o#timeout=} ;;
            *) echo "FAIL $name: '$o' in the list is not groups= or timeout=" >"$tmp/$name.verdict"
               return ;; esac
    done
    if [ -n "$groups" ]; then
        suites="--suites $tmp/suites/$name"
        python3 tests/suite_subset.py $lab "$tmp/suites/$name" --groups "$groups" \
            >"$tmp/$name.log" 2>&1 || { echo "FAIL $name: groups $groups: $(cat "$tmp/$name.log")" \
            >"$tmp/$name.verdict"; return; }
    fi
    TMPDIR="$scratch" ./grade $lab --submission "$tmp/$name" --no-speed --timeout $timeout $suites \
        --json "$tmp/$name.json" >"$tmp/$name.log" 2>&1
    rc=$?
    set -- $(score "$tmp/$name.json" 2>/dev/null || echo "none none")
    got=$1 max=$2
    ok=0 # (a score word not below is a mistake in this list: it fails)
    case "$want" in
        zero) ok=$(python3 -c "print(int($got == 0))" 2>/dev/null) ;;
        partial) ok=$(python3 -c "print(int(0 < $got < $max))" 2>/dev/null) ;;
        full) ok=$(python3 -c "print(int($got == $max))" 2>/dev/null) ;;
        notfull) ok=$(python3 -c "print(int($got < $max))" 2>/dev/null) ;;
        any) ok=1 ;; # what counts: the grader finished, said why, left nothing behind
    esac
    if grep -q "WITHOUT filesystem isolation" "$tmp/$name.log" &&
       case " $needs_isolation " in *" $name "*) true ;; *) false ;; esac; then
        echo "SKIPPED $name: students' code is not isolated here (no namespaces, GRADE_SANDBOX=unsandboxed)"
    elif [ $rc -ne 0 ]; then
        echo "FAIL $name: ./grade exited $rc"; tail -5 "$tmp/$name.log"
    elif ! grep -q -- "$(echo "$expect" | sed 's/;/\\|/g')" "$tmp/$name.log"; then
        echo "FAIL $name: expected '$expect' in the report"; tail -30 "$tmp/$name.log"
    elif [ "${ok:-0}" != 1 ]; then
        echo "FAIL $name: score $got of $max correctness points, expected $want"
    else
        echo "ok   $name -> $expect ($got of $max)"
    fi >"$tmp/$name.verdict"
}

# A student's program still running once none of these gradings is: a
# grader that left processes behind (their scratch folders are
# $scratch/grade.XXXXXX, the binary box/student; other gradings on the
# machine have theirs elsewhere).
scratch="$tmp/scratch"
mkdir -p "$scratch" && chmod 755 "$scratch"

# The cases in rounds of JOBS gradings at once (default: the cores); each
# round's verdicts in the list's order, then a look for leftovers.
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
round=""
finish_round() {
    wait
    for n in $round; do
        cat "$tmp/$n.verdict"
        grep -q "^ok\|^SKIPPED" "$tmp/$n.verdict" || fail=1
    done
    if [ -n "$round" ] && left=$(left_running "$scratch") && [ -n "$left" ]; then
        echo "FAIL $round: processes left behind: $left" | head -3; fail=1
        left_running "$scratch" | awk '{print $1}' | xargs -r kill -9 2>/dev/null
    fi
    round=""
}
while IFS='|' read -r name lab edit expect want extra; do
    [ -n "$name" ] || continue
    case " ${ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
    sol=$(ls solutions/$lab-*/*.cu)
    mkdir -p "$tmp/$name"
    sed "$edit" "$sol" | sed "s|KITTOP|$top|g" >"$tmp/$name/$(basename "$sol")"
    if cmp -s "$sol" "$tmp/$name/$(basename "$sol")"; then
        echo "FAIL $name: the edit changed nothing (solution changed?)"; fail=1; continue
    fi
    if [ "$name" = extra-files ]; then # a submission that also "fixes" the kit
        mkdir -p "$tmp/$name/common" "$tmp/$name/grader/suites"
        echo 'int main(void) { return 0; }' >"$tmp/$name/common/harness.cu"
        echo 'all:; @echo pwned' >"$tmp/$name/Makefile"
        echo 'lab lab1 dir=x files=reduce.cu' >"$tmp/$name/grader/suites/lab1.suite"
    fi
    chmod -R a+rX "$tmp/$name"
    [ -n "$make_only" ] && continue
    grade_case "$name" "$lab" "$expect" "$want" "$extra" &
    round="$round $name"
    [ $(echo $round | wc -w) -lt "$jobs" ] || finish_round
done <<'CASES'
compile-error|lab1|s/const Op op;/const Op op; this is not C++;/|BUILD FAILED|zero
out-of-bounds|lab1|s/\*out = partial\[0\];/out[3] = partial[0];/|OUT-OF-BOUNDS|partial
host-crash|lab1|s/const T identity = Op::identity();/const T identity = Op::identity(); *(volatile int *)0 = 1;/|CRASH|partial
no-identity-init|lab1|/CUDA_TRY(cudaMemcpy(out, \&identity/d|WRONG  *hierarchical int32 sum|partial
zero-padding|lab1|s/: Op::identity();/: T(0);/|WRONG|partial
fake-verdict|lab1|s/\*out = partial\[0\];/*out = op(partial[0], (T)1); printf("self-check PASS\\nTOTAL 100.0 \/ 100.0\\n");/|WRONG|partial
forbidden-cub|lab1|s/#include "ops.cuh"/#include "ops.cuh"\n#include <cub\/cub.cuh>/|FORBIDDEN|zero
huge-file|lab1|s/const T identity = Op::identity();/const T identity = Op::identity(); { static char mb[1 << 20]; FILE *junk = fopen("junk", "w"); for (int i = 0; junk \&\& i < 100000; i++) fwrite(mb, 1, sizeof mb, junk); }/|File size limit exceeded|partial
fork-bomb|lab1|s/#include "ops.cuh"/#include "ops.cuh"\n#include <unistd.h>/; s/const T identity = Op::identity();/const T identity = Op::identity(); { static int once; for (int i = 0; p->n == 65537 \&\& !once \&\& i < 3000; i++) if (fork() == 0) { sleep(60); _exit(0); } once = 1; }/|PASS|any
correct-but-slow|lab1|s/    const size_t start = (size_t)blockIdx.x \* SECTION;/    const size_t start = (size_t)blockIdx.x * SECTION;\n    __nanosleep(8000); \/\/ every block idles ~8 us: right answers, several times slower/|PASS|full
extra-files|lab1|s/^#include "lab.h"/#include "lab.h" \/\/ this copy also ships its own harness, Makefile and suite/|PASS|full
blockidx-order|lab6|s/ticket = atomicAdd(next_tile, 1u);/ticket = blockIdx.x;/|EMU-ERROR  *chained int32 sum small n=300007 seed=3 \[emu reverse\]|partial|groups=chained
macro-include|lab3|1{s,^.*$,#define S(x) #x\n#include S(KITTOP/solutions/lab3-scan-kogge-stone/scan.cu),;q}|BUILD FAILED|zero
reads-the-kit|lab1|s/#include "ops.cuh"/#include "ops.cuh"\n#include <stdlib.h>\n#include <unistd.h>/; s/const T identity = Op::identity();/const T identity = Op::identity(); if (access("KITTOP\/solutions", F_OK) + access("KITTOP\/grader\/suites", F_OK) > -2) abort();/|PASS|full
no-state-reset|lab6|s/CUDA_TRY(cudaMemsetAsync(scratch, 0, bytes, 0));//|EMU-ERROR;RACE;WRONG|notfull
double-free|lab5|s/^        CUDA_TRY(cudaFreeAsync(sums, 0));/&\n&/|scan.cu:[0-9]*: CUDA error|partial|groups=one-level
unstable-compaction|lab7|s/            buf\[pad(at++)\] = x\[i\];/            buf[pad(2 * lanes_before.v[0][0] + kept.v[0][0] - 1 - at)] = x[i], at++;/|kept elements go to out\[\] in input order|partial|groups=compact
write-past-count|lab7|s/        \*count = (U)((size_t)warp_start + in_warp);/        *count = (U)((size_t)warp_start + in_warp);\n    if (id == 0 \&\& threadIdx.x == 0)\n        out[n - 1] = x[0];/|is past the kept elements and was written|partial|groups=compact
shared-order-carries|lab7|s/            x\[i\] += in.v\[j\]\[i\];/            x[i] += in.v[0][i];/|WRONG  *decode int[0-9]* sum [a-z]* n=[0-9]* seed=[0-9]* order=[2-8] tuple=1 |partial|groups=order
blockidx-tiles|lab7|s/\*id = atomicAdd(st.next_tile, 1u);/*id = blockIdx.x;/|EMU-ERROR  *compact int32 sum small n=300007 seed=3 keep=positive \[emu reverse\]|partial|groups=compact
grid-stride-index|lab7|s/            out\[pos\[i\] - 1\] = in\[i\];/            out[pos[i] - 1] = in[i % ((size_t)gridDim.x * blockDim.x)];/|WRONG  *compact-3step int32 sum wide n=[0-9]* seed=2 keep=positive|partial|groups=compact-3step
hang|lab1|s/stride \*= 2)/stride *= 1)/|TIMEOUT|partial|groups=hier timeout=5
CASES
finish_round

# Lanes (grader/correctness.h) change when cases run, never their verdicts:
# a wrong submission graded with its groups one after another and three at
# once gives the same table (its lines, without times).
verdicts() { grep -E '^  [A-Z-]+ |^TOTAL|-> ' "$1" | sed 's/ *[0-9.]* ms$//'; }
for pair in ${LANES_CASES-zero-padding:lab1}; do
    name=${pair%%:*} lab=${pair#*:}
    [ -d "$tmp/$name" ] && [ -z "$make_only" ] || continue
    for lanes in 1 3; do
        ./grade "$lab" --submission "$tmp/$name" --no-speed --timeout 10 --lanes $lanes \
            >"$tmp/$name.lanes$lanes" 2>&1
        verdicts "$tmp/$name.lanes$lanes" >"$tmp/$name.verdicts$lanes"
    done
    if [ "$(wc -l <"$tmp/$name.verdicts1")" -lt 5 ]; then
        echo "FAIL lanes $name: no table with --lanes 1"; tail -5 "$tmp/$name.lanes1"; fail=1
    elif ! cmp -s "$tmp/$name.verdicts1" "$tmp/$name.verdicts3"; then
        echo "FAIL lanes $name: --lanes 3 gave other verdicts than --lanes 1:"
        diff "$tmp/$name.verdicts1" "$tmp/$name.verdicts3" | head -10; fail=1
    else
        echo "ok   lanes $name: the same $(wc -l <"$tmp/$name.verdicts1") table lines with 1 and 3 lanes"
    fi
done
exit $fail
