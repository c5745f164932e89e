"""`talon { ... }`: what the declarer does with the talon."""

from __future__ import annotations

from .. import syntax as s
from ..errors import RulesError
from ..exprs import BOOL, INT, CompiledExpr, Scope, compile_expr
from ..model import DealRules, TalonRules
from ..settings import BlockSettings
from ..vocabulary import LAY_AWAY_NAMES, OPEN_NAMES
from .context import CompileContext
from .read_ahead import choice_options

TALON_SETTINGS = frozenset(
    {"show", "give_each_defender", "split_if", "lay_away", "counts_for_if", "lay_away_if"}
    | {"lay_away_shown_if"}
)


def compile_lay_away_if(
    ctx: CompileContext, b: BlockSettings, block: str, lay_away: int, name: str = "lay_away_if"
) -> CompiledExpr | None:
    """`lay_away_if = EXPR` (talon, pickup): per card of the hand, whether it may be laid
    away now; when it allows none of them, all may be. `lay_away_shown_if`, over the same
    names: whether a card laid away is shown to all."""
    if b.raw(name) is None:
        return None
    if not lay_away:
        what = "may be laid away" if name == "lay_away_if" else "laid away are shown"
        raise RulesError(
            f"'{name}' says which cards {what}, but the {block} lays none away: add 'lay_away: N'",
            b.raw(name).loc,
        )
    scope = Scope(
        {**LAY_AWAY_NAMES, **ctx.kept, **dict.fromkeys(choice_options(ctx.root), BOOL)},
        ctx.symbols,
        hand=True,
        card=True,
        qualifier=True,
        where=f"in {block}.{name}",
    )
    return b.expr(name, scope, BOOL)


def compile_talon(ctx: CompileContext, deal: DealRules, players: tuple[int, ...]) -> TalonRules:
    """The talon block: shown or not, split or given out, laid away; the hands stay equal
    for every player count."""
    b = ctx.block("talon")
    b.check_known(TALON_SETTINGS)
    scope = Scope({}, ctx.symbols, qualifier=True, where="in the talon rules")
    split = b.expr("split_if", scope, BOOL, compile_expr(s.Name("no", ctx.top_loc), scope))
    give = b.integer("give_each_defender", 0) or 0
    lay_away = b.integer("lay_away", 0) or 0
    for seated in players:
        hands = deal.hands or seated
        talon = deal.talon_size
        declarer_keeps = deal.per_hand + talon - give * (hands - 1) - lay_away
        if talon and give * hands + lay_away != talon:
            what = f"gives {give} to each of {hands - 1} defenders" + (
                f" and lays away {lay_away}" if lay_away else ""
            )
            raise RulesError(
                f"the declarer takes the {talon}-card talon and {what}: hands would differ "
                f"({declarer_keeps} against {deal.per_hand + give}); the talon must be "
                "the cards given to each player times the players, plus those laid away",
                (b.raw("give_each_defender") or b.raw("lay_away") or b).loc,
            )
        if talon and b.raw("split_if") is not None and talon % hands:
            raise RulesError(
                f"a {talon}-card talon cannot be split one card each among {hands} hands",
                b.raw("split_if").loc,
            )
    counts_scope = Scope(
        {**OPEN_NAMES, "won_last_trick": BOOL, "contract": INT, **ctx.kept},
        ctx.symbols,
        where="in talon.counts_for_if",
    )
    counts_for = b.expr("counts_for_if", counts_scope, BOOL) if b.raw("counts_for_if") else None
    lay_away_if = compile_lay_away_if(ctx, b, "talon", lay_away)
    shown_if = compile_lay_away_if(ctx, b, "talon", lay_away, "lay_away_shown_if")
    return TalonRules(
        b.flag("show", False), give, split, lay_away, counts_for, lay_away_if, shown_if
    )
