"""`trickcore diff`: the shortest deal and actions on which two variants disagree, shown as
replayable saved matches; "no difference" for a file that only restates its base."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import trickcore
from trickcore.analysis.differ import DiffError, find_difference
from trickcore.interfaces.cli import main

pytest.importorskip("hypothesis")

ROOT = Path(__file__).resolve().parent.parent
QUICK_BARREL = str(ROOT / "examples" / "quick-barrel.rules")


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
    result = find_difference(a, b, deals=100, seed=1)
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
    d = find_difference(a, b, deals=60, shrink_seconds=4).difference
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


def test_variants_of_other_decks_are_refused(capsys):
    with pytest.raises(DiffError, match="the decks differ"):
        find_difference(trickcore.load_variant("durak"), trickcore.load_variant("durak-36"))
    assert main(["diff", "tysiacha", "skat"]) == 1
    assert "error: the decks differ (24 and 32 cards)" in capsys.readouterr().err
