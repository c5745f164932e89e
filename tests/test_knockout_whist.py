"""Knock-out Whist (examples/knockout-whist.rules), a game trickcore does not ship, written
with general constructs: a player knocked out sits out every later deal (a value kept over
the match read by `sit_out_if`), the last deal's best names trump (a choice), and the match
ends when one player is left (`end_if` counting the kept values of every player with
`count_all`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import found

import trickcore

KNOCKOUT = Path(__file__).resolve().parent.parent / "examples" / "knockout-whist.rules"
TRUMPS = ["clubs_named", "diamonds_named", "hearts_named", "spades_named"]


@pytest.fixture(scope="module")
def knockout() -> trickcore.Variant:
    return trickcore.load_variant(KNOCKOUT)


def play_deal(match: trickcore.Match, rng: random.Random) -> dict:
    """Play the current deal out at random; its result."""
    played = len(match.deal_results)
    while len(match.deal_results) == played:
        match.apply(rng.choice(match.legal_actions()))
    return match.deal_results[-1]


def test_seven_deals_of_seven_cards_down_to_one(knockout) -> None:
    for number in range(1, 8):
        deal = knockout.new_deal(seed=number, deal_number=number)
        assert {len(deal.observation(s).hand) for s in range(4)} == {8 - number}


@pytest.mark.parametrize("players", [2, 4, 7])
def test_a_player_without_a_trick_sits_out_every_later_deal(knockout, players) -> None:
    for seed in range(6):
        match = knockout.new_match(seed=seed, players=players)
        rng = random.Random(seed)
        out: set[int] = set()
        while not match.is_over:
            if match.current.observation(0).phase == "play":
                assert set(match.current.observation(0).sitting_out) == out
            result = play_deal(match, rng)
            out |= {s for s in range(players) if result["gains"][s] == 0}
            left = [s for s in range(players) if s not in out]
            # it ends as soon as one player is left (after the seventh deal at the latest)
            assert match.is_over == (len(left) == 1)
        assert match.winners == left and len(match.deal_results) <= 7


def test_the_last_deal_best_names_trump_first_of_the_tied(knockout) -> None:
    for seed in range(20):
        match = knockout.new_match(seed=seed, players=4)
        rng = random.Random(seed)
        first = match.current.observation(0)
        assert first.trump is not None and first.turned_up.endswith(first.trump[0].upper())
        result = play_deal(match, rng)
        if match.is_over:
            continue
        tricks = result["gains"]
        dealer = match.current.observation(0).dealer
        order = [(dealer + 1 + i) % 4 for i in range(4)]
        best = [s for s in order if tricks[s] == max(tricks)]  # from the dealer's left
        assert match.to_act == best[0]
        assert [a.text for a in match.legal_actions()] == TRUMPS
        match.apply("spades_named")
        assert match.current.observation(best[-1]).trump == "spades"
        if len(best) > 1:
            return  # a tie was met: only the first of them was asked
    pytest.fail("no deal had a tie for the most tricks")


def test_the_file_keeps_every_invariant() -> None:
    assert found(KNOCKOUT, examples=10) is None


def test_an_engine_that_ignores_the_others_in_end_if_is_caught(monkeypatch) -> None:
    """`end_if` worked out without the aggregates (only the deal number): matches that should
    end when one player is left go on, and the checker, restating `end_if`, says so."""
    monkeypatch.setattr(trickcore.Match, "_end_if_holds", lambda self: self.deals_played >= 7)
    assert found(KNOCKOUT, examples=10) is not None
