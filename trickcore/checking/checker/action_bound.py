"""The most actions one deal can take under the rules (a deal that takes more is stuck)."""

from __future__ import annotations

import random

from ...engine.game import Game
from ...language.hands import meld_rich_hands
from ..reference.variant import Reference


def deal_action_bound(game: Game, players: int, ref: Reference | None = None) -> int:
    """The most actions one deal can take under the rules (a deal that takes more is stuck);
    `ref`: the rules as the checker reads them (doubles, rounds of calls, a pickup)."""
    model = game.model
    hands = min(model.deal.hands or players, players)
    size = model.deck.size
    if model.bouts is not None:
        per_bout = 1 + 2 * size + 1 + hands * (size + 2) + hands
        return model.bouts.max_bouts * per_bout
    tricks = model.tricks
    assert tricks is not None
    b = tricks.bidding
    max_cap = size
    auction = 0
    if b is not None and "auction" in tricks.flow and b.style == "pairs":
        auction = 2 * len(b.values) + 2 * hands + 2  # each bid is higher: a bid, a hold
    elif b is not None and "auction" in tricks.flow:
        rng = random.Random(0)
        caps = [
            b.cap(game.hand_env(h, 0, hands))
            for h in meld_rich_hands(model)
            + [rng.sample(range(size), model.deal.per_hand) for _ in range(50)]
        ]
        max_cap = max([*caps, b.opening]) + size  # a little room for caps a sample misses
        steps = len(b.values) + 2 if b.values else (max_cap - b.opening) // b.step + 2
        bids = steps * len(game.qualifiers)
        if b.hold_if is not None:  # each bid may be taken over once at its level
            bids *= 2
        passes_per_bid = b.ends_after_passes or hands
        if ref is not None and ref.doubles:  # a bid, passes, a double, passes, a redouble, ...
            auction = bids * (3 * passes_per_bid + 3) + hands
        else:
            auction = bids * (passes_per_bid + 1) + hands
        if ref is not None and ref.rounds:  # rounds of calls without a bid
            auction += ref.rounds * hands
    redeal = hands if model.redeal is not None else 0
    contract = tricks.contract
    contract_change = (
        (max_cap // contract.step + 2)
        if contract is not None and contract.raise_allowed and "contract" in tricks.flow
        else 0
    )
    passing = hands * tricks.pass_cards.count if tricks.pass_cards is not None else 0
    bidding = 2 * hands if tricks.bids is not None else 0  # a look, then a bid
    talon = tricks.talon.give_each_defender * hands + tricks.talon.lay_away
    if ref is not None:
        talon += ref.pickup_lay_away
    # decisions at a turn (each may be taken again while offered: a few per card) and an
    # announcement per lead; before each card a round of offers (`at: card`: every player
    # passes or is passed over, and after each decision, a few per card, again); decisions
    # between phases once per player at each point, each exchange a card at a time and
    # `keep`, and with `again` round after round (a round per card of the deck: each round
    # must change something for the rounds to end)
    turn = sum(1 for d in tricks.decisions if set(d.at) & {"lead", "play"})
    card = sum(1 for d in tricks.decisions if "card" in d.at)
    between = len(tricks.decisions) - turn - card
    between += sum(d.exchange + 1 for d in tricks.decisions if d.effect == "exchange_out")
    rounds = size + 1 if any(d.again for d in tricks.decisions) else 1
    decisions = (size + 1) * (2 * turn + 1) + hands * between * (len(tricks.flow) + 1) * rounds
    if card:
        decisions += (size + 1) * (hands + 2 * card * (hands + 1))
    return (
        redeal + passing + auction + bidding + talon + decisions + size + 1 + contract_change + size
    )
