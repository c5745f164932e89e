"""`pass_cards { ... }`: cards passed to another player, by every player or by some, to a
player some seats on or to one a rule picks, and with `back: yes` as many passed back."""

from __future__ import annotations

import attrs

from ..errors import RulesError
from ..exprs import BOOL, INT, Scope
from ..model import PassRules
from ..settings import BlockSettings, int_item
from ..vocabulary import PASS_CARD_NAMES, PASS_NAMES, PASSER_NAMES
from .context import CompileContext
from .read_ahead import role_scope

PASS_CARDS_SETTINGS = frozenset({"count", "to", "passes_if", "receives_if", "pass_if", "back"})


def compile_pass_cards(ctx: CompileContext) -> PassRules:
    """Passing cards: how many, to whom (seats on, or a rule over the players), who passes,
    which cards may go, and whether they come back."""
    b = ctx.block("pass_cards")
    b.check_known(PASS_CARDS_SETTINGS)
    count, each = _count(b)
    most = count * (max(ctx.player_counts) - 1 if each else 1)
    if most > ctx.deal_rules.per_hand:
        raise RulesError(
            f"a player cannot pass {most} cards from a hand of {ctx.deal_rules.per_hand}",
            b.raw("count").loc,
        )
    to_raw, receives_raw = b.raw("to"), b.raw("receives_if")
    if each and (to_raw is not None or b.raw("back") is not None):
        raise RulesError(
            "'count: N each' passes N cards to each other player (for whom 'receives_if' "
            f"holds): '{'to' if to_raw is not None else 'back'}' means nothing with it",
            (to_raw or b.raw("back")).loc,
        )
    if to_raw is not None and receives_raw is not None:
        raise RulesError(
            "pass_cards says where the cards go once: 'to = EXPR' (seats on) or "
            "'receives_if = EXPR' (the first player after the giver for whom it holds), "
            "not both",
            receives_raw.loc,
        )
    if to_raw is None and receives_raw is None and not each:
        raise RulesError(
            "pass_cards needs 'to = EXPR' (how many seats on each player's cards go) or "
            "'receives_if = EXPR' (who receives them)",
            b.loc,
        )
    to = receives_if = None
    if receives_raw is not None:
        receives_if = b.expr("receives_if", _player_scope(ctx, "receives_if"), BOOL)
    elif not each:
        scope = Scope(dict(PASS_NAMES), ctx.symbols, where="in pass_cards.to")
        to = b.expr("to", scope, INT)
    passes_if = None
    if b.raw("passes_if") is not None:
        passes_if = b.expr("passes_if", _player_scope(ctx, "passes_if"), BOOL)
    pass_if = None
    if b.raw("pass_if") is not None:
        card_scope = Scope(
            {**PASS_CARD_NAMES, **ctx.kept},
            ctx.symbols,
            hand=True,
            card=True,
            qualifier=True,
            where="in pass_cards.pass_if",
        )
        pass_if = b.expr("pass_if", card_scope, BOOL)
    return PassRules(
        count,
        to,
        passes_if,
        b.flag("back", False),
        receives_if=receives_if,
        pass_if=pass_if,
        each=each,
    )


def _count(b: BlockSettings) -> tuple[int, bool]:
    """`count: N` (to one taker) or `count: N each` (to each other player)."""
    items = b.items("count")
    if not items:
        raise RulesError("pass_cards needs 'count: N' (cards each player passes)", b.loc)
    parts = items[0].parts
    each = len(items) == 1 and len(parts) == 2 and parts[1] == "each"
    if each:
        return int_item(attrs.evolve(items[0], words=()), "'count'", 1), True
    count = b.integer("count", None, minimum=1)
    assert count is not None
    return count, False


def _player_scope(ctx: CompileContext, setting: str) -> Scope:
    """What `passes_if` and `receives_if` read for each player: his role in the deal (as
    `sit_out_if` does) when the passing comes after the auction, else the match's state, his
    kept values and the options chosen (a choice asked before the passing)."""
    flow = ctx.flow_kinds
    if "auction" in flow and flow.index("auction") < flow.index("pass"):
        return role_scope(ctx, f"pass_cards.{setting}")
    return Scope(
        {**PASSER_NAMES, **ctx.kept},
        ctx.symbols,
        aggregates=True,
        where=f"in pass_cards.{setting} (before any auction: nobody has a role yet)",
    )
