"""The parser of the rules language, built once from the grammar and shipped as tables.

Building lark's LALR parser from `grammar/trickcore.lark` takes tens of milliseconds, so the
result (lark's own serialized form: terminals, rules and the parse table, plain Python
literals) is written once into the module `lark_tables`, which ships in the package. Loading
it is a few milliseconds; no pickle is read and no cache folder is written.

The shipped tables are used only when they were generated from exactly the grammar in use
(its SHA-256 is stored beside them) by the same lark series (major.minor) as the one
installed; otherwise the parser is built from the grammar as before, so a stale or foreign
table never changes what a rules file means. After editing the grammar, regenerate with

    python -m trickcore.language.tables

(`--check` only reports whether the shipped tables are up to date; exit status 1 if not).
The tables are written in a canonical order, so the same grammar always gives the same file.
"""

from __future__ import annotations

import argparse
import hashlib
import pprint
import sys
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from .resources import grammar_path

# How the rules language is parsed (the tables are built with, and carry, these options).
LARK_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "propagate_positions": True,
    "maybe_placeholders": True,
}
TABLES_MODULE = Path(__file__).resolve().parent / "lark_tables.py"
REGENERATE = "python -m trickcore.language.tables"


def grammar_text() -> str:
    """The text of the grammar in use."""
    return grammar_path().read_text(encoding="utf-8")


def grammar_digest(text: str) -> str:
    """The SHA-256 (hex) of a grammar text, as the tables store it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def lark_series(version: str = lark.__version__) -> str:
    """The major.minor of a lark version: tables are used only with the series that made
    them (the serialized form is lark's own)."""
    return ".".join(version.split(".")[:2])


def build_parser(text: str | None = None) -> Lark:
    """A parser built afresh from the grammar (slow: the reference the tables are made from)."""
    return Lark(grammar_text() if text is None else text, **LARK_OPTIONS)


def serialize(parser: Lark) -> tuple[dict[str, Any], dict[int, Any]]:
    """lark's serialized form of a parser, `(data, memo)`, with the parse table in canonical
    order (see `_canonical_table`)."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["parser"]["parser"] = _canonical_table(data["parser"]["parser"])
    return data, memo


def _canonical_table(table: dict[str, Any]) -> dict[str, Any]:
    """The parse table numbered independently of hash order: symbols by name, states in the
    order a breadth-first walk from the start states meets them (symbols in name order).

    lark numbers both as its sets happen to iterate, which changes from run to run; the
    parser it describes does not.
    """
    names: dict[int, str] = table["tokens"]
    states: dict[int, dict[int, tuple[int, Any]]] = table["states"]
    starts: dict[str, int] = table["start_states"]
    order: list[int] = []
    number: dict[int, int] = {}

    def visit(state: int) -> None:
        if state not in number:
            number[state] = len(order)
            order.append(state)

    for start in sorted(starts):
        visit(starts[start])
    at = 0
    while at < len(order):
        actions = states[order[at]]
        for symbol in sorted(actions, key=names.__getitem__):
            kind, arg = actions[symbol]
            if kind == 0:  # shift (or goto): arg is a state
                visit(arg)
        at += 1
    for state in sorted(states):  # none expected: a state no walk reaches
        visit(state)
    symbols = {name: i for i, name in enumerate(sorted(names.values()))}
    new_states = {}
    for state in order:
        actions = states[state]
        row = {}
        for symbol in sorted(actions, key=names.__getitem__):
            kind, arg = actions[symbol]
            row[symbols[names[symbol]]] = (kind, number[arg] if kind == 0 else arg)
        new_states[number[state]] = row
    return {
        "tokens": {i: name for name, i in symbols.items()},
        "states": new_states,
        "start_states": {k: number[v] for k, v in sorted(starts.items())},
        "end_states": {k: number[v] for k, v in sorted(table["end_states"].items())},
    }


def render_module(text: str | None = None) -> str:
    """The source of the `lark_tables` module for a grammar text (default: the one in use)."""
    text = grammar_text() if text is None else text
    data, memo = serialize(build_parser(text))

    def literal(value: Any) -> str:
        return pprint.pformat(value, width=99, sort_dicts=False, compact=True)

    return (
        '"""lark\'s LALR tables of grammar/trickcore.lark: generated, do not edit.\n\n'
        f"Regenerate after changing the grammar: {REGENERATE}\n"
        '"""\n\n'
        "# ruff: noqa: E501\n"
        "from typing import Any\n\n"
        f'GRAMMAR_SHA256 = "{grammar_digest(text)}"\n'
        f'LARK_SERIES = "{lark_series()}"\n\n'
        "# fmt: off\n"
        f"DATA: dict[str, Any] = {literal(data)}\n\n"
        f"MEMO: dict[int, Any] = {literal(memo)}\n"
        "# fmt: on\n"
    )


def shipped_parser(text: str | None = None) -> Lark | None:
    """The parser loaded from the shipped tables, or None when they were not made from this
    grammar text (default: the one in use) or not by the installed lark series."""
    try:
        from . import lark_tables
    except ImportError:  # not generated yet
        return None
    text = grammar_text() if text is None else text
    if lark_tables.GRAMMAR_SHA256 != grammar_digest(text):
        return None
    if lark_tables.LARK_SERIES != lark_series():
        return None
    # lark's own loader; given a dict it reads no file (and so no pickle)
    return Lark.load({"data": lark_tables.DATA, "memo": lark_tables.MEMO})


def load_parser(text: str | None = None) -> Lark:
    """The parser of a grammar text (default: the one in use): from the shipped tables when
    they fit it, else built from it."""
    text = grammar_text() if text is None else text
    return shipped_parser(text) or build_parser(text)


def main(argv: list[str] | None = None) -> int:
    """Write the tables module (or, with --check, say whether it is up to date)."""
    p = argparse.ArgumentParser(
        prog=REGENERATE, description="Write lark's tables of grammar/trickcore.lark."
    )
    p.add_argument("--check", action="store_true", help="only check; exit 1 if out of date")
    args = p.parse_args(argv)
    source = render_module()
    current = TABLES_MODULE.read_text(encoding="utf-8") if TABLES_MODULE.exists() else ""
    if args.check:
        fresh = current == source
        print(f"{TABLES_MODULE}: {'up to date' if fresh else 'out of date; run ' + REGENERATE}")
        return 0 if fresh else 1
    if current != source:
        TABLES_MODULE.write_text(source, encoding="utf-8")
        print(f"wrote {TABLES_MODULE}")
    else:
        print(f"{TABLES_MODULE}: already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
