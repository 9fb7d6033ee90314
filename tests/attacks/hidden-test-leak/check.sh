# Nothing of the hidden case reaches the student: not its size (777777,
# nor half of it, nor its last index), its seed (424242), its group's hint,
# the run's own text or its output's diagnosis; yet the hidden case ran
# and failed, and the visible case's text was shown (the attack ran).
python3 - "$report" "$json" <<'PY'
import json, re, sys
report = open(sys.argv[1], encoding="utf-8").read()
r = json.load(open(sys.argv[2], encoding="utf-8"))
blob = report + "\n" + json.dumps(r, ensure_ascii=False)
for secret in ("777777", "777776", "388888", "424242", "HIDDEN-HINT"):
    if secret in blob:
        line = next(l for l in blob.split("\n") if secret in l)
        sys.exit("the hidden case's %s reached the student: %r" % (secret, line[:200]))
if "run(): n=4099" not in report:
    sys.exit("the visible case's own text is not in the report: the attack did not run")
hidden = [t for t in r["tests"] if t.get("visibility") != "visible"]
if not hidden or "hidden test #3: WRONG" not in hidden[0].get("output", ""):
    sys.exit("the hidden case did not fail WRONG as the attack meant: %r" % hidden)
if "Hidden tests: 1 group(s)" not in report:
    sys.exit("the report does not say that hidden tests exist")
PY
