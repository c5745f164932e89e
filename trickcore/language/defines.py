"""`define { NAME = EXPR ... }`: names for expressions, written into every expression that
names them before anything else reads the rules (a file's own shorthand, inherited and
overridden like any setting)."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from . import syntax as s
from .errors import Location, RulesError

DEFINE_BLOCK = "define"
MAX_EXPANDED_NODES = 200_000  # every expression of a variant after its defines are written in


class _Expander:
    """Writes the defines into expressions, each define once (then reused)."""

    def __init__(self, defines: Mapping[str, s.ExprSetting]) -> None:
        self.defines = defines
        self.done: dict[str, s.Expr] = {}
        self.nodes = 0

    def define(self, name: str, stack: tuple[str, ...]) -> s.Expr:
        """A define with the defines it names written in (a circle is an error)."""
        found = self.done.get(name)
        if found is not None:
            return found
        setting = self.defines[name]
        if name in stack:
            circle = " -> ".join((*stack[stack.index(name) :], name))
            raise RulesError(f"defines name each other in a circle: {circle}", setting.loc)
        expanded = self.expr(setting.expr, (*stack, name))
        self.done[name] = expanded
        return expanded

    def expr(self, expr: s.Expr, stack: tuple[str, ...] = ()) -> s.Expr:
        """`expr` with every define it names written in."""
        self.nodes += 1
        if self.nodes > MAX_EXPANDED_NODES:
            raise RulesError(
                f"the defines make expressions of more than {MAX_EXPANDED_NODES:,} parts",
                _loc(expr),
            )
        if isinstance(expr, s.Name):
            if expr.name in self.defines:
                return self.define(expr.name, stack)
            return expr
        if isinstance(expr, s.Unary):
            return attrs.evolve(expr, operand=self.expr(expr.operand, stack))
        if isinstance(expr, s.Binary):
            return attrs.evolve(
                expr, left=self.expr(expr.left, stack), right=self.expr(expr.right, stack)
            )
        if isinstance(expr, s.Cond):
            return attrs.evolve(
                expr,
                test=self.expr(expr.test, stack),
                then=self.expr(expr.then, stack),
                other=self.expr(expr.other, stack),
            )
        if isinstance(expr, s.Call):
            return attrs.evolve(expr, args=tuple(self.expr(a, stack) for a in expr.args))
        return expr

    def entry(self, entry: object) -> object:
        """A setting or rule with the defines written into its expressions (anything else
        as it is)."""
        if isinstance(entry, s.ExprSetting):
            return attrs.evolve(entry, expr=self.expr(entry.expr))
        if isinstance(entry, s.Step):
            return attrs.evolve(
                entry,
                condition=self.expr(entry.condition) if entry.condition is not None else None,
                assigns=tuple(attrs.evolve(a, expr=self.expr(a.expr)) for a in entry.assigns),
            )
        return entry


def expander(entries: Mapping[str, object]) -> _Expander | None:
    """What writes the defines of a `define` block's entries into expressions (None when
    there are none); each define is expanded at once, so a circle is found even if unused."""
    defines: dict[str, s.ExprSetting] = {}
    for key, entry in entries.items():
        if not isinstance(entry, s.ExprSetting):
            loc: Location | None = getattr(entry, "loc", None)
            raise RulesError(f"a define is written 'NAME = expression', not '{key}' so", loc)
        defines[key] = entry
    if not defines:
        return None
    out = _Expander(defines)
    for name in defines:
        out.define(name, ())
    return out


def defines_shown(entries: Mapping[str, object]) -> tuple[tuple[str, str, str], ...]:
    """Each define as (name, its expression as written, as it is written into others)."""
    expand = expander(entries)
    if expand is None:
        return ()
    out = []
    for name, entry in entries.items():
        assert isinstance(entry, s.ExprSetting)
        out.append((name, s.expr_text(entry.expr), s.expr_text(expand.define(name, ()))))
    return tuple(out)


def fold_defines(text: str, defines: tuple[tuple[str, str, str], ...]) -> str:
    """An expression's text with each define written into it shown as its name again (for
    reading: `trickcore show`)."""
    for name, _, expanded in sorted(defines, key=lambda d: -len(d[2])):
        if expanded != name and len(expanded) > len(name):
            text = text.replace(f"({expanded})", name).replace(expanded, name)
    return text


def _loc(expr: s.Expr) -> Location:
    return expr.loc
