#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The CLI reference (docs/cli.md) and the manual page (resources/man/pbx-cli.1.in) list the same
subcommands and, per subcommand, the same options, in both directions.

Manual page: each `.SS COMMAND` section is a subcommand (`run`, `simulate growing`, ...), its
options are the `\\-\\-name` tokens of the section; the `odp` section's sub-subcommands are its
`.B odp NAME` entries; `.SH OPTIONS` holds the common options (--help, --version).
docs/cli.md: each `## pbx-cli COMMAND` heading opens a subcommand's section, `## Common options`
the common one. An option belongs to the section it is written in, except in a code line or an
inline code span that starts with `pbx-cli OTHER ...`: its options belong to OTHER (a `run`
section may quote an `odp early-stop` command line). Code that starts with `pbx ` (the GUI) or
`scripts/` is not pbx-cli's and is skipped.
Usage: check_cli_doc.py MANPAGE CLI_MD. Exit status 0 when they agree, 1 naming every difference.
"""
import re
import sys

OPTION = re.compile(r"--[a-z][a-z0-9-]*")
SIMULATE = ("relative-error", "strategies", "growing")


def read_manpage(path):
    text = open(path, encoding="utf-8").read().replace("\\-", "-")
    sections, odp_subcommands = {}, set()
    current = None
    for line in text.splitlines():
        if line.startswith(".SS "):
            current = line[4:].strip()
            sections[current] = set()
            continue
        if line.startswith(".SH "):
            current = "common" if line[4:].strip() == "OPTIONS" else None
            if current:
                sections[current] = set()
            continue
        if current is None or line.startswith('.\\"'):
            continue
        if current == "odp":
            m = re.match(r"\.B odp ([a-z0-9-]+)$", line)
            if m:
                odp_subcommands.add(m.group(1))
        at = re.search(r"pbx-cli ([a-z]+)", line)
        if at and at.group(1) != current.split()[0]:
            sections[current].update(OPTION.findall(line[: at.start()]))
            continue  # a reference to another command's option (pbx-cli run --filter odp)
        sections[current].update(OPTION.findall(line))
    return sections, odp_subcommands


def command_of(invocation):
    """'pbx-cli simulate growing --x' -> 'simulate growing'; 'pbx-cli odp svt' -> 'odp'."""
    words = invocation.split()[1:]
    if not words or words[0].startswith("-") or not re.fullmatch(r"[a-z][a-z0-9|-]*", words[0]):
        return "common" if not words or words[0].startswith("-") or words[0].isupper() else None
    if words[0] == "simulate" and len(words) > 1 and words[1] in SIMULATE:
        return "simulate " + words[1]
    return words[0].split("|")[0]


def read_cli_md(path):
    sections, odp_subcommands = {}, set()
    current, in_code, invocation = None, False, None

    def add(command, options):
        if command is not None:
            sections.setdefault(command, set()).update(options)

    paragraph = []

    def prose(text):
        rest = text
        for span in re.findall(r"`([^`]*)`", text):
            rest = rest.replace("`" + span + "`", " ", 1)
            if span.startswith("pbx-cli "):
                command = command_of(span)
                add(current if command is None else command, OPTION.findall(span))
            elif span.startswith("pbx ") or span.startswith("scripts/"):
                continue
            else:
                add(current, OPTION.findall(span))
        add(current, OPTION.findall(rest))

    for line in open(path, encoding="utf-8").read().splitlines() + [""]:
        if not in_code and (not line.strip() or line.startswith("#") or line.startswith("```")):
            prose(" ".join(paragraph))
            paragraph = []
        if line.startswith("```"):
            in_code, invocation = not in_code, None
            continue
        if not in_code and line.startswith("## "):
            heading = line[3:].strip()
            if heading.startswith("pbx-cli "):
                current = command_of(heading)
            elif heading.startswith("Common options"):
                current = "common"
            else:
                current = None
            sections.setdefault(current, set())
            continue
        for m in re.finditer(r"pbx-cli odp ([a-z0-9-]+(?:\|[a-z0-9-]+)*)", line):
            odp_subcommands.update(m.group(1).split("|"))
        if in_code:
            stripped = line.strip()
            if stripped.startswith("pbx-cli "):
                invocation = command_of(stripped)
            elif not line.startswith(" "):
                invocation = None
            add(invocation or current, OPTION.findall(line))
            continue
        paragraph.append(line)
    sections.pop(None, None)
    return sections, odp_subcommands


def main():
    if len(sys.argv) != 3:
        print("usage: check_cli_doc.py MANPAGE CLI_MD", file=sys.stderr)
        return 2
    man, man_odp = read_manpage(sys.argv[1])
    doc, doc_odp = read_cli_md(sys.argv[2])
    problems = []
    for command in sorted(set(man) - set(doc)):
        problems.append(f"docs/cli.md has no section '## pbx-cli {command}' (the manual page has '.SS {command}')")
    for command in sorted(set(doc) - set(man)):
        problems.append(f"docs/cli.md has a section for '{command}', the manual page has no '.SS {command}'")
    for command in sorted(set(man) & set(doc)):
        for option in sorted(man[command] - doc[command]):
            problems.append(f"{command}: the manual page names {option}, docs/cli.md does not")
        for option in sorted(doc[command] - man[command]):
            problems.append(f"{command}: docs/cli.md names {option}, the manual page does not")
    for sub in sorted(man_odp - doc_odp):
        problems.append(f"docs/cli.md does not name 'pbx-cli odp {sub}' (the manual page does)")
    for sub in sorted(doc_odp - man_odp):
        problems.append(f"docs/cli.md names 'pbx-cli odp {sub}', the manual page does not")
    if len(man) < 9 or len(man_odp) < 7:
        problems.append(f"expected at least 9 commands and 7 odp subcommands in the manual page, found {len(man)} and {len(man_odp)}")
    for p in problems:
        print(p)
    if problems:
        return 1
    options = sum(len(v) for v in man.values())
    print(f"docs/cli.md and the manual page agree: {len(man)} sections, {len(man_odp)} odp subcommands, {options} options")
    return 0


if __name__ == "__main__":
    sys.exit(main())
