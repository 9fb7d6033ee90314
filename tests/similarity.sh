#!/bin/sh
# similarity.sh - ./grade --similarity ranks planted near-copies above
# independent solutions.  The class: lab 1's reference and three other
# correct solutions written independently (tests/similarity/lab1/: a while
# loop with if/else loads, a bit mask with a load loop, loads through
# registers and a pointer), and three near-copies of one of them made here
# (tests/similarity/near_copies.py: names renamed; then the kernels swapped
# too; then the comments rewritten too).  The six pairs among the copied
# solution and its copies must be the first six rows of the CSV, clearly
# above the seventh; the HTML report must be written.  SKIPPED where
# copydetect (PyPI) is not installed for python3.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
python3 -c "import copydetect" 2>/dev/null ||
    { echo "similarity: SKIPPED: copydetect is not installed (python3 -m pip install copydetect)"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL similarity: $*"; fail=1; }
cp -r tests/similarity/lab1 "$tmp/class"
mkdir "$tmp/class/reference" && cp solutions/lab1-*/*.cu "$tmp/class/reference/"
python3 tests/similarity/near_copies.py tests/similarity/lab1/whileloop/reduce.cu "$tmp/class" || exit 1
# one of the copies handed in as an archive, as a class's submissions come
tar -C "$tmp/class/copy-recommented" -czf "$tmp/class/copy-recommented.tgz" reduce.cu &&
    rm -r "$tmp/class/copy-recommented"
./grade --similarity "$tmp/class" lab1 --out "$tmp/out" >"$tmp/log" 2>&1 || no "exit $?: $(cat "$tmp/log")"
csv=$tmp/out/similarity.csv
[ "$(wc -l <"$csv")" = 22 ] || no "expected 21 pairs of 7 students: $(cat "$csv")"
# the first six rows: each a pair of the copied solution and its copies
copies="whileloop copy-renamed copy-reordered copy-recommented"
sed -n 2,7p "$csv" | while IFS=, read -r rank a b sa sb n; do
    case " $copies " in *" $a "*) ;; *) echo "$rank $a $b";; esac
    case " $copies " in *" $b "*) ;; *) echo "$rank $a $b";; esac
done >"$tmp/wrong"
[ -s "$tmp/wrong" ] && no "a pair of independent solutions ranks among the copies: $(cat "$tmp/wrong")"
# and clearly: the sixth pair shares at least twice as much as the seventh
sixth=$(sed -n 7p "$csv" | cut -d, -f4); seventh=$(sed -n 8p "$csv" | cut -d, -f4)
awk -v x="$sixth" -v y="$seventh" 'BEGIN { exit !(x >= 2 * y && x >= 80) }' ||
    no "the copies do not stand out: sixth pair $sixth%, seventh $seventh%"
grep -q "copy-reordered" "$tmp/out/similarity.html" 2>/dev/null || no "no HTML report naming the students"
[ $fail = 0 ] || { cat "$tmp/log"; exit 1; }
sed -n 1,9p "$tmp/log"
echo "ok   similarity: the 6 pairs of planted near-copies rank first ($sixth% against $seventh% for independent solutions)"
