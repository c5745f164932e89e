"""`bidding { hold_if = EXPR }`: a player for whom it holds may bid the standing bid again,
at its level and strain, and so take it over, without raising it (issue 28: Bid Whist's
dealer, who "takes it" at the bid standing; a newcomer's file found it missing). Shown in
`examples/bid-whist.rules`; the checker restates it, so an engine that forgets it is caught.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import texts

import trickcore
from trickcore.checking.verify import verify
from trickcore.engine.phases import auction
from trickcore.interfaces.summary import rules_summary
from trickcore.language.errors import RulesError
from trickcore.testing import check_rules

BID_WHIST = Path(__file__).resolve().parent.parent / "examples" / "bid-whist.rules"


def _calls_to_the_dealer() -> trickcore.Match:
    """Deal 1 (dealer seat 0): forehand bids 4 uptown, the next two pass."""
    m = trickcore.load_variant(BID_WHIST).new_match(seed=1)
    assert m.observation(0).dealer == 0 and m.observation(0).to_act == 1
    m.apply("bid 4 uptown")
    m.apply("pass")
    m.apply("pass")
    return m


def test_the_dealer_may_take_the_contract_at_the_bid_standing() -> None:
    """The dealer is offered `bid 4 uptown` again (nothing lower); he takes it and, after
    three passes, is the declarer at 4 uptown."""
    m = _calls_to_the_dealer()
    calls = texts(m.legal_actions())
    assert calls[:2] == ["bid 4 uptown", "bid 4 downtown"] and "bid 3 notrump" not in calls
    m.apply("bid 4 uptown")
    for _ in range(3):
        assert texts(m.legal_actions()) == ["pass"]
        m.apply("pass")
    o = m.observation(0)
    assert (o.declarer, o.contract_text) == (0, "4 uptown")


def test_only_the_player_it_names_may_hold() -> None:
    """The players after forehand are not the dealer: the standing bid is not theirs to take."""
    m = trickcore.load_variant(BID_WHIST).new_match(seed=1)
    m.apply("bid 4 uptown")
    assert "bid 4 uptown" not in texts(m.legal_actions())
    assert texts(m.legal_actions())[0] == "bid 4 downtown"


def test_a_bid_is_taken_over_once_and_never_by_its_bidder(tmp_path: Path) -> None:
    """Every player may hold, in an auction that goes round to the last bidder (four passes
    end it): a bid taken over cannot be taken over again (the next must be higher, else two
    players could take it from each other for ever), and nobody holds his own bid."""
    (tmp_path / BID_WHIST.name).write_text(BID_WHIST.read_text(encoding="utf-8"), "utf-8")
    path = tmp_path / "everyone-holds.rules"
    path.write_text(
        'extends "./bid-whist.rules"\n'
        "bidding {\n  bid_if = yes\n  hold_if = yes\n  ends: passes 4\n}\n",
        encoding="utf-8",
    )
    m = trickcore.load_variant(path).new_match(seed=1)
    m.apply("bid 4 uptown")  # seat 1
    m.apply("pass")  # seat 2
    m.apply("pass")  # seat 3
    m.apply("pass")  # seat 0
    assert m.observation(0).to_act == 1
    assert texts(m.legal_actions())[0] == "bid 4 downtown"  # seat 1: his own bid stands
    m.apply("bid 5 uptown")
    assert texts(m.legal_actions())[0] == "bid 5 uptown"  # seat 2 may take it over
    m.apply("bid 5 uptown")
    assert texts(m.legal_actions())[0] == "bid 5 downtown"  # seat 3: taken over already
    m.apply("bid 5 notrump")
    assert texts(m.legal_actions())[0] == "bid 5 notrump"  # a higher bid may be held again
    for _ in range(4):
        m.apply("pass")
    o = m.observation(0)
    assert (o.declarer, o.contract_text) == (3, "5 notrump")


def test_a_bid_above_his_cap_is_not_his_to_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tysiacha's cap (T9: 120, more with a marriage in hand) bounds a held bid too: an
    engine that offers a player a bid above his cap to hold is caught."""
    path = tmp_path / "tysiacha-hold.rules"
    path.write_text('extends "tysiacha"\nbidding {\n  hold_if = yes\n}\n', encoding="utf-8")
    m = trickcore.load_variant(path).new_match(seed=2)
    m.apply("bid 100")
    assert texts(m.legal_actions())[0] == "bid 100"  # taken over at 100
    m.apply("bid 100")
    assert "bid 100" not in texts(m.legal_actions())  # once
    assert verify(path, examples=40, matches=0).violation is None

    def without_the_cap(self, deal, seat):  # type: ignore[no-untyped-def]
        return seat != deal.high_bidder and deal.high is not None

    monkeypatch.setattr(auction.Auction, "_may_hold", without_the_cap)
    report = verify(path, examples=40, matches=0)
    assert report.violation is not None and report.violation.invariant == "auction"
    assert "which the rules do not allow" in report.violation.message


def test_show_says_who_may_hold() -> None:
    summary = rules_summary(trickcore.load_variant(BID_WHIST).model)
    text = " ".join(line for _, lines in summary for line in lines)
    assert "may also bid the last bid again (the same level, strain and qualifier" in text
    assert "take it over, unless it was taken over already, if: dealer." in text


def test_holding_needs_the_auction_in_turns(tmp_path: Path) -> None:
    path = tmp_path / "skat-hold.rules"
    path.write_text('extends "skat"\nbidding {\n  hold_if = dealer\n}\n', encoding="utf-8")
    with pytest.raises(RulesError, match=r"skat-hold.rules:3:\d+: 'hold_if' is a setting"):
        trickcore.load_variant(path)


def test_the_file_keeps_every_invariant() -> None:
    check_rules(BID_WHIST, examples=15, matches=1)


def test_an_engine_that_forgets_hold_if_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert verify(BID_WHIST, examples=30, matches=0).violation is None
    filtered = auction.Auction._filtered

    def no_holding(self, deal, seat, out):  # type: ignore[no-untyped-def]
        """The calls as before, but never the standing bid again."""
        high = deal.high
        return [
            a
            for a in filtered(self, deal, seat, out)
            if high is None
            or not (
                a.kind == "bid"
                and (a.value, a.qualifier) == (high[0], self.game.qualifiers[high[1]])
            )
        ]

    monkeypatch.setattr(auction.Auction, "_filtered", no_holding)
    report = verify(BID_WHIST, examples=30, matches=0)
    assert report.violation is not None and report.violation.invariant == "auction"
    assert "is not offered bid" in report.violation.message
    assert "which the rules allow" in report.violation.message
