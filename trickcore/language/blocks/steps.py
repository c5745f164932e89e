"""`rule NAME: [if C then] x = e, ...` lines that set a deal's kept values."""

from __future__ import annotations

from .. import syntax as s
from ..errors import RulesError
from ..exprs import BOOL, Scope, compile_expr
from ..model import Assignment, StepRule


def step_rule(entry: s.Step, scope: Scope, assignable: dict[str, str], what: str) -> StepRule:
    """One `rule NAME: [if C then] x = e, ...` line; it may assign the names `assignable`."""
    cond = compile_expr(entry.condition, scope, BOOL) if entry.condition else None
    assigns = []
    for a in entry.assigns:
        if a.name not in assignable:
            known = ", ".join(sorted(assignable)) or "none"
            raise RulesError(f"cannot assign '{a.name}'; assignable ({what}): {known}", a.loc)
        assigns.append(Assignment(a.name, compile_expr(a.expr, scope, assignable[a.name])))
    return StepRule(entry.name, cond, tuple(assigns), entry.loc)
