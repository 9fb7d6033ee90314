#!/usr/bin/env python3
"""near_copies.py - from one lab 1 submission, the near-copies a student
who copied would hand in: its own names renamed, then its two kernels
swapped as well, then its comments rewritten as well.
usage: near_copies.py SRC.cu OUTDIR   (writes OUTDIR/copy-{renamed,reordered,recommented}/reduce.cu)
"""
import os
import re
import sys

# the names the source (tests/similarity/lab1/whileloop) chose itself
RENAMES = {"stride": "gap", "left": "lhs", "right": "rhs", "first": "base_idx",
           "init": "seed_value", "grid": "nblocks"}


def renamed(text):
    """Every one of the source's own names replaced, as whole words."""
    for old, new in RENAMES.items():
        text = re.sub(r"\b%s\b" % old, new, text)
    return text


def reordered(text):
    """The two kernels (stage 1's and stage 2's, with their comments) swapped."""
    one = text.index("/*\n * Stage 1")
    two = text.index("/*\n * Stage 2")
    end = text.index("/* Host side of stage 1")
    return text[:one] + text[two:end] + text[one:two] + text[end:]


def recommented(text):
    """Every comment's words changed: block comments and line comments."""
    text = re.sub(r"/\*.*?\*/", "/* (rewritten in my own words) */", text, flags=re.S)
    return re.sub(r"//[^\n]*", "// mine", text)


def main(src, out):
    text = open(src).read()
    copies = {"copy-renamed": renamed(text)}
    copies["copy-reordered"] = reordered(copies["copy-renamed"])
    copies["copy-recommented"] = recommented(copies["copy-reordered"])
    for name, body in copies.items():
        assert body != text
        os.makedirs(os.path.join(out, name), exist_ok=True)
        with open(os.path.join(out, name, "reduce.cu"), "w") as fp:
            fp.write(body)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
