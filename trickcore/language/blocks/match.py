"""`match { ... }` and `after_deal { rule ... }`: the match's end, its kept values and
the rules run after each deal."""

from __future__ import annotations

import attrs

from .. import syntax as s
from ..errors import RulesError
from ..exprs import BOOL, BOOL_WORDS, INT, Scope, compile_expr, names_used
from ..model import Assignment, MatchRules, StepRule
from ..settings import BlockSettings, word_int
from ..vocabulary import ASSIGNABLE_BUILTINS, END_NAMES, MATCH_NAMES, QUANTITIES
from .context import CompileContext
from .scoring import defined_by
from .words import is_name

MATCH_SETTINGS = frozenset(
    {"target", "deal_limit", "redeal_limit", "tie_break", "keep", "rank_by", "end_if", "carry"}
)

MAX_DEALS = 100_000


def compile_match(
    ctx: CompileContext, def_types: dict[str, str], result_names: dict[str, str]
) -> MatchRules:
    """The match block and the after_deal rules: the kept values, the target and limits,
    the tie break, the rules run after each deal, the ranking and the end."""
    b = ctx.block("match")
    b.check_known(MATCH_SETTINGS)
    keep: list[tuple[str, str, int | bool]] = []
    builtins = {*QUANTITIES, *result_names, *def_types, *BOOL_WORDS}
    for it in b.items("keep") or ():
        parts = it.parts
        if len(parts) != 2:
            raise RulesError(
                "kept state is written: NAME INITIAL, e.g. 'bonus 0' or 'warned no'", it.loc
            )
        if parts[0] in builtins or not is_name(parts[0]):
            raise RulesError(
                f"'{parts[0]}' cannot be a kept name: it is a built-in quantity or a "
                "scoring definition here; choose another name",
                it.loc,
            )
        if any(parts[0] == k for k, _, _ in keep):
            raise RulesError(f"'{parts[0]}' is kept twice", it.loc)
        if parts[1] in BOOL_WORDS:
            keep.append((parts[0], BOOL, BOOL_WORDS[parts[1]]))
        else:
            keep.append((parts[0], INT, word_int(parts[1], it.loc, "an initial value")))
    tie = tuple(it.parts[0] for it in (b.items("tie_break") or ()))
    for it in b.items("tie_break") or ():
        if it.parts[0] not in ("declarer", "highest", "play_on") or it.words:
            raise RulesError("tie_break items are: declarer, highest, play_on", it.loc)
    target = b.integer("target", None, minimum=1)
    deal_limit = b.integer("deal_limit", None, minimum=1)
    if deal_limit is None:
        raise b.missing(
            "deal_limit", "match needs 'deal_limit: N' so that every match is sure to end"
        )
    redeal_limit = b.integer("redeal_limit", deal_limit, minimum=0)
    for label, value in (("deal_limit", deal_limit), ("redeal_limit", redeal_limit)):
        if value is None or value > MAX_DEALS:
            raise RulesError(
                f"'{label}' must be a number of at most {MAX_DEALS:,} deals",
                b.raw(label).loc,
            )
    deal_keep = {k: t for k, t, _ in ctx.deal_rules.keep}
    names = {
        **result_names,
        **def_types,
        **MATCH_NAMES,
        **deal_keep,
        **{k: t for k, t, _ in keep},
    }
    names["target"] = INT
    scope = Scope(names, ctx.symbols, qualifier=True, where="in after_deal")
    assignable = {*ASSIGNABLE_BUILTINS, *(k for k, _, _ in keep)}
    steps: list[StepRule] = []
    ab = ctx.block("after_deal")
    for key, entry in ab.block.entries.items() if ab.block else ():
        if not isinstance(entry, s.Step):
            raise RulesError(
                f"after_deal holds 'rule NAME: ...' lines; '{key}' is not one", entry.loc
            )
        try:
            cond = compile_expr(entry.condition, scope, BOOL) if entry.condition else None
            assigns = []
            for a in entry.assigns:
                if a.name not in assignable:
                    known = ", ".join(sorted(assignable))
                    raise RulesError(f"cannot assign '{a.name}'; assignable: {known}", a.loc)
                want = (
                    INT
                    if a.name in ASSIGNABLE_BUILTINS
                    else dict((k, t) for k, t, _ in keep)[a.name]
                )
                assigns.append(Assignment(a.name, compile_expr(a.expr, scope, want)))
        except RulesError as exc:
            raise ctx.rules.because(exc, defined_by(_step_reads(entry))) from None
        steps.append(StepRule(entry.name, cond, tuple(assigns), entry.loc))
    rank_scope = Scope(
        {"score": INT, "target": INT, **{k: t for k, t, _ in keep}},
        ctx.symbols,
        where="in rank_by",
    )
    rank_by = b.expr("rank_by", rank_scope, INT, None) if b.raw("rank_by") else None
    end_scope = Scope(
        {**END_NAMES, **{k: t for k, t, _ in keep}},
        ctx.symbols,
        aggregates=True,
        where="in match.end_if",
    )
    end_if = b.expr("end_if", end_scope, BOOL, None) if b.raw("end_if") else None
    next_dealer = None
    deal_block = ctx.block("deal")
    if isinstance(deal_block.raw("next_dealer"), s.ExprSetting):  # over after_deal's names
        next_dealer = deal_block.expr(
            "next_dealer", attrs.evolve(scope, where="in deal.next_dealer"), BOOL
        )
    changes_score = any(a.name == "score" for st in steps for a in st.assigns)
    if not changes_score and rank_by is None:
        raise RulesError(
            "after_deal never changes 'score' and there is no 'rank_by': add "
            "'rule add: score = score + gain' or rank the players with 'rank_by = ...'",
            ab.loc or ctx.top_loc,
        )
    assert redeal_limit is not None
    carry = _carried(b, keep)
    return MatchRules(
        target,
        deal_limit,
        tie or ("highest",),
        tuple(keep),
        tuple(steps),
        rank_by,
        redeal_limit,
        end_if,
        next_dealer,
        carry,
    )


def _carried(b: BlockSettings, keep: list[tuple[str, str, int | bool]]) -> tuple[str, ...]:
    """`carry: NAME, ...`: kept names a next match starts from (`new_match(after=...)`)."""
    kept = [k for k, _, _ in keep]
    out: list[str] = []
    for it in b.items("carry") or ():
        name = it.parts[0]
        if it.words or name not in kept:
            known = ", ".join(kept) or "none"
            raise RulesError(
                f"'carry' names kept values of the match (keep: {known}), not '{name}'", it.loc
            )
        if name in out:
            raise RulesError(f"'{name}' is carried twice", it.loc)
        out.append(name)
    return tuple(out)


def _step_reads(step: s.Step) -> set[str]:
    """Every name an after_deal rule reads or assigns."""
    exprs = [e for e in (step.condition, *(a.expr for a in step.assigns)) if e is not None]
    return {a.name for a in step.assigns}.union(*(names_used(e) for e in exprs))
