#!/bin/sh
# math-table.sh - the README's table of device math (common/emu/README.md,
# "Device math") is the one common/emu/tools/math_table.py generates from
# include/cuemu_math.h; every name it lists is declared for device code
# (a `using ::name;` of each compiles under emu-nvcc); and the check can
# fail: a function added to a copy of the header makes the table stale.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
fail=0
no() { echo "FAIL math-table: $*"; fail=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen=common/emu/tools/math_table.py
hdr=common/emu/include/cuemu_math.h

python3 $gen --check || no "README.md's table is stale"

# Every listed name is declared.
python3 $gen | grep '^| .*`' | sed -n 's/^| [^|]* | \(.*\) | [^|]* |$/\1/p' | tr ',' '\n' | tr -d ' `' | grep . |
    sed 's/.*/namespace listed { using ::&; }/' >"$tmp/names.cu"
n=$(wc -l <"$tmp/names.cu")
[ "$n" -gt 300 ] || no "only $n names parsed from the table"
echo 'int main(void) { return 0; }' >>"$tmp/names.cu"
common/emu/emu-nvcc -c -o "$tmp/names.o" "$tmp/names.cu" 2>"$tmp/err" ||
    no "names in the table that device code cannot use: $(grep -o "error: .*" "$tmp/err" | head -5 | tr '\n' ' ')"

# The check can fail.
cp common/emu/README.md "$tmp/README.md"
sed 's|^static inline unsigned umin|static inline unsigned cuemu_not_in_readme(unsigned a) { return a; }\n&|' $hdr >"$tmp/h.h"
grep -q cuemu_not_in_readme "$tmp/h.h" || no "could not add a function to a copy of the header"
python3 $gen --check --header "$tmp/h.h" --readme "$tmp/README.md" >/dev/null &&
    no "a function added to the header did not make the table stale"

[ $fail -eq 0 ] && echo "PASS math-table: README's table is generated from cuemu_math.h ($n names, each declared)"
exit $fail
