#!/usr/bin/env python3
"""check.py - assertions of tests/batch/run.sh on the batch's outputs.

  check.py csv GRADES.CSV EXPECT   EXPECT: lines "student|total|status" (total
                                   may be "*": any); every student listed,
                                   no other
  check.py gradescope RESULTS.JSON [leaderboard]
                                   Gradescope's results.json fields and types
  check.py autolab OUTPUT.TXT      last line is {"scores": {...}}; prints the sum
"""
import csv
import json
import sys


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def check_csv(path, expect_path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    for col in ("student", "total", "max", "status", "seconds"):
        if col not in head:
            fail("%s: no column %r in %r" % (path, col, head))
    if head[:3] != ["student", "total", "max"]:
        fail("%s: the first columns are %r" % (path, head[:3]))
    # speed is graded only on a GPU; elsewhere it is pending: no column, not in the max
    speed_max = 20 if any(h.startswith("Speed") for h in head) else 0
    recs = [dict(zip(head, r)) for r in rows[1:]]
    for r in rows[1:]:
        if len(r) != len(head):
            fail("%s: a row with %d fields, the header has %d: %r" % (path, len(r), len(head), r))
    names = [r["student"] for r in recs]
    if names != sorted(names):
        fail("%s: not sorted by student: %r" % (path, names))
    expect = {}
    with open(expect_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                name, total, status = line.rstrip("\n").split("|")
                expect[name] = (total, status)
    if sorted(expect) != names:
        fail("%s: students %r, expected %r" % (path, names, sorted(expect)))
    groups = [h for h in head if h not in ("student", "total", "max", "status", "seconds", "note")]
    for r in recs:
        total, status = expect[r["student"]]
        if r["status"] != status:
            fail("%s: %s has status %r (%s), expected %r" % (path, r["student"], r["status"],
                                                            r.get("note"), status))
        if total != "*" and float(r["total"] or "nan") != float(total):
            fail("%s: %s scored %r, expected %s" % (path, r["student"], r["total"], total))
        if status in ("graded", "build failed", "missing file", "ambiguous file", "forbidden"):
            s = sum(float(r[g]) for g in groups if r[g] != "")
            if abs(s - float(r["total"])) > 1e-6:
                fail("%s: %s: groups sum to %g, total is %s" % (path, r["student"], s, r["total"]))
            if float(r["max"]) != 80 + speed_max:
                fail("%s: %s: max %s" % (path, r["student"], r["max"]))
        if status != "graded" and not r["note"]:
            fail("%s: %s (%s) has no note saying why" % (path, r["student"], status))
        print("ok   csv %-14s %6s  %s  %s" % (r["student"], r["total"], r["status"], r["note"][:70]))


def check_gradescope(path, leaderboard):
    with open(path, encoding="utf-8") as f:
        r = json.load(f)
    num = (int, float)
    if not isinstance(r, dict) or not isinstance(r.get("score"), num):
        fail("%s: no numeric score" % path)
    if "execution_time" in r and not isinstance(r["execution_time"], num):
        fail("%s: execution_time is not a number" % path)
    if "output" in r and not isinstance(r["output"], str):
        fail("%s: output is not a string" % path)
    tests = r.get("tests")
    if not isinstance(tests, list):
        fail("%s: tests is not a list" % path)
    total = 0
    for t in tests:
        if not isinstance(t.get("name"), str) or not isinstance(t.get("score"), num) \
                or not isinstance(t.get("max_score"), num):
            fail("%s: a test without name/score/max_score: %r" % (path, t))
        if "output" in t and not isinstance(t["output"], str):
            fail("%s: a test's output is not a string" % path)
        if t.get("visibility", "visible") not in ("hidden", "after_due_date", "after_published",
                                                  "visible"):
            fail("%s: bad visibility %r" % (path, t["visibility"]))
        if t["score"] > t["max_score"] + 1e-9:
            fail("%s: %s scores over its max" % (path, t["name"]))
        total += t["score"]
    if tests and abs(total - r["score"]) > 1e-6:
        fail("%s: tests sum to %g, score is %g" % (path, total, r["score"]))
    if leaderboard:
        lb = r.get("leaderboard")
        if not isinstance(lb, list) or not lb:
            fail("%s: no leaderboard" % path)
        for e in lb:
            if not isinstance(e.get("name"), str) or not isinstance(e.get("value"), (int, float, str)) \
                    or e.get("order", "desc") not in ("asc", "desc"):
                fail("%s: bad leaderboard entry %r" % (path, e))
    print("ok   gradescope %s: score %g, %d tests" % (path, r["score"], len(tests)))
    return r


if __name__ == "__main__":
    if sys.argv[1] == "csv":
        check_csv(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "gradescope":
        r = check_gradescope(sys.argv[2], len(sys.argv) > 3)
        print("score=%g" % r["score"])
    elif sys.argv[1] == "autolab":
        with open(sys.argv[2], encoding="utf-8") as f:
            last = f.read().rstrip("\n").split("\n")[-1]
        d = json.loads(last)
        if list(d) != ["scores"] or not isinstance(d["scores"], dict):
            fail("autolab: last line %r" % last)
        print("score=%g" % sum(d["scores"].values()))
        print("ok   autolab: %s" % last)
