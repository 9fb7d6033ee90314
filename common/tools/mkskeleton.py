#!/usr/bin/env python3
"""mkskeleton.py - derive a lab skeleton from its reference solution.

Keeps every line outside the TODO regions and the instruction comment that
opens each region (the `/* TODO BEGIN k: ... */` comment, however many lines
it spans); drops the solution code between that comment and `TODO END k`.
So skeleton and solution are identical outside TODO regions by construction,
and tests/test_skeletons.c checks it stays that way.

usage: mkskeleton.py solutions/labN-x/file.cu labs/labN-x/file.cu
"""
import re
import sys

BEGIN = re.compile(r"TODO BEGIN (\d+)")
END = re.compile(r"TODO END (\d+)")


def skeleton(lines):
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
    if region is not None:
        sys.exit(f"TODO BEGIN {region} is never closed")
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        lines = f.readlines()
    with open(sys.argv[2], "w") as f:
        f.writelines(skeleton(lines))


if __name__ == "__main__":
    main()
