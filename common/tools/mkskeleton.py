#!/usr/bin/env python3
"""mkskeleton.py - derive a lab skeleton from its reference solution.

Keeps every line outside the TODO regions and the instruction comment that
opens each region (the `/* TODO BEGIN k: ... */` comment, however many lines
it spans); drops the solution code between that comment and `TODO END k`.
So skeleton and solution are identical outside TODO regions by construction,
and tests/test_skeletons.c checks it stays that way.

usage: mkskeleton.py [--keep K,K...] solutions/labN-x/file.cu labs/labN-x/file.cu

--keep keeps the solution's code of those TODO regions: a submission that has
done only those TODOs (tests/lab7-stages.sh grades one stage's TODOs alone).
"""
import re
import sys

BEGIN = re.compile(r"TODO BEGIN (\d+)")
END = re.compile(r"TODO END (\d+)")


def skeleton(lines, keep=()):
    out, region, in_comment = [], None, False
    for line in lines:
        if region is None:
            out.append(line)
            m = BEGIN.search(line)
            if m:
                region, in_comment = m.group(1), "*/" not in line
            continue
        if in_comment:  # still inside the instruction comment: keep it
            out.append(line)
            in_comment = "*/" not in line
            continue
        m = END.search(line)
        if m:
            if m.group(1) != region:
                sys.exit(f"TODO END {m.group(1)} closes TODO BEGIN {region}")
            out.append(line)
            region = None
        elif region in keep:
            out.append(line)
    if region is not None:
        sys.exit(f"TODO BEGIN {region} is never closed")
    return out


def main():
    args, keep = sys.argv[1:], ()
    if args[:1] == ["--keep"] and len(args) > 1:
        keep, args = tuple(args[1].split(",")), args[2:]
    if len(args) != 2:
        sys.exit(__doc__)
    with open(args[0]) as f:
        lines = f.readlines()
    found = {m.group(1) for m in map(BEGIN.search, lines) if m}
    if set(keep) - found:
        sys.exit(f"--keep: no TODO region {','.join(sorted(set(keep) - found))} in {args[0]}")
    with open(args[1], "w") as f:
        f.writelines(skeleton(lines, keep))


if __name__ == "__main__":
    main()
