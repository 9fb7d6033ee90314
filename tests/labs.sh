#!/bin/sh
# labs.sh - end-to-end check of every lab through ./grade on this machine's
# backend (GPU, or the CPU emulator): each reference solution must pass every
# correctness test, each untouched skeleton must build and score 0.
# Where neither a GPU nor the emulator is available this says SKIPPED; it
# never reports a pass for work it did not do.  WHO (default "solution
# skeleton") picks which of the two are graded.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if ! make -s --no-print-directory backend-check >/dev/null 2>&1; then
    echo "test-labs: SKIPPED: no GPU and no CPU emulator here, so no lab was run"
    exit 0
fi
backend=$(make -s --no-print-directory print-backend)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for suite in grader/suites/lab*.suite; do
    lab=$(basename "$suite" .suite)
    dir=$(sed -n 's/^lab [^ ]* dir=\([^ ]*\).*/\1/p' "$suite")
    for who in ${WHO:-solution skeleton}; do
        if [ $who = solution ]; then src=solutions/$dir; else src=labs/$dir; fi
        json=$tmp/$lab-$who.json
        # skeletons need no speed runs: they fail correctness anyway
        speed=""; [ $who = skeleton ] && speed=--no-speed
        if ! ./grade "$lab" --submission "$src" --json "$json" $speed >"$tmp/$lab-$who.log" 2>&1; then
            echo "FAIL $lab $who: ./grade failed"; tail -20 "$tmp/$lab-$who.log"; fail=1; continue
        fi
        verdict=$(python3 - "$json" "$who" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
tests = [t for t in r["tests"] if not t["name"].startswith("Speed")]
if sys.argv[2] == "solution":
    bad = [t["name"] for t in tests if abs(t["score"] - t["max_score"]) > 1e-9]
    print("ok" if not bad else "groups below full marks: " + ", ".join(bad))
else:
    print("ok" if r["score"] == 0 else "skeleton scored %s, expected 0" % r["score"])
PY
)
        if [ "$verdict" = ok ]; then
            echo "ok   $lab $who ($backend${CUEMU_SCHEDULE:+, schedule $CUEMU_SCHEDULE})"
        else
            echo "FAIL $lab $who ($backend): $verdict"; cat "$tmp/$lab-$who.log"; fail=1
        fi
    done
done
exit $fail
