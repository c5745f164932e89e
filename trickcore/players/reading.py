"""What a bot reads from the variant model and an observation: cards as numbers, the trump
suit, the card relations in force, sides, the cards still unseen. Nothing per game."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from ..engine.actions import Action
from ..engine.bouts import BoutDeal
from ..engine.combinations import combinations_held
from ..engine.deal import Deal
from ..engine.observation import BoutObservation, Observation
from ..engine.tables import GameTables


def trump_suit(game: GameTables, name: str | None) -> int:
    """The suit number of a suit name as observations give it (-1: none)."""
    if name is None:
        return -1
    for i, suit in enumerate(game.model.deck.suits):
        if suit.name == name:
            return i
    return -1


def cards_of(game: GameTables, texts: Iterable[str]) -> list[int]:
    """Card numbers of card texts."""
    return [game.card(t) for t in texts]


def chosen_options(game: GameTables, obs: Observation) -> tuple[str, ...]:
    """The options of choices made so far in the deal (they are public), in order."""
    if not game.options:
        return ()
    options = set(game.options)
    return tuple(text for _, text in obs.log if text in options)


def relations_now(game: GameTables, obs: Observation) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each card's effective suit and power in a trick under the observed trump,
    qualifier and choices (`GameTables.relations`)."""
    trump = trump_suit(game, obs.trump)
    return game.relations(trump, obs.qualifier, chosen_options(game, obs))


def side_of(game: GameTables, seats: int) -> list[int]:
    """The side of each seat (a seat without partners is a side of its own)."""
    return game.side_of[seats]


def seats_of(obs: Observation | BoutObservation) -> int:
    """The number of seats at the table."""
    return len(obs.hand_sizes)


def seen_cards(game: GameTables, obs: Observation) -> set[int]:
    """Every card the seat has seen or holds: its hand, the tricks, the trick on the table,
    the talon shown, open hands, cards received or given, laid away, the turn-up, and
    the card lying face up on the stock (`stock_top: shown`; one drawn from there may be in
    another hand, so it counts only while it lies there)."""
    seen: set[int] = set(cards_of(game, obs.hand))
    for _, cards, _ in obs.tricks:
        seen.update(game.card(c) for _, c in cards)
    seen.update(game.card(c) for _, c in obs.trick)
    if obs.talon_shown:
        seen.update(cards_of(game, obs.talon_shown))
    for _, cards_shown in obs.open_hands:
        seen.update(cards_of(game, cards_shown))
    seen.update(cards_of(game, obs.received))
    for _, given in obs.given:
        seen.update(cards_of(game, given))
    seen.update(cards_of(game, obs.laid_away))
    if obs.turnup is not None:
        seen.add(game.card(obs.turnup))
    if obs.stock_top is not None:
        seen.add(game.card(obs.stock_top))
    return seen


def played_cards(game: GameTables, obs: Observation) -> set[int]:
    """The cards gone in finished tricks and lying in the current trick."""
    out: set[int] = set()
    for _, cards, _ in obs.tricks:
        out.update(game.card(c) for _, c in cards)
    out.update(game.card(c) for _, c in obs.trick)
    return out


def own_bid(game: GameTables, obs: Observation, seat: int) -> int | None:
    """The number the seat bid in a round of number bids (`bids`), or None."""
    value = None
    for who, text in obs.bids:
        if who == seat:
            a = game.actions.parse(text)
            if a is not None and a.kind == "bid":
                value = a.value
    return value


def melds_held(game: GameTables, hand: set[int]) -> int:
    """The value of the melds whose cards all lie in `hand`."""
    return game.hand_quantities.melds_in_hand(list(hand))


def meld_cards_held(game: GameTables, hand: set[int]) -> set[int]:
    """The cards of `hand` that complete a meld with other cards of `hand`."""
    out: set[int] = set()
    held = game.held_as_first_copies(hand)  # a meld's cards are first copies
    for c in hand:
        for _, _, _, cards in game.meld_of_card.get(c, ()):
            if held.issuperset(cards):
                out.update(x for x in hand if game.first_copy[x] in cards)
    return out


def by_id(actions: Iterable[Action]) -> dict[int, Action]:
    """Actions keyed by their number."""
    return {a.id: a for a in actions}


def combinations_worth(game: GameTables, hand: list[int], trump: int) -> int:
    """The value of the combinations (`combination` blocks) `hand` holds with `trump`."""
    model = game.model
    if not model.combinations:
        return 0
    return sum(v for v, _ in combinations_held(model.combinations, model.deck, hand, trump))


def deal_score_or_none(game: GameTables, declarer: bool, qualifier: str, **q: Any) -> int | None:
    """`GameTables.deal_score` for an estimate, or None when the rules need more than it knows."""
    try:
        return game.deal_score(declarer, qualifier, **q)
    except Exception:  # an estimate only: rules that read more than these quantities
        return None


@attrs.define(slots=True)
class View:
    """What a bot reads of a seat's view, as card numbers: made from an observation (the
    bot's turn), or straight from a deal for the same seat (playouts in a sampled world,
    where it is much quicker than an observation)."""

    hand: list[int]
    trump: int
    qualifier: str = ""
    chosen: tuple[str, ...] = ()
    seats: int = 0
    players: list[int] = attrs.field(factory=list)  # the players of the deal
    playing: list[int] = attrs.field(factory=list)  # those who play tricks (none sits out)
    trick: list[tuple[int, int]] = attrs.field(factory=list)
    gone: set[int] = attrs.field(factory=set)  # cards seen: in no other hidden hand
    played: set[int] = attrs.field(factory=set)  # in finished tricks and in the trick
    declarer: int = -1
    contract: int = 0
    tricks_won: list[int] = attrs.field(factory=list)
    bids: list[tuple[int, Action | None]] = attrs.field(factory=list)
    talon_size: int = 0
    stock_size: int = 0
    table: int = 0  # games of bouts: cards lying on the table (attacks)

    @classmethod
    def of_observation(cls, game: GameTables, obs: Observation | BoutObservation) -> View:
        """The view of an observation."""
        hand = cards_of(game, obs.hand)
        if isinstance(obs, BoutObservation):
            return cls(
                hand,
                trump_suit(game, obs.trump),
                seats=len(obs.hand_sizes),
                stock_size=obs.stock_size,
                table=len(obs.table),
            )
        parse = game.actions.parse
        return cls(
            hand,
            trump_suit(game, obs.trump),
            obs.qualifier,
            chosen_options(game, obs),
            len(obs.hand_sizes),
            list(obs.players_in_deal),
            [s for s in obs.players_in_deal if s not in obs.sitting_out],
            [(s, game.card(c)) for s, c in obs.trick],
            seen_cards(game, obs),
            played_cards(game, obs),
            obs.declarer,
            obs.contract,
            list(obs.tricks_won),
            [(s, parse(t)) for s, t in obs.bids],
            obs.talon_size,
            obs.stock_size,
        )

    @classmethod
    def of_deal(cls, deal: Deal | BoutDeal, seat: int) -> View:
        """The view of `seat` in a deal (what its observation would give)."""
        if isinstance(deal, BoutDeal):
            return cls(
                deal.hands[seat],
                deal.trump,
                seats=deal.seats,
                stock_size=len(deal.stock),
                table=len(deal.table),
            )
        hand = deal.hands[seat] if deal.looked[seat] else []
        played = set(deal.played)
        played.update(c for _, c in deal.trick)
        gone = played | set(hand)
        if deal.talon_shown:
            gone.update(deal.talon_shown)
        if deal.turnup >= 0:
            gone.add(deal.turnup)
        if deal.stock_top() >= 0:
            gone.add(deal.stock_top())
        return cls(
            hand,
            deal.trump,
            deal.qualifier,
            deal.chosen,
            deal.seats,
            deal.active,
            deal.playing,
            deal.trick,
            gone,
            played,
            deal.declarer,
            deal.contract,
            deal.tricks_won,
            list(deal.bids),
            len(deal.talon),
            len(deal.stock) + (deal.turnup >= 0),
        )
