# End to end through a batch: a submission whose folder name holds ANSI and
# OSC escapes (which would retitle or clear the instructor's terminal), a
# C1 CSI and a line break followed by a fake console line, and whose
# program prints C1/ANSI controls and a fake TOTAL line (report-control-
# chars' edit).  Nothing of it may reach, uncleaned: the batch's console
# (stderr and stdout), the gradebook CSV, the student's report (.txt), or
# any string anywhere in results.json.  A console line never starts with
# the student's text.
set -u
cd "$top" || exit 1
make -s --no-print-directory batch grader || exit 1
w=$tmp/batch-console-control-chars
mkdir -p "$w/subs" "$w/t" && chmod 711 "$w" "$w/t"
name=$(printf 'eve\033]0;owned\007\033[2J\302\233""31m\nbatch: [9 of 9] mallory: graded 100.0 (1.0 s)\rX')
mkdir -p "$w/subs/$name"
sed -f tests/attacks/report-control-chars/edit.sed solutions/lab1-*/reduce.cu >"$w/subs/$name/reduce.cu"
chmod -R a+rX "$w/subs"
TMPDIR="$w/t" ./build/batch "$w/subs" lab1 --json-dir "$w/out" --csv "$w/g.csv" --jobs 1 \
    --no-speed >"$w/stdout" 2>"$w/stderr" || { echo "batch exited $?"; cat "$w/stderr"; exit 1; }
python3 - "$w" <<'PY'
import glob, json, os, re, sys
w = sys.argv[1]
bad = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")   # C0 but tab and line break, DEL, C1
problems = []
def check(where, text, forbid_starts=()):
    m = bad.search(text)
    if m:
        problems.append("%s holds control character U+%04X near %r"
                        % (where, ord(m.group()), text[max(0, m.start() - 20):m.end() + 20]))
    for line in text.split("\n"):
        for start in forbid_starts:
            if line.startswith(start):
                problems.append("%s has a line starting like the grader's: %r" % (where, line[:80]))
def strings(x, path="results.json"):
    if isinstance(x, str):
        yield path, x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield from strings(k, path + " key")
            yield from strings(v, path + "." + k)
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from strings(v, "%s[%d]" % (path, i))
read = lambda p: open(p, "rb").read().decode("utf-8")      # invalid UTF-8 raises
console = read(os.path.join(w, "stderr")) + read(os.path.join(w, "stdout"))
# the batch's own progress line (\r ESC[K) is drawn only on a terminal: here there is none
check("the batch's console", console, ("batch: [9 of 9]",))
check("the gradebook", read(os.path.join(w, "g.csv")).replace("\r\n", "\n"))
jsons = glob.glob(os.path.join(w, "out", "*.json"))
txts = glob.glob(os.path.join(w, "out", "*.txt"))
if not jsons or not txts:
    problems.append("no results.json or report in %s" % os.listdir(os.path.join(w, "out")))
for p in jsons:
    for where, s in strings(json.load(open(p, encoding="utf-8"))):
        check(where, s, ("TOTAL 100.0 / 100.0",))
for p in txts:
    check("the report " + os.path.basename(p), read(p), ("TOTAL 100.0 / 100.0", "batch: [9 of 9]"))
if "owned" not in console or "mallory" not in console:
    problems.append("the name never reached the console: the attack did not run")
if problems:
    print("\n".join(problems[:8]))
    sys.exit(1)
print("cleaned: console, gradebook, report and results.json")
PY
