#!/bin/sh
# lab6-pipeline.sh - tests/gpu/lab6/pipeline.py (lab 6's reference with the
# tile kept in shared memory, the next GPU measurement) must still apply to
# the solution and give a kernel that passes every correctness test of the
# lab, here on this machine's backend, so the GPU run measures something right.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if ! make -s --no-print-directory backend-check >/dev/null 2>&1; then
    echo "lab6-pipeline: SKIPPED: no GPU and no CPU emulator here"
    exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
python3 tests/gpu/lab6/pipeline.py "$tmp/scan.cu" || { echo "FAIL lab6-pipeline: pipeline.py"; exit 1; }
chmod a+r "$tmp/scan.cu"
./grade lab6 --submission "$tmp/scan.cu" --no-speed --json "$tmp/r.json" >"$tmp/log" 2>&1
verdict=$(python3 - "$tmp/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
bad = [t["name"] for t in r["tests"] if not t["name"].startswith("Speed")
       and abs(t["score"] - t["max_score"]) > 1e-9]
print("ok" if not bad else "below full marks: " + ", ".join(bad))
PY
)
if [ "$verdict" = ok ]; then
    echo "ok   lab6 pipeline variant: every correctness group at full marks"
else
    echo "FAIL lab6 pipeline variant: $verdict"; grep -E "WRONG|ERROR|RACE|TIMEOUT" "$tmp/log" | head; exit 1
fi
