"""Shipped rules files parsed ahead of time: each one's syntax tree as JSON beside the shipped
files (`variants/trees/NAME.json`), so that loading a shipped variant needs neither lark nor
parsing.

A file's tree is used only for exactly the text it was made from (its SHA-256 is stored)
and the grammar it was made with; anything else (an edited copy, a user's file, a damaged
or missing JSON file) is parsed as usual. The JSON holds only data: the node classes of
`syntax` by name, strings, numbers and places (line, column); nothing in it is run.

Regenerate after changing a shipped rules file or the grammar (a test says when):
    python -m trickcore.language.write_trees
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import attrs

from . import syntax as s
from .errors import Location
from .resources import grammar_path, variants_dir

PARSED_DIR = variants_dir() / "trees"
REGENERATE = "python -m trickcore.language.write_trees"
FORMAT = 1
# the node classes a tree may hold, by name (nothing else is ever made from the JSON)
NODES: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        s.Number,
        s.String,
        s.Name,
        s.Call,
        s.Unary,
        s.Binary,
        s.Cond,
        s.Item,
        s.ListSetting,
        s.ListChange,
        s.ExprSetting,
        s.Assign,
        s.Placement,
        s.Step,
        s.Remove,
        s.Extends,
        s.Block,
    )
}
PLACE = "@"  # the key of a place: [line, column] (the file and the line's text are known)


def digest(text: str) -> str:
    """The SHA-256 (hex) of a text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def grammar_digest() -> str:
    """The SHA-256 of the grammar in use (read once per process)."""
    return digest(grammar_path().read_text(encoding="utf-8"))


def encode(value: Any) -> Any:
    """A syntax tree (or part of one) as JSON data: a node is {class name: [its fields]},
    a tuple a list, a place {"@": [line, column]}."""
    if isinstance(value, Location):
        return {PLACE: [value.line, value.column]}
    if isinstance(value, tuple):
        return [encode(v) for v in value]
    kind = type(value)
    if NODES.get(kind.__name__) is kind:
        fields = attrs.fields(kind)  # type: ignore[arg-type]  # a syntax node: an attrs class
        return {kind.__name__: [encode(getattr(value, f.name)) for f in fields]}
    if value is None or isinstance(value, (str, int)):
        return value
    raise TypeError(f"a syntax tree holds no {type(value).__name__}")


def _node_maker(path: str, lines: list[str]) -> Any:
    """The `object_hook` that turns each JSON object into its node as `json` reads it
    (innermost first): a place into a Location of the file at `path` with `lines`, a node
    into its class (only those of NODES) with its lists as tuples."""

    def make(obj: dict[str, Any]) -> Any:
        ((key, fields),) = obj.items()
        if key == PLACE:
            line, column = fields
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            return Location(path, line, column, text)
        return NODES[key](*(tuple(f) if type(f) is list else f for f in fields))

    return make


def preparsed(text: str, path: str) -> s.Document | None:
    """The syntax tree of a shipped rules file made ahead of time, when `text` is exactly
    the text it was made from (under any path); None otherwise."""
    stem = Path(path).stem
    if not stem or stem.startswith("."):
        return None
    try:
        raw = (PARSED_DIR / f"{stem}.json").read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None
    try:
        head, _, body = raw.partition("\n")  # the digests first: nothing is decoded in vain
        data = json.loads(head)
        if (
            data["format"] != FORMAT
            or data["text"] != digest(text)
            or data["grammar"] != grammar_digest()
        ):
            return None
        statements = json.loads(body, object_hook=_node_maker(path, text.splitlines()))
        if type(statements) is not list:
            return None
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None  # a damaged file: the text is parsed instead
    return s.Document(path, text, tuple(statements))


def tree_data(doc: s.Document) -> tuple[dict[str, Any], Any]:
    """What `variants/trees/NAME.json` holds for a document parsed from a shipped file: a first line
    saying what it was made from, and a second with the statements."""
    head = {"format": FORMAT, "grammar": grammar_digest(), "text": digest(doc.text)}
    return head, encode(doc.statements)
