"""`forced_if` at a turn (`decision NAME { at: lead, play, card }`): when it holds for a
player offered the decision, he must take it before anything else: at his turn no card, no
announcement and no other decision; in a round of offers before a card, no `pass`. House
rules written as a user writes them: Sixty-six with the exchange of X16-X18 compulsory, and
Doppelkopf in which the holder of both ♣Q must say Re (DK rounds of offers, DK36). The
checker restates it (a planted engine that forgets it is caught) and the hidden worlds the
bots draw agree with it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import texts

import trickcore
from trickcore.checking.verify import verify
from trickcore.engine.phases import tricks as trick_phase
from trickcore.testing import check_rules

EXCHANGE = """extends "sixty-six"
name: "Sixty-six, the exchange compulsory"
decision exchange {
  forced_if = yes                                 # X16-X18, made a duty
}
"""

RE = """extends "doppelkopf"
name: "Doppelkopf, both old ladies say Re"
decision re {
  forced_if = count_card(QC) == 2
}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_compulsory_exchange_comes_before_any_card(tmp_path: Path) -> None:
    """Seat 1 holds the trump 9 and wins the first trick (X17: then he may exchange): in the
    shipped file he may also close, announce or lead a card; with the house rule he must
    exchange first, and then plays on as usual."""
    hands = {1: ["9H", "AC", "10C", "KS", "QS", "JD"], 0: ["9C", "JC", "QD", "KD", "AS", "10S"]}
    for name, text, expected in (
        ("shipped", 'extends "sixty-six"\n', None),
        ("compulsory", EXCHANGE, ["exchange"]),
    ):
        v = trickcore.load_variant(write(tmp_path, name, text))
        m = v.new_match(deck_orders=[v.stack_deck(hands, dealer=0, turnup="AH")])
        m.apply("play AC")
        m.apply("play 9C")
        legal = texts(m.legal_actions())
        if expected is None:
            assert "exchange" in legal and "play 10C" in legal and "close" in legal
        else:
            assert legal == expected
            m.apply("exchange")
            assert "play AH" in texts(m.legal_actions())  # the turned-up ace, now his


def test_the_holder_of_both_old_ladies_cannot_pass_re(tmp_path: Path) -> None:
    """In the rounds of offers before a card, a player offered `re` who holds both ♣Q is
    offered `re` alone; a player offered it without them may pass."""
    v = trickcore.load_variant(write(tmp_path, "re", RE))
    both = alone = 0
    for seed in range(60):
        m = v.new_match(seed=seed)
        rng = random.Random(seed)
        while not m.is_over and m.deals_played < 1:
            legal = texts(m.legal_actions())
            if "re" in legal:
                held = m.observation(m.to_act).hand.count("QC")
                if held == 2:
                    assert legal == ["re"]
                    both += 1
                else:
                    assert "pass" in legal
                    alone += 1
            m.apply(rng.choice(legal))
    assert both >= 2 and alone >= 2


@pytest.mark.parametrize(("name", "text"), [("exchange", EXCHANGE), ("re", RE)])
def test_the_files_keep_every_invariant(tmp_path: Path, name: str, text: str) -> None:
    check_rules(write(tmp_path, name, text), examples=15, matches=0)


def test_an_engine_that_forgets_the_duty_is_caught(tmp_path: Path, monkeypatch) -> None:
    path = write(tmp_path, "exchange", EXCHANGE)
    monkeypatch.setattr(trick_phase, "forced_decisions", lambda *args, **kwargs: [])
    report = verify(path, examples=30, matches=0)
    # a card or another decision taken where the exchange came first
    assert report.violation is not None
    assert "which the rules do not allow" in report.violation.message


@pytest.mark.parametrize(("name", "text"), [("exchange", EXCHANGE), ("re", RE)])
def test_hidden_worlds_agree_with_the_duty(tmp_path: Path, name: str, text: str) -> None:
    """A world rebuilt from its deck order replays every action, the duties included (a
    player who passed `re` did not hold both ♣Q)."""
    v = trickcore.load_variant(write(tmp_path, name, text))
    count = 0
    for seed in range(3):
        m = v.new_match(seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            m.apply(rng.choice(m.legal_actions()))
        for seat in range(m.seats):
            for w in v.sample_worlds(m.observation(seat), 4, random.Random(seed)):
                fresh = v.make_deal(list(w.deck_order), w.dealer, w.seats, w.context)
                for _, action in w.history:
                    fresh.apply(action.text)
                count += 1
    assert count == 3 * v.new_match(seed=0).seats * 4
