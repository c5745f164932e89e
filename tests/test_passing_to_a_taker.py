"""Cards passed to a player a rule picks (`pass_cards { receives_if = EXPR }`), with a rule
over the cards that may go (`pass_if = EXPR`), and a deal a decision throws in (`effect:
redeal`). The shipped house rule that needs all three is Doppelkopf's poverty (Armut,
DK74-DK78 of docs/rules/doppelkopf.md); a Hearts table that may not pass the ♠Q and
Pinochle's pass to the bidder written with `receives_if` show that they are not one game's.
The checker restates them (a planted engine that forgets `pass_if` is caught) and the
hidden worlds the bots draw replay them."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest
from conftest import texts

import trickcore
from trickcore.checking.verify import verify
from trickcore.engine.phases import passing
from trickcore.interfaces.summary import rules_summary
from trickcore.testing import check_rules

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# DK74: seat 1 (forehand; seat 0 deals) holds two trumps (♥J, ♦K); nobody holds both ♣Q
POOR = ["JH", "KD", "AC", "AC", "10C", "10C", "KC", "KC", "9C", "9C", "AS", "AS"]
HANDS = {
    1: POOR,
    2: ["QC", "QS", "QS", "QH", "QH", "QD", "QD", "JC", "10S", "10S", "KS", "KS"],
    3: ["QC", "10H", "JH", "JD", "JD", "AD", "AD", "10D", "9S", "9S", "AH", "AH"],
    0: ["JC", "JS", "JS", "10H", "10D", "KD", "9D", "9D", "KH", "KH", "9H", "9H"],
}
# DK74, DK75: the reservations, then seat 1's poverty
CALLS = ["reservation", "healthy", "healthy", "healthy", "no_solo", "armut"]

QUEEN_KEPT = """extends "hearts"
name: "Hearts, the queen of spades stays"
pass_cards {
  pass_if = not card_is(QS)                       # H-house: nobody passes the ♠Q
}
"""

PINOCHLE_BY_RULE = """extends "./pinochle-passing.rules"
name: "Pinochle (passing), the bidder named by a rule"
remove pass_cards.to
pass_cards {
  receives_if = declarer                          # the bidder, wherever he sits
}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    return path


def armut_match() -> trickcore.Match:
    v = trickcore.load_variant("doppelkopf-armut")
    m = v.new_match(deck_orders=[v.stack_deck(HANDS, dealer=0)] * 2)
    for text in CALLS:
        m.apply(text)
    return m


def test_the_poor_player_passes_his_trumps_to_the_first_who_takes_them() -> None:
    """DK75: seat 2 declines and seat 3 takes (seat 0 is not asked); DK77: seat 1 may pass
    only his trumps while he holds one, then any card; seat 3 passes three back, which
    only the two of them see; DK78: they are the Re party of a normal game."""
    m = armut_match()
    assert m.to_act == 2 and texts(m.legal_actions()) == ["accepts", "declines"]
    m.apply("declines")
    m.apply("accepts")
    assert m.to_act == 1 and m.observation(1).phase == "pass"
    assert sorted(texts(m.legal_actions())) == ["pass JH", "pass KD"]
    with pytest.raises(trickcore.IllegalActionError, match="pass_if"):
        m.apply("pass AC")
    m.apply("pass KD")
    m.apply("pass JH")
    # no trump left: any card (one action for both copies of a card, DK2)
    assert sorted(texts(m.legal_actions())) == [
        f"pass {c}" for c in ("10C", "9C", "AC", "AS", "KC")
    ]
    m.apply("pass AS")
    assert m.to_act == 3 and len(m.legal_actions()) == 10  # passing back: any card of his
    for text in ("pass QC", "pass 9S", "pass 9S"):
        m.apply(text)
    hand = m.observation(1).hand
    assert sorted(hand) == sorted([*POOR[2:10], "AS", "QC", "9S", "9S"])
    for seat in range(4):
        obs = m.observation(seat)
        assert obs.passes == ((1, 3, 3, False), (3, 1, 3, True))
    assert "QC" not in m.observation(0).hand and len(m.observation(2).hand) == 12
    rng = random.Random(0)
    while m.deals_played < 1:
        m.apply(rng.choice(m.legal_actions()))
    gains = m.deal_results[0]["gains"]
    assert gains[1] == gains[3] == -gains[0] == -gains[2]


def test_nobody_takes_them_and_the_deal_is_thrown_in() -> None:
    """DK76: all three decline: the poor player's only action is to throw in; the deal is
    not scored or counted and the next dealer deals."""
    m = armut_match()
    for _ in range(3):
        m.apply("declines")
    assert m.to_act == 1 and texts(m.legal_actions()) == ["throw_in"]
    m.apply("throw_in")
    assert m.deals_played == 0 and m.scores == [0, 0, 0, 0]
    assert m.deal_results[0] == {"redeal": True, "by": 1, "dealer": 0}
    assert m.observation(0).dealer == 1


def test_show_says_who_receives_and_which_cards_go() -> None:
    summary = rules_summary(trickcore.load_variant("doppelkopf-armut").model)
    text = " ".join(line for _, lines in summary for line in lines)
    assert "go to the first player after him for whom accepts" in text
    assert "only a card for which passing_back or card_is_trump or trumps_held == 0" in text
    assert "the deal is thrown in unscored and dealt anew" in text


def test_a_hearts_table_that_keeps_the_queen(tmp_path: Path) -> None:
    """No ♠Q among the cards passed, while the hand has three others to pass."""
    v = trickcore.load_variant(write(tmp_path, "queen", QUEEN_KEPT))
    seen = 0
    for seed in range(40):
        deal = v.new_deal(seed=seed, dealer=0)
        while deal.phase == "pass":
            legal = texts(deal.legal_actions())
            if "QS" in deal.observation(deal.to_act).hand:
                assert "pass QS" not in legal
                seen += 1
            deal.apply(random.Random(seed).choice(legal))
    assert seen >= 10


def test_the_bidder_named_by_a_rule_is_the_same_as_two_seats_on(tmp_path: Path) -> None:
    """Pinochle's partner passes to the bidder: `receives_if = declarer` gives the same
    deals, action for action, as `to = 2`."""
    for name in ("pinochle.rules", "pinochle-passing.rules"):
        (tmp_path / name).write_text((EXAMPLES / name).read_text(encoding="utf-8"))
    by_seats = trickcore.load_variant(tmp_path / "pinochle-passing.rules")
    by_rule = trickcore.load_variant(write(tmp_path, "by-rule", PINOCHLE_BY_RULE))
    passed = 0
    for seed in range(20):
        a, b = by_seats.new_deal(seed=seed, dealer=0), by_rule.new_deal(seed=seed, dealer=0)
        rng = random.Random(seed)
        while not a.is_over:
            legal = texts(a.legal_actions())
            assert texts(b.legal_actions()) == legal
            passed += a.phase == "pass"
            choice = rng.choice(legal)
            a.apply(choice)
            b.apply(choice)
        assert a.observation(0).passes == b.observation(0).passes
    assert passed >= 100


@pytest.mark.parametrize(
    "change, message",
    [
        ("pass_cards {\n  receives_if = yes\n}\n", "not both"),
        ("remove pass_cards.to\n", "pass_cards needs 'to = EXPR'"),
        (
            "pass_cards {\n  pass_if = card_wins\n}\n",
            "unknown name 'card_wins' in pass_cards.pass_if",
        ),
    ],
)
def test_a_pass_says_where_the_cards_go_once(tmp_path: Path, change: str, message: str) -> None:
    path = write(tmp_path, "broken", f'extends "hearts"\n{change}')
    with pytest.raises(trickcore.RulesError) as err:
        trickcore.load_variant(path)
    assert message in str(err.value) and "broken.rules:" in str(err.value)


@pytest.mark.parametrize("name", ["doppelkopf-armut", "queen"])
def test_the_files_keep_every_invariant(tmp_path: Path, name: str) -> None:
    path = name if name == "doppelkopf-armut" else write(tmp_path, name, QUEEN_KEPT)
    check_rules(path, examples=15, matches=0)


# every player poor (DK74 made a rule of no trumps): random play calls poverty at once, so
# that the checker meets the poverty's pass in most deals (in the shipped file, rarely)
EVERYONE_POOR = """extends "doppelkopf-armut"
define {
  poor = yes
}
"""


@pytest.mark.parametrize(("name", "text"), [("queen", QUEEN_KEPT), ("poor", EVERYONE_POOR)])
def test_an_engine_that_forgets_pass_if_is_caught(
    tmp_path: Path, monkeypatch, name: str, text: str
) -> None:
    path = write(tmp_path, name, text)
    assert verify(path, examples=20, matches=0).violation is None
    monkeypatch.setattr(passing, "cards_to_pass", lambda deal, seat: sorted(deal.hands[seat]))
    report = verify(path, examples=20, matches=0)
    assert report.violation is not None and report.violation.invariant == "pass"
    assert "which the rules do not allow" in report.violation.message


def test_hidden_worlds_replay_the_poverty() -> None:
    """A world drawn for any seat after the cards changed hands replays every action,
    the trumps the poor player had to pass included. For the taker (seat 3), who knows
    the poor player passed a plain card after his two trumps, the search repairs a draw that
    gives the poor player a third trump (without that repair this draw finds no world)."""
    v = trickcore.load_variant("doppelkopf-armut")
    m = armut_match()
    for text in ("declines", "accepts", "pass KD", "pass JH", "pass AS"):
        m.apply(text)
    for text in ("pass QC", "pass 9S", "pass 9S"):
        m.apply(text)
    rng = random.Random(3)
    for _ in range(9):
        m.apply(rng.choice(m.legal_actions()))
    count = 0
    for seat in range(4):
        obs = m.observation(seat)
        for w in v.sample_worlds(obs, 5, random.Random(0)):
            fresh = v.make_deal(list(w.deck_order), w.dealer, w.seats, w.context)
            for _, action in w.history:
                fresh.apply(action.text)
            view = attrs.evolve(fresh.observation(seat), scores=obs.scores, kept=obs.kept)
            assert view == obs
            count += 1
    assert count == 20


MISDEAL = """extends "hearts"
name: "Hearts, the dealer may throw in"
decision misdeal {
  at: before pass                                 # before the cards are passed
  offer_if = dealer
  effect: redeal
}
"""


def test_a_thrown_in_deal_is_dealt_again_and_an_engine_that_scores_it_is_caught(
    tmp_path: Path, monkeypatch
) -> None:
    """`effect: redeal`: the deal ends unscored, the match goes on with the next dealer;
    an engine that scores it instead (as `end_deal`) is caught by the checker."""
    path = write(tmp_path, "misdeal", MISDEAL)
    v = trickcore.load_variant(path)
    m = v.new_match(seed=1)
    assert m.to_act == 0 and texts(m.legal_actions()) == ["misdeal", "keep"]
    m.apply("misdeal")
    assert m.deals_played == 0 and m.deal_results[0]["redeal"] is True
    assert m.observation(0).dealer == 1 and m.to_act == 1
    check_rules(path, examples=10, matches=0)
    from trickcore.engine.deal_core import DealCore

    monkeypatch.setattr(DealCore, "end_unplayed", lambda deal, by: deal.end_now())
    report = verify(path, examples=20, matches=0)
    assert report.violation is not None and report.violation.invariant == "redeal"
    assert "the deal was scored, the rules void it" in report.violation.message


def test_an_engine_that_gives_the_cards_to_another_player_is_caught(
    tmp_path: Path, monkeypatch
) -> None:
    """`receives_if = declarer`: an engine that hands the partner's cards to the player
    after him instead is caught by the hands the checker deals itself."""
    for name in ("pinochle.rules", "pinochle-passing.rules"):
        (tmp_path / name).write_text((EXAMPLES / name).read_text(encoding="utf-8"))
    path = write(tmp_path, "by-rule", PINOCHLE_BY_RULE)
    original = passing.PassCards.start

    def elsewhere(self, deal):
        started = original(self, deal)
        active = deal.active
        deal.pass_takers = {g: [passing.seat_on(active, g, 1)] for g in deal.pass_takers}
        return started

    monkeypatch.setattr(passing.PassCards, "start", elsewhere)
    report = verify(path, examples=20, matches=0)
    assert report.violation is not None
    assert report.violation.invariant == "cards"  # the hands the checker deals itself
    assert "but the deal and the actions so far give it" in report.violation.message


def test_two_givers_to_one_taker_cannot_be_passed_back(tmp_path: Path) -> None:
    """`back: yes` sends a taker's cards to the one player they came from: a rule that
    gives one player the cards of two is reported with its place, nothing half done."""
    text = """extends "hearts"
remove pass_cards.to
choice role {
  at: before pass
  who: each
  own: yes
  offer_if = yes
  options: giver, taker
}
pass_cards {
  receives_if = taker
  passes_if = giver
  back: yes
}
"""
    v = trickcore.load_variant(write(tmp_path, "two", text))
    m = v.new_match(seed=0)
    for choice in ("giver", "giver", "taker"):  # seats 1 and 2 both pass to seat 3
        m.apply(choice)
    hands = [m.observation(s).hand for s in range(4)]
    with pytest.raises(trickcore.RulesError, match=r"two.rules:11:17: .*the cards of two"):
        m.apply("taker")
    assert m.is_over and "the cards of two" in (m.stopped or "")  # the match stops there,
    assert [m.observation(s).hand for s in range(4)] == hands  # and no card has moved


def test_a_poverty_after_a_wedding_outranks_it() -> None:
    """DK74: seat 1 is poor and holds both ♣Q, seat 2 is poor too; both reserve. Seat 1
    chooses his Hochzeit, seat 2 then calls poverty, which outranks it: seat 2 and the
    player who takes his cards are the Re party, two against two (seat 1 is not in it)."""
    hands = {
        1: ["QC", "QC", "JH", "AC", "AC", "10C", "10C", "KC", "KC", "9C", "9C", "AS"],
        2: ["KD", "9D", "AS", "10S", "10S", "KS", "KS", "9S", "9S", "AH", "AH", "KH"],
        3: ["QS", "QS", "QH", "QH", "QD", "QD", "JC", "JC", "JS", "JS", "10H", "10H"],
        0: ["JH", "JD", "JD", "AD", "AD", "10D", "10D", "KD", "9D", "KH", "9H", "9H"],
    }
    v = trickcore.load_variant("doppelkopf-armut")
    m = v.new_match(deck_orders=[v.stack_deck(hands, dealer=0)])
    for text in ("reservation", "reservation", "healthy", "healthy", "no_solo", "no_solo"):
        m.apply(text)
    assert m.to_act == 1 and texts(m.legal_actions()) == ["armut", "wedding"]
    m.apply("wedding")
    assert m.to_act == 2 and texts(m.legal_actions()) == ["armut"]
    m.apply("armut")
    m.apply("declines")  # seat 1
    m.apply("accepts")  # seat 3
    assert sorted(texts(m.legal_actions())) == ["pass 9D", "pass KD"]
    rng = random.Random(2)
    while m.deals_played < 1:
        m.apply(rng.choice(m.legal_actions()))
    gains = m.deal_results[0]["gains"]
    assert gains[2] == gains[3] == -gains[0] == -gains[1] != 0
