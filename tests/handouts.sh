#!/bin/sh
# handouts.sh - every handout (and README, docs/, the answer keys) renders to
# HTML with its tables and figures, and every link resolves
# (tests/render_handouts.py).  Needs a python3 with the markdown module:
# the one on PATH, or Debian's /usr/bin/python3 (make deps installs
# python3-markdown there); SKIPPED without one.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
for py in python3 /usr/bin/python3; do
    if "$py" -c "import markdown" 2>/dev/null; then
        exec "$py" "$top/tests/render_handouts.py"
    fi
done
echo "handouts: SKIPPED: no python3 with the markdown module (make deps installs python3-markdown)"
exit 0
