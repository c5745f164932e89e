"""`play { trump: first_lead }`: the suit of the first card a player leads in a deal is trump
from that card on (Auction Pitch's pitch), and `trump_is(S)`, which tells a rule the suit
in force; `rank_by` reads `target`. They were missing when a new user wrote Auction Pitch
from the README alone (issue 28); `examples/auction-pitch.rules` is that file with them.
The checker restates the rule (a planted engine that forgets it is caught)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import texts

import trickcore
from trickcore.checking.verify import verify
from trickcore.engine.phases import tricks as trick_phase
from trickcore.testing import check_rules

PITCH = Path(__file__).resolve().parent.parent / "examples" / "auction-pitch.rules"
HANDS = {
    1: ["5H", "AS", "KS", "2C", "3D", "4C"],
    2: ["AH", "2H", "QS", "JS", "9C", "8D"],
    3: ["7C", "8C", "9D", "10D", "JD", "QD"],
    0: ["KH", "3H", "2S", "3S", "4S", "5S"],
}


def pitched(lead: str) -> trickcore.Match:
    v = trickcore.load_variant(PITCH)
    m = v.new_match(deck_orders=[v.stack_deck(HANDS, dealer=0)])
    for text in ("bid 2", "pass", "pass", "pass"):
        m.apply(text)
    assert m.to_act == 1 and m.observation(1).trump is None  # no trump before the pitch
    m.apply(lead)
    return m


def test_the_pitch_makes_its_suit_trump() -> None:
    """Seat 1 bids 2 and pitches the ♥5: hearts are trump for everyone from that card on;
    seat 2 must follow with a heart (or trump: the same here), seat 3, void, plays any card,
    and the highest trump, the ♥A, wins."""
    m = pitched("play 5H")
    assert all(m.observation(s).trump == "hearts" for s in range(4))
    assert texts(m.legal_actions()) == ["play AH", "play 2H"]
    m.apply("play AH")
    assert len(m.legal_actions()) == 6  # void in hearts: any card
    m.apply("play 7C")
    m.apply("play KH")
    assert m.observation(0).tricks[0][2] == 2


def test_another_pitch_another_trump() -> None:
    """The ♠A pitched instead: spades are trump; seat 2 may follow or trump with a spade."""
    m = pitched("play AS")
    assert m.observation(3).trump == "spades"
    assert sorted(texts(m.legal_actions())) == ["play JS", "play QS"]


def test_high_goes_to_the_player_dealt_the_highest_trump() -> None:
    """`holds_trump(R)` and `trump_is(S)` in scoring read the pitched suit: over random
    deals, the player dealt the highest trump scores High (a point) unless he bid and
    failed, whatever suit was pitched."""
    v = trickcore.load_variant(PITCH)
    order = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    suits = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
    pitched_suits = set()
    for seed in range(40):
        deal = v.new_deal(seed=seed, dealer=0)
        dealt = {s: deal.observation(s).hand for s in range(4)}
        rng = random.Random(seed)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        trump = suits[deal.observation(0).trump]
        pitched_suits.add(trump)
        best = min(
            (order.index(c[:-1]), s) for s, hand in dealt.items() for c in hand if c[-1] == trump
        )[1]
        gains = deal.gains
        assert gains[best] >= 1 or (best == deal.declarer and gains[best] < 0)
    assert len(pitched_suits) == 4


def test_the_file_keeps_every_invariant() -> None:
    check_rules(PITCH, examples=15, matches=1)


def test_an_engine_that_forgets_the_pitch_is_caught(monkeypatch) -> None:
    """An engine in which the first lead sets no trump plays a deal without one: the
    checker, which restates the rule, finds the trick's winner or the legal cards wrong."""
    original = trick_phase.TrickPlay.__init__

    def forgetful(self, game):
        original(self, game)
        self.trump_first_lead = False

    monkeypatch.setattr(trick_phase.TrickPlay, "__init__", forgetful)
    report = verify(PITCH, examples=20, matches=0)
    assert report.violation is not None


@pytest.mark.parametrize(
    "change, message",
    [
        (
            "play {\n  trump: first_card\n}\n",
            "'trump' is one of: none, turnup, stock_top, bid, first_lead",
        ),
        ("scoring {\n  x = trump_is(stars)\n}\n", "stars"),
    ],
)
def test_the_words_are_checked(tmp_path: Path, change: str, message: str) -> None:
    path = tmp_path / "broken.rules"
    path.write_text(f'extends "hearts"\n{change}', encoding="utf-8")
    with pytest.raises(trickcore.RulesError) as err:
        trickcore.load_variant(path)
    assert message in str(err.value) and "broken.rules:" in str(err.value)
