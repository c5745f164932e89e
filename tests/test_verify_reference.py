"""The checker restates the rules itself: a deliberately broken engine is caught, each by
the invariant it breaks, and a valid house rule is not reported."""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest

import trickcore
from trickcore.checking.check_reference import Reference, TrickReplay
from trickcore.checking.verify import verify
from trickcore.engine.bouts import BoutDeal
from trickcore.engine.deal import Deal
from trickcore.engine.match import Match
from trickcore.engine.phases.auction import Auction
from trickcore.engine.phases.meld_leads import MeldLeads
from trickcore.engine.phases.plain_tricks import PlainTrickPlay
from trickcore.engine.phases.talon import TalonExchange
from trickcore.engine.phases.trick_winner import TrickWinners
from trickcore.engine.phases.tricks import TrickPlay
from trickcore.language.loader import load_rules
from trickcore.testing import check_rules

BROKEN = Path(__file__).parent / "broken"


def found(variant: str | Path, examples: int = 30) -> str | None:
    """The invariant verify reports for a variant (random runs only), or None."""
    report = verify(variant, examples=examples, matches=0)
    assert not report.static_errors
    return None if report.violation is None else report.violation.invariant


def test_wrong_card_point_counter_is_caught(monkeypatch):
    """T2, T18: card points are recomputed from the cards in each trick."""
    original = TrickPlay.apply

    def miscounting(self, deal, action):
        before = len(deal.tricks)
        original(self, deal, action)
        if len(deal.tricks) > before:
            deal.card_points[deal.tricks[-1].winner] += 1

    monkeypatch.setattr(TrickPlay, "apply", miscounting)
    assert found("tysiacha") == "card points"


def test_wrong_trick_winner_is_caught(monkeypatch):
    """T15: the highest trump wins, else the highest card of the led suit."""
    monkeypatch.setattr(TrickWinners, "trick", lambda self, deal: deal.trick[-1][0])
    assert found("russisch-schnapsen") == "trick winner"


def test_wrong_deal_score_is_caught(monkeypatch):
    """T19, T20: the deal score is what the scoring rules give, evaluated independently."""
    original = Deal._score

    def generous(self):
        original(self)
        self.gains[self.declarer] += 5

    monkeypatch.setattr(Deal, "_score", generous)
    assert found("tysiacha") == "deal score"


def test_after_deal_skipping_a_rule_is_caught(monkeypatch):
    """T23-T25: match scores are restated by running every after_deal rule in order."""
    original = Match._run_after_deal

    def forgetful(self, deal):
        model = self.game.model
        steps = tuple(s for s in model.match.after_deal if s.name != "add")
        self.game.model = attrs.evolve(model, match=attrs.evolve(model.match, after_deal=steps))
        try:
            original(self, deal)
        finally:
            self.game.model = model

    monkeypatch.setattr(Match, "_run_after_deal", forgetful)
    assert found("tysiacha") == "match score"


def test_lead_if_is_evaluated_by_the_checker(monkeypatch, tmp_path):
    """`play.lead_if` is evaluated from its syntax tree: an engine ignoring it is caught."""
    rules = tmp_path / "no-ace-first.rules"
    rules.write_text(
        'extends "tysiacha"\nplay {\n  lead_if = not card_rank(A) or tricks_played >= 1\n}\n'
    )
    check_rules(rules, examples=10, matches=0)
    monkeypatch.setattr(TrickPlay, "_allowed", lambda self, deal, cards, rule, follow: cards)
    assert found(rules) == "obligations"


def test_bout_offering_one_beat_fewer_is_caught(monkeypatch):
    """D8: every beat the defender can make is offered (completeness, not only soundness)."""
    original = BoutDeal._compute_legal

    def short(self):
        legal = original(self)
        beats = [a for a in legal if a.kind == "beat"]
        return [a for a in legal if a is not beats[-1]] if len(beats) > 1 else legal

    monkeypatch.setattr(BoutDeal, "_compute_legal", short)
    assert found("durak") == "bout moves"


def test_bout_offering_a_throw_of_a_rank_not_on_the_table_is_caught(monkeypatch):
    """D6: only ranks on the table may be thrown in; nothing extra is offered."""
    original = BoutDeal._compute_legal

    def loose(self):
        legal = original(self)
        if self.phase == "throw":
            throws = self.game.single_card_actions("throw")
            legal = [
                *legal,
                *(throws[c] for c in self.hands[self.to_act] if throws[c] not in legal),
            ]
        return legal

    monkeypatch.setattr(BoutDeal, "_compute_legal", loose)
    assert found("durak") == "bout moves"


def test_leak_in_a_later_deal_is_caught(monkeypatch):
    """C3: the information check covers every deal of a match, not only the first: an
    observation that shows a hidden card from the third deal on is found."""
    original = Deal._observe

    def leaky(self, seat):
        obs = original(self, seat)
        if seat < 0 or self.dealer != 2:
            return obs
        other = self.hands[(seat + 1) % self.seats]
        return attrs.evolve(obs, contract=obs.contract + min(other, default=0))

    monkeypatch.setattr(Deal, "_observe", leaky)
    assert found("tysiacha", examples=40) == "no leak"


def test_leak_of_the_stock_is_caught(monkeypatch):
    """D2: the stock below the turned-up card is hidden from every player."""
    original = BoutDeal._observe

    def leaky(self, seat):
        obs = original(self, seat)
        if seat < 0 or len(self.stock) < 2:
            return obs
        return attrs.evolve(obs, bouts=obs.bouts + self.stock[-1] % 2)

    monkeypatch.setattr(BoutDeal, "_observe", leaky)
    assert found("durak") == "no leak"


def test_legal_actions_depending_on_hidden_cards_are_caught(monkeypatch):
    """Observation completeness: a seat's legal actions depend only on what it sees. An
    engine that forbids passing when the next player holds the ace of spades is caught."""
    original = Auction.legal

    def peeking(self, deal):
        legal = original(self, deal)
        if len(legal) > 1:
            nxt = deal.hands[(deal.to_act + 1) % deal.seats]
            if deal.game.card("AS") in nxt:
                return legal[:-1]
        return legal

    monkeypatch.setattr(Auction, "legal", peeking)
    assert found("tysiacha") == "observation complete"


def test_every_compile_error_is_reported():
    """verify reports every error of a file, each at its place, not only the first."""
    report = verify(BROKEN / "two-errors.rules", examples=5)
    assert report.violation is None
    lines = sorted(e.location.line for e in report.static_errors)
    assert lines == [5, 9]
    assert "shown" in report.static_errors[0].message


@pytest.mark.parametrize("name", ["tysiacha", "durak"])
def test_whole_match_checks_every_deal(name):
    """Whole matches are played to their end with the information checks in their deals."""
    from trickcore import load_variant
    from trickcore.checking.invariants import Checker

    game = load_variant(name)
    checker = Checker(game, info_every=1, info_deals=4)
    assert checker.run(1, game.model.players[0], (), whole=True) is None
    assert checker._dealt >= 2


def test_marriage_recorded_with_a_wrong_value_is_caught(monkeypatch):
    """T3, T17: a declaration's value is the model's meld value for its suit."""
    original = MeldLeads.declare

    def inflated(self, deal, seat, card):
        original(self, deal, seat, card)
        if deal.declarations:
            deal.declarations[-1] = attrs.evolve(
                deal.declarations[-1], value=deal.declarations[-1].value + 20
            )

    monkeypatch.setattr(MeldLeads, "declare", inflated)
    assert found("russisch-schnapsen") == "declarations"


def test_talon_card_given_to_the_wrong_defender_is_caught(monkeypatch):
    """T11: a card given to a defender is in that defender's hand, nowhere else."""

    original = TalonExchange.apply

    def misdirected(self, deal, action):
        original(self, deal, action)
        wrong = next(s for s in deal.gives_left if s != action.to)
        deal.hands[action.to].remove(action.card)
        deal.hands[wrong].append(action.card)

    monkeypatch.setattr(TalonExchange, "apply", misdirected)
    assert found("tysiacha") == "cards"


@pytest.mark.parametrize(
    "rules",
    [
        "durak",
        str(Path(__file__).resolve().parent.parent / "examples" / "durak-lowest-trump.rules"),
    ],
)
def test_a_wrong_first_attacker_is_caught(monkeypatch, rules):
    """D4: the player left of the dealer attacks first, or the first for whom the file's
    `first_attacker = EXPR` holds; an engine that lets the dealer's right-hand player
    attack, or that ignores the rule, is caught."""
    if rules == "durak":
        monkeypatch.setattr(BoutDeal, "_first_attacker", lambda self, order: order[-1])
    else:
        monkeypatch.setattr(BoutDeal, "_first_attacker", lambda self, order: order[0])
    got = violation(rules)
    assert got is not None and got[0] == "first attacker"
    assert "D4" in got[1]


def test_throw_in_asked_in_the_wrong_order_is_caught(monkeypatch):
    """D6: throw-ins are offered from the attacker round the table, defender skipped."""
    original = BoutDeal._throwers
    monkeypatch.setattr(BoutDeal, "_throwers", lambda self: original(self)[::-1])
    assert found("durak") == "throw-in order"


def violation(variant: str | Path, examples: int = 30) -> tuple[str, str] | None:
    """The invariant verify reports for a variant (random runs only) and its message."""
    report = verify(variant, examples=examples, matches=0)
    assert not report.static_errors
    v = report.violation
    return None if v is None else (v.invariant, v.message)


def test_defender_asked_before_the_throw_ins_is_caught(monkeypatch):
    """D6 (throw_in: any_time): after an attack the others are asked to throw in before the
    defender answers; an engine that hands the turn straight to the defender is caught."""
    monkeypatch.setattr(BoutDeal, "_attack", _attack_then_defend)
    got = violation("durak")
    assert got is not None and got[0] == "throw-in order"
    assert "is asked to answer" in got[1]


def _attack_then_defend(self, cards):
    hand = self.hands[self.attacker]
    for c in cards:
        hand.remove(c)
        self.table.append([c, -1])
    self._defender_to_act()


def test_bout_ending_while_a_thrower_is_due_is_caught(monkeypatch):
    """D6, D9: a bout is won only when no one throws in more; an engine that discards the
    table as soon as every attack card is beaten, without asking the throwers, is caught."""
    original = BoutDeal._offer_throw

    def hasty(self):
        if self.table and not self.taking and all(pair[1] >= 0 for pair in self.table):
            self._end_bout()
        else:
            original(self)

    monkeypatch.setattr(BoutDeal, "_offer_throw", hasty)
    got = violation("durak")
    assert got is not None and got[0] == "throw-in order"
    assert "the bout ended after 'beat" in got[1]


def test_after_beats_house_rule_keeps_every_invariant_and_is_checked(monkeypatch, tmp_path):
    """D6 (house rule throw_in: after_beats): throw-ins come only once every attack card is
    beaten; the rule passes, and an engine that then ends the bout without asking is caught."""
    rules = tmp_path / "after-beats.rules"
    rules.write_text('extends "durak"\nbouts {\n  throw_in: after_beats\n}\n')
    check_rules(rules, examples=10, matches=0)
    original = BoutDeal._offer_throw

    def hasty(self):
        if self.table and not self.taking and all(pair[1] >= 0 for pair in self.table):
            self._end_bout()
        else:
            original(self)

    monkeypatch.setattr(BoutDeal, "_offer_throw", hasty)
    got = violation(rules)
    assert got is not None and got[0] == "throw-in order"
    assert "the bout ended after 'beat" in got[1]


def test_scoring_definition_out_of_range_is_caught(monkeypatch, tmp_path):
    """Numbers in play stay within ±999,999,999: the restatement stops a scoring definition
    that leaves the range itself, so an engine that goes on computing is caught."""
    import sys

    import trickcore.language.limits

    rules = tmp_path / "huge.rules"
    rules.write_text(
        'extends "tysiacha"\nscoring {\n  huge = 999999999 * 999999999\n'
        "  declarer = if huge > 0 then contract else -contract\n}\n"
    )
    got = violation(rules, examples=5)
    assert got is not None and got[0] == "error" and "scoring definition 'huge'" in got[1]
    engine_check = trickcore.language.limits.in_range
    for module in [m for name, m in sys.modules.items() if name.startswith("trickcore.")]:
        if getattr(module, "in_range", None) is engine_check:
            monkeypatch.setattr(module, "in_range", lambda value, what, loc: None)
    got = violation(rules, examples=5)
    assert got == (
        "number range",
        "scoring definition 'huge' gives a number outside ±999,999,999: the rules stop the "
        "match there, but the engine went on",
    )


def test_a_deal_not_checked_at_every_step_still_has_its_score_checked(monkeypatch):
    """verify's random runs check every step of a run's first deal and of every (players +
    1)-th after it; the deals between are followed action by action and scored. A wrong
    score in the third deal of a run (S-rules scoring; not checked at every step with 2
    players) is still found."""
    original = Deal._score

    def wrong_in_the_third_deal(self):
        original(self)
        if self.context[0]["deal_number"] == 3:
            self.gains[0] += 10

    monkeypatch.setattr(Deal, "_score", wrong_in_the_third_deal)
    found = violation("russisch-schnapsen", examples=10)
    assert found is not None
    invariant, message = found
    assert invariant == "deal score" and message.startswith("seat 0 scored")


def test_a_deal_not_checked_at_every_step_still_refuses_an_illegal_card(monkeypatch):
    """In the deals between a run's sampled ones every card taken must be one the rules
    allow (H: follow suit): an engine that lets any card of the hand be played in the third
    deal of a run is caught there. (Hearts' play is plain: `PlainTrickPlay`.)"""
    original = PlainTrickPlay.legal

    def anything_goes_in_the_third_deal(self, deal):
        if deal.context[0]["deal_number"] != 3 or deal.to_act < 0:
            return original(self, deal)
        return [self.game.actions.play[c] for c in sorted(deal.hands[deal.to_act])]

    monkeypatch.setattr(PlainTrickPlay, "legal", anything_goes_in_the_third_deal)
    found = violation("hearts", examples=10)
    assert found is not None
    invariant, message = found
    assert invariant == "obligations" and "which the rules do not allow" in message


@pytest.mark.parametrize(
    "name", ["hearts", "hearts-queen-breaks-hearts", "spades", "russisch-schnapsen", "preferans"]
)
def test_one_card_judged_alone_agrees_with_the_cards_allowed(name):
    """The restatement judges a card taken in a deal not checked at every step by itself
    (`may_play`: H/P `lead_if`, `play_if` asked about the other cards only when needed); at
    every turn of random deals it says of every card what `legal_plays` says."""
    game = trickcore.load_variant(name)
    ref = Reference(game.model, load_rules(name))
    turns = 0
    for seed in range(3):
        deal = game.new_deal(seed=seed)
        rng = random.Random(seed)
        replay = TrickReplay(ref, deal.deck_order, deal.dealer, deal.seats)
        while not deal.is_over:
            if replay.stage == "play" and replay.announced is None:
                plays = replay.legal_plays(replay.turn)[0]
                for card in range(game.model.deck.size):
                    assert replay.may_play(replay.turn, card) == (card in plays)
                turns += 1
            take(deal, replay, rng.choice(deal.legal_actions()))
    assert turns >= 30


def take(deal, replay: TrickReplay, action) -> None:
    """The action taken in the deal and followed by the restatement."""
    seat = deal.to_act
    deal.apply(action)
    replay.apply(
        seat, action.kind, action.card, action.value, action.to, action.qualifier, action.text
    )


def test_one_card_judged_alone_when_the_rule_allows_none():
    """H15: on the first trick a player who cannot follow may not play a heart (nor the
    queen of spades), unless his hand holds nothing else: then any card. Judged alone, a
    card is allowed then too (`play_if` allows none, so all)."""
    game = trickcore.load_variant("hearts")
    ranks = [r.symbol for r in game.model.deck.ranks]
    others = [r + s for s in "CDS" for r in ranks]
    hands = {2: [r + "H" for r in ranks], 0: others[:13], 1: others[13:26], 3: others[26:]}
    order = game.stack_deck(hands, [], dealer=0, players=4)
    deal = game.new_deal(order, dealer=0, players=4, deal_number=4)  # H: no passing
    ref = Reference(game.model, load_rules("hearts"))
    replay = TrickReplay(ref, deal.deck_order, 0, 4, [dict(c) for c in deal.context])
    while replay.stage != "play" or replay.turn != 2:  # 2C led, seat 1 follows
        take(deal, replay, deal.legal_actions()[0])
    assert replay.trick and replay.legal_plays(2)[0] == set(replay.hands[2])
    assert all(replay.may_play(2, card) for card in replay.hands[2])
