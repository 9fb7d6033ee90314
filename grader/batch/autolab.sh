#!/usr/bin/env bash
# autolab.sh - Autolab's autograder for one lab of the kit.
# usage: autolab.sh labN [SUBMISSION]   (SUBMISSION: folder or file, default .)
# Prints the grader's report, then as the very last line of stdout
#   {"scores": {"<group id>": points, ..., "speed": points}}
# (Autolab's convention).  The keys are the group ids of
# grader/suites/labN.suite; name the assessment's problems after them, plus
# "speed" when the lab has speed tests.  The kit is the checkout this script
# lives in (or $KIT_DIR).
set -u
here=$(cd "$(dirname "$0")" && pwd)
kit=${KIT_DIR:-$(cd "$here/../.." && pwd)}
lab=${1:-}
sub=${2:-.}
if [ -z "$lab" ]; then
    echo "usage: autolab.sh labN [SUBMISSION]" >&2
    echo '{"scores": {}}'
    exit 2
fi
case "$sub" in /*) ;; *) sub="$(pwd)/$sub" ;; esac
tmp=$(mktemp -d) || { echo '{"scores": {}}'; exit 1; }
trap 'rm -rf "$tmp"' EXIT
(cd "$kit" && ./grade "$lab" --submission "$sub" --json "$tmp/results.json") 2>&1
rc=$?
[ $rc -eq 0 ] || echo "autolab.sh: ./grade exited with status $rc; every problem scores 0"
if command -v python3 >/dev/null 2>&1; then
    python3 "$here/post.py" autolab "$tmp/results.json" "$kit/grader/suites/$lab.suite" || true
else
    echo "autolab.sh: python3 is missing; cannot read the results"
    echo '{"scores": {}}'
fi
