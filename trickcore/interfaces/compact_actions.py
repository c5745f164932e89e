"""A compact numbering of a variant's actions, for learners (the OpenSpiel parameter
`actions="compact"`).

The engine's action numbers (`Variant.num_actions`, `legal_ids()`) are stable ids laid out
for every kind of action any variant has: a block of every card kind, 4,096 bid values per
qualifier, and so on, most of them never offered in a given game (a game of 52 cards
without melds: 11,946 numbers).
The compact numbering keeps, in the same order, only the blocks the variant's rules can
offer: a card play is one action per card, a bid one per call the auction allows. It is
worked out from the rules file (the flow, the talon, the auction's values or its opening
and cap, the `bids` rules), always a superset of what play can offer: the kinds of actions
of a phase the rules have, the bids the auction allows (all 4,096 values when its cap is not
bounded). Compact number i is the i-th stable id of `stable_ids`.
"""

from __future__ import annotations

from ..checking.utility_bounds import bound, deal_names, hand_names
from ..engine.actions import BID_SLOTS, SINGLE_KINDS
from ..engine.game import Game

__all__ = ["stable_ids"]


def stable_ids(game: Game, seats: int) -> list[int]:
    """The stable action numbers a game of the variant may offer, ascending."""
    table = game.actions
    model = game.model
    size = model.deck.size
    ids: set[int] = set()
    for kind in ("decide", "choose", "announce", "join"):  # the variant's own, as declared
        ids.update(table.block(kind))
    if model.bouts is not None:
        for kind in ("attack", "throw", "swap", "transfer", "beat", "multi_attack"):
            ids.update(table.block(kind))
        for kind in ("multi_throw", "take", "done"):
            ids.update(table.block(kind))
        return sorted(ids)
    tricks = model.tricks
    assert tricks is not None
    bidding = tricks.bidding
    contract = tricks.contract
    raising = contract is not None and contract.raise_allowed
    rules = tricks.bids
    singles = {
        "pass": bidding is not None or bool(tricks.decisions),
        "redeal": model.redeal is not None,
        "keep": model.redeal is not None or bool(tricks.decisions),
        "keep_contract": raising,
        "look": rules is not None and bool(rules.blind),
        "hold": bidding is not None and bidding.style == "pairs",
        "double": bidding is not None and bidding.double,
        "redouble": bidding is not None and bidding.double,
    }
    for kind in SINGLE_KINDS:
        if singles.get(kind, False):
            ids.update(table.block(kind))
    ids.update(table.block("play"))
    if model.melds:
        ids.update(table.block("marry"))
    if tricks.pass_cards is not None:
        ids.update(table.block("pass_card"))
    talon = tricks.talon
    if talon.lay_away or tricks.pickup is not None or tricks.decisions:
        ids.update(table.block("discard"))
    if talon.give_each_defender:
        ids.update(table.block("give"))
    bids = table.block("bid")
    quals = table.bid_qualifiers()
    hand = hand_names(game, seats)
    slots: set[int] = set()
    base = 0
    if bidding is not None:
        base = bidding.opening if bidding.opening_expr is None else 0
        if bidding.values:
            slots.update(range(len(bidding.values)))
        else:
            cap = bound(bidding.cap, hand, seats)[1]
            slots.update(range(0, _slots_to(cap, base, bidding.step) + 1))
    if raising:  # raises up to the contract's cap (with strains: bids of the auction's values)
        assert contract is not None
        top = bound(contract.cap, {**hand, "contract": deal_names(game, seats)["contract"]}, seats)
        last = _slots_to(top[1], base, contract.step)
        raises = table.block("raise")
        ids.update(raises[: last + 1])
    if rules is not None:
        shift = 2048 if bidding is not None else 0
        # a hand as the bids are made: its share of the deck (all of it with a talon)
        most = size if talon.lay_away or tricks.pickup is not None else size // seats
        names = {**hand, "hand_size": (0, most), "cards": (0, most)}
        high = max(rules.min, *rules.blind, bound(rules.max, names, seats)[1])
        values = {*range(rules.min, min(high, rules.min + BID_SLOTS) + 1), *rules.blind}
        slots.update(v - rules.min + shift for v in values)
    for slot in slots:
        if 0 <= slot < BID_SLOTS:
            ids.update(range(bids.start + slot * quals, bids.start + (slot + 1) * quals))
    return sorted(ids)


def _slots_to(top: int, base: int, step: int) -> int:
    """The slot of the highest value up to `top` (values from `base` by `step`), at most
    the last slot there is."""
    return min(max((top - base) // max(1, step), 0), BID_SLOTS - 1)
