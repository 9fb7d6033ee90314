# The student's text reaches the report and results.json only cleaned and
# indented: no C0 (but line break and tab), DEL, C1 or invalid UTF-8, and no
# line of the student's that reads like the grader's TOTAL line.
python3 - "$report" "$json" <<'PY'
import json, re, sys
report = open(sys.argv[1], "rb").read()
r = json.load(open(sys.argv[2], encoding="utf-8"))
texts = [("report", report.decode("utf-8"))]          # raises on invalid UTF-8
texts.append(("results.json output", r["output"]))
texts += [("results.json test " + t["name"], t.get("output", "")) for t in r["tests"]]
bad = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
for where, text in texts:
    m = bad.search(text)
    if m:
        sys.exit("%s holds control character U+%04X" % (where, ord(m.group())))
    fakes = [l for l in text.split("\n") if l.startswith("TOTAL 100.0 / 100.0")]
    if fakes:
        sys.exit("%s has a line starting like the grader's TOTAL: %r" % (where, fakes[0]))
if b"owned" not in report:
    sys.exit("the student's text did not reach the report at all: the attack did not run")
PY
