"""Front end: rules-file text to a syntax tree, with lark errors turned into RulesError.

A shipped rules file is read from its syntax tree made ahead of time (see `preparsed`), so
that loading a shipped variant does not import lark. Any other text is parsed by lark
(`lark_front`), whose parser is loaded from tables shipped in the package (see `tables`).
A text once parsed is kept by its exact text and path, so that a later load of an
unchanged file (every load reads it again) does not parse it again.
"""

from __future__ import annotations

from _thread import allocate_lock  # threading.Lock itself (importing threading is dearer)
from collections import OrderedDict
from functools import lru_cache
from typing import TYPE_CHECKING

from . import syntax as s
from .errors import Location, RulesError

if TYPE_CHECKING:
    from lark import Lark

MAX_FILE_CHARS = 200_000
MAX_NESTING = 60
MAX_LINE_CHARS = 2_000


# Parsed files kept for later loads, at most this many characters of rules text in all.
DOCUMENT_CACHE_CHARS = 1_000_000


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser, loaded once per process from the shipped tables (see `tables`; imported
    here so that `python -m trickcore.language.tables` finds it not yet imported)."""
    from .tables import load_parser

    return load_parser()


class _DocumentCache:
    """Parsed documents by the exact text and path they were parsed from, the least recently
    used dropped first once their texts hold more than `max_chars` characters.

    Parsing is a function of (text, path) alone and a document is immutable, so a hit is the
    document parsing would give again; any change to a file's text is a miss.
    """

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars
        self._docs: OrderedDict[tuple[str, str], s.Document] = OrderedDict()
        self._chars = 0
        self._lock = allocate_lock()

    def get(self, text: str, path: str) -> s.Document | None:
        """The document parsed from exactly `text` at `path`, if kept."""
        with self._lock:
            doc = self._docs.get((text, path))
            if doc is not None:
                self._docs.move_to_end((text, path))
            return doc

    def put(self, doc: s.Document) -> None:
        """Keep `doc` (parsed from `doc.text` at `doc.path`)."""
        size = len(doc.text) + len(doc.path)
        if size > self.max_chars:
            return
        with self._lock:
            key = (doc.text, doc.path)
            if key in self._docs:
                return
            self._docs[key] = doc
            self._chars += size
            while self._chars > self.max_chars:
                (text, path), _ = self._docs.popitem(last=False)
                self._chars -= len(text) + len(path)

    def clear(self) -> None:
        """Forget every document."""
        with self._lock:
            self._docs.clear()
            self._chars = 0


_DOCUMENTS = _DocumentCache(DOCUMENT_CACHE_CHARS)


def _check_nesting(text: str, path: str, lines: list[str]) -> None:
    depth = 0
    for lineno, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:
            raise RulesError(
                f"line is longer than {MAX_LINE_CHARS:,} characters; a line may break after "
                "any comma (of `extends`, a list, a rule's assignments, a call's arguments) "
                "and go on on the next line",
                Location(path, lineno, 1),
            )
        code = line.split("#", 1)[0]
        for col, ch in enumerate(code, 1):
            if ch in "({[":
                depth += 1
                if depth > MAX_NESTING:
                    raise RulesError(
                        f"brackets and blocks nest more than {MAX_NESTING} deep",
                        Location(path, lineno, col, line),
                    )
            elif ch in ")}]":
                depth = max(depth - 1, 0)


def parse_text(text: str, path: str = "<rules>") -> s.Document:
    """Parse rules-file text into a syntax tree; raise RulesError with file:line:column.

    A text parsed before at the same path gives the same (immutable) document again without
    parsing; errors are not kept.
    """
    doc = _DOCUMENTS.get(text, path)
    if doc is None:
        from .preparsed import preparsed  # (here: `python -m` runs that module unimported)

        doc = preparsed(text, path) or parse_with(_lark(), text, path)
        _DOCUMENTS.put(doc)
    return doc


def parse_with(parser: Lark, text: str, path: str = "<rules>") -> s.Document:
    """`parse_text` with the given lark parser, nothing kept (tests compare the shipped
    tables with a parser built afresh from the grammar)."""
    if len(text) > MAX_FILE_CHARS:
        raise RulesError(f"rules file is larger than {MAX_FILE_CHARS} characters", None)
    if "\x00" in text:
        before = text[: text.index("\x00")]
        line, column = before.count("\n") + 1, len(before) - before.rfind("\n")
        raise RulesError(
            "rules file contains a NUL byte (is it a text file?)", Location(path, line, column)
        )
    lines = text.splitlines()
    _check_nesting(text, path, lines)
    source = text if text.endswith("\n") else text + "\n"

    from .lark_front import parse_tree  # lark is imported only to parse

    statements = parse_tree(parser, source, path, lines)
    _check_written_once(statements)
    return s.Document(path, text, statements)


def _check_written_once(statements: tuple[s.Statement, ...]) -> None:
    """A setting or rule is written once per block of one file (the second would silently
    replace the first); blocks of the same name merge, so they may be written again.

    `name +:` and `name -:` may each be written once, but not beside `name:` (put the items
    in that list instead).
    """
    first: dict[str, s.Statement] = {}
    for stmt in statements:
        if isinstance(stmt, s.Block):
            _check_written_once(stmt.body)
            continue
        if isinstance(stmt, (s.Extends, s.Remove)):
            continue
        key = f"{stmt.name} {stmt.op}:" if isinstance(stmt, s.ListChange) else stmt.name
        earlier = first.get(key)
        if earlier is not None:
            kind = "rule" if isinstance(stmt, s.Step) else "setting"
            where = earlier.loc.line if earlier.loc is not None else "?"
            shown = key if isinstance(stmt, s.ListChange) else f"{kind} '{key}'"
            raise RulesError(
                f"{shown} is written twice in this block (first on line {where}); keep one",
                stmt.loc,
            )
        first[key] = stmt
        whole = first.get(stmt.name)
        if isinstance(stmt, s.ListChange) and isinstance(whole, s.ListSetting):
            raise RulesError(
                f"'{stmt.name}:' is written in full in this block (line {whole.loc.line}), so "
                f"'{stmt.name} {stmt.op}:' has nothing to change: put the items in that list",
                stmt.loc,
            )
        if isinstance(stmt, s.ListSetting):
            change = first.get(f"{stmt.name} +:") or first.get(f"{stmt.name} -:")
            if change is not None:
                assert isinstance(change, s.ListChange)
                raise RulesError(
                    f"'{stmt.name}:' is written in full in this block, so "
                    f"'{stmt.name} {change.op}:' (line {change.loc.line}) has nothing to "
                    "change: put the items in this list",
                    stmt.loc,
                )
