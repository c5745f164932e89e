"""`scoring { progress = EXPR }`: what a finished deal is worth to each player for those who
judge play before the match is decided (the search bots, the arena, `benchmarks/bots.py`).
Whist's score comes only when a rubber ends (W26–W28), so its file says what a deal brings
toward it: the points toward game (W14–W20) and the games won (W21, W22)."""

from __future__ import annotations

import pytest

import trickcore
from trickcore.interfaces.cli import main
from trickcore.players.arena import play_duplicate, summarize

RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()


def whist_order(hands: dict[int, list[str]]) -> list[str]:
    """A Whist deck order (W3, W4: one card at a time from the dealer's left; dealer 0, whose
    last card is the turn-up) that gives each seat the cards listed."""
    seat_of_position = [(1 + p) % 4 for p in range(48)] + [1, 2, 3, 0]
    cards = {seat: iter(cards) for seat, cards in hands.items()}
    return [next(cards[seat]) for seat in seat_of_position]


# seat 0 holds every spade (the turn-up, W7: spades are trump) and seat 2 every heart: the
# side 0-2 wins all 13 tricks however anyone plays (W10)
GRAND_SLAM = whist_order(
    {
        0: [r + "S" for r in RANKS],
        1: [r + "C" for r in RANKS],
        2: [r + "H" for r in RANKS],
        3: [r + "D" for r in RANKS],
    }
)


def play_out(deal_or_match: trickcore.Deal | trickcore.Match) -> None:
    while not deal_or_match.is_over:
        deal_or_match.apply(deal_or_match.legal_actions()[0])


def test_a_deal_that_wins_a_game_is_worth_its_points_and_the_game_before_the_rubber_ends():
    deal = trickcore.load_variant("whist").new_deal(GRAND_SLAM, dealer=0)
    play_out(deal)
    assert isinstance(deal, trickcore.Deal)
    assert deal.gains == [0, 0, 0, 0]  # W26: nothing is scored before the rubber ends
    # 7 odd tricks (W14) win the game (W20) with the losers at 0 points: a treble (W22, 3);
    # progress = 7 points + 5 x 3 for the side 0-2, 0 for the other side
    assert deal.worth() == [22, 0, 22, 0]


def test_the_game_that_ends_the_rubber_is_worth_the_rubber_too():
    m = trickcore.load_variant("whist").new_match(
        deck_orders=[GRAND_SLAM], kept=[{"points": 0, "games": 1, "game_values": 0}] * 4
    )
    play_out(m)
    assert m.is_over and m.winners == [0, 2]
    assert m.scores == [5, 0, 5, 0]  # W27, W28: the treble 3 and the rubber 2
    assert m.current.worth() == [32, 0, 32, 0]  # 7 + 5 x 3 + 10 for the rubber


def test_without_progress_a_deal_is_worth_its_score():
    deal = trickcore.load_variant("whist-trick-count").new_deal(GRAND_SLAM, dealer=0)
    play_out(deal)
    assert isinstance(deal, trickcore.Deal)
    assert deal.worth() == deal.gains == [13, 0, 13, 0]  # W47: each deal scores its tricks


def test_the_arena_measures_whist_by_its_progress(capsys: pytest.CaptureFixture[str]):
    """Before `progress`, every Whist deal in the arena scored 0 for every bot: no signal."""
    records = play_duplicate("whist", ["heuristic", "random", "heuristic", "random"], 6, 1)
    results = summarize(records, ["heuristic", "random", "heuristic", "random"])
    assert any(score != 0 for r in records for score in r.scores)
    assert results[1].margin < 0  # random play brings its side less toward game
    assert main(["arena", "whist", "--bots", "random,random,random,random", "--deals", "2"]) == 0
    assert "mean progress per deal" in capsys.readouterr().out


def test_show_says_how_a_deal_is_judged(capsys: pytest.CaptureFixture[str]):
    assert main(["show", "whist"]) == 0
    out = capsys.readouterr().out
    assert "progress = reached - points" in out
    assert "judge a deal by 'progress'" in out
    assert main(["show", "whist-trick-count"]) == 0
    assert "progress" not in capsys.readouterr().out


def test_a_house_rule_may_judge_any_game_by_its_own_progress():
    """Sixty-six judged by card points taken instead of game points (a study of play)."""
    text = 'extends "sixty-six"\nscoring {\n  progress = card_points\n}\n'
    variant = trickcore.variant_from_text(text, "sixty-six-by-card-points")
    deal = variant.new_deal(seed=3)
    play_out(deal)
    assert isinstance(deal, trickcore.Deal)
    worth = deal.worth()
    assert worth == deal.summary()["card_points"] != deal.gains  # not the game points of X35-X38
    assert sum(worth) > 0


def test_progress_is_a_number():
    text = 'extends "whist"\nscoring {\n  progress = won_game\n}\n'
    with pytest.raises(trickcore.RulesError, match=r"<rules>:3:3: 'progress' is a number"):
        trickcore.variant_from_text(text)
