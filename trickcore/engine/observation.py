"""What one seat may know about a deal: an immutable, JSON-friendly view."""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Declaration:
    """A declared meld: by whom, which, in which suit, its value, at which trick."""

    seat: int
    meld: str
    suit: int
    value: int
    trick_index: int


@attrs.frozen
class Observation:
    """A seat's view of the deal. Cards are canonical card texts.

    `seat` is -1 for the public view (what every player sees). Hidden cards (other
    hands, a face-down talon, cards given to another defender) never appear here. `log` is
    every action of the deal as this seat saw it (a card given to someone else is shown as
    `give a card to N`).
    """

    seat: int
    phase: str
    to_act: int
    dealer: int
    players_in_deal: tuple[int, ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    talon_size: int
    talon_shown: tuple[str, ...] | None
    talon_taken: tuple[str, ...]
    received: tuple[str, ...]
    cards_received_by_others: tuple[tuple[int, int], ...]
    given: tuple[tuple[int, tuple[str, ...]], ...]
    bids: tuple[tuple[int, str], ...]
    declarer: int
    contract: int
    qualifier: str
    trump: str | None
    trick: tuple[tuple[int, str], ...]
    tricks: tuple[tuple[int, tuple[tuple[int, str], ...], int], ...]
    declarations: tuple[tuple[int, str, str, int], ...]
    tricks_won: tuple[int, ...]
    card_points_taken: tuple[int, ...] | None
    gains: tuple[int, ...] | None
    redealt: bool
    log: tuple[tuple[int, str], ...] = ()
    scores: tuple[int, ...] = ()
    kept: tuple[tuple[tuple[str, int | bool], ...], ...] = ()  # each seat's kept values
    set_aside: tuple[str, ...] = ()  # cards this seat chose to pass, not yet passed
    # passing: each player's cards go this many seats on (0: none, or the takers picked by
    # `pass_cards.receives_if` or `count: N each`: then `passes` says who passed to whom)
    pass_to: int = 0
    # every pass made (giver, taker, how many cards, passed back), in order: the passes,
    # then with `pass_cards { back: yes }` the cards passed back
    passes: tuple[tuple[int, int, int, bool], ...] = ()
    # the laid-away cards: all to who laid them away (and to all at the end when they count
    # for someone); to the others those shown as they were laid away (`lay_away_shown_if`)
    laid_away: tuple[str, ...] = ()
    open_hands: tuple[tuple[int, tuple[str, ...]], ...] = ()  # other hands shown to all
    turnup: str | None = None  # the turned-up card while it lies under the stock
    stock_size: int = 0  # cards in the stock, the turned-up card included
    stock_closed: bool = False
    announced: tuple[int, str, str] | None = None  # (seat, meld, suit) announced, not yet led
    deal_keep: tuple[tuple[int, str, int | bool], ...] = ()  # (seat, name, value) this deal
    sitting_out: tuple[int, ...] = ()  # players of the deal who sit out its trick play
    playing_for: int | None = None  # the seat whose hand the player to act plays from
    contract_text: str | None = None  # the contract as said, e.g. "4 clubs doubled"
    deal_number: int = 1  # the deal's number in its match (1: the first)
    # the card turned up as the cards were dealt, public all deal (`turnup` is the card
    # lying there now: none once picked up, another after an exchange)
    turned_up: str | None = None
    # `deal { stock_top: shown }`: the card lying face up on top of the stock now (none
    # while the stock is empty or closed), and every card that lay there this deal, each
    # with the number of stock cards drawn before it came to the top
    stock_top: str | None = None
    stock_shown: tuple[tuple[int, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The observation as plain JSON-ready data."""
        return _json_ready(self)


@attrs.frozen
class BoutObservation:
    """A seat's view of a deal of a game of bouts. Cards are card texts.

    Every card that was shown on the table is public (who took which cards is known), and
    so is `log`, every action of the deal with its seat, and `turned_up`, the card shown for
    trump when the cards were dealt (`trump_card` is the one shown now: another after a
    swap); `drawn` says when each card the seat was dealt or drew came to it. Other hands
    and the stock below the face-up trump card are not known.
    """

    seat: int
    phase: str
    to_act: int
    dealer: int
    players_in_deal: tuple[int, ...]
    active: tuple[int, ...]
    out: tuple[int, ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    trump: str | None
    trump_card: str | None
    trump_card_in_stock: bool
    attacker: int
    defender: int
    table: tuple[tuple[str, str | None], ...]
    taking: bool
    discarded: tuple[str, ...]
    bouts: int
    loser: int
    draw: bool
    log: tuple[tuple[int, str], ...] = ()
    scores: tuple[int, ...] = ()
    kept: tuple[tuple[tuple[str, int | bool], ...], ...] = ()  # each seat's kept values
    deal_number: int = 1  # the deal's number in its match (1: the first)
    # the card shown for trump as the cards were dealt (public), before any swap took it
    turned_up: str | None = None
    # the cards this seat was dealt or drew from the stock, each with the number of log
    # actions before it came (0: dealt): the seat remembers which of its cards came when
    drawn: tuple[tuple[int, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The observation as plain JSON-ready data."""
        return _json_ready(self)


def _json_ready(observation: Observation | BoutObservation) -> dict[str, Any]:
    """An observation's fields as a dict, in their order, as `attrs.asdict` gives them: its
    fields hold only numbers, strings, booleans, None and tuples of them, immutable, so that
    the values themselves are shared."""
    return {name: getattr(observation, name) for name in _FIELDS[type(observation)]}


_FIELDS = {cls: tuple(f.name for f in attrs.fields(cls)) for cls in (Observation, BoutObservation)}
