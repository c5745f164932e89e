"""`trickcore verify` and trickcore.testing: shipped variants are consistent, and
deliberately broken rules files are reported with the right message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import sweep
from hypothesis import given, settings

import trickcore
from trickcore.checking.verify import verify
from trickcore.interfaces.cli import main
from trickcore.testing import check_rules, deals, matches

BROKEN = Path(__file__).parent / "broken"
EXAMPLES = settings().max_examples  # the hypothesis profile: quick in CI, thorough on demand


BASE = ("tysiacha", "russisch-schnapsen", "durak")  # whole matches for these (they take long)


@pytest.mark.parametrize("name", trickcore.list_variants())
def test_shipped_variants_keep_every_invariant(name):
    """Every shipped variant passes verify: random runs, and whole matches for the bases."""
    check_rules(name, examples=sweep(name, EXAMPLES, 5), matches=1 if name in BASE else 0)


def test_house_rule_changing_the_match_score_is_not_reported(tmp_path):
    """T21: `rule add: score = score + gain + 10` is valid; the checker runs after_deal
    itself instead of assuming the match score changes by the deal score (the tracker's
    false "match score" failure)."""
    rules = tmp_path / "plus-ten.rules"
    rules.write_text('extends "tysiacha"\nafter_deal {\n  rule add: score = score + gain + 10\n}\n')
    report = verify(rules, examples=10, matches=1)
    assert report.ok, report.violation


@pytest.mark.parametrize(
    "file, line, message",
    [
        ("forced-opening-above-cap.rules", 5, "above the bid cap for every hand"),
        ("pattern-one-card-short.rules", 4, "deals 23 cards"),
        ("rank-without-points.rules", 4, "rank 9 has no points"),
        ("auction-never-ends.rules", 5, "this auction can never end"),
        ("match-never-ends.rules", 3, "so that every match is sure to end"),
    ],
)
def test_broken_files_are_reported_statically(file, line, message):
    report = verify(BROKEN / file, examples=5)
    assert not report.ok and report.violation is None
    err = report.static_errors[0]
    assert message in err.message
    assert err.location.file.endswith(file) and err.location.line == line


def test_obligation_leaving_no_legal_card_is_found_and_replayable(tmp_path, capsys):
    report = verify(BROKEN / "no-legal-bid.rules", examples=50)
    assert report.violation is not None and report.violation.invariant == "stuck"
    assert "no legal action" in report.violation.message
    save = tmp_path / "cx.json"
    assert (
        main(
            ["verify", str(BROKEN / "no-legal-bid.rules"), "--examples", "50", "--save", str(save)]
        )
        == 1
    )
    out = capsys.readouterr().out
    assert "invariant broken: stuck" in out and "trickcore replay" in out
    data = json.loads(save.read_text())
    assert data["violation"]["invariant"] == "stuck"
    assert main(["replay", str(save)]) == 0
    out = capsys.readouterr().out
    assert "no legal action" in out


def test_check_rules_raises_with_a_counterexample(tmp_path):
    with pytest.raises(AssertionError, match="invariant 'stuck' broken") as info:
        check_rules(
            BROKEN / "no-legal-bid.rules", examples=50, save_counterexample=tmp_path / "c.json"
        )
    assert "replay: trickcore replay" in str(info.value)
    with pytest.raises(AssertionError, match="rank 9 has no points"):
        check_rules(BROKEN / "rank-without-points.rules")


def test_verify_command_on_a_shipped_variant(capsys, tmp_path):
    assert main(["verify", "durak", "--examples", "20", "--save", str(tmp_path / "cx.json")]) == 0
    assert "keeps every invariant" in capsys.readouterr().out


@given(deals("russisch-schnapsen", players=4))
def test_strategy_deals_every_card_once(deal):
    dealt = [c for seat in range(4) for c in deal.hand_texts(seat)]
    assert len(dealt) == 21 and len(set(dealt)) == 21
    assert deal.hand_texts(deal.dealer) == []  # S3: the dealer sits out


@given(matches("durak", max_actions=120))
def test_strategy_matches_keep_their_players_honest(match):
    if not match.is_over:
        obs = match.observation(match.to_act)
        assert match.to_act in obs.active
        assert (
            sum(obs.hand_sizes)
            + obs.stock_size
            + len(obs.discarded)
            + sum(1 for a, b in obs.table for c in (a, b) if c)
            == 32
        )


LONG_MATCH = """
extends "euchre"
name: "Euchre without an end"
match {
  target: none
  deal_limit: 260
}
"""


def test_a_match_played_past_its_deal_limit_is_caught_by_the_first_whole_match(
    tmp_path, monkeypatch
):
    """Whole matches after the first stop at their 100th deal (a rubber of random players
    runs to its limit of a thousand), the first is played to its end: an engine that deals
    once more than `deal_limit: 260` allows is caught there."""
    rules = tmp_path / "no-end.rules"
    rules.write_text(LONG_MATCH)
    assert verify(rules, examples=0, matches=2).ok
    original = trickcore.Match._check_end

    def one_more(self, deal):
        original(self, deal)
        if self.is_over and self.deals_played == 260:
            self.is_over = False  # a planted fault: the deal limit's last deal is not the last

    monkeypatch.setattr(trickcore.Match, "_check_end", one_more)
    report = verify(rules, examples=0, matches=1)
    assert report.violation is not None
    assert report.violation.invariant == "match end", report.violation
