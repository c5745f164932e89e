"""Passing cards (`pass_cards`): players set cards aside, then each set moves on.

The players who pass (every player, or those `passes_if` picks as the phase begins) choose
in deal order from the dealer's left, each his `count` cards in a row, one action per card.
Nobody receives a card until every card is chosen; then each player's cards go to the player
`to` seats on (in deal order), or to the first player after him for whom `receives_if` held
as the phase began, or with `count: N each` N to each other player (for whom `receives_if`
held), the first N to the player after him, all at once. `pass_if` says which cards of his
hand a player may pass (all of them when it allows none). With `back`, each player who
received cards then chooses as many to pass back to the player they came from, in deal
order, and those move at once too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...language.errors import RulesError
from ...language.exprs import HAND_KEY
from ...language.limits import in_range
from ..actions import Action
from .base import Phase
from .lay_away import cards_allowed

if TYPE_CHECKING:
    from ...language.exprs import CompiledExpr
    from ...language.model import PassRules
    from ..deal import Deal


# the passes of a deal: giver -> [(taker, cards)], one entry per taker (`Deal.passed`)
Passes = Mapping[int, Sequence[tuple[int, list[int]]]]


def pass_moves(*stages: Passes) -> Iterator[tuple[int, int, list[int]]]:
    """Every (giver, taker, cards) of these stages of passing, in order."""
    for stage in stages:
        for giver, moves in stage.items():
            for taker, cards in moves:
                yield giver, taker, cards


def seat_on(active: list[int], seat: int, offset: int) -> int:
    """The player `offset` places on from `seat` in the order of play (backwards when
    negative): where a player's passed cards go, or where a seat's came from."""
    return active[(active.index(seat) + offset) % len(active)]


class PassCards(Phase):
    """Players choose cards to pass (`pass CARD`); skipped when `to` gives 0 or nobody
    passes."""

    name = "pass"

    def start(self, deal: Deal) -> bool:
        """Work out who passes and to whom; start with the first of them from the dealer's
        left (False: nobody passes in this deal)."""
        rules = deal.rules.pass_cards
        assert rules is not None
        by_seats = rules.receives_if is None and not rules.each
        deal.pass_to = _seats_on(deal, rules) if by_seats else 0
        if by_seats and deal.pass_to == 0:
            return False  # no passing in this deal
        who = rules.passes_if
        givers = [s for s in deal.active if who is None or who(deal.role_env(s))]
        if not by_seats:
            deal.pass_takers = _takers_by_rule(deal, givers, rules.receives_if, rules.each)
        else:
            deal.pass_takers = {g: [seat_on(deal.active, g, deal.pass_to)] for g in givers}
        givers = [g for g in givers if g in deal.pass_takers]
        if not givers:
            return False
        takers = [t for ts in deal.pass_takers.values() for t in ts]
        if rules.back and len(set(takers)) < len(takers):  # before any card moves
            raise RulesError(
                "pass_cards { back: yes } passes back to the one player a taker's cards "
                "came from, but this deal gives one player the cards of two",
                rules.receives_if.loc if rules.receives_if is not None else None,
            )
        deal.set_aside = {s: [] for s in givers}
        deal.to_act = givers[0]
        return True

    def legal(self, deal: Deal) -> list[Action]:
        """The cards of the hand `pass_if` allows (every card without it, or when it allows
        none)."""
        pass_card = self.game.actions.pass_card
        return [pass_card[c] for c in cards_to_pass(deal, deal.to_act)]

    def why_not(self, deal: Deal, action: Action) -> str | None:
        """A card of the hand that `pass_if` does not allow now."""
        rules = deal.rules.pass_cards
        if (
            rules is not None
            and rules.pass_if is not None
            and action.kind == "pass_card"
            and action.card in deal.hands[deal.to_act]
        ):
            return f"pass_cards.pass_if does not allow it now: {rules.pass_if.text}"
        return None

    def apply(self, deal: Deal, action: Action) -> None:
        """Set the card aside; after the last choice every set moves on at once (and with
        `back`, the players who received choose the cards going back)."""
        rules = deal.rules.pass_cards
        assert rules is not None
        seat = deal.to_act
        deal.hands[seat].remove(action.card)
        aside = deal.set_aside
        aside[seat].append(action.card)
        if len(aside[seat]) < cards_to_set_aside(deal, seat):
            return
        order = list(aside)
        i = order.index(seat)
        if i + 1 < len(order):
            deal.to_act = order[i + 1]
            return
        if deal.passed and rules.back:  # the cards passed back: to where they came from
            came_from = {t: g for g, t, _ in pass_moves(deal.passed)}
            for taker in order:
                giver = came_from[taker]
                deal.hands[giver].extend(aside[taker])
                deal.passed_back[taker] = [(giver, list(aside[taker]))]
            deal.set_aside = {}
            deal.next_phase()
            return
        n = rules.count
        for giver in order:
            chosen = aside[giver]
            deal.passed[giver] = moves = []
            for k, taker in enumerate(deal.pass_takers[giver]):
                cards = chosen[k * n : (k + 1) * n] if rules.each else list(chosen)
                deal.hands[taker].extend(cards)
                moves.append((taker, cards))
        deal.set_aside = {}
        if rules.back:  # those who received choose as many to pass back, in deal order
            takers = [t for _, t, _ in pass_moves(deal.passed)]
            deal.set_aside = {s: [] for s in deal.active if s in takers}
            deal.to_act = next(iter(deal.set_aside))
            return
        deal.next_phase()


def cards_to_set_aside(deal: Deal, seat: int) -> int:
    """How many cards `seat` sets aside in this stage of the passing: `count`, or with
    `count: N each` N for each of his takers (passing back: as many as he received)."""
    rules = deal.rules.pass_cards
    assert rules is not None
    if rules.each and not deal.passed:
        return rules.count * len(deal.pass_takers[seat])
    return rules.count


def cards_to_pass(deal: Deal, seat: int) -> list[int]:
    """The cards of `seat`'s hand he may pass now, in order: those `pass_cards.pass_if`
    allows, all of them without it or when it allows none."""
    hand = sorted(deal.hands[seat])
    rules = deal.rules.pass_cards
    rule = rules.pass_if if rules is not None else None
    if rule is None:
        return hand
    eff = deal.relations()[0]
    trumps = deal.game.trump_suit_id
    env = _pass_card_env(deal, seat)
    env["trumps_held"] = sum(1 for c in hand if eff[c] == trumps)
    return cards_allowed(deal, hand, rule, env)


def _pass_card_env(deal: Deal, seat: int) -> dict[str, Any]:
    """The names of a card of `seat`'s hand as one is to be passed (the card's own and
    `trumps_held` are set by the caller)."""
    rules = deal.rules.pass_cards
    assert rules is not None
    return {
        HAND_KEY: deal.hands[seat],
        "hand_size": len(deal.hands[seat]),
        "pass_left": cards_to_set_aside(deal, seat) - len(deal.set_aside.get(seat, ())),
        "passing_back": bool(deal.passed),
        **deal.contract_env(seat),
        **deal.context[seat],
    }


def _seats_on(deal: Deal, rules: PassRules) -> int:
    """`pass_cards.to`: how many seats on each player's cards go (public), 0 for none."""
    n = len(deal.active)
    first = deal.context[deal.active[0]]
    env = {"deal_number": first["deal_number"], "target": first["target"], "players": n}
    assert rules.to is not None
    offset = rules.to(env)
    in_range(offset, "pass_cards.to", rules.to.loc)
    return int(offset) % n


def _takers_by_rule(
    deal: Deal, givers: list[int], takes: CompiledExpr | None, each: bool
) -> dict[int, list[int]]:
    """Each giver's takers: the first player after him in deal order for whom
    `pass_cards.receives_if` holds, or with `count: N each` every other player for whom it
    holds (without it, every other player), in deal order from his left; a giver with none
    passes nothing."""
    active = deal.active
    receivers = {s for s in active if takes is None or takes(deal.role_env(s))}
    out: dict[int, list[int]] = {}
    for giver in givers:
        after = [seat_on(active, giver, k) for k in range(1, len(active))]
        takers = [t for t in after if t in receivers]
        if takers:
            out[giver] = takers if each else takers[:1]
    return out
