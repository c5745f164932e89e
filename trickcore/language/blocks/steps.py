"""`rule NAME: [if C then] x = e, ...` lines that set a deal's kept values."""

from __future__ import annotations

import attrs

from .. import syntax as s
from ..errors import RulesError
from ..exprs import BOOL, Scope, compile_expr, names_used
from ..model import Assignment, StepRule
from ..vocabulary import TRICK_COMMON
from .context import CompileContext


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


def keep_step(
    ctx: CompileContext, entry: s.Step, scope: Scope, assignable: dict[str, str]
) -> StepRule:
    """A rule setting a deal's keep names (`step_rule`); its error also names the lines of
    later files that changed the keep names it sets or reads (a `keep:` that replaced the
    inherited list)."""
    try:
        return step_rule(entry, scope, assignable, "a deal's keep names")
    except RulesError as exc:
        names = {a.name for a in entry.assigns}
        for expr in [entry.condition, *(a.expr for a in entry.assigns)]:
            if expr is not None:
                names |= names_used(expr)
        raise ctx.rules.because(exc, [f"deal.keep.{n}" for n in sorted(names)]) from None


# the aggregates over every player of the deal (the same list for each player)
_TABLE_AGGREGATES = frozenset({"count_all", "sum_all", "max_all", "min_all"})
_WORDS = frozenset({"yes", "no", "true", "false"})


def common_part(condition: s.Expr | None, same: frozenset[str] = frozenset()) -> s.Expr | None:
    """Of a condition `A and B and ...` (its `and`s from the left), the largest part it
    begins with that reads aggregates over every player of the deal, names the same for
    every player (`same`) and constants alone (none if there is no such part, or it reads
    neither an aggregate nor such a name)."""
    node = condition
    while node is not None:
        if _reads_table_alone(node, same) and any(
            (isinstance(c, s.Call) and c.func in _TABLE_AGGREGATES)
            or (isinstance(c, s.Name) and c.name in same)
            for c in s.nodes_in(node)
        ):
            return node
        node = node.left if isinstance(node, s.Binary) and node.op == "and" else None
    return None


def _reads_table_alone(node: s.Expr, same: frozenset[str]) -> bool:
    if isinstance(node, (s.Number, s.String)):
        return True
    if isinstance(node, s.Name):
        return node.name in _WORDS or node.name in same
    if isinstance(node, s.Call):
        return node.func in _TABLE_AGGREGATES
    if isinstance(node, s.Unary):
        return _reads_table_alone(node.operand, same)
    if isinstance(node, s.Binary):
        return _reads_table_alone(node.left, same) and _reads_table_alone(node.right, same)
    if isinstance(node, s.Cond):
        return all(_reads_table_alone(x, same) for x in (node.test, node.then, node.other))
    return False


def trick_event_rules(
    ctx: CompileContext, block: str, scope: Scope
) -> list[tuple[s.Step, StepRule]]:
    """The rules of an event block of trick play (`after_trick`, `after_card`: `rule NAME:
    [if C then] x = e, ...`, run for every player of the deal, setting its deal `keep`
    values), each with its line, compiled in `scope`."""
    b = ctx.block(block)
    if b.block is None:
        return []
    if "tricks" not in ctx.flow_kinds:
        raise RulesError(f"{block} needs trick play", b.loc)
    assignable = {k: t for k, t, _ in ctx.deal_rules.keep}
    out = []
    for key, entry in b.block.entries.items():
        if not isinstance(entry, s.Step):
            raise RulesError(f"{block} holds 'rule NAME: ...' lines; '{key}' is not one", entry.loc)
        rule = keep_step(ctx, entry, scope, assignable)
        common = common_part(
            entry.condition, TRICK_COMMON if block == "after_trick" else frozenset()
        )
        if common is not None:
            rule = attrs.evolve(
                rule,
                common=compile_expr(common, scope, BOOL),
                common_reads=tuple(sorted(set(s.names_in(common)) - _WORDS)),
            )
        out.append((entry, rule))
    return out
