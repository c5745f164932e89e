"""What `play.beats` reads of the card's player (DK69's Schweine) and what `after_trick` and
scoring read of the combinations among one trick's cards (Klaverjas' roem,
examples/klaverjas.rules) are restated by the checker: the files keep every invariant, and
an engine that ignores either is caught (docs: docs/language.md, "beats" and "combination
NAME"; DK69 in docs/rules/doppelkopf.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import found

import trickcore.engine.phases.trick_winner
import trickcore.engine.tables
from trickcore.testing import check_rules

KLAVERJAS = Path(__file__).resolve().parent.parent / "examples" / "klaverjas.rules"


@pytest.mark.parametrize("rules", ["doppelkopf-schweinchen", KLAVERJAS], ids=str)
def test_rules_reading_the_player_or_the_trick_keep_every_invariant(rules):
    check_rules(rules, examples=20, matches=0)


def test_an_engine_that_forgets_the_card_player_is_caught(monkeypatch):
    """DK69: an engine whose `beats` never sees that the Schweine were shown (the card's
    player's names left out, his table read as nobody's) lets the Dullen beat them."""
    real = trickcore.engine.phases.trick_winner.TrickWinners._ruled

    def blind(self, deal, eff, power, led, seat, card, other):
        shown = self.reads_player
        self.reads_player = False
        try:
            return real(self, deal, eff, power, led, seat, card, other)
        except KeyError:  # a name of the player not given: the usual rule
            usual = eff[card] == self.trumps_id and (
                eff[other] != self.trumps_id or power[card] > power[other]
            )
            return usual or (eff[card] == led == eff[other] and power[card] > power[other])
        finally:
            self.reads_player = shown

    monkeypatch.setattr(trickcore.engine.phases.trick_winner.TrickWinners, "_ruled", blind)
    assert found("doppelkopf-schweinchen", examples=30) in ("trick winner", "view", "turn")


def test_an_engine_that_finds_no_combination_in_a_trick_is_caught(monkeypatch):
    """Roem never found in a trick: the scores differ from the checker's."""
    monkeypatch.setattr(
        trickcore.engine.tables.GameTables,
        "trick_combinations",
        lambda self: (lambda cards, trump: 0) if self.model.combinations else None,
    )
    assert found(KLAVERJAS, examples=30) == "deal score"
