#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every relative link in the given markdown files points to a file that exists, and every
#anchor to a heading of that file (GitHub's rule: lower case, punctuation and symbols dropped,
spaces to hyphens, -1, -2 ... for repeated headings). Links inside code are not links; links with
a scheme (https:, mailto:) are not checked.
Usage: check_links.py FILE.md|FOLDER ... (a folder stands for the *.md files in it). Exit status 0
when every link resolves, 1 naming each that does not.
"""
import os
import re
import sys

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def prose_lines(path, keep_code_spans=False):
    """(line number, text) of the lines outside code fences, inline code removed unless kept."""
    in_code = False
    for number, line in enumerate(open(path, encoding="utf-8").read().splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if not in_code:
            yield number, line if keep_code_spans else re.sub(r"`[^`]*`", "", line)


def slug(heading):
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, found = {}, set()
        for _, line in prose_lines(path, keep_code_spans=True):
            m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def main(files):
    problems, checked = [], 0
    for path in files:
        folder = os.path.dirname(path)
        for number, line in prose_lines(path):
            for target in LINK.findall(line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):
                    continue
                checked += 1
                file_part, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(folder, file_part)) if file_part else path
                where = f"{path}:{number}: {target}"
                if not os.path.exists(resolved):
                    problems.append(f"{where}: no file {resolved}")
                elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                    problems.append(f"{where}: {resolved} has no heading with anchor #{anchor}")
    for p in problems:
        print(p)
    if not problems:
        print(f"{checked} relative links in {len(files)} files resolve")
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("usage: check_links.py FILE.md|FOLDER ...", file=sys.stderr)
        sys.exit(2)
    files = []
    for arg in sys.argv[1:]:
        files += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".md")) if os.path.isdir(arg) else [arg]
    sys.exit(main(files))
