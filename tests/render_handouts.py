#!/usr/bin/env python3
"""render_handouts.py - every handout renders, and every link and figure in it resolves.

Each page (README.md, docs/*.md, handouts/*.md, handouts/keys/*.md) is rendered
to HTML with Python-Markdown (tables, fenced code), the HTML a browser would be
given, and checked:
  - tables: every table of the source became an HTML table, with the header's
    number of cells in every row (a stray '|' shifts a row silently);
  - figures: every image exists, and an SVG parses as XML with a size or viewBox;
  - links: every relative link names an existing file or folder, and an anchor
    (#...) names a heading of its page, GitHub-style;
  - math: the handouts write it in Unicode, so no TeX may be left ($...$, \\frac).
External links are counted, not fetched (tests run offline).  Needs the markdown
module (Debian's python3-markdown; make deps); tests/handouts.sh runs this.
"""
import html.parser
import os
import re
import sys
import xml.etree.ElementTree as ET

import markdown

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pages():
    out = [os.path.join(TOP, "README.md")]
    for folder in ("docs", "handouts", os.path.join("handouts", "keys")):
        d = os.path.join(TOP, folder)
        out += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".md"))
    return out


def slug(heading, seen):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"`|\*\*|\*|\[|\]\([^)]*\)", "", heading).strip().lower()
    s = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
    n = seen.get(s, 0)
    seen[s] = n + 1
    return s if n == 0 else "%s-%d" % (s, n)


def anchors(path):
    seen, out, fence = {}, set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"#{1,6} (.*)", line)
        if m:
            out.add(slug(m.group(1), seen))
    return out


class Collect(html.parser.HTMLParser):
    """The links, images and tables of the rendered HTML."""

    def __init__(self):
        super().__init__()
        self.links, self.images, self.tables = [], [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        elif tag == "img":
            self.images.append(a.get("src", ""))
        elif tag == "table":
            self.tables += 1


def source_tables(text):
    """Markdown tables outside code: (row cell counts, first line) per table."""
    tables, rows, fence = [], None, False
    for no, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
        is_row = not fence and line.lstrip().startswith("|")  # (also inside a list item)
        if is_row:
            cells = len(re.split(r"(?<!\\)\|", line.strip().strip("|")))
            if rows is None:
                rows = (no, [])
            rows[1].append(cells)
        elif rows is not None:
            tables.append(rows)
            rows = None
    if rows is not None:
        tables.append(rows)
    return [t for t in tables if len(t[1]) >= 2]


def check_link(page, href, problems):
    target, _, anchor = href.partition("#")
    if re.match(r"[a-z]+:", target):
        return 1  # external: counted, not fetched
    path = os.path.normpath(os.path.join(os.path.dirname(page), target)) if target else page
    if not os.path.exists(path):
        problems.append("link %s: no such file" % href)
    elif anchor and path.endswith(".md") and anchor not in anchors(path):
        problems.append("link %s: no heading with that anchor" % href)
    return 0


def check_image(page, src, problems):
    path = os.path.normpath(os.path.join(os.path.dirname(page), src))
    if not os.path.isfile(path):
        problems.append("figure %s: no such file" % src)
    elif path.endswith(".svg"):
        try:
            root = ET.parse(path).getroot()
            if not (root.get("viewBox") or (root.get("width") and root.get("height"))):
                problems.append("figure %s: an SVG without a size or viewBox" % src)
        except ET.ParseError as e:
            problems.append("figure %s: not well-formed SVG (%s)" % (src, e))


def check_page(page):
    text = open(page, encoding="utf-8").read()
    html_text = markdown.markdown(text, extensions=["tables", "fenced_code"])
    got = Collect()
    got.feed(html_text)
    problems, external = [], 0
    tables = source_tables(text)
    if got.tables != len(tables):
        problems.append("%d tables in the source, %d rendered" % (len(tables), got.tables))
    for first, cells in tables:
        bad = [i for i, c in enumerate(cells) if c != cells[0]]
        if bad:
            problems.append("table at line %d: row %d has %d cells, the header %d"
                            % (first, bad[0] + 1, cells[bad[0]], cells[0]))
    for href in got.links:
        external += check_link(page, href, problems)
    for src in got.images:
        check_image(page, src, problems)
    prose = re.sub(r"```.*?```|`[^`]*`", "", text, flags=re.S)
    if re.search(r"\$[^$\s][^$]*\$|\\frac|\\sum|\\cdot", prose):
        problems.append("TeX math left in the text (the handouts write math in Unicode)")
    return problems, len(got.links), len(got.images), len(tables), external


def main():
    fail = 0
    totals = [0, 0, 0, 0]
    for page in pages():
        problems, links, images, tables, external = check_page(page)
        for k, v in enumerate((links, images, tables, external)):
            totals[k] += v
        for p in problems:
            print("FAIL handouts: %s: %s" % (os.path.relpath(page, TOP), p))
            fail = 1
    if not fail:
        print("ok   handouts: %d pages rendered; %d links and %d figures resolve; %d tables "
              "intact; %d external links not fetched (offline)" % (len(pages()), totals[0],
                                                                   totals[1], totals[2], totals[3]))
    return fail


if __name__ == "__main__":
    sys.exit(main())
