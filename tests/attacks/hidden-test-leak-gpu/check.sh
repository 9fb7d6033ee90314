# Nothing of the hidden case reaches the student on a GPU either: not in
# the speed run's text, a sanitizer's findings (the hidden group's own
# sanitizer run, or a visible group's run made after the hidden cases), a
# witness's message, a hint or a diagnosis.
python3 - "$report" "$json" <<'PY'
import json, sys
report = open(sys.argv[1], encoding="utf-8").read()
r = json.load(open(sys.argv[2], encoding="utf-8"))
blob = report + "\n" + json.dumps(r, ensure_ascii=False)
for secret in ("777777", "777776", "388888", "424242", "HIDDEN-HINT"):
    if secret in blob:
        line = next(l for l in blob.split("\n") if secret in l)
        sys.exit("the hidden case's %s reached the student: %r" % (secret, line[:200]))
hidden = [t for t in r["tests"] if t.get("visibility") != "visible"]
if not hidden or "hidden test #3: WRONG" not in hidden[0].get("output", ""):
    sys.exit("the hidden case did not fail WRONG as the attack meant: %r" % hidden)
if "this lab has hidden tests" not in report:
    sys.exit("the speed run's text was not withheld: did the speed phase run?")
PY
