#!/usr/bin/env python3
"""Checks the links of the book (docs/src), README.md and CONTRIBUTING.md.

Every relative link must name a file or folder that exists, and every `#anchor` a heading of
the page it points into (ids as mdBook and GitHub make them: lower case, letters, digits, `-`
and `_` kept, spaces as `-`, anything else dropped, `-1`, `-2`… for repeats). A link from the
book may not leave docs/src (the built book could not serve it): a file of the repository is
linked as https://github.com/olm-release/olm-release/blob/main/PATH, and PATH must exist. Every
page of docs/src must be listed in SUMMARY.md. With the book built (docs/book/), each anchor
into a book page must also be an id of the page mdBook wrote.

    scripts/book_links.py          # exit 1 listing every broken link
"""
import html.parser
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "docs", "src")
BUILT = os.path.join(ROOT, "docs", "book")
REPO_URL = "https://github.com/olm-release/olm-release/blob/main/"

LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text):
    """The lines outside fenced code blocks, with their numbers, inline code removed."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if fence is None and (stripped.startswith("```") or stripped.startswith("~~~")):
            fence = stripped[:3]
            continue
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            continue
        yield n, re.sub(r"`[^`]*`", "``", line)


def slug(heading):
    """The id mdBook and GitHub give a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").replace("*", "")
    out = []
    for ch in text.lower():
        if ch.isalnum() or ch in "-_":
            out.append(ch)
        elif ch.isspace():
            out.append("-")
    return "".join(out)


_anchors = {}


def anchors(path):
    """The heading ids of a Markdown file."""
    if path not in _anchors:
        seen = {}
        ids = set()
        fence = None
        with open(path, encoding="utf-8") as f:
            for line in f.read().split("\n"):
                s = line.lstrip()
                if fence is None and (s.startswith("```") or s.startswith("~~~")):
                    fence = s[:3]
                    continue
                if fence is not None:
                    if s.startswith(fence):
                        fence = None
                    continue
                m = HEADING.match(line)
                if not m:
                    continue
                base = slug(m.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                ids.add(base if n == 0 else f"{base}-{n}")
        _anchors[path] = ids
    return _anchors[path]


class _Ids(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k == "id" and v:
                self.ids.add(v)


def built_ids(md_path):
    """The ids of the HTML page mdBook built from a page of docs/src, or None when not built."""
    rel = os.path.relpath(md_path, SRC)
    page = os.path.join(BUILT, os.path.splitext(rel)[0] + ".html")
    if not os.path.isfile(page):
        return None
    p = _Ids()
    with open(page, encoding="utf-8") as f:
        p.feed(f.read())
    return p.ids


def check_file(path, problems):
    in_book = os.path.commonpath([path, SRC]) == SRC
    with open(path, encoding="utf-8") as f:
        text = f.read()
    where = os.path.relpath(path, ROOT)
    for n, line in prose_lines(text):
        for m in LINK.finditer(line):
            target = m.group(2)
            if target.startswith(("mailto:", "http://")):
                continue
            if target.startswith(REPO_URL):
                rel = target[len(REPO_URL):].split("#")[0]
                if not os.path.exists(os.path.join(ROOT, rel)):
                    problems.append(f"{where}:{n}: {target}: no {rel} in the repository")
                continue
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            file_part, _, anchor = target.partition("#")
            dest = path if not file_part else os.path.normpath(
                os.path.join(os.path.dirname(path), file_part))
            if not os.path.exists(dest):
                problems.append(f"{where}:{n}: {target}: {os.path.relpath(dest, ROOT)} does not exist")
                continue
            if in_book and os.path.commonpath([dest, SRC]) != SRC:
                problems.append(f"{where}:{n}: {target}: leaves docs/src (link it as {REPO_URL}…)")
                continue
            if not anchor:
                continue
            if not dest.endswith(".md"):
                problems.append(f"{where}:{n}: {target}: an anchor into a file that is not Markdown")
                continue
            if anchor not in anchors(dest):
                problems.append(f"{where}:{n}: {target}: no heading #{anchor} in {os.path.relpath(dest, ROOT)}")
                continue
            if os.path.commonpath([dest, SRC]) == SRC:
                ids = built_ids(dest)
                if ids is not None and anchor not in ids:
                    problems.append(f"{where}:{n}: {target}: mdBook wrote no id {anchor!r}")


def main():
    problems = []
    files = [os.path.join(ROOT, f) for f in ("README.md", "CONTRIBUTING.md")
             if os.path.isfile(os.path.join(ROOT, f))]
    pages = []
    for d, _, names in os.walk(SRC):
        pages += [os.path.join(d, n) for n in sorted(names) if n.endswith(".md")]
    for f in files + sorted(pages):
        check_file(f, problems)
    with open(os.path.join(SRC, "SUMMARY.md"), encoding="utf-8") as f:
        listed = {os.path.normpath(os.path.join(SRC, t)) for _, t in LINK.findall(f.read())}
    for p in pages:
        if os.path.basename(p) != "SUMMARY.md" and p not in listed:
            problems.append(f"{os.path.relpath(p, ROOT)}: not listed in docs/src/SUMMARY.md")
    for p in problems:
        print(p, file=sys.stderr)
    checked = len(files) + len(pages)
    if problems:
        print(f"book_links: {len(problems)} broken link(s) in {checked} files", file=sys.stderr)
        return 1
    print(f"book_links: {checked} files, every relative link and anchor resolves", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
