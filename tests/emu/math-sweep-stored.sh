#!/bin/sh
# math-sweep-stored.sh - the emulator's device math against a GPU's,
# without a GPU: tests/gpu/math-sweep.cu built with emu-nvcc (-O2, as
# tests/gpu/device-math-sweep.sh builds it) and run, its output compared
# by tests/gpu/math_compare.py with the output the sweep gave on an
# NVIDIA H200 (tests/data/math-sweep-h200.txt.xz; tests/data/README.md
# says how it was made).  Fails if a function DIFFERS (beyond CUDA's
# bound, or any difference where CUDA defines the bits) or a side lacks
# cases.  And the check can fail: the emulator's output with one bit of
# one exact result changed must be refused.
# Without python3's lzma module: SKIPPED.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
fail=0
no() { echo "FAIL math-sweep-stored: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stored=tests/data/math-sweep-h200.txt.xz
compare=tests/gpu/math_compare.py

if ! python3 -c 'import lzma' 2>/dev/null; then
    echo "math-sweep-stored: SKIPPED: python3 has no lzma module to read $stored"
    exit 0
fi
python3 -c 'import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$stored" >"$tmp/gpu.txt" ||
    { echo "FAIL math-sweep-stored: cannot read $stored"; exit 1; }

common/emu/emu-nvcc -O2 -o "$tmp/sweep" tests/gpu/math-sweep.cu >"$tmp/build.log" 2>&1 ||
    { echo "FAIL math-sweep-stored: emu-nvcc failed:"; tail -20 "$tmp/build.log"; exit 1; }
"$tmp/sweep" >"$tmp/emu.txt" 2>"$tmp/run.log" ||
    { echo "FAIL math-sweep-stored: the sweep failed:"; tail -20 "$tmp/run.log"; exit 1; }

summary=$(python3 $compare "$tmp/gpu.txt" "$tmp/emu.txt" "$tmp/out.md")
if [ $? -ne 0 ]; then
    no "$summary"
    grep -E '^- `[^`]*` \(DIFFERS' "$tmp/out.md" | cut -c1-400
fi
n=$(cut -f1 "$tmp/gpu.txt" | uniq | wc -l)
[ "$n" -gt 300 ] || no "only $n functions in $stored"

# The check can fail: one bit of the first case of an exact function.
python3 - "$tmp/emu.txt" "$tmp/bad.txt" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = next(k for k, l in enumerate(lines) if l.startswith("__float2ll_rn\t"))
name, t, args, res = lines[i].split("\t")
lines[i] = "\t".join([name, t, args, "%x" % (int(res, 16) ^ 1)])
open(sys.argv[2], "w").write("\n".join(lines))
EOF
python3 $compare "$tmp/gpu.txt" "$tmp/bad.txt" "$tmp/bad.md" >/dev/null &&
    no "an emulator output with one result changed passed"
grep -q '^| `__float2ll_rn` .* DIFFERS' "$tmp/bad.md" || no "the changed result was not reported as DIFFERS"

[ $fail -eq 0 ] && echo "PASS math-sweep-stored: $summary (against the H200's stored output)"
exit $fail
