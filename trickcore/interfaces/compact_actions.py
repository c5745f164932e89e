"""A compact numbering of a variant's actions, for learners (the OpenSpiel parameter
`actions="compact"`).

The engine's action numbers (`Variant.num_actions`, `legal_ids()`) are stable ids laid out
for every kind of action any variant has: a block of every card kind, 4,096 bid values per
qualifier, and so on, most of them never offered in a given game (a game of 52 cards
without melds: 11,946 numbers).
The compact numbering keeps, in the same order, only the blocks the variant's rules can
offer: a card is one action, a bid one per call the auction allows. It is worked out from
the rules file (the flow, the talon, the auction's values or its opening and cap, the `bids`
rules), always a superset of what play can offer: the kinds of actions of a phase the rules
have, the bids the auction allows (all 4,096 values when its cap is not bounded).

A card played, passed or laid away is one number (`CARD_KINDS`): each is offered in a phase
of its own (the tricks, the passing, the talon, an exchange), so that no state offers two
of them for one card, and the state says which one the number is (`CompactNumbering.
legal_map`). Every other action is a number of its own, in the order of the stable ids.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..checking.utility_bounds import bound, deal_names, hand_names
from ..engine.actions import BID_SLOTS, SINGLE_KINDS
from ..engine.game import Game
from ..language.errors import TrickcoreError

__all__ = ["CARD_KINDS", "CompactNumbering", "stable_ids"]

# a card played, passed or laid away: one compact number per card (each kind is offered in
# a phase of its own, never two of them at once)
CARD_KINDS = ("play", "pass_card", "discard")


class CompactNumbering:
    """The compact numbers of a game of `seats` players: `size` of them; `stable[i]` is the
    first stable id of compact number i (of a card's number, the first of its kinds the
    rules offer: its play, if played); `of_stable` gives each stable id's compact number."""

    def __init__(self, game: Game, seats: int) -> None:
        """Worked out from the rules file (`stable_ids`)."""
        table = game.actions
        card_of: dict[int, int] = {}  # stable id of a card kind -> its card
        for kind in CARD_KINDS:
            for card, number in enumerate(table.block(kind)):
                card_of[number] = card
        self.name = game.name
        self.action_text = game.action_text
        self.stable: list[int] = []
        self.of_stable: dict[int, int] = {}
        numbered: dict[int, int] = {}  # card -> its compact number
        for number in stable_ids(game, seats):
            card = card_of.get(number, -1)
            if card in numbered:
                self.of_stable[number] = numbered[card]
                continue
            compact = len(self.stable)
            self.stable.append(number)
            self.of_stable[number] = compact
            if card >= 0:
                numbered[card] = compact

    @property
    def size(self) -> int:
        """How many compact numbers there are (`num_distinct_actions`)."""
        return len(self.stable)

    def legal_map(self, ids: Iterable[int]) -> dict[int, int]:
        """Of a state's legal stable ids, each one's compact number -> the id (in ascending
        compact order). Raises TrickcoreError for an action the numbering does not have, or
        two actions of one number (which the rules' phases never offer)."""
        found: dict[int, int] = {}
        of_stable = self.of_stable
        for number in ids:
            compact = of_stable.get(number)
            if compact is None or compact in found:
                text = self.action_text(number)
                why = "has no number" if compact is None else "shares its number with another"
                raise TrickcoreError(
                    f"'{text}' (action {number}) {why} in the compact numbering of "
                    f"{self.name}; play it with the engine's numbers (actions='stable')"
                )
            found[compact] = number
        return dict(sorted(found.items()))


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
