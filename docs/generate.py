"""Write the manual's generated parts from the code: `python docs/generate.py`.

- `docs/cli.md`, the command-line reference, from `trickcore`'s argument parser;
- in `docs/language.md`, the tables of blocks and settings, of names by place, of what each
  name means and of the functions, from the compiler's registry.

`tests/test_docs.py` fails when a page is not what this would write, so a new setting, name
or flag cannot be left out of the manual. `--check` only says whether a page is out of date.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
WIDTH = 92  # the help texts' line width, the same on every machine

CLI_INTRO = """\
# Command-line reference

This page is generated from the argument parser of the `trickcore` command
(`python docs/generate.py`); every command also prints it with `--help`.
A command that needs an optional extra says which one to install before it does any work
(see [Set-up](getting-started.md#set-up)).
"""


def cli_page() -> str:
    """The command-line reference: the main help, then each command's own help."""
    os.environ["COLUMNS"] = str(WIDTH)
    from trickcore.interfaces.cli import build_parser

    parser = build_parser()
    parser.prog = "trickcore"
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    summary = {a.dest: (a.help or "").replace("%%", "%") for a in sub._choices_actions}
    out = [CLI_INTRO, "| command | what it does |", "| --- | --- |"]
    for name in sub.choices:
        out.append(f"| [`{name}`](#trickcore-{name}) | {summary.get(name, '')} |")
    out += ["", "```text", parser.format_help().rstrip(), "```", ""]
    for name, command in sub.choices.items():
        out += [f"## trickcore {name}", "", "```text", command.format_help().rstrip(), "```", ""]
    return "\n".join(out).rstrip() + "\n"


def blocks_table() -> str:
    """Every block kind and the settings it knows (Markdown), from the compiler's table."""
    from trickcore.language.blocks import BLOCK_SETTINGS, BLOCKS

    rows = ["| block | settings |", "| --- | --- |"]
    top = ", ".join(f"`{s}`" for s in sorted(BLOCK_SETTINGS["variant"]))
    rows.append(f"| (the file itself) | {top} |")
    for kind, row in BLOCKS.items():
        head = f"`{kind} NAME`" if row.named else f"`{kind}`"
        if row.settings is None:
            what = "entries of its own naming (rules, definitions or options: see below)"
        else:
            what = ", ".join(f"`{s}`" for s in sorted(row.settings))
        rows.append(f"| {head} | {what} |")
    return "\n".join(rows)


def language_tables() -> list[str]:
    """The generated tables of the language reference, in the order the page shows them."""
    from trickcore.language import vocabulary as voc

    return [blocks_table(), voc.names_table(), voc.meanings_table(), voc.functions_table()]


def replace_table(page: str, table: str) -> str:
    """`page` with the table whose header row is `table`'s first line replaced by `table`."""
    header = table.split("\n", 1)[0]
    if header not in page:
        raise SystemExit(f"docs/language.md has no table starting {header!r}")
    start = page.index(header)
    lines = page[start:].split("\n")
    end = next((i for i, line in enumerate(lines) if not line.startswith("|")), len(lines))
    return page[:start] + table + "\n" + "\n".join(lines[end:])


def language_page(current: str) -> str:
    """docs/language.md with its generated tables brought up to date."""
    for table in language_tables():
        current = replace_table(current, table)
    return current


def pages() -> dict[Path, str]:
    """Each generated page and the text it should have."""
    language = DOCS / "language.md"
    return {
        DOCS / "cli.md": cli_page(),
        language: language_page(language.read_text(encoding="utf-8")),
    }


def main(argv: list[str] | None = None) -> int:
    """Write the generated pages (or, with --check, list those out of date)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = ap.parse_args(argv)
    stale = [p for p, text in pages().items() if not p.exists() or p.read_text("utf-8") != text]
    for path in stale:
        if args.check:
            print(f"out of date: {path.relative_to(DOCS.parent)} (run python docs/generate.py)")
        else:
            path.write_text(pages()[path], encoding="utf-8")
            print(f"wrote {path.relative_to(DOCS.parent)}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
