"""`pass_cards { ... }`: cards passed to another player before play."""

from __future__ import annotations

from ..errors import RulesError
from ..exprs import INT, Scope
from ..model import PassRules
from ..vocabulary import PASS_NAMES
from .context import CompileContext

PASS_CARDS_SETTINGS = frozenset({"count", "to"})


def compile_pass_cards(ctx: CompileContext) -> PassRules:
    """Passing cards: how many, and how many seats on."""
    b = ctx.block("pass_cards")
    b.check_known(PASS_CARDS_SETTINGS)
    count = b.integer("count", None, minimum=1)
    if count is None:
        raise RulesError("pass_cards needs 'count: N' (cards each player passes)", b.loc)
    if count > ctx.deal_rules.per_hand:
        raise RulesError(
            f"a player cannot pass {count} cards from a hand of {ctx.deal_rules.per_hand}",
            b.raw("count").loc,
        )
    scope = Scope(dict(PASS_NAMES), ctx.symbols, where="in pass_cards.to")
    return PassRules(count, b.expr("to", scope, INT))
