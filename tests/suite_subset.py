#!/usr/bin/env python3
"""suite_subset.py - a smaller copy of a lab's suite, for the kit's tests to grade
with ./grade --suites (what each test keeps, and why, is said where it is used).

usage: suite_subset.py LAB OUT_DIR [--groups ID,ID...] [--max-n N] [--suites DIR]

Reads DIR/LAB.suite (default grader/suites/) and writes OUT_DIR/LAB.suite, the same
file with only:
  --groups   the `group` lines of those ids and the `cases` and `speed` lines of those
             groups (a name that is not a group of the suite is an error: a test that
             names a group the suite no longer has must fail, not grade nothing);
  --max-n    in each `cases` line, the sizes n <= N; a group whose every size is above N
             keeps its smallest size (so every group kept is still graded).
The hidden part (DIR/hidden/LAB.suite) is not copied: the kit's tests grade the
visible groups.  Every other line (the `lab` line, `sanitize`, comments) is copied as
it is, so the grader's own checks of the suite still apply to the copy.
"""
import argparse
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, "common", "tools"))
from bench import parse_size as size  # noqa: E402 (digits, 2^k, 2^k+d or 2^k-d)

FIELD = re.compile(r'(\w+)=("[^"]*"|\S+)')


def fields(line):
    """The key=value fields of a line, quotes kept (the values are only compared)."""
    return dict(FIELD.findall(line))


def group_of(line):
    """The group a `group`, `cases` or `speed` line belongs to; None for other lines."""
    words = line.split()
    if not words or words[0] not in ("group", "cases", "speed"):
        return None
    f = fields(line)
    return f.get("id") if words[0] == "group" else f.get("group")


def smallest_sizes(lines, max_n):
    """Per group, the largest n that its `cases` lines keep: max_n, or the group's
    smallest size where every size of the group is above max_n."""
    least = {}
    for line in lines:
        if line.split()[:1] == ["cases"]:
            g = group_of(line)
            low = min(size(t) for t in fields(line)["n"].split(","))
            least[g] = min(least.get(g, low), low)
    return {g: max(max_n, low) for g, low in least.items()}


def cut_sizes(line, limit):
    """A `cases` line with only its sizes <= limit; None when none is left."""
    f = fields(line)
    kept = [t for t in f["n"].split(",") if size(t) <= limit]
    if not kept:
        return None
    return re.sub(r"(?<=\s)n=\S+", "n=" + ",".join(kept), line, count=1)


def subset(lines, groups, max_n):
    """The suite's lines that the options keep (see the module's text)."""
    known = {group_of(l) for l in lines if l.split()[:1] == ["group"]}
    unknown = sorted(set(groups or ()) - known)
    if unknown:
        sys.exit("suite_subset.py: no group %s in the suite (it has: %s)"
                 % (", ".join(unknown), ", ".join(sorted(known))))
    limits = smallest_sizes(lines, max_n) if max_n is not None else {}
    out = []
    for line in lines:
        g = group_of(line)
        if g is not None and groups and g not in groups:
            continue
        if g is not None and max_n is not None and line.split()[0] == "cases":
            line = cut_sizes(line, limits[g])
            if line is None:
                continue
        out.append(line)
    return out


def main():
    ap = argparse.ArgumentParser(description="a smaller copy of a lab's suite")
    ap.add_argument("lab")
    ap.add_argument("out_dir")
    ap.add_argument("--groups", help="comma-separated group ids to keep")
    ap.add_argument("--max-n", type=size, help="largest size kept (see above)")
    ap.add_argument("--suites", default=os.path.join(TOP, "grader", "suites"))
    a = ap.parse_args()
    with open(os.path.join(a.suites, a.lab + ".suite")) as f:
        lines = f.read().splitlines()
    groups = set(a.groups.split(",")) if a.groups else None
    os.makedirs(a.out_dir, exist_ok=True)
    with open(os.path.join(a.out_dir, a.lab + ".suite"), "w") as f:
        f.write("\n".join(subset(lines, groups, a.max_n)) + "\n")


if __name__ == "__main__":
    main()
