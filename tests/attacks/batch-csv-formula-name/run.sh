# Submission names a spreadsheet would run as formulas: each name cell of
# the gradebook starts with a single quote (OWASP's rule), and a C1 control
# character in a name does not reach the CSV.
set -u
cd "$top" || exit 1
make -s --no-print-directory batch grader || exit 1
w=$tmp/batch-csv-formula-name
mkdir -p "$w/subs" "$w/t" && chmod 711 "$w" "$w/t"
for s in '=HYPERLINK("x"&A1,"open")' '+1+1' '-2+3' '@SUM(1)' \
         "$(printf 'bob\302\233evil')"; do
    mkdir -p "$w/subs/$s" && echo "not a lab" >"$w/subs/$s/README.txt"
done
TMPDIR="$w/t" ./build/batch "$w/subs" lab1 --json-dir "$w/out" --csv "$w/g.csv" --jobs 2 \
    --no-speed >"$w/log" 2>&1 || { echo "batch exited $?"; cat "$w/log"; exit 1; }
cat "$w/g.csv"
python3 - "$w/g.csv" <<'PY'
import csv, re, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8", newline="")))
bad = 0
for row in rows[1:]:
    for cell in row:
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
            print("formula cell: %r" % cell); bad = 1
        if re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", cell):
            print("control character in %r" % cell); bad = 1
names = sorted(r[0] for r in rows[1:])
want = sorted(["'=HYPERLINK(\"x\"&A1,\"open\")", "'+1+1", "'-2+3", "'@SUM(1)",
               "bob??evil"])
if names != want:
    print("names %r, expected %r" % (names, want)); bad = 1
sys.exit(bad)
PY
