#!/usr/bin/env python3
"""post.py - shared by run_autograder and autolab.sh: check and finish the
single grader's results.json.

  post.py gradescope RESULTS REPORT_TXT [ERROR]
      Rewrites RESULTS for Gradescope: adds a leaderboard (visible points
      only; the grader's "output" already leaves hidden groups out).  When RESULTS is missing or invalid (or ERROR is given), writes
      a valid results.json with score 0 and the error in "output".
  post.py autolab RESULTS SUITE
      Prints {"scores": {...}} (one key per test group id, "speed" for the
      speed tests) on one line.
"""
import json
import math
import shlex
import sys


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            r = json.load(f)
        if isinstance(r, dict) and isinstance(r.get("score"), (int, float)) \
                and isinstance(r.get("tests"), list):
            return r
    except (OSError, ValueError):
        pass
    return None


def clean(text):
    """The grader's text_clean (grader/text.c) for a report the grader did
    not finish: no C0 control but line break and tab, no DEL, no C1."""
    return "".join(c if c in "\n\t" or not (ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f)
                   else "?" for c in text)


def tail(path, limit=8000):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return ""
    return clean(text[-limit:])


def speed_ratio(results):
    """The credited time ratio (student / reference, geometric mean over the
    speed tests) that the grader wrote as a number, extra_data.speed_ratio;
    None when it wrote none (a time not credited, or speed not graded).
    Never parsed from a test's text: that text may quote the student's own,
    uncredited figure."""
    extra = results.get("extra_data")
    ratio = extra.get("speed_ratio") if isinstance(extra, dict) else None
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)):
        return None
    return ratio if math.isfinite(ratio) and ratio > 0 else None


def gradescope(results_path, report_path, error=None):
    results = None if error else load(results_path)
    report = tail(report_path)
    if results is None:
        why = error or "the grader did not produce a valid results.json"
        results = {
            "score": 0,
            "output": "The autograder could not grade this submission: %s. "
                      "This is not a verdict on your code; tell your instructor.\n\n%s"
                      % (why, report),
            "tests": [],
        }
    else:
        speed = [t for t in results["tests"] if str(t.get("name", "")).startswith("Speed")]
        board = []
        ratio = speed_ratio(results)
        if ratio is not None:
            board.append({"name": "Time vs reference (x)", "value": round(ratio, 3),
                          "order": "asc"})
        if speed:
            board.append({"name": "Speed points",
                          "value": round(sum(float(t.get("score", 0)) for t in speed), 2),
                          "order": "desc"})
        # Only visible points: a hidden group's score must not show on a board
        # every student reads (Gradescope hides the total for the same reason).
        shown = [t for t in results["tests"] if t.get("visibility", "visible") == "visible"]
        board.append({"name": "Score", "value": round(sum(float(t.get("score", 0))
                                                          for t in shown), 3),
                      "order": "desc"})
        results["leaderboard"] = board
        # "output" is the grader's student view (no hidden groups); the raw
        # report stays in Gradescope's stdout, which only instructors see.
        for t in results["tests"]:
            t.setdefault("visibility", "visible")
    with open(results_path, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1)
        f.write("\n")
    return 0


def suite_ids(suite_path):
    """title -> group id, from the lab's .suite file."""
    ids = {}
    try:
        with open(suite_path, encoding="utf-8") as f:
            for line in f:
                if not line.startswith("group "):
                    continue
                try:
                    fields = dict(w.split("=", 1) for w in shlex.split(line)[1:] if "=" in w)
                except ValueError:
                    continue
                if "title" in fields and "id" in fields:
                    ids[fields["title"]] = fields["id"]
    except OSError:
        pass
    return ids


def autolab(results_path, suite_path):
    results = load(results_path)
    scores = {}
    if results is not None:
        ids = suite_ids(suite_path)
        # and the groups of the lab's hidden suite (grader/suites/hidden/labN.suite)
        head, _, name = suite_path.rpartition("/")
        ids.update(suite_ids((head + "/" if head else "") + "hidden/" + name))
        for t in results["tests"]:
            name = str(t.get("name", ""))
            key = "speed" if name.startswith("Speed") else ids.get(name, name)
            scores[key] = round(scores.get(key, 0) + float(t.get("score", 0)), 3)
    print(json.dumps({"scores": scores}))
    return 0 if results is not None else 1


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "gradescope":
        sys.exit(gradescope(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None))
    if len(sys.argv) == 4 and sys.argv[1] == "autolab":
        sys.exit(autolab(sys.argv[2], sys.argv[3]))
    sys.stderr.write(__doc__)
    sys.exit(2)
