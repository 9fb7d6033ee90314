#!/bin/sh
# attacks.sh - the adversarial suite: every way a student could try to buy a
# grade, or harm the machine or another student, kept as a submission with
# the verdict the grader must give it (docs/design.md, section 11, lists
# each class with its defence).
#
#   sh tests/attacks.sh [--gpu]     ONLY="name..." runs only those attacks
#
# An attack is a folder tests/attacks/NAME/ holding:
#   attack.conf   shell words: lab=, what= (one line), class= (the threat
#                 class of design.md section 11), verdict= (text the report
#                 must contain; ';' separates alternatives), score= (zero,
#                 partial, notfull, full, nospeed, any: see `judge_score`),
#                 args= (extra ./grade options; default --no-speed; ${dir}
#                 is the attack's folder, e.g. a fixture --suites ${dir}suites),
#                 needs= (any of: isolation root gpu emu), append= (another
#                 attack's append.cu to use, as tests/attacks/NAME/append.cu,
#                 when two attacks append the same code)
#   edit.sed      optional: a sed script applied to the lab's solution
#   append.cu     optional: appended to the (edited) solution file
#   files/        optional: more files copied into the submission folder
#   check.sh      optional: run after grading (sh, with $report, $json, $sub,
#                 $tmp and $top set); a non-zero exit is a failure, and what
#                 it printed says why
#   run.sh        optional: the whole attack instead of one grading (a batch,
#                 an archive); exit 0 passed, 77 SKIPPED (its last line
#                 says why), anything else failed
# In edits and files, KITTOP stands for this kit's folder and SCRATCH for a
# fresh folder outside the kit that the attack may try to reach.
#
# Without --gpu the attacks that need a GPU print SKIPPED; with --gpu
# (tests/gpu/device-attacks.sh) every attack runs on the GPU.  A check that
# cannot run says SKIPPED and never counts as passed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/lib.sh
gpu=0
[ "${1:-}" = "--gpu" ] && gpu=1
if ! make -s --no-print-directory backend-check >/dev/null 2>&1; then
    echo "attacks: SKIPPED: no GPU and no CPU emulator here"
    exit 0
fi
backend=$(make -s --no-print-directory print-backend 2>/dev/null)
tmp=$(mktemp -d) || exit 1
trap 'chmod -R u+rwX "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
# The gradings' scratch folders go here, so the closing look for processes
# left behind sees these gradings' only, not another test's on the machine.
export TMPDIR="$tmp/gradings"
mkdir -p "$TMPDIR" && chmod 755 "$TMPDIR"
fail=0 ran=0 skipped=0

# The score and the correctness maximum a results.json gives; "none none"
# when there is none.
score_of() {
    python3 - "$1" <<'PY' 2>/dev/null || echo "none none none"
import json, sys
r = json.load(open(sys.argv[1]))
c = [t for t in r["tests"] if not t["name"].startswith("Speed")]
s = [t for t in r["tests"] if t["name"].startswith("Speed")]
print(sum(t["score"] for t in c), sum(t["max_score"] for t in c), sum(t["score"] for t in s))
PY
}

# judge_score WANT GOT MAX SPEED: whether the score is the attack's due.
# zero: nothing; partial: some but not all correctness points; notfull:
# less than all; full: all correctness points (the harm was contained);
# nospeed: no speed points at all; any: only the verdict text counts.
judge_score() {
    python3 -c 'import sys
want, got, mx, sp = sys.argv[1], *map(float, sys.argv[2:])
ok = {"zero": got == 0 and sp == 0, "partial": 0 < got < mx, "notfull": got < mx,
      "full": got == mx, "nospeed": sp == 0, "any": True}[want]
sys.exit(0 if ok else 1)' "$@" 2>/dev/null
}

# Why this attack cannot run here, or nothing.
cannot_run() {
    for n in $needs; do
        case $n in
            gpu) [ $gpu = 1 ] || { echo "needs a GPU (tests/gpu/device-attacks.sh runs it)"; return; } ;;
            emu) [ "$backend" = emu ] || { echo "needs the CPU emulator backend"; return; } ;;
            root) [ "$(id -u)" = 0 ] || { echo "needs the grader to run as root"; return; } ;;
            isolation) [ "${GRADE_SANDBOX:-}" != unsandboxed ] ||
                { echo "students' code is not isolated here (GRADE_SANDBOX=unsandboxed)"; return; } ;;
        esac
    done
}

# Build the submission folder $sub from the lab's solution and the attack.
make_submission() {
    sol=$(ls solutions/$lab-*/*.cu | head -1)
    mkdir -p "$sub"
    file="$sub/$(basename "$sol")"
    if [ -f "$dir/edit.sed" ]; then sed -f "$dir/edit.sed" "$sol"; else cat "$sol"; fi >"$file"
    [ -f "$append" ] && cat "$append" >>"$file"
    [ -d "$dir/files" ] && cp -R "$dir/files/." "$sub/"
    find "$sub" -type f -exec sed -i "s|KITTOP|$top|g; s|SCRATCH|$scratch|g" {} +
    chmod -R a+rX "$sub"
}

# One attack, graded; prints its line and returns non-zero on failure.
run_attack() {
    lab= what= class= verdict= score=any args=--no-speed needs= append=
    . "$dir/attack.conf"
    append=${append:+tests/attacks/$append}
    append=${append:-$dir/append.cu}
    why=$(cannot_run)
    if [ -n "$why" ]; then
        echo "SKIPPED $name: $why"; skipped=$((skipped + 1)); return 0
    fi
    ran=$((ran + 1))
    sub=$tmp/$name/sub scratch=$tmp/$name/outside report=$tmp/$name/report json=$tmp/$name/results.json
    mkdir -p "$scratch" && chmod 777 "$scratch" "$tmp/$name" 2>/dev/null
    export report json sub tmp top scratch
    if [ -f "$dir/run.sh" ]; then
        out=$(sh "$dir/run.sh" 2>&1); rc=$?
        case $rc in
            0) echo "ok   $name ($class): $what" ;;
            77) echo "SKIPPED $name: $(echo "$out" | tail -1)"; ran=$((ran - 1)); skipped=$((skipped + 1)) ;;
            *) echo "FAIL $name ($class): $what"; echo "$out" | tail -15; return 1 ;;
        esac
        return 0
    fi
    make_submission
    # shellcheck disable=SC2086
    ./grade "$lab" --submission "$sub" --timeout 20 $args --json "$json" >"$report" 2>&1
    rc=$?
    set -- $(score_of "$json")
    if [ $rc -ne 0 ]; then
        echo "FAIL $name: ./grade exited $rc"; tail -8 "$report"; return 1
    elif ! grep -q -- "$(echo "$verdict" | sed 's/;/\\|/g')" "$report"; then
        echo "FAIL $name ($class): expected '$verdict' in the report"; tail -25 "$report"; return 1
    elif ! judge_score "$score" "$1" "$2" "$3"; then
        echo "FAIL $name ($class): score $1 of $2 (speed $3), expected $score"; tail -25 "$report"; return 1
    elif [ -f "$dir/check.sh" ] && ! msg=$(sh "$dir/check.sh" 2>&1); then
        echo "FAIL $name ($class): $msg"; return 1
    fi
    echo "ok   $name ($class) -> $(echo "$verdict" | cut -d';' -f1), $1 of $2: $what"
}

for dir in tests/attacks/*/; do
    name=$(basename "$dir")
    [ -f "$dir/attack.conf" ] || continue
    case " ${ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
    run_attack || fail=1
done
left=$(left_running "$TMPDIR")
[ -z "$left" ] || { echo "FAIL attacks: processes left behind: $left" | head -3; fail=1; }
echo "attacks: $ran run, $skipped SKIPPED, $([ $fail = 0 ] && echo "all held" || echo "SOME GOT THROUGH")"
exit $fail
