"""The checker restates the constructs Doppelkopf brought to the language itself: a deck with
copies of every card (`copies`) or without some (`without`), `count_card` and `holds`,
`after_trick` rules, single tricks in scoring and decisions (`sum_tricks`, `count_tricks`),
the round of offers before every card (`at: card`), choices that declare (`declares`, an
option without trump), `first_leader = EXPR` and `next_dealer = EXPR`, and the names `side`
and `tricks_total` in decisions: an engine broken in each of these places is caught, each by
the invariant it breaks; and house rules of other games that use them keep every invariant.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from conftest import found

import trickcore
import trickcore.engine.deal
import trickcore.engine.deal_scoring
import trickcore.engine.phases.trick_winner
import trickcore.engine.phases.tricks
import trickcore.engine.phases.turns
from trickcore.engine.deal import Deal
from trickcore.engine.match import Match
from trickcore.engine.phases.offers import OfferRound
from trickcore.engine.phases.trick_winner import TrickWinners
from trickcore.language import compiler
from trickcore.language.exprs import Symbols
from trickcore.language.model import NO_TRUMP, Deck
from trickcore.testing import check_rules

HOUSE = Path(__file__).parent / "house_rules"
DOUBLE_DECK = HOUSE / "whist-double-deck.rules"  # copies: 2, holder of a copy, count_card
THREE_HANDED = HOUSE / "whist-three-handed.rules"  # without: 2C, next_dealer = EXPR
COUNTERS = HOUSE / "hearts-trick-counters.rules"  # after_trick, sum_tricks, define, at: card
CALLS = HOUSE / "spades-calls.rules"  # at: card, side in decisions, side_won, opponents_played
SOLO = HOUSE / "solo-whist.rules"  # declares, OPTION none, who: declarer, first_leader = EXPR
HOCHZEIT = HOUSE / "doppelkopf-hochzeit.rules"  # a Hochzeit in one deal in four
KNOCK = HOUSE / "sixty-six-knock.rules"  # at: card in a game with a stock
CONCEDE = HOUSE / "hearts-concede.rules"  # at: card ending play, then at: end decisions
STAKES = HOUSE / "solo-whist-stakes.rules"  # who: declarer right after a declaring choice
SIX_BEATS_ACE = HOUSE / "durak-six-beats-ace.rules"  # bouts { beats = EXPR }


# ---------------------------------------------------------------- the restatement is clean
@pytest.mark.parametrize(
    "rules, matches",
    [
        (DOUBLE_DECK, 1),
        (THREE_HANDED, 1),
        (COUNTERS, 0),
        (CALLS, 0),
        (SOLO, 1),
        (KNOCK, 0),
        (CONCEDE, 0),
        (STAKES, 0),
        (SIX_BEATS_ACE, 0),
    ],
    ids=lambda x: x.stem if isinstance(x, Path) else str(x),
)
def test_house_rules_with_the_new_constructs_keep_every_invariant(rules, matches):
    """Whist with a double deck and three-handed without the 2C, Hearts with counters kept
    after each trick and tricks scored one by one, Spades with calls before a card, a solo
    game whose soloist declares himself by a choice: each keeps every invariant, none of
    them refused as "not restated"."""
    check_rules(rules, examples=25, matches=matches)


# ---------------------------------------------------------------- copies and without
def test_the_later_of_two_equal_cards_winning_is_caught(monkeypatch):
    """DK7: of two equal cards in one trick the one played first wins (a later card must be
    higher to win); an engine that gives the trick to the later copy is caught by the trick
    records."""

    def later_copy_wins(self, deal):
        eff, power = deal.relations()
        trick = deal.trick
        led = eff[trick[0][1]]
        best_seat, best = trick[0]
        best_trump = led == self.trumps_id
        for seat, c in trick[1:]:
            if eff[c] == self.trumps_id:
                if not best_trump or power[c] >= power[best]:
                    best_seat, best, best_trump = seat, c, True
            elif not best_trump and eff[c] == led and power[c] >= power[best]:
                best_seat, best = seat, c
        return best_seat

    monkeypatch.setattr(TrickWinners, "trick", later_copy_wins)
    assert found("doppelkopf", examples=10) == "trick winner"


def test_count_card_seeing_one_copy_is_caught(monkeypatch):
    """DK13 (c): a reserving player may answer "no" to the query only with both queens of
    clubs (`no_solo_if = count_card(QC) == 2`); an engine whose count_card and holds see the
    first copy of a card only never offers "no", and is caught by the choices it offers."""

    def first_copy(self, face):
        if not self.cards_of_face:
            return frozenset((face,))
        return frozenset(self.cards_of_face[face][:1])

    monkeypatch.setattr(Symbols, "copies", first_copy)
    assert found("doppelkopf", examples=10) in ("decisions", "deal score")


def test_cards_named_as_if_none_were_left_out_is_caught(monkeypatch):
    """`without: 2C`: the cards of the deck are numbered face by face without the 2C; an
    engine that names each card by its face's number as in a full deck (so the 2C appears
    and the last card, 2S, is gone) is caught by the hands the players see."""
    monkeypatch.setattr(Deck, "card_text", lambda self, card: self.face_text(card))
    assert found(THREE_HANDED, examples=5) in ("view", "obligations")


# ---------------------------------------------------------------- after_trick, sum_tricks
def test_after_trick_rules_not_run_is_caught(monkeypatch):
    """The counters of `after_trick` (a run of clean tricks, who played the queen) are set
    after each finished trick and shown to all as deal values; an engine that never runs
    the rules is caught by the view."""
    monkeypatch.setattr(trickcore.engine.phases.tricks, "run_after_trick", lambda *args: None)
    assert found(COUNTERS, examples=10) == "view"


def test_sides_not_formed_again_after_a_trick_is_caught(monkeypatch):
    """DK24: the trick that clarifies a Hochzeit makes its winner the Hochzeiter's partner
    (`after_trick` sets `partner`, and `side_if` reads it); an engine that runs the rules but
    keeps the sides formed as play began is caught, by the announcements offered to the
    partner (his side) or by the scores. The house rule makes the Hochzeit frequent."""
    original = Deal.form_sides

    def once(self):
        if not self.tricks:
            original(self)

    monkeypatch.setattr(Deal, "form_sides", once)
    assert found(HOCHZEIT, examples=10) in ("decisions", "deal score")


def test_sum_tricks_missing_the_last_trick_is_caught(monkeypatch):
    """`sum_tricks(x)` sums over every finished trick of the deal (the last trick's points
    count double in the house rule); an engine that leaves the last trick out is caught by
    the deal scores."""
    original = trickcore.engine.deal_scoring.tricks_envs

    def short(tricks, *args, **kwargs):
        return original(tricks[:-1], *args, **kwargs)

    monkeypatch.setattr(trickcore.engine.deal_scoring, "tricks_envs", short)
    assert found(COUNTERS, examples=10) == "deal score"


# ---------------------------------------------------------------- decisions `at: card`
def test_round_of_offers_that_skips_a_player_is_caught(monkeypatch):
    """DK35: after a player passes, the round of offers goes on with the next player round
    the table; an engine that skips the next player (as if he had passed) is caught."""
    original = OfferRound.answer

    def skipping(self, deal, action):
        if action.kind == "pass":
            active = deal.active
            deal.window_quiet += 1
            deal.window_seat = active[(active.index(deal.window_seat) + 1) % len(active)]
        original(self, deal, action)

    monkeypatch.setattr(OfferRound, "answer", skipping)
    assert found("doppelkopf", examples=10) in ("turn", "decisions")


def test_round_of_offers_ended_by_a_decision_is_caught(monkeypatch):
    """DK35: after an announcement the round goes on (every player may answer it); an
    engine that plays the card right after a decision is caught."""
    original = OfferRound.answer

    def ending(self, deal, action):
        original(self, deal, action)
        if action.kind == "decide" and deal.window_seat >= 0:
            deal.window_quiet = len(deal.active)
            self._go_on(deal)

    monkeypatch.setattr(OfferRound, "answer", ending)
    assert found(CALLS, examples=10) in ("turn", "decisions")


def test_side_read_in_a_decision_as_the_seat_is_caught(monkeypatch):
    """DK32: Re is offered to the Re party (`side == 0`), Kontra to the others; an engine
    whose decisions read `side` as the player's seat (the parties of `side_if` ignored) is
    caught by the announcements it offers (and so by who is to answer them)."""
    monkeypatch.setattr(Deal, "side_number", lambda self, seat: seat)
    assert found("doppelkopf", examples=10) in ("turn", "decisions")


def test_tricks_total_read_in_a_decision_as_zero_is_caught(monkeypatch):
    """`tricks_total` in a decision is the deal's tricks once trick play began (Doppelkopf's
    deadlines, DK33, are counted from it); an engine whose decisions read it as 0 never
    offers the house rule's "last" before the cards of the last trick, and is caught."""
    original = trickcore.engine.phases.turns.turn_env

    def no_total(*args, **kwargs):
        env = original(*args, **kwargs)
        env["tricks_total"] = 0
        return env

    monkeypatch.setattr(trickcore.engine.phases.turns, "turn_env", no_total)
    assert found(COUNTERS, examples=10) in ("turn", "decisions")


# ---------------------------------------------------------------- choices that declare
def test_declares_ignored_is_caught(monkeypatch):
    """DK14, DK21: the soloist who names his game is the declarer (public), alone as Re;
    an engine that leaves the deal without a declarer is caught (the declarer shown, the
    parties, the lead)."""
    monkeypatch.setattr(Deal, "declare", lambda self, seat: None)
    assert found("doppelkopf", examples=10) in ("view", "decisions", "turn")


def test_option_without_trump_keeping_the_trump_is_caught(monkeypatch):
    """DK6: a Damen-, Bubensolo or Fleischloser has no trump suit (`trump: OPTION none`);
    an engine that keeps diamonds as the trump is caught by the trump the tricks record."""
    original = Deal.note_choice

    def keeps_trump(self, option, trump):
        original(self, option, -1 if trump == NO_TRUMP else trump)

    monkeypatch.setattr(Deal, "note_choice", keeps_trump)
    assert found("doppelkopf", examples=10) == "trump"


# ---------------------------------------------------------------- who leads, who deals
def test_first_leader_rule_ignored_is_caught(monkeypatch):
    """DK18: the soloist of a Pflichtsolo leads (`first_leader = declarer and owes`); an
    engine that lets forehand lead every deal is caught."""
    original = compiler.compile_play

    def forehand(ctx, auction):
        return attrs.evolve(original(ctx, auction), first_leader="forehand", first_leader_rule=None)

    monkeypatch.setattr(compiler, "compile_play", forehand)
    assert found("doppelkopf", examples=10) == "turn"


def test_next_dealer_rule_ignored_is_caught(monkeypatch):
    """DK9: after a Pflichtsolo called in the reservations the same dealer deals again
    (`next_dealer = dealer and extra_deal`); an engine that always moves the deal on to the
    left is caught by the dealer of the next deal."""
    original = compiler.compile_match

    def to_the_left(ctx, *args):
        return attrs.evolve(original(ctx, *args), next_dealer=None)

    monkeypatch.setattr(compiler, "compile_match", to_the_left)
    assert found("doppelkopf", examples=10) == "dealer"


def test_next_dealer_rule_read_before_after_deal_is_caught(monkeypatch):
    """`next_dealer = EXPR` reads the names after_deal's rules left; an engine that reads
    them without the deal's results (as if every seat had won nothing) deals from the left
    every time, and is caught when the winner of the last trick should deal."""
    original = Match._run_after_deal

    def forgetful(self, deal):
        after = original(self, deal)
        return [{**env, "won_last_trick": False} for env in after]

    monkeypatch.setattr(Match, "_run_after_deal", forgetful)
    assert found(THREE_HANDED, examples=5) == "dealer"


# ---------------------------------------------------------------- found by the restatement
def test_the_round_of_offers_opens_after_the_draw():
    """In a game with a stock, the round before the next card sees the hands drawn up: a
    knock offered at six cards is offered after every trick while the stock lasts."""
    v = trickcore.load_variant(str(KNOCK))
    deal = v.new_deal(seed=3)
    offered = 0
    while not deal.is_over and deal.stock:
        legal = [a.text for a in deal.legal_actions()]
        if "knock" in legal:
            offered += 1
            assert len(deal.hands[deal.to_act]) == 6
            deal.apply("pass")
            continue
        deal.apply(next(a for a in deal.legal_actions() if a.kind == "play"))
    assert offered >= 4


def test_a_round_of_offers_that_ends_play_hands_on_to_the_end():
    """A concession before a card ends play; the decisions at the end are then asked of
    each player in turn, none answered for another."""
    v = trickcore.load_variant(str(CONCEDE))
    deal = v.new_deal(seed=1)
    while "concede" not in [a.text for a in deal.legal_actions()]:
        deal.apply(next(a for a in deal.legal_actions() if a.text != "concede"))
    deal.apply("concede")
    asked = []
    while not deal.is_over:
        asked.append(deal.to_act)
        deal.apply("tally")
    assert asked == deal.active


def test_who_declarer_is_asked_of_a_player_declared_at_the_same_point():
    v = trickcore.load_variant(str(STAKES))
    for seed in range(40):
        m = v.new_match(seed=seed)
        deal = m.current
        while deal.phase == "decide" and deal.declarer < 0:
            legal = [a.text for a in m.legal_actions()]
            m.apply("solo" if "solo" in legal else legal[0])
        if deal.declarer >= 0:
            assert m.to_act == deal.declarer
            assert [a.text for a in m.legal_actions()][0] in ("quiet", "loud")
            return
    raise AssertionError("no deal with a soloist in 40 seeds")


def test_a_card_that_beats_against_the_usual_order_is_in_the_beats_and_caught_if_not(
    monkeypatch,
):
    """`bouts { beats = EXPR }`: the six of trumps beats the ace of trumps (Durak with 36
    cards); `play { beats = EXPR }`: the second Dulle beats the first (DK68). An engine
    that keeps the usual order instead is caught."""
    v = trickcore.load_variant(str(SIX_BEATS_ACE))
    six, ace = v.card("6S"), v.card("AS")
    assert (
        six
        in v.beaters(
            v.model.deck.suits.index(next(s for s in v.model.deck.suits if s.symbol == "S"))
        )[ace]
    )
    monkeypatch.setattr(
        trickcore.engine.phases.trick_winner.TrickWinners,
        "_ruled",
        lambda self, deal, eff, power, led, seat, card, other: (
            power[card] > power[other] if eff[card] == eff[other] else eff[card] == self.trumps_id
        ),
    )
    assert found("doppelkopf-second-dulle", examples=10) in ("trick winner", "view", "turn")
