#!/usr/bin/env python3
"""house.py - the kit's size rules, checked (issue 15): no source file in the
given folders over MAX_FILE lines and no function over MAX_FUNC lines, so
that each reads at once; a student's file (under labs/) at most
MAX_STUDENT lines, so that a lab reads in one sitting (issue 35).  A function is found the way the kit writes them:
its body opens with "{" alone at column 0 and closes with "}" at column 0;
its signature is the run of lines above the "{" (a template line
included).  Prints each offender; exit 1 when there is one, 2 on bad usage.

usage: house.py DIR... (e.g. common grader labs solutions)
"""
import os
import re
import sys

MAX_FILE = 700  # lines of one source file
MAX_FUNC = 120  # lines of one function, signature to closing brace
MAX_STUDENT = 450  # lines of a student's file: a lab's skeleton, under labs/
SUFFIXES = (".c", ".cpp", ".cu", ".h", ".cuh")


def functions(lines):
    """(first line, length, name) of each function in a file's lines."""
    out, i = [], 0
    while i < len(lines):
        if lines[i] != "{" or i == 0:
            i += 1
            continue
        j = i - 1  # back over the signature to the line after a blank, comment or statement
        while j > 0 and lines[j - 1].strip() and not lines[j - 1].startswith(("}", "/", " *", "#")) \
                and not lines[j - 1].rstrip().endswith((";", "*/")):
            j -= 1
        name = re.search(r"(\w+)\s*\(", " ".join(lines[j:i]))
        k = i + 1
        while k < len(lines) and not lines[k].startswith("}"):
            k += 1
        out.append((j + 1, k - j + 1, name.group(1) if name else "?"))
        i = k + 1
    return out


def main(dirs):
    if not dirs or not all(os.path.isdir(d) for d in dirs):
        print("usage: house.py DIR...", file=sys.stderr)
        return 2
    bad = 0
    for top in dirs:
        for folder, _, files in sorted(os.walk(top)):
            for f in sorted(files):
                if not f.endswith(SUFFIXES):
                    continue
                path = os.path.join(folder, f)
                lines = open(path, errors="replace").read().split("\n")
                limit = MAX_STUDENT if "labs" in os.path.normpath(path).split(os.sep) else MAX_FILE
                if len(lines) - 1 > limit:
                    print(f"FAIL house: {path} has {len(lines) - 1} lines (at most {limit})")
                    bad += 1
                for first, length, name in functions(lines):
                    if length > MAX_FUNC:
                        print(f"FAIL house: {path}:{first} {name}() has {length} lines "
                              f"(at most {MAX_FUNC})")
                        bad += 1
    if not bad:
        print(f"ok   house: no file over {MAX_FILE} lines (a student's {MAX_STUDENT}) and no "
              f"function over {MAX_FUNC} in {' '.join(dirs)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
