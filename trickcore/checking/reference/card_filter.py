"""The cards after which a rule `after_card` can hold at all: read off the parts its
condition begins with that read nothing but the card (`played_it and card_is(AD) and ...`)."""

from __future__ import annotations

from collections.abc import Iterable

from ...language import syntax as s
from .expressions import BOOL_WORDS, CARD_CALLS, Evaluator


def cards_after(steps: Iterable[s.Step], ev: Evaluator, size: int) -> frozenset[int] | None:
    """The cards after which some rule of `steps` can hold; None when one can after any."""
    out: set[int] = set()
    for step in steps:
        lead = _card_parts(step.condition)
        if not lead:
            return None
        out.update(c for c in range(size) if all(ev(p, {}, card=c) for p in lead))
    return frozenset(out)


def _card_parts(condition: s.Expr | None) -> list[s.Expr]:
    """Of a condition `A and B and ...`, the parts it begins with that read the card alone,
    past `played_it` (neither can fail to be worked out: where they are false, the rest
    is not read)."""
    parts: list[s.Expr] = []
    node = condition
    while isinstance(node, s.Binary) and node.op == "and":
        parts.append(node.right)
        node = node.left
    if node is None:
        return []
    parts.append(node)
    lead: list[s.Expr] = []
    for part in reversed(parts):
        if isinstance(part, s.Name) and part.name == "played_it":
            continue
        if not _card_alone(part):
            break
        lead.append(part)
    return lead


def _card_alone(e: s.Expr) -> bool:
    if isinstance(e, s.Number):
        return True
    if isinstance(e, s.Name):
        return e.name in BOOL_WORDS
    if isinstance(e, s.Call):
        return e.func in CARD_CALLS and all(isinstance(a, s.Name) for a in e.args)
    if isinstance(e, s.Unary):
        return _card_alone(e.operand)
    if isinstance(e, (s.Binary, s.Cond)):
        parts = (e.left, e.right) if isinstance(e, s.Binary) else (e.test, e.then, e.other)
        return all(_card_alone(p) for p in parts)
    return False
