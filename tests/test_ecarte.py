"""Écarté (`examples/ecarte.rules`), a game of the family that trickcore does not ship
(issue 28): a newcomer's first file could not say three of its rules, which the language
says now.

- `decision { again: yes }`: the decisions between phases are asked round after round while
  one with `again` is taken: proposals, each accepted or refused, then the exchanges, until
  a proposal is refused or the non-dealer plays.
- `out_left`: the cards left out of the deal that nobody has held (an exchange draws them
  first, the cards laid away going under them): no exchange once the stock is spent.
- `turnup_rank(R)`: a king turned up scores a point for the dealer; read with his match
  `score` and the `target`, a king's point that brings a player to 5 ends the match at once.
- `exchange_out A to B`: the non-dealer lays away 1 to 5 cards, the dealer 0 to 5, each
  saying `keep` when he has laid away enough.

The checker restates each of them: an engine that forgets one is caught.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import texts

import trickcore
from trickcore.checking.checker.violations import Violation
from trickcore.checking.verify import verify
from trickcore.engine.phases import turns
from trickcore.interfaces.summary import rules_summary
from trickcore.language.errors import RulesError
from trickcore.language.exprs import TURNUP_KEY
from trickcore.testing import check_rules

ECARTE = Path(__file__).resolve().parent.parent / "examples" / "ecarte.rules"

# deal 1: seat 0 deals, seat 1 is the non-dealer (he proposes and leads)
HANDS = {1: ["7C", "8C", "9C", "7D", "8D"], 0: ["KS", "QS", "JS", "AS", "10S"]}


def _match(turnup: str = "7H") -> trickcore.Match:
    v = trickcore.load_variant(ECARTE)
    return v.new_match(deck_orders=[v.stack_deck(HANDS, turnup=turnup)])


def _caught() -> Violation:
    """What `verify` finds in the file with the engine as a test planted it (something)."""
    report = verify(ECARTE, examples=40, matches=0)
    assert report.violation is not None
    return report.violation


def _exchange(m: trickcore.Match, decision: str, cards: list[str], stop: bool = True) -> None:
    """`decision` (an exchange), then the cards laid away, then `keep` (unless he may lay
    away no more)."""
    m.apply(decision)
    for card in cards:
        m.apply(f"discard {card}")
    if stop:
        m.apply("keep")


def test_proposals_go_on_round_after_round_until_one_is_refused() -> None:
    m = _match()
    assert texts(m.legal_actions()) == ["propose", "keep"]
    m.apply("propose")
    assert texts(m.legal_actions()) == ["accept", "keep"]
    m.apply("accept")
    assert texts(m.legal_actions()) == ["exchange"]  # he must: at least one card
    m.apply("exchange")
    assert "keep" not in texts(m.legal_actions())
    m.apply("discard 7C")
    assert texts(m.legal_actions())[-1] == "keep"  # one laid away: he may stop
    for card in ("8C", "9C"):
        m.apply(f"discard {card}")
    m.apply("keep")
    assert len(m.observation(1).hand) == 5
    # the dealer may lay away none: `keep` at once
    assert texts(m.legal_actions()) == ["dealer_exchange"]
    _exchange(m, "dealer_exchange", [])
    # the round is over and a proposal was accepted in it: the decisions are asked again
    assert m.observation(1).to_act == 1
    assert texts(m.legal_actions()) == ["propose", "keep"]
    m.apply("propose")
    m.apply("keep")  # the dealer refuses: no exchange, no further round
    o = m.observation(1)
    assert o.phase == "play" and o.to_act == 1
    assert len(o.hand) == 5


def test_the_exchanges_stop_when_no_card_nobody_has_held_is_left() -> None:
    """21 cards are left out; each exchange draws cards nobody has held; after four rounds
    of 5 one is left: the non-dealer may lay away only one, the dealer none; then nobody
    proposes."""
    m = _match()
    for _ in range(4):
        m.apply("propose")
        m.apply("accept")
        _exchange(m, "exchange", list(m.observation(1).hand), stop=False)  # 5: no more
        _exchange(m, "dealer_exchange", [])
    m.apply("propose")
    m.apply("accept")
    m.apply("exchange")
    hand = list(m.observation(1).hand)
    assert sorted(texts(m.legal_actions())) == sorted(f"discard {c}" for c in hand)
    m.apply(f"discard {hand[0]}")  # the only card left: the exchange is over
    m.apply("dealer_exchange")
    assert m.observation(1).phase == "play"  # out_left == 0: he lays away nothing
    # he laid away 21 cards and drew the 21 left out, each of them once
    laid = [a for s, a in m.observation(1).log if s == 1 and a.startswith("discard ")]
    assert len(laid) == 21 and len(set(laid)) == 21


def _gains_of_the_deal(m: trickcore.Match) -> list[int]:
    """Play the deal out, the first legal action each time; the gains it scored."""
    while m.observation(0).deal_number == 1:
        m.apply(texts(m.legal_actions())[0])
    return list(m.deal_results[-1]["gains"])


def test_a_king_turned_up_scores_for_the_dealer() -> None:
    """Hearts are trumps (the ♥K turned up); the dealer holds five hearts, the non-dealer
    plays as dealt: the dealer must trump every lead and takes all five tricks, the vole (2),
    and the king (1)."""
    v = trickcore.load_variant(ECARTE)
    hands = {1: ["7C", "8C", "9C", "7D", "8D"], 0: ["QH", "JH", "AH", "10H", "9H"]}
    m = v.new_match(deck_orders=[v.stack_deck(hands, turnup="KH")])
    assert texts(m.legal_actions()) == ["king_turned"]  # the dealer, and he must
    assert m.observation(0).to_act == 0
    m.apply("king_turned")
    m.apply("keep")  # the non-dealer plays as dealt
    assert _gains_of_the_deal(m) == [3, 0]


def test_a_king_turned_up_that_brings_the_dealer_to_five_ends_the_match_at_once() -> None:
    """At 4 points, the king turned up wins: the deal ends before anyone exchanges or plays
    (a decision reading `score` and `target`, `effect: end_deal`); at 3 it does not."""
    v = trickcore.load_variant(ECARTE)
    hands = {1: ["7C", "8C", "9C", "7D", "8D"], 0: ["QH", "JH", "AH", "10H", "9H"]}
    order = v.stack_deck(hands, turnup="KH")
    m = v.new_match(deck_orders=[order], scores=[4, 3])
    assert texts(m.legal_actions()) == ["king_turned_wins"]
    m.apply("king_turned_wins")
    assert m.is_over and m.scores == [5, 3] and m.winners == [0]
    m = v.new_match(deck_orders=[order], scores=[3, 3])
    assert texts(m.legal_actions()) == ["king_turned"]
    m.apply("king_turned")
    assert not m.is_over and m.scores == [3, 3]
    assert texts(m.legal_actions()) == ["propose", "keep"]


def test_the_king_announced_at_four_points_wins_before_the_card_is_played() -> None:
    """The dealer holds the king of trumps (♠K) and 4 points: announcing it before his first
    card ends the match, he wins 5 to 4; at 3 points it is a point at the deal's end."""
    v = trickcore.load_variant(ECARTE)
    hands = {1: ["KC", "QC", "7D", "8D", "9D"], 0: ["AS", "10S", "9S", "8S", "KS"]}
    order = v.stack_deck(hands, turnup="7S")
    for scores, decision in (([4, 4], "king_wins"), ([3, 4], "king")):
        m = v.new_match(deck_orders=[order], scores=scores)
        m.apply("keep")
        m.apply("play KC")
        assert texts(m.legal_actions())[0] == decision
        m.apply(decision)
        assert m.is_over == (decision == "king_wins")
        if m.is_over:
            assert m.scores == [5, 4] and m.winners == [0]
    assert m.scores == [3, 4] and texts(m.legal_actions())[0] == "play KS"
    assert "king_wins" not in texts(m.legal_actions())


def test_a_player_who_played_as_dealt_and_lost_gives_two_points() -> None:
    """The non-dealer keeps his hand (no proposal) and takes one trick: the dealer, with
    four, scores 2, not 1."""
    hands = {1: ["KC", "QC", "7D", "8D", "9D"], 0: ["AS", "10S", "9S", "8S", "JC"]}
    v = trickcore.load_variant(ECARTE)
    m = v.new_match(deck_orders=[v.stack_deck(hands, turnup="7S")])
    m.apply("keep")  # played as dealt
    m.apply("play KC")
    assert texts(m.legal_actions()) == ["play JC"]  # he must follow
    m.apply("play JC")
    m.apply("play QC")
    assert all(a.startswith("play ") and a.endswith("S") for a in texts(m.legal_actions()))
    assert _gains_of_the_deal(m) == [2, 0]


def test_show_says_the_round_is_asked_again() -> None:
    summary = rules_summary(trickcore.load_variant(ECARTE).model)
    text = " ".join(line for _, lines in summary for line in lines)
    assert "the decisions before tricks are all asked again when their round is over" in text
    assert "takes as many of the cards left out of the deal, those nobody has held first" in text
    assert "he lays away 1 to 5 cards (after 1, 'keep' stops; beyond 1, never more" in text
    assert "he lays away 0 to 5 cards (he may say 'keep' at once;" in text


def test_again_is_for_decisions_between_phases(tmp_path: Path) -> None:
    (tmp_path / "ecarte.rules").write_text(ECARTE.read_text(encoding="utf-8"), "utf-8")
    path = tmp_path / "again-at-lead.rules"
    path.write_text('extends "./ecarte.rules"\ndecision king {\n  again: yes\n}\n', "utf-8")
    with pytest.raises(RulesError, match=r"again-at-lead.rules:3:\d+: 'again' is for decisions"):
        trickcore.load_variant(path)


def test_the_file_keeps_every_invariant() -> None:
    check_rules(ECARTE, examples=20, matches=1)


def test_an_engine_that_forgets_again_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    assert verify(ECARTE, examples=40, matches=0).violation is None
    round_of = turns._round_of

    def one_round(game, deal, point):  # type: ignore[no-untyped-def]
        """The round's decisions without the mark of its end: never a second round."""
        return [(seat, name) for seat, name in round_of(game, deal, point) if seat >= 0]

    monkeypatch.setattr(turns, "_round_of", one_round)
    found = _caught()
    assert found.invariant == "phases" and "the rules give 'decide'" in found.message


def test_an_engine_that_draws_laid_away_cards_as_fresh_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    end_exchange = turns.end_exchange

    def fresh_forever(game, deal):  # type: ignore[no-untyped-def]
        """Exchanges as before, but `out_left` never goes down."""
        fresh = deal.out_fresh
        end_exchange(game, deal)
        deal.out_fresh = fresh

    monkeypatch.setattr(turns, "end_exchange", fresh_forever)
    # an exchange offered that the rules refuse, or a hand that drew a card laid away
    assert _caught().invariant in ("decisions", "cards")


def test_worlds_drawn_during_an_exchange_hold_each_card_once() -> None:
    """The dealer waits while the non-dealer lays away his cards: in every world drawn for
    him the cards laid away so far are renamed with the rest, so that when the exchange
    ends every card of the deck is somewhere, once."""
    v = trickcore.load_variant(ECARTE)
    for seed in range(6):
        m = v.new_match(seed=seed)
        if texts(m.legal_actions()) == ["king_turned"]:
            m.apply("king_turned")
        m.apply("propose")
        m.apply("accept")
        m.apply("exchange")
        for card in sorted(m.observation(1).hand)[:2]:
            m.apply(f"discard {card}")
        for world in v.sample_worlds(m.observation(0), 4, random.Random(seed)):
            world.apply("keep")
            cards = [c for hand in world.hands for c in hand] + list(world.out)
            cards += [world.turnup] if world.turnup >= 0 else []
            assert sorted(cards) == list(range(32))


def test_an_engine_blind_to_the_turned_up_rank_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    turn_env = turns.turn_env

    def nothing_turned(deal, seat, reads=None, table=True):  # type: ignore[no-untyped-def]
        """The names of a turn as before, but `turnup_rank(R)` sees no card."""
        env = turn_env(deal, seat, reads, table)
        env[TURNUP_KEY] = -1
        return env

    monkeypatch.setattr(turns, "turn_env", nothing_turned)
    # the dealer, who turned up a king, is not asked to score it: the non-dealer is to act
    found = _caught()
    assert found.invariant == "turn" and "is to act (decide), but it is seat" in found.message


def test_an_engine_that_lets_the_exchange_stop_too_soon_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    legal = turns.AskDecisions.legal

    def keep_at_once(self, deal):  # type: ignore[no-untyped-def]
        """The answers as before, but `keep` offered before the fewest cards are laid away."""
        out = legal(self, deal)
        if deal.exchange_left and self.game.actions.keep not in out:
            out = [*out, self.game.actions.keep]
        return out

    monkeypatch.setattr(turns.AskDecisions, "legal", keep_at_once)
    found = _caught()
    assert found.invariant == "decisions" and "keep, which the rules do not allow" in found.message
