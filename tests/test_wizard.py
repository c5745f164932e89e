"""Wizard (examples/wizard.rules), a game trickcore does not ship, written from its usual
rules with general constructs: Wizards and Jesters as suits of their own, free to be played
(`play { free_if }`), a Jester led setting no suit (`sets_suit_if`), a Wizard led freeing
every player (a value kept after each card), the first Wizard winning (`beats`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import found

import trickcore
from trickcore.testing import check_rules

WIZARD = Path(__file__).resolve().parent.parent / "examples" / "wizard.rules"


@pytest.fixture(scope="module")
def wizard() -> trickcore.Variant:
    return trickcore.load_variant(WIZARD)


def round_three(
    wizard: trickcore.Variant, hands: dict[int, list[str]], turnup: str, number: int = 3
):
    """Round 3 (three cards each; or `number`), dealer 0, every player bidding 1 (0 in a
    smaller round); seat 1 leads."""
    order = wizard.stack_deck(hands, dealer=0, deal_number=number, turnup=turnup)
    deal = wizard.new_deal(deck_order=order, dealer=0, deal_number=number)
    for _ in range(4):
        deal.apply("bid 1" if number == 3 else "bid 0")
    return deal


def first_trick(wizard: trickcore.Variant, hands: dict[int, list[str]], turnup: str) -> int:
    """Who wins the first trick of round 2 when each seat from 1 on plays his first card."""
    deal = round_three(wizard, hands, turnup, number=2)
    for seat in (1, 2, 3, 0):
        deal.apply(f"play {hands[seat][0]}")
    return deal.observation(0).tricks[0][2]


def plays(deal) -> list[str]:
    return sorted(a.text for a in deal.legal_actions())


def test_the_deck_holds_60_cards(wizard: trickcore.Variant) -> None:
    assert wizard.model.deck.size == 60
    deal = wizard.new_deal(seed=1, deal_number=5)
    assert [len(deal.observation(s).hand) for s in range(4)] == [5] * 4


# worked first tricks of round 3 (spades trump, seat 1 leads): the hands of seats 1, 2, 3
# and 0, each card played, then the cards the next player may play (None: not asked), and
# who wins
WORKED = [
    pytest.param(
        "AN 5H KS / 7H AZ 2C / KN 3H 9D / QH 2H 4S",
        [
            ("AN", ["play 2C", "play 7H", "play AZ"]),  # a Jester led: nothing led yet
            ("7H", ["play 3H", "play KN"]),  # hearts now (or a Jester)
            ("3H", ["play 2H", "play QH"]),
            ("QH", None),
        ],
        0,  # the highest heart, not the Jester led
        id="a Jester led lets the next card set the suit",
    ),
    pytest.param(
        "KZ 5H KS / 7H AZ 2C / AS 3H 9D / QH 2H 4S",
        [
            ("KZ", None),
            ("AZ", ["play 3H", "play 9D", "play AS"]),  # a Wizard led: no suit to follow
            ("AS", None),  # the highest trump does not beat a Wizard
            ("4S", None),
        ],
        1,  # the first Wizard, not the second
        id="a Wizard led frees everyone and the first Wizard wins",
    ),
    pytest.param(
        "AH 5H KS / KN AD 2C / 3S 9D 8D / QH 2H 4S",
        [
            ("AH", None),
            ("KN", ["play 3S", "play 8D", "play 9D"]),  # void in hearts: anything
            ("3S", None),
            ("QH", None),
        ],
        3,  # a trump beats the suit led; the Jester never wins
        id="a trump beats the suit led and a Jester never wins",
    ),
]


@pytest.mark.parametrize(("hands", "steps", "winner"), WORKED)
def test_worked_tricks(wizard: trickcore.Variant, hands: str, steps, winner: int) -> None:
    seats = dict(zip((1, 2, 3, 0), (h.split() for h in hands.split(" / ")), strict=True))
    deal = round_three(wizard, seats, turnup="2S")
    for card, then in steps:
        deal.apply(f"play {card}")
        if then is not None:
            assert plays(deal) == then
    assert deal.observation(0).tricks[0][2] == winner


def test_a_trick_of_jesters_goes_to_the_first(wizard: trickcore.Variant) -> None:
    hands = {1: ["AN", "5H"], 2: ["KN", "2C"], 3: ["QN", "9D"], 0: ["JN", "2H"]}
    assert first_trick(wizard, hands, "2S") == 1


def test_a_jester_turned_up_means_no_trump(wizard: trickcore.Variant) -> None:
    hands = {1: ["AH", "5H"], 2: ["2S", "2C"], 3: ["3S", "9D"], 0: ["2H", "QH"]}
    assert first_trick(wizard, hands, "KN") == 1  # no spade trumps the ace of hearts
    assert first_trick(wizard, hands, "4S") == 3  # with spades trump, 3S wins


def test_a_wizard_turned_up_lets_the_dealer_alone_name_trump(wizard: trickcore.Variant) -> None:
    """The dealer (seat 0) is asked before the bids, nobody else; the suit he names is trump
    for every seat: 2H, played by a player void in clubs, beats the ace of clubs led."""
    hands = {1: ["AC", "5C"], 2: ["2H", "3D"], 3: ["3S", "9D"], 0: ["4C", "QS"]}
    order = wizard.stack_deck(hands, dealer=0, deal_number=2, turnup="AZ")
    deal = wizard.new_deal(deck_order=order, dealer=0, deal_number=2)
    assert deal.to_act == 0
    assert plays(deal) == sorted(f"{s}_named" for s in ("clubs", "diamonds", "hearts", "spades"))
    deal.apply("hearts_named")
    assert {deal.observation(s).trump for s in range(4)} == {"hearts"}
    assert deal.to_act == 1 and all(a.text.startswith("bid ") for a in deal.legal_actions())
    for _ in range(4):
        deal.apply("bid 0")
    for card in ("AC", "2H", "9D", "4C"):
        deal.apply(f"play {card}")
    assert deal.observation(0).tricks[0][2] == 2


def test_no_dealer_choice_without_a_wizard_turned_up(wizard: trickcore.Variant) -> None:
    for turnup in ("KN", "4S"):
        hands = {1: ["AC", "5C"], 2: ["2H", "2C"], 3: ["3S", "9D"], 0: ["4C", "QS"]}
        order = wizard.stack_deck(hands, dealer=0, deal_number=2, turnup=turnup)
        deal = wizard.new_deal(deck_order=order, dealer=0, deal_number=2)
        assert deal.to_act == 1 and plays(deal) == ["bid 0", "bid 1", "bid 2"]


@pytest.mark.parametrize("players, rounds", [(3, 20), (4, 15), (6, 10)])
def test_the_match_plays_every_round_the_last_without_trump(players: int, rounds: int) -> None:
    """The last round deals the whole deck: nothing is left to turn up, and it has no trump."""
    variant = trickcore.load_variant(WIZARD)
    last = variant.new_deal(seed=5, players=players, deal_number=rounds)
    seen = last.observation(0)
    assert len(seen.hand) == rounds and seen.turned_up is None and seen.trump is None
    match = variant.new_match(seed=2, players=players)
    rng = random.Random(players)
    while not match.is_over:
        match.apply(rng.choice(match.legal_actions()))
    assert len(match.deal_results) == rounds


def test_the_bid_made_scores_20_and_10_a_trick_else_minus_10_a_trick() -> None:
    variant = trickcore.load_variant(WIZARD)
    seen = set()
    for seed in range(30):
        rng = random.Random(seed)
        deal = variant.new_deal(seed=seed, deal_number=4)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        o = deal.observation(0)
        bids = {s: int(t.split()[1]) for s, t in o.bids}
        for seat in range(4):
            won, bid = o.tricks_won[seat], bids[seat]
            want = 20 + 10 * bid if won == bid else -10 * abs(won - bid)
            assert o.gains[seat] == want
            seen.add(won == bid)
    assert seen == {True, False}


def test_the_file_keeps_every_invariant() -> None:
    check_rules(WIZARD, examples=10, matches=1)


def test_an_engine_that_asks_the_wrong_player_is_caught(monkeypatch) -> None:
    """A decision reading `dealer` that the engine works out for the player on the dealer's
    left: the checker, restating the names independently, finds the difference."""
    assert found(WIZARD, examples=8) is None
    real = trickcore.engine.phases.turns.turn_env

    def shifted(deal, seat, reads=None, table=True):
        env = real(deal, seat, reads, table)
        if "dealer" in env:
            env["dealer"] = seat == (deal.dealer + 1) % deal.seats
        return env

    monkeypatch.setattr(trickcore.engine.phases.turns, "turn_env", shifted)
    assert found(WIZARD, examples=8) is not None
