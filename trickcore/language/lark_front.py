"""lark's part of reading a rules file: its parse tree turned into the syntax tree, and its
errors into RulesError at file:line:column. Imported only when a text must be parsed (a
shipped file is read from its form parsed ahead of time, see `preparsed`), so that loading
a shipped variant does not import lark."""

from __future__ import annotations

import re
from typing import Any, Literal

import lark
from lark import Lark, Token, Transformer, v_args

from . import hints
from . import syntax as s
from .errors import Location, RulesError

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


def _parse(parser: Lark, source: str) -> Any:
    """lark's tree of `source`, a block's closing '}' also ending the statement before it on
    its line: `bidding { step: 10 }` reads as the block written on three lines. (Every
    statement ends with a line break, so a '}' after anything but a line break or the '{'
    can only end a one-line block; files written on several lines parse as before.)"""
    interactive = parser.parse_interactive(source)
    last: Token | None = None
    while True:
        try:
            for token in interactive.lexer_thread.lex(interactive.parser_state):
                interactive.feed_token(token)
                last = token
            return interactive.feed_eof(last)
        except lark.exceptions.UnexpectedToken as exc:
            # the lexer refuses a '}' where a statement has not ended (it has read it)
            tok = exc.token
            if tok.type != "RBRACE" or last is None or last.type in ("_NL", "LBRACE"):
                raise
            try:
                interactive.feed_token(Token.new_borrow_pos("_NL", "\n", tok))
            except lark.exceptions.UnexpectedToken:
                raise exc from None
            interactive.feed_token(tok)
            last = tok


def _token_hint(tok: Token, lines: list[str], line: int, column: int) -> str:
    """Advice for an unexpected token, or "" (the mistakes of `hints`)."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    if first in ("and", "or"):
        return (
            f"a line cannot begin with '{first}': end the line before with '{first}' and go "
            "on on this one (an expression breaks after 'and', 'or', 'then', 'else', an "
            "operator or '(')"
        )
    if text.lstrip().startswith("extends"):
        return hints.extends_hint(text)
    if tok.type == "EQUAL":
        return hints.equals_hint(text, column) or hints.missing_rule_keyword(text) or ""
    if tok.type == "_NL" and column > len(text.rstrip()):
        return hints.brace_on_next_line(lines, line)
    if str(tok) == "elif":
        return "write 'else if' (there is no 'elif')"
    return ""


# what an expression may end a line with and go on on the next (see the grammar)
_GOES_ON = re.compile(r"(?:\b(?:then|else|and|or)|[-+*(<>]|[=!<>]=)\s*$")


def _broken_off(lines: list[str], line: int, column: int) -> tuple[int, int, str] | None:
    """When the unexpected token begins its line and the line before it (comments left out)
    ends in an operator, `then`, `else` or `(`: that line, the column after its end, and the
    word it ends with; else None."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if text[: column - 1].strip():
        return None
    for before in range(line - 1, 0, -1):
        code = lines[before - 1].split("#", 1)[0].rstrip()
        if not code:
            continue
        found = _GOES_ON.search(code)
        if found is None:
            return None
        return before, len(code) + 1, found.group(0).strip()
    return None


def parse_tree(parser: Lark, source: str, path: str, lines: list[str]) -> tuple[s.Statement, ...]:
    """The statements of `source` (a checked text ending in a newline), read by `parser`."""

    def loc(line: int, column: int) -> Location:
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        return Location(path, line, column, src)

    def advice(hint: str) -> str:
        return f"; {hint}" if hint else ""

    try:
        tree = _parse(parser, source)
    except lark.exceptions.UnexpectedCharacters as exc:
        pos = exc.pos_in_stream or 0
        char = source[pos] if pos < len(source) else ""
        text = lines[exc.line - 1] if 0 < exc.line <= len(lines) else ""
        if char in hints.SUIT_GLYPHS:
            hint = hints.glyph_hint(text, exc.column, char)
        else:
            hint = hints.CHARACTER_HINTS.get(char, "")
        expected = "" if hint else f"; {_describe_expected(set(exc.allowed or ()))}"
        raise RulesError(
            f"unexpected character {char!r}{expected}{advice(hint)}", loc(exc.line, exc.column)
        ) from None
    except lark.exceptions.UnexpectedToken as exc:
        tok = exc.token
        line = exc.line if exc.line > 0 else len(lines)
        column = max(exc.column, 1)
        broken = _broken_off(lines, line, column) if tok.type != "$END" else None
        if broken is not None:  # an expression went on to a line that cannot go on with it
            at, end, word = broken
            raise RulesError(
                f"the expression breaks off after '{word}': expected more of it, but the next "
                f"line begins with {str(tok)!r}",
                loc(at, end),
            ) from None
        if tok.type == "$END":
            what = "end of file"
            hint = hints.block_not_closed(lines)
        else:
            what = "end of line" if tok.type == "_NL" else repr(str(tok))
            hint = _token_hint(tok, lines, line, column)
        expected = "" if hint else f"; {_describe_expected(set(exc.expected))}"
        raise RulesError(f"unexpected {what}{expected}{advice(hint)}", loc(line, column)) from None
    except lark.exceptions.UnexpectedEOF as exc:
        hint = hints.block_not_closed(lines)
        raise RulesError(
            f"unexpected end of file; {_describe_expected(set(exc.expected))}{advice(hint)}",
            loc(len(lines), 1),
        ) from None
    try:
        return tuple(_ToSyntax(path, lines).transform(tree))
    except lark.exceptions.VisitError as exc:
        if isinstance(exc.orig_exc, RulesError):
            raise exc.orig_exc from None
        raise RulesError(f"cannot read rules file: {exc.orig_exc}", loc(1, 1)) from None
    except RecursionError:
        raise RulesError("rules file nests too deeply", loc(1, 1)) from None
