"""`scoring { ... }`: the definitions that score a deal."""

from __future__ import annotations

from .. import syntax as s
from ..errors import RulesError, RulesErrors
from ..exprs import (
    INT,
    TAKEN_FUNCS,
    TRICKS_AGGREGATES,
    CompiledExpr,
    Scope,
    compile_expr,
    functions_used,
    names_used,
)
from ..model import Scoring
from ..vocabulary import MATCH_STATE_NAMES, RESULT_NAMES, RESULT_TRICK_NAMES
from .context import CompileContext


def compile_scoring(ctx: CompileContext, auction: bool) -> tuple[Scoring, dict[str, str]]:
    """The scoring block: each role's deal score and the definitions it reads, compiled in
    the order they read each other (a circle is an error); also their types."""
    b = ctx.block("scoring")
    scope = Scope(
        {**RESULT_NAMES, **MATCH_STATE_NAMES, **ctx.kept},
        ctx.symbols,
        qualifier=True,
        where="in scoring",
        taken=True,
        aggregates=True,
        seats=True,
        hand=True,
        trump=True,
        tricks=Scope(
            ctx.trick_names(RESULT_TRICK_NAMES),
            ctx.symbols,
            where="in a trick of sum_tricks / count_tricks",
            trick=True,
            opponents=True,
        ),
    )
    roles = ("declarer", "defender") if auction else ("player",)
    defs: dict[str, s.ExprSetting] = {}
    for key, entry in b.block.entries.items() if b.block else ():
        if not isinstance(entry, s.ExprSetting):
            raise RulesError(
                f"scoring holds definitions 'name = expression'; '{key}' is not", entry.loc
            )
        other = ("player",) if auction else ("declarer", "defender")
        if key in other:
            raise RulesError(
                f"'{key}' has no meaning "
                + (
                    "with an auction: say 'declarer = ...' and 'defender = ...'"
                    if auction
                    else "without an auction: one rule scores every player, 'player = ...' "
                    "(it may read declarer and declarer_side where a choice declares)"
                ),
                entry.loc,
            )
        if (key in RESULT_NAMES or key in MATCH_STATE_NAMES) and key not in roles:
            raise RulesError(f"'{key}' is a built-in quantity and cannot be redefined", entry.loc)
        defs[key] = entry
    for required in roles:
        if required not in defs:
            raise RulesError(
                f"scoring needs '{required} = ...' (that role's deal score)"
                if auction
                else "scoring needs 'player = ...' (each player's deal score)",
                b.loc,
            )
    ordered: list[tuple[str, CompiledExpr]] = []
    types: dict[str, str] = {}
    visiting: list[str] = []
    # definitions that failed, each error once: one that reads a failed one is not checked
    failed: set[str] = set()
    errors: list[RulesError] = []

    def checked(expr: s.Expr, names: Scope, want: str | None = None) -> CompiledExpr:
        try:
            return compile_expr(expr, names, want)
        except RulesError as exc:
            raise ctx.rules.because(exc, defined_by(names_used(expr))) from None

    def visit(name: str) -> None:
        if name in types:
            return
        if name in visiting:
            cycle = " -> ".join([*visiting[visiting.index(name) :], name])
            raise RulesError(
                f"definitions refer to each other in a circle: {cycle}", defs[name].loc
            )
        visiting.append(name)
        for dep in sorted(names_used(defs[name].expr)):
            if dep in defs and dep not in roles:
                visit(dep)
        visiting.pop()
        if names_used(defs[name].expr) & failed:
            failed.add(name)
            return
        try:
            compiled = checked(defs[name].expr, scope.with_names(types))
        except RulesError as exc:
            errors.append(exc)
            failed.add(name)
            return
        types[name] = compiled.type
        ordered.append((name, compiled))

    roles_all = (*roles, "sitting_out")  # `sitting_out`: what a seat out of the deal scores
    roles = roles_all if "sitting_out" in defs else roles
    try:
        for name in defs:
            if name not in roles:
                visit(name)
    except RulesError as exc:
        raise RulesErrors([*errors, exc]) if errors else exc from None
    full = scope.with_names(types)

    def role(name: str) -> CompiledExpr | None:
        if names_used(defs[name].expr) & failed:
            return None
        try:
            return checked(defs[name].expr, full, INT)
        except RulesError as exc:
            errors.append(exc)
            return None

    declarer = role(roles[0])
    defender = role("defender" if auction else "player")
    sitting_out = role("sitting_out") if "sitting_out" in defs else None
    if "progress" in types and types["progress"] != INT:
        errors.append(
            RulesError(
                "'progress' is a number: what the finished deal is worth to the player, "
                "higher being better (for computer players and the arena), e.g. "
                "'progress = odd_tricks + 5 * game_won'",
                defs["progress"].loc,
            )
        )
    if errors:
        raise errors[0] if len(errors) == 1 else RulesErrors(errors)
    assert declarer is not None and defender is not None
    reads_taken = any(functions_used(entry.expr) & set(TAKEN_FUNCS) for entry in defs.values())
    reads_top = any("top_trumps" in names_used(entry.expr) for entry in defs.values())
    reads_hand = any(
        functions_used(entry.expr)
        & {"count_rank", "count_suit", "holds", "count_card", "holds_trump"}
        for entry in defs.values()
    )
    reads_tricks = any(
        functions_used(entry.expr) & set(TRICKS_AGGREGATES) for entry in defs.values()
    )
    scoring = Scoring(
        tuple(ordered),
        declarer,
        defender,
        reads_taken,
        reads_top,
        sitting_out,
        reads_hand,
        reads_tricks,
        progress="progress" in types,
    )
    return scoring, types


def defined_by(names: set[str]) -> list[str]:
    """The merged entries that define these names (scoring definitions, kept names): what
    `MergedRules.because` blames when an inherited rule reading them breaks."""
    roles = ("declarer", "defender")  # role scores: no expression reads them
    return [f"scoring.{n}" for n in sorted(names) if n not in roles] + [
        f"{block}.keep.{n}" for block in ("match", "deal") for n in sorted(names)
    ]
