# A student's repository (or an instructor-given --submission folder) whose
# labs/lab1-reduce-naive/reduce.cu is a symbolic link: first to a secret
# outside the kit (as /etc/shadow would be), then to another student's
# correct reduce.cu.  The grader copies a submission with no link inside
# it followed (collect.c, safefile.h): both are refused as MISSING FILE,
# "a symbolic link, not a file", score 0, and the secret's text is nowhere
# in the report or results.json.  A FIFO in its place is refused at once.
set -u
cd "$top" || exit 1
secret="SECRET-$$-only-root-may-read-this"
printf '#error %s\n' "$secret" >"$scratch/secret"          # compiled, it would show in the log
mkdir -p "$scratch/other/labs/lab1-reduce-naive" "$sub/labs/lab1-reduce-naive"
cp solutions/lab1-*/reduce.cu "$scratch/other/labs/lab1-reduce-naive/"
chmod -R a+rX "$scratch" "$sub"
lab_file=$sub/labs/lab1-reduce-naive/reduce.cu
grade_one() { # $1: what the lab file is; then the checks
    timeout 300 ./grade lab1 --submission "$sub" --no-speed --timeout 20 --json "$json" >"$report" 2>&1 ||
        { echo "$1: ./grade exited $?"; tail -5 "$report"; exit 1; }
    python3 - "$report" "$json" "$secret" "$1" "$2" <<'PY' || exit 1
import json, sys
report, js, secret, what, want = sys.argv[1:]
text = open(report, encoding="utf-8").read()
r = json.load(open(js, encoding="utf-8"))
blob = text + json.dumps(r)
problems = []
if want not in text:
    problems.append("no '%s' in the report" % want)
if "MISSING FILE" not in text:
    problems.append("not MISSING FILE")
if r["score"] != 0:
    problems.append("score %s, expected 0" % r["score"])
if secret in blob:
    problems.append("the secret's text reached the report or results.json")
if problems:
    print("%s: %s" % (what, "; ".join(problems)))
    print(text[-1500:])
    sys.exit(1)
print("%s: refused (%s), score 0" % (what, want))
PY
}
ln -s "$scratch/secret" "$lab_file"
grade_one "link to a secret" "a symbolic link, not a file"
rm -f "$lab_file" && ln -s "$scratch/other/labs/lab1-reduce-naive/reduce.cu" "$lab_file"
grade_one "link to another student's file" "a symbolic link, not a file"
rm -f "$lab_file" && mkfifo "$lab_file" && chmod a+r "$lab_file"
grade_one "a FIFO" "not a regular file"
