"""`trickcore diff`: the shortest deal and actions on which two variants disagree, shown as
replayable saved matches; "no difference" for a file that only restates its base."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

import trickcore
from trickcore.analysis import differ
from trickcore.analysis.differ import find_difference
from trickcore.interfaces.cli import main

pytest.importorskip("hypothesis")

ROOT = Path(__file__).resolve().parent.parent
QUICK_BARREL = str(ROOT / "examples" / "quick-barrel.rules")
# Shrinking is given a budget in tries, not seconds: the difference found, and so each test's
# outcome, is the same on any machine, idle or busy.
SHRINK_TRIES = 50


@pytest.fixture(autouse=True)
def shrink_budget_in_tries(monkeypatch):
    """`trickcore diff` (which shrinks for 10 s) shrinks for SHRINK_TRIES tries here."""
    budgeted = functools.partial(
        differ.find_difference, shrink_seconds=None, shrink_tries=SHRINK_TRIES
    )
    monkeypatch.setattr(differ, "find_difference", budgeted)


@pytest.fixture
def overtrump(tmp_path: Path) -> str:
    """Tysiacha with one rule changed: who follows suit must beat the trick if he can."""
    path = tmp_path / "overtake.rules"
    path.write_text(
        'extends "tysiacha"\nname: "Tysiacha, overtake"\nplay {\n  beat_in_suit: yes\n}\n'
    )
    return str(path)


@pytest.fixture
def restated(tmp_path: Path) -> str:
    """A file that only restates settings of its base, with the values they have."""
    path = tmp_path / "restated.rules"
    path.write_text(
        'extends "tysiacha"\nname: "Tysiacha, restated"\n'
        "bidding {\n  step: 5\n  opening: at_least 100\n}\n"
        "play {\n  follow: yes\n  overtrump: no\n}\n"
    )
    return str(path)


def test_a_one_rule_change_shows_in_the_legal_actions(overtrump):
    a, b = trickcore.load_variant("tysiacha"), trickcore.load_variant(overtrump)
    result = find_difference(a, b, deals=100, seed=1, shrink_seconds=None, shrink_tries=100)
    d = result.difference
    assert d is not None and d.what == "legal actions"
    assert d.start.scores is None  # shrunk to a fresh match
    # the obligation to overtake only removes cards: B allows nothing more, A allows more
    assert d.b_says == "nothing more" and d.a_says.startswith("also play ")
    assert len(d.actions) <= 14  # bids, talon, then the first tricks: shrunk short
    legal_a = {x.text for x in d.match_a.legal_actions()}
    legal_b = {x.text for x in d.match_b.legal_actions()}
    assert legal_b < legal_a and d.a_says == "also " + ", ".join(sorted(legal_a - legal_b))


def test_the_quick_barrel_differs_in_the_scores_after_one_deal():
    a, b = trickcore.load_variant("tysiacha"), trickcore.load_variant(QUICK_BARREL)
    d = find_difference(a, b, deals=60, shrink_seconds=None, shrink_tries=10).difference
    assert d is not None and d.what == "scores"
    assert d.match_a.deals_played == d.match_b.deals_played == 1  # one deal is enough
    assert d.start.kept is not None  # it needs somebody on the barrel
    assert 700 in d.match_b.scores and 700 not in d.match_a.scores


def test_the_printed_difference_replays(overtrump, tmp_path, capsys):
    prefix = tmp_path / "found"
    assert main(["diff", "tysiacha", overtrump, "--deals", "60", "--save", str(prefix)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("difference: legal actions, after ")
    assert "deck order 1, top card first: " in out and " | " in out  # side by side
    for side, title in (("a", "Tysiacha (1000)"), ("b", "Tysiacha, overtake")):
        data = json.loads((tmp_path / f"found-{side}.json").read_text())
        match = trickcore.load_match(tmp_path / f"found-{side}.json")
        assert match.game.title == title and not match.is_over
        assert len(match.history) == data["action_count"] > 0
    m_a = trickcore.load_match(tmp_path / "found-a.json")
    m_b = trickcore.load_match(tmp_path / "found-b.json")
    assert [h[2] for h in m_a.history] == [h[2] for h in m_b.history]
    assert {x.text for x in m_a.legal_actions()} != {x.text for x in m_b.legal_actions()}
    assert main(["replay", str(tmp_path / "found-b.json")]) == 0


def test_a_file_that_restates_its_base_shows_no_difference(restated, capsys, tmp_path):
    argv = ["diff", "tysiacha", restated, "--deals", "40", "--save", str(tmp_path / "x")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("no difference found in ") and "deals" in out
    assert not (tmp_path / "x-a.json").exists()
    assert main([*argv, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["difference"] is None and doc["deals"] >= 40


def test_variants_of_other_decks_deal_their_own_cards_in_one_order(tmp_path, capsys):
    # issue 15: a 36-card house rule of a 32-card game is compared, not refused
    a, b = trickcore.load_variant("durak"), trickcore.load_variant("durak-36")
    d = find_difference(a, b, deals=50, shrink_seconds=None, shrink_tries=SHRINK_TRIES).difference
    assert d is not None and d.what in ("legal actions", "seat to act", "deal result")
    assert d.start.cards is not None and len(d.start.cards) == 36
    texts_a = d.match_a.to_json()["deck_orders"][0]
    texts_b = d.match_b.to_json()["deck_orders"][0]
    assert sorted(texts_a) == sorted(a.card_texts) and sorted(texts_b) == sorted(b.card_texts)
    assert [t for t in texts_b if t in set(texts_a)] == texts_a  # the same cards, same order
    assert set(texts_b) - set(texts_a) == {"6C", "6D", "6H", "6S"}
    argv = ["diff", "russisch-schnapsen", "russisch-schnapsen-36-ohne", "--deals", "30"]
    assert main([*argv, "--save", str(tmp_path / "s")]) == 1
    out = capsys.readouterr().out
    assert out.startswith("difference: ") and "deck order 1 of B, top card first: " in out
    for side in "ab":
        match = trickcore.load_match(tmp_path / f"s-{side}.json")
        assert not match.is_over and main(["replay", str(tmp_path / f"s-{side}.json")]) == 0


def test_variants_with_no_number_of_players_in_common_differ_before_any_action(tmp_path, capsys):
    # Tysiacha is played by 3 (docs/rules/tysiacha.md T1), Bridge by 4 (B1): nothing to play
    # in common
    d = find_difference(trickcore.load_variant("tysiacha"), trickcore.load_variant("bridge"))
    d = d.difference
    assert d is not None and d.what == "number of players" and d.actions == ()
    assert (d.a_says, d.b_says) == ("3", "4")
    assert (d.match_a.seats, d.match_b.seats) == (3, 4)
    assert main(["diff", "tysiacha", "bridge", "--save", str(tmp_path / "p")]) == 1
    out = capsys.readouterr().out
    assert "number of players" in out and "A with 3 players, B with 4" in out
    assert trickcore.load_match(tmp_path / "p-b.json").to_act >= 0


def test_a_difference_after_several_deals_is_reached():
    # B33: four boards; bridge-boards-8 plays eight. A try plays up to 12 deals, the ones
    # after its drawn deck orders shuffled from a drawn seed.
    a, b = trickcore.load_variant("bridge"), trickcore.load_variant("bridge-boards-8")
    d = find_difference(a, b, deals=100, shrink_seconds=None, shrink_tries=10).difference
    assert d is not None and d.what == "match over"
    assert (d.a_says, d.b_says) == ("the match is over", "the match goes on")
    assert d.match_a.deals_played == d.match_b.deals_played == 4
    assert d.start.scores is None and d.start.deals_to_play >= 4
