"""The syntax tree of a rules file: what was written, where, before any meaning is given."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import attrs

from .errors import Location


# ---------------------------------------------------------------- expressions
@attrs.frozen
class Number:
    """An integer literal."""

    value: int
    loc: Location


@attrs.frozen
class String:
    """A string literal (quotes removed)."""

    value: str
    loc: Location


@attrs.frozen
class Name:
    """A name: a game quantity, a definition, a rank or suit, yes/no."""

    name: str
    loc: Location


@attrs.frozen
class Call:
    """A function call such as ``round(x, 5)``."""

    func: str
    args: tuple[Expr, ...]
    loc: Location


@attrs.frozen
class Unary:
    """``-x`` or ``not x``."""

    op: str
    operand: Expr
    loc: Location


@attrs.frozen
class Binary:
    """Arithmetic, comparison and boolean operators."""

    op: str
    left: Expr
    right: Expr
    loc: Location


@attrs.frozen
class Cond:
    """``if c then a else b``."""

    test: Expr
    then: Expr
    other: Expr
    loc: Location


Expr = Number | String | Name | Call | Unary | Binary | Cond


def nodes_in(expr: Expr) -> Iterator[Expr]:
    """Every node of an expression, itself and its parts, nested calls included."""
    stack: list[Expr] = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Call):
            stack.extend(node.args)
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Binary):
            stack.extend([node.left, node.right])
        elif isinstance(node, Cond):
            stack.extend([node.test, node.then, node.other])


def calls_in(expr: Expr) -> Iterator[Call]:
    """Every function call in an expression, nested calls included."""
    return (node for node in nodes_in(expr) if isinstance(node, Call))


def names_in(expr: Expr) -> Iterator[str]:
    """Every name an expression reads (a function's arguments included)."""
    return (node.name for node in nodes_in(expr) if isinstance(node, Name))


_PRECEDENCE = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4}
_PRECEDENCE.update({"+": 5, "-": 5, "*": 6})


def _prec(expr: Expr) -> int:
    if isinstance(expr, Cond):
        return 0
    if isinstance(expr, Binary):
        return _PRECEDENCE[expr.op]
    if isinstance(expr, Unary):
        return 3 if expr.op == "not" else 7
    return 8


def expr_text(expr: Expr) -> str:
    """The expression written back as rules-file text, with only the brackets it needs."""
    if isinstance(expr, Number):
        return str(expr.value)
    if isinstance(expr, String):
        return f'"{expr.value}"'
    if isinstance(expr, Name):
        return expr.name
    if isinstance(expr, Call):
        return f"{expr.func}({', '.join(expr_text(a) for a in expr.args)})"
    if isinstance(expr, Unary):
        sep = " " if expr.op == "not" else ""
        return f"{expr.op}{sep}{_wrap(expr.operand, _prec(expr))}"
    if isinstance(expr, Binary):
        p = _prec(expr)
        return f"{_wrap(expr.left, p)} {expr.op} {_wrap(expr.right, p + 1)}"
    # a condition nested in the test or the `then` branch is bracketed for the reader;
    # `else if` chains read well as they are
    test, then = (
        f"({expr_text(e)})" if isinstance(e, Cond) else expr_text(e) for e in (expr.test, expr.then)
    )
    return f"if {test} then {then} else {expr_text(expr.other)}"


def _wrap(expr: Expr, min_prec: int) -> str:
    text = expr_text(expr)
    return f"({text})" if _prec(expr) < min_prec else text


# ---------------------------------------------------------------- statements
@attrs.frozen
class Item:
    """One comma-separated item of a list setting: an expression followed by words."""

    head: Expr
    words: tuple[str, ...]
    loc: Location

    @property
    def parts(self) -> tuple[str, ...]:
        """The item as plain words (the head written back as text)."""
        head = self.head.value if isinstance(self.head, String) else expr_text(self.head)
        return (head, *self.words)


@attrs.frozen
class ListSetting:
    """``name: item, item, ...``"""

    name: str
    items: tuple[Item, ...]
    loc: Location


@attrs.frozen
class ListChange:
    """``name +: item, ...`` (append to the inherited list) or ``name -: item, ...`` (drop the
    inherited item that starts with each item's words)."""

    name: str
    op: Literal["+", "-"]
    items: tuple[Item, ...]
    loc: Location


@attrs.frozen
class ExprSetting:
    """``name = expression``"""

    name: str
    expr: Expr
    loc: Location


@attrs.frozen
class Assign:
    """``name = expression`` inside a step."""

    name: str
    expr: Expr
    loc: Location


@attrs.frozen
class Placement:
    """``before other`` / ``after other`` in a rule line: where the rule goes in its block."""

    where: Literal["before", "after"]
    other: str
    loc: Location  # of the other rule's name, as written


@attrs.frozen
class Step:
    """``rule name [before|after other]: [if condition then] a = x, b = y`` -- an ordered rule.

    Without a placement a new rule is appended and a replaced one keeps its place.
    """

    name: str
    condition: Expr | None
    assigns: tuple[Assign, ...]
    loc: Location
    placement: Placement | None = None


@attrs.frozen
class Remove:
    """``remove block.setting`` -- delete an inherited entry."""

    path: tuple[str, ...]
    loc: Location


@attrs.frozen
class Extends:
    """``extends "parent", "other"``"""

    parents: tuple[str, ...]
    loc: Location


@attrs.frozen
class Block:
    """``kind [name] { ... }``"""

    kind: str
    name: str | None
    body: tuple[Statement, ...]
    loc: Location

    @property
    def key(self) -> str:
        """The key an extending file overrides this block by."""
        return self.kind if self.name is None else f"{self.kind} {self.name}"


Statement = ListSetting | ListChange | ExprSetting | Step | Remove | Extends | Block


@attrs.frozen
class Document:
    """A parsed rules file."""

    path: str
    text: str
    statements: tuple[Statement, ...]
