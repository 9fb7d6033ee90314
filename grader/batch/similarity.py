#!/usr/bin/env python3
"""similarity.py - rank pairs of a class's submissions by how much lab code
they share: ./grade --similarity DIR labN [--out FOLDER].

DIR holds one folder, .zip, .tar.gz, .tgz or .tar per student, as for
./grade --batch.  Each student's .cu, .cuh and .h files (in name order) are
joined into one text and compared with copydetect (PyPI; MOSS's winnowing
over Pygments tokens, so renamed variables, moved functions and changed
comments do not hide a copy), with the lab's skeleton (labs/labN-*/) as
boilerplate: what every student was given counts for nothing.

Writes FOLDER/similarity.csv (one row a pair, the most similar first) and
FOLDER/similarity.html (copydetect's report: each pair side by side, the
shared code highlighted), and FOLDER/sources/NAME/submission.cu, the joined
text of each student that both name.  The share of a student's lab code is the
shared tokens over the tokens of that student's code outside the skeleton.
Exit 0 done, 1 when copydetect is missing (with the command that installs
it), 2 on bad usage.
"""
import argparse
import csv
import glob
import os
import re
import sys
import shutil
import tarfile
import zipfile

SUFFIXES = (".cu", ".cuh", ".h")
MAX_FILE = 1 << 20  # bytes read of one source file: a lab's file is a few KiB
MAX_FILES = 64  # source files read of one submission
# Tokens in a k-gram (copydetect's noise threshold) and the length of match
# always found (guarantee threshold): copydetect's default of 25 is meant
# for whole programs; a lab's filled-in TODOs are 100-300 tokens, in which a
# 25-token run shared by chance is rare but a shared 12-token run is not.
NOISE_T = 15
GUARANTEE_T = 20
DISPLAY_T = 0.0  # copydetect's report shows every pair; the CSV ranks them


def sources_of_folder(path):
    """{name: text} of a folder's source files, found at any depth."""
    out = {}
    for root, _dirs, files in os.walk(path, followlinks=False):
        for f in sorted(files):
            full = os.path.join(root, f)
            if f.endswith(SUFFIXES) and os.path.isfile(full) and not os.path.islink(full):
                with open(full, "rb") as fp:
                    out[os.path.relpath(full, path)] = fp.read(MAX_FILE)
    return out


def sources_of_archive(path):
    """{name: text} of an archive's regular source files, read in memory:
    nothing is unpacked, so no member name reaches the disk."""
    out = {}
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            for m in z.infolist():
                if not m.is_dir() and m.filename.endswith(SUFFIXES):
                    with z.open(m) as fp:
                        out[m.filename] = fp.read(MAX_FILE)
    else:
        with tarfile.open(path) as t:
            for m in t.getmembers():
                if m.isreg() and m.name.endswith(SUFFIXES):
                    out[m.name] = t.extractfile(m).read(MAX_FILE)
    return out


ARCHIVES = (".zip", ".tar.gz", ".tgz", ".tar")


def student_name(entry):
    """The student's name (the entry less its archive suffix), in the
    characters a file name and the report can hold as they are."""
    for s in ARCHIVES:
        if entry.endswith(s):
            entry = entry[: -len(s)]
            break
    return re.sub(r"[^A-Za-z0-9._-]", "_", entry)[:80] or "_"


def collect(class_dir, work):
    """One joined source file per student under work/; {name: path}."""
    students = {}
    for entry in sorted(os.listdir(class_dir)):
        full = os.path.join(class_dir, entry)
        try:
            if os.path.isdir(full):
                files = sources_of_folder(full)
            elif entry.endswith(ARCHIVES):
                files = sources_of_archive(full)
            else:
                continue
        except (OSError, tarfile.TarError, zipfile.BadZipFile) as e:
            print(f"similarity: {entry}: not read ({e})", file=sys.stderr)
            continue
        name = student_name(entry)
        if name in students or not files:
            print(f"similarity: {entry}: {'a duplicate name' if files else 'no source files'}; "
                  "left out", file=sys.stderr)
            continue
        path = os.path.join(work, name, "submission.cu")
        os.makedirs(os.path.dirname(path))
        with open(path, "wb") as fp:
            for f in sorted(files)[:MAX_FILES]:
                fp.write(files[f].replace(b"\r\n", b"\n") + b"\n")
        students[name] = path
    return students


def detector(students, skeleton, out_html):
    """copydetect's detector over the students, every pair compared once."""
    from copydetect import CopyDetector
    d = CopyDetector(boilerplate_dirs=[skeleton], extensions=["cu", "cuh", "h"],
                     noise_t=NOISE_T, guarantee_t=GUARANTEE_T, display_t=DISPLAY_T,
                     force_language="cuda", autoopen=False, silent=True, out_file=out_html)
    for path in students.values():
        d.add_file(path)
    d.run()
    return d


def share(overlap, coverage):
    """Shared tokens over a student's own (non-skeleton) tokens, 0..1."""
    return min(1.0, overlap / coverage) if coverage > 0 else 0.0


def ranked_pairs(d, students):
    """(name a, name b, share of a, share of b, shared tokens), each pair
    once, the highest larger share first."""
    index = {p: i for i, p in enumerate(d.test_files)}
    names = sorted(students)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            pa, pb = students[a], students[b]
            overlap = int(d.token_overlap_matrix[index[pa], d.ref_files.index(pb)])
            overlap = max(overlap, 0)
            sa = share(overlap, d.file_data[pa].token_coverage)
            sb = share(overlap, d.file_data[pb].token_coverage)
            rows.append((a, b, sa, sb, overlap))
    rows.sort(key=lambda r: (-max(r[2], r[3]), -r[4], r[0], r[1]))
    return rows


def write_csv(rows, path):
    """The ranking, for a spreadsheet: shares in percent."""
    with open(path, "w", newline="") as fp:
        w = csv.writer(fp)
        w.writerow(["rank", "student_a", "student_b", "share_of_a_pct", "share_of_b_pct",
                    "shared_tokens"])
        for k, (a, b, sa, sb, n) in enumerate(rows, 1):
            w.writerow([k, a, b, f"{100 * sa:.1f}", f"{100 * sb:.1f}", n])


def parse(argv):
    """The command line; the kit's top folder from KIT_TOP (./grade sets it)."""
    ap = argparse.ArgumentParser(prog="./grade --similarity",
                                 description="rank pairs of submissions by shared lab code")
    ap.add_argument("dir", help="one folder or archive per student")
    ap.add_argument("lab", help="labN: its skeleton (labs/labN-*/) is the boilerplate")
    ap.add_argument("--out", help="folder of the CSV and HTML reports (default similarity-LAB)")
    ap.add_argument("--top", type=int, default=10, help="pairs printed here (default 10)")
    return ap.parse_args(argv)


def main(argv):
    a = parse(argv)
    top = os.environ.get("KIT_TOP") or os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    skel = sorted(glob.glob(os.path.join(top, "labs", a.lab + "-*")))
    if not re.fullmatch(r"lab[0-9]+", a.lab) or not skel:
        print(f"similarity: no lab '{a.lab}' in {top}/labs", file=sys.stderr)
        return 2
    if not os.path.isdir(a.dir):
        print(f"similarity: {a.dir}: not a folder", file=sys.stderr)
        return 2
    try:
        import copydetect  # noqa: F401
    except ImportError:
        print("similarity: copydetect is missing for this python3; install it with\n"
              "    python3 -m pip install --user copydetect", file=sys.stderr)
        return 1
    out = a.out or f"similarity-{a.lab}"
    os.makedirs(out, exist_ok=True)
    # each student's joined sources stay beside the reports, which name them
    work = os.path.join(out, "sources")
    shutil.rmtree(work, ignore_errors=True)
    students = collect(a.dir, work)
    if len(students) < 2:
        print(f"similarity: fewer than two submissions in {a.dir}", file=sys.stderr)
        return 2
    d = detector(students, skel[0], os.path.join(out, "similarity.html"))
    rows = ranked_pairs(d, students)
    write_csv(rows, os.path.join(out, "similarity.csv"))
    d.generate_html_report()
    print(f"similarity: {len(students)} submissions, {len(rows)} pairs; the most similar first "
          "(share = shared tokens over the student's code outside the skeleton):")
    for k, (x, y, sx, sy, n) in enumerate(rows[: a.top], 1):
        print(f"  {k:3d}  {x:>20s} {100 * sx:5.1f}%  {y:>20s} {100 * sy:5.1f}%  {n:5d} tokens")
    print(f"similarity: {out}/similarity.csv, {out}/similarity.html")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
