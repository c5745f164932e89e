"""Front end: rules-file text to a syntax tree, with lark errors turned into RulesError.

The lark parser is loaded from tables shipped in the package (see `tables`), and a text once
parsed is kept by its exact text and path, so that a later load of an unchanged file (every
load reads it again) does not parse it again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any, Literal

import lark
from lark import Lark, Token, Transformer, v_args

from . import syntax as s
from .errors import Location, RulesError

MAX_FILE_CHARS = 200_000
MAX_NESTING = 60
MAX_LINE_CHARS = 2_000

_TOKEN_WORDS = {
    "NAME": "a name",
    "NUMBER": "a number",
    "CARD": "a card",
    "STRING": 'a "string"',
    "_NL": "end of line",
    "COMPARE": "a comparison",
    "LIST_CHANGE": "'+:' or '-:'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "COLON": "':'",
    "EQUAL": "'='",
    "COMMA": "','",
    "DOT": "'.'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "STAR": "'*'",
    "$END": "end of file",
}


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
        self._lock = threading.Lock()

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


def _describe_expected(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(t, f"'{t.lower()}'" if t.isupper() else t) for t in expected})
    if not words:
        return ""
    if len(words) > 8:
        words = words[:8] + ["..."]
    return "expected " + ", ".join(words)


class _ToSyntax(Transformer[Token, Any]):
    def __init__(self, path: str, lines: list[str]) -> None:
        super().__init__()
        self._path = path
        self._lines = lines

    def _loc(self, line: int, column: int) -> Location:
        text = self._lines[line - 1] if 0 < line <= len(self._lines) else ""
        return Location(self._path, line, column, text)

    def _meta_loc(self, meta: Any) -> Location:
        return self._loc(getattr(meta, "line", 1), getattr(meta, "column", 1))

    def _tok_loc(self, tok: Token) -> Location:
        return self._loc(tok.line or 1, tok.column or 1)

    # statements
    @v_args(meta=True)
    def start(self, meta: Any, children: list[Any]) -> tuple[Any, ...]:
        return tuple(children)

    @v_args(meta=True)
    def extends(self, meta: Any, children: list[Token]) -> s.Extends:
        return s.Extends(tuple(str(c)[1:-1] for c in children), self._meta_loc(meta))

    @v_args(meta=True)
    def block(self, meta: Any, children: list[Any]) -> s.Block:
        kind, name, *body = children
        return s.Block(
            str(kind), None if name is None else str(name), tuple(body), self._meta_loc(meta)
        )

    @v_args(meta=True)
    def list_setting(self, meta: Any, children: list[Any]) -> s.ListSetting:
        return s.ListSetting(str(children[0]), children[1], self._meta_loc(meta))

    @v_args(meta=True)
    def expr_setting(self, meta: Any, children: list[Any]) -> s.ExprSetting:
        return s.ExprSetting(str(children[0]), children[1], self._meta_loc(meta))

    @v_args(meta=True)
    def remove(self, meta: Any, children: list[Any]) -> s.Remove:
        return s.Remove(children[0], self._meta_loc(meta))

    def dotted(self, children: list[Token]) -> tuple[str, ...]:
        return tuple(str(c) for c in children)

    @v_args(meta=True)
    def list_change(self, meta: Any, children: list[Any]) -> s.ListChange:
        op: Literal["+", "-"] = "+" if str(children[1]) == "+:" else "-"
        return s.ListChange(str(children[0]), op, children[2], self._meta_loc(meta))

    @v_args(meta=True)
    def step(self, meta: Any, children: list[Any]) -> s.Step:
        name = str(children[0])
        placement = children[1]
        cond = children[2]
        assigns = tuple(children[3:])
        return s.Step(name, cond, assigns, self._meta_loc(meta), placement)

    def placement(self, children: list[Token]) -> s.Placement:
        where: Literal["before", "after"] = "before" if str(children[0]) == "before" else "after"
        return s.Placement(where, str(children[1]), self._tok_loc(children[1]))

    def condition(self, children: list[Any]) -> s.Expr:
        return children[0]  # type: ignore[no-any-return]

    @v_args(meta=True)
    def assign(self, meta: Any, children: list[Any]) -> s.Assign:
        return s.Assign(str(children[0]), children[1], self._meta_loc(meta))

    def items(self, children: list[s.Item]) -> tuple[s.Item, ...]:
        return tuple(children)

    @v_args(meta=True)
    def item(self, meta: Any, children: list[Any]) -> s.Item:
        return s.Item(children[0], tuple(children[1:]), self._meta_loc(meta))

    def word_name(self, children: list[Token]) -> str:
        return str(children[0])

    def word_number(self, children: list[Token]) -> str:
        return str(children[0])

    def word_string(self, children: list[Token]) -> str:
        return str(children[0])[1:-1]

    # expressions
    def number(self, children: list[Token]) -> s.Number:
        tok = children[0]
        if len(tok) > 9:
            raise RulesError("numbers in a rules file have at most 9 digits", self._tok_loc(tok))
        return s.Number(int(tok), self._tok_loc(tok))

    def string(self, children: list[Token]) -> s.String:
        return s.String(str(children[0])[1:-1], self._tok_loc(children[0]))

    def name(self, children: list[Token]) -> s.Name:
        return s.Name(str(children[0]), self._tok_loc(children[0]))

    def call(self, children: list[Any]) -> s.Call:
        args = tuple(a for a in children[1:] if a is not None)
        return s.Call(str(children[0]), args, self._tok_loc(children[0]))

    @v_args(meta=True)
    def cond(self, meta: Any, children: list[Any]) -> s.Cond:
        return s.Cond(children[0], children[1], children[2], self._meta_loc(meta))

    def _bin(self, op: str, meta: Any, children: list[Any]) -> s.Binary:
        return s.Binary(op, children[0], children[-1], self._meta_loc(meta))

    @v_args(meta=True)
    def or_op(self, meta: Any, c: list[Any]) -> s.Binary:
        return self._bin("or", meta, c)

    @v_args(meta=True)
    def and_op(self, meta: Any, c: list[Any]) -> s.Binary:
        return self._bin("and", meta, c)

    @v_args(meta=True)
    def compare_op(self, meta: Any, c: list[Any]) -> s.Binary:
        return s.Binary(str(c[1]), c[0], c[2], self._meta_loc(meta))

    @v_args(meta=True)
    def add(self, meta: Any, c: list[Any]) -> s.Binary:
        return self._bin("+", meta, c)

    @v_args(meta=True)
    def sub(self, meta: Any, c: list[Any]) -> s.Binary:
        return self._bin("-", meta, c)

    @v_args(meta=True)
    def mul(self, meta: Any, c: list[Any]) -> s.Binary:
        return self._bin("*", meta, c)

    @v_args(meta=True)
    def not_op(self, meta: Any, c: list[Any]) -> s.Unary:
        return s.Unary("not", c[0], self._meta_loc(meta))

    @v_args(meta=True)
    def neg(self, meta: Any, c: list[Any]) -> s.Unary:
        return s.Unary("-", c[0], self._meta_loc(meta))


def _check_nesting(text: str, path: str, lines: list[str]) -> None:
    depth = 0
    for lineno, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:
            raise RulesError(
                f"line is longer than {MAX_LINE_CHARS:,} characters; a list may go on after a "
                "comma on the next line",
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
        doc = parse_with(_lark(), text, path)
        _DOCUMENTS.put(doc)
    return doc


def parse_with(parser: Lark, text: str, path: str = "<rules>") -> s.Document:
    """`parse_text` with the given lark parser, nothing kept (tests compare the shipped
    tables with a parser built afresh from the grammar)."""
    if len(text) > MAX_FILE_CHARS:
        raise RulesError(f"rules file is larger than {MAX_FILE_CHARS} characters", None)
    if "\x00" in text:
        raise RulesError(f"{path}: rules file contains a NUL byte (is it a text file?)")
    lines = text.splitlines()
    _check_nesting(text, path, lines)
    source = text if text.endswith("\n") else text + "\n"

    def loc(line: int, column: int) -> Location:
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        return Location(path, line, column, src)

    try:
        tree = parser.parse(source)
    except lark.exceptions.UnexpectedCharacters as exc:
        pos = exc.pos_in_stream or 0
        char = source[pos] if pos < len(source) else ""
        raise RulesError(
            f"unexpected character {char!r}; {_describe_expected(set(exc.allowed or ()))}",
            loc(exc.line, exc.column),
        ) from None
    except lark.exceptions.UnexpectedToken as exc:
        tok = exc.token
        if tok.type == "$END":
            what = "end of file"
        elif tok.type == "_NL":
            what = "end of line"
        else:
            what = repr(str(tok))
        raise RulesError(
            f"unexpected {what}; {_describe_expected(set(exc.expected))}",
            loc(exc.line if exc.line > 0 else len(lines), max(exc.column, 1)),
        ) from None
    except lark.exceptions.UnexpectedEOF as exc:
        raise RulesError(
            f"unexpected end of file; {_describe_expected(set(exc.expected))}",
            loc(len(lines), 1),
        ) from None
    try:
        statements = _ToSyntax(path, lines).transform(tree)
    except lark.exceptions.VisitError as exc:
        if isinstance(exc.orig_exc, RulesError):
            raise exc.orig_exc from None
        raise RulesError(f"cannot read rules file: {exc.orig_exc}", loc(1, 1)) from None
    except RecursionError:
        raise RulesError("rules file nests too deeply", loc(1, 1)) from None
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
