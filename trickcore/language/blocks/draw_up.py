"""`draw_up { ... }`: every hand drawn up from the stock to one size."""

from __future__ import annotations

from ..errors import RulesError
from ..model import STOCK, TURNUP, Deck, DrawUpRules
from .context import CompileContext
from .deal import layouts

DRAW_UP_SETTINGS = frozenset({"to"})


def compile_draw_up(ctx: CompileContext, players: tuple[int, ...], deck: Deck) -> DrawUpRules:
    """`draw_up { to: N }`: each player in deal order takes cards from the stock (the
    turned-up card last) until he holds N; the stock must hold enough for every player
    count, whatever the phases before took or laid away."""
    b = ctx.block("draw_up")
    b.check_known(DRAW_UP_SETTINGS)
    to = b.integer("to", None, minimum=1)
    if to is None:
        raise RulesError("a draw_up block needs 'to: N' (the size each hand is drawn up to)", b.loc)
    rules = ctx.deal_rules
    if not any(p.to == "stock" for p in rules.pattern):
        raise RulesError(
            "draw_up takes its cards from a stock: 'rest stock' in the deal pattern", b.loc
        )
    for seated, in_deal, size, places in layouts(rules, players, deck.size):
        held = min(places.get(seat, 0) for seat in range(in_deal))
        if max(places.get(seat, 0) for seat in range(in_deal)) > to:
            raise RulesError(
                f"the deal pattern already gives a hand more than {to} cards "
                f"(with {seated} players): draw_up cannot even the hands",
                b.raw("to").loc,
            )
        stock = places.get(STOCK, 0) + places.get(TURNUP, 0)
        need = sum(to - places.get(seat, 0) for seat in range(in_deal))
        if stock < need:
            of_size = f" in a deal of size {size}" if rules.size is not None else ""
            raise RulesError(
                f"drawing every hand up to {to} cards takes {need} cards with {seated} "
                f"players{of_size} (hands of {held} or more), but the stock and the "
                f"turned-up card hold {stock}",
                b.raw("to").loc,
            )
    return DrawUpRules(to)
