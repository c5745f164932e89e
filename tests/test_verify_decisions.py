"""The checker restates the stock and turn-up, decisions and choices, announced melds, the
auction in pairs, laying away, card relations, open hands and `stop_if`, and compulsory
redeals itself (Sixty-six X1-X40, Skat K1-K46, Hearts H36): an engine broken in each of
these places is caught, each by the invariant it breaks."""

from __future__ import annotations

import attrs
from conftest import found, house_rule

import trickcore.checking.check_reference
import trickcore.engine.phases.tricks
import trickcore.engine.phases.turns
from trickcore.checking.verify import verify
from trickcore.engine.deal import Deal
from trickcore.engine.game import Game
from trickcore.engine.phases.pair_auction import PairAuction
from trickcore.engine.phases.redeal import RedealOffer
from trickcore.engine.phases.tricks import TrickPlay
from trickcore.language.model import Meld

# Skat where a bid is rare: only a hand with three jacks may name one, and only 18; so that
# random play passes in most deals. (`cap = 0` would say "nobody bids" but does not compile:
# the compiler's opening check fails on an auction in pairs, see the report.)
SKAT_FEW_BIDS = "bidding {\n  cap = if count_rank(J) >= 3 then 18 else 17\n}\n"

# Skat with no duty to follow: every card may be played, so that only the card relations
# decide a trick (and a broken relation shows in the trick's winner, not in the legal cards).
SKAT_FREE = 'extends "skat"\nplay {\n  follow: no\n}\n'


# ---------------------------------------------------------------- the restatement is clean
def test_shipped_variants_of_the_new_constructs_verify_clean():
    """Sixty-six (stock, turn-up, decisions at a turn, announced marriages), Skat (pairs,
    decisions and choices between phases, laying away, card relations, open hands,
    stop_if) and the Hearts moon choice (a decision at the end) keep every invariant the
    checker restates, none of them refused as "not restated"."""
    for variant in ("sixty-six", "skat", "hearts-moon-choice"):
        report = verify(variant, examples=10, matches=1)
        assert report.ok, (variant, report.violation)


def test_melds_of_fixed_cards_and_of_every_suit_verify_clean(tmp_path):
    """Melds that are not ranks of one suit: the binocle (QS + JD, announced, one value, no
    suit) in Sixty-six and four aces (`suits: all`, declared by leading an ace) in
    Tysiacha are restated, and the engine agrees."""
    house_rule(
        tmp_path,
        "binocle",
        'extends "sixty-six"\nmeld binocle {\n  cards: QS, JD\n  value: 40\n  announce: yes\n}\n',
    )
    house_rule(
        tmp_path,
        "aces",
        'extends "tysiacha"\nmeld aces {\n  cards: A\n  suits: all\n  value: 200\n}\n',
    )


# ---------------------------------------------------------------- Sixty-six: decisions
def test_decision_offered_when_its_offer_if_is_false_is_caught(monkeypatch):
    """X15, X17, X21, X32: claim, exchange and close are offered only when their conditions
    hold (offer_if, evaluated by the checker); an engine that offers every decision at
    every turn to lead is caught."""
    original = trickcore.engine.phases.tricks.decisions_offered

    def eager(game, deal, seat, at, env=None):
        offered = original(game, deal, seat, at, env)
        every = [game.actions.decide[d.name] for d in game.model.tricks.decisions if at in d.at]
        return [*offered, *(a for a in every if a not in offered)]

    monkeypatch.setattr(trickcore.engine.phases.tricks, "decisions_offered", eager)
    assert found("sixty-six") == "decisions"


def test_drawing_in_the_wrong_order_is_caught(monkeypatch):
    """X12: after each trick the winner draws the top card of the stock, then the loser;
    an engine that lets the loser draw first is caught by the hands the checker deals."""

    def loser_first(deal, winner):
        if deal.stock_closed:
            return
        n = len(deal.active)
        i = deal.active.index(winner)
        for k in range(1, n + 1):
            seat = deal.active[(i + k) % n]
            if deal.stock:
                deal.hands[seat].append(deal.stock.pop(0))
            elif deal.turnup >= 0:
                deal.hands[seat].append(deal.turnup)
                deal.turnup = -1

    monkeypatch.setattr(trickcore.engine.phases.tricks, "draw_after_trick", loser_first)
    assert found("sixty-six") == "cards"


def test_drawing_after_closing_is_caught(monkeypatch):
    """X20, X22: once the stock is closed nobody draws; an engine that goes on drawing is
    caught by the hands and the stock."""
    original = trickcore.engine.phases.tricks.draw_after_trick

    def draws_anyway(deal, winner):
        closed, deal.stock_closed = deal.stock_closed, False
        try:
            original(deal, winner)
        finally:
            deal.stock_closed = closed

    monkeypatch.setattr(trickcore.engine.phases.tricks, "draw_after_trick", draws_anyway)
    assert found("sixty-six") == "cards"


def test_turn_up_shown_after_closing_is_caught(monkeypatch):
    """X20, X40: closing turns the trump card face down (Observation.turnup is None from
    then on); an engine that still shows it is caught by the view."""
    original = Deal._observe

    def face_up(self, seat):
        obs = original(self, seat)
        if self.turnup >= 0 and obs.turnup is None:
            return attrs.evolve(obs, turnup=self.game.card_text(self.turnup))
        return obs

    monkeypatch.setattr(Deal, "_observe", face_up)
    assert found("sixty-six") == "view"


def test_exchange_taking_the_wrong_card_is_caught(monkeypatch):
    """X18: the exchange puts the trump 9 face up and the trump card into the hand; an
    engine that gives him the turn-up but keeps his 9 in hand (dropping another card in its
    place) is caught by the cards (checked at every step of every deal: thorough)."""
    original = trickcore.engine.phases.tricks.take_decision

    def sloppy(game, deal, seat, action):
        original(game, deal, seat, action)
        if action.text == "exchange":
            hand = deal.hands[seat]
            nine, other = deal.turnup, next(c for c in hand if c != deal.turnup)
            hand.remove(other)
            hand.append(nine)
            deal.turnup = other

    monkeypatch.setattr(trickcore.engine.phases.tricks, "take_decision", sloppy)
    assert found("sixty-six", thorough=True) == "cards"


def test_claim_that_does_not_end_the_deal_is_caught(monkeypatch):
    """X33: a claim ends the deal at once; an engine that plays on after it is caught (the
    rules say the deal is over, the engine asks for another card)."""
    monkeypatch.setattr(Deal, "end_now", lambda self: None)
    assert found("sixty-six") == "phases"


def test_strict_phase_written_as_a_rule_ignored_is_caught(monkeypatch):
    """X10, X13: `follow = stock_closed or stock_left == 0` (and beating, trumping) is read
    at each play; an engine that keeps the open phase's freedom to the end is caught."""
    monkeypatch.setattr(TrickPlay, "_obligations", lambda self, deal, state: (False,) * 4)
    assert found("sixty-six") == "obligations"


def test_turn_up_trump_left_out_is_caught(monkeypatch):
    """X3: the turned-up card's suit is trump for the whole deal (`trump: turnup`); an
    engine that plays without a trump is caught by the trick records (in the open phase
    every card may be played, so only the trump differs)."""
    original = TrickPlay.start

    def trumpless(self, deal):
        started = original(self, deal)
        deal.trump = -1
        return started

    monkeypatch.setattr(TrickPlay, "start", trumpless)
    assert found("sixty-six") == "trump"


# ---------------------------------------------------------------- Sixty-six: marriages
def test_marriage_in_trumps_counted_as_twenty_is_caught(monkeypatch):
    """X4: a marriage is worth 40 in trumps (`trump_value`, as it is declared); an engine
    that counts every marriage 20 is caught by the declarations, or before that by a claim
    (X32) offered or not on the wrong meld points."""
    monkeypatch.setattr(Meld, "value_in", lambda self, suit, trump: self.values[max(suit, 0)])
    assert found("sixty-six") in ("declarations", "decisions")


def test_any_lead_after_announcing_a_marriage_is_caught(monkeypatch):
    """X14, X24: after declaring a marriage the player must lead its K or Q (or claim); an
    engine that lets him lead any card is caught."""
    original = TrickPlay.legal

    def any_lead(self, deal):
        legal = original(self, deal)
        if deal.announced is None:
            return legal
        play = self.game.actions.play
        return [*legal, *(play[c] for c in sorted(deal.hands[deal.to_act]) if play[c] not in legal)]

    monkeypatch.setattr(TrickPlay, "legal", any_lead)
    assert found("sixty-six") == "obligations"


# ---------------------------------------------------------------- Skat: the auction in pairs
def test_declarer_who_did_not_survive_the_auction_is_caught(monkeypatch):
    """K15, K16, K19: the survivor declares at the highest value named, whether he named it
    or held it; an engine that makes the last bidder declarer is caught (the hand decision
    is then asked of the wrong player)."""

    def last_bidder(self, deal, seat):
        deal.declarer = deal.high_bidder
        deal.contract = deal.high[0]
        deal.next_phase()

    monkeypatch.setattr(PairAuction, "_declare", last_bidder)
    assert found("skat") == "turn"


def test_bid_not_above_the_highest_value_named_is_caught(monkeypatch):
    """K13: a new bid must be higher than every value named so far; an engine that also
    offers the value just named is caught by the checker's own list of calls."""
    original = PairAuction.legal

    def repeating(self, deal):
        legal = original(self, deal)
        if deal.high is not None and not deal.answering and deal.challengers:
            legal = [self.game.actions.bid(deal.high[0]), *legal]
        return legal

    monkeypatch.setattr(PairAuction, "legal", repeating)
    assert found("skat") == "auction"


def test_all_pass_thrown_in_instead_of_played_is_caught(monkeypatch, tmp_path):
    """K17, K20: when everybody passes the deal counts as played and scores nothing
    (`all_pass: played`); an engine that throws it in as a redeal is caught. The house rule
    makes bids rare, so that most deals reach forehand's choice of 18 or pass."""
    rules = house_rule(tmp_path, "few-bids", 'extends "skat"\n' + SKAT_FEW_BIDS)
    monkeypatch.setattr(Deal, "all_passed", lambda self: self.end_unplayed(by=-1))
    assert found(rules) == "redeal"


def test_ramsch_played_on_without_a_declarer_is_checked(monkeypatch, tmp_path):
    """K55 (`all_pass: play_on`): when everybody passes the flow goes on with no declarer
    (no skat taken, no game chosen, forehand leads); an engine that ends the deal there
    is caught. The house rule makes bids rare, as above."""
    rules = house_rule(tmp_path, "ramsch-often", 'extends "skat-ramsch"\n' + SKAT_FEW_BIDS)
    monkeypatch.setattr(Deal, "all_passed", lambda self: self.end_now())
    assert found(rules) in ("phases", "deal ends")


# ---------------------------------------------------------------- Skat: decisions and choices
def test_decisions_between_phases_out_of_file_order_are_caught(monkeypatch):
    """K23, K24: before the tricks the declarer announces his game (the choice), then
    ouvert, schwarz, schneider, in the order of the file; an engine that asks them the other
    way round is caught."""
    original = trickcore.engine.phases.turns.ask_decisions

    def backwards(game, deal, point):
        asked = original(game, deal, point)
        if asked:
            deal.ask_queue.reverse()
            trickcore.engine.phases.turns._ask_next(game, deal)
        return asked

    monkeypatch.setattr(trickcore.engine.phases.turns, "ask_decisions", backwards)
    assert found("skat") in ("decisions", "turn")


def test_hand_game_taking_the_skat_anyway_is_caught(monkeypatch):
    """K21, K24: a hand game skips the talon (`effect: skip talon`): the skat stays face
    down; an engine that lets him take it anyway is caught by the cards in his hand."""
    monkeypatch.setattr(Deal, "skip_phase", lambda self, kind: None)
    assert found("skat") == "cards"


def test_choice_trump_not_set_is_caught(monkeypatch, tmp_path):
    """K8, K10, K23: choosing a suit game makes that suit trump (`trump: clubs_game clubs,
    ...`); an engine that records the option but not its trump is caught by the tricks."""
    rules = house_rule(tmp_path, "skat-free", SKAT_FREE)
    original = Deal.note_choice
    monkeypatch.setattr(Deal, "note_choice", lambda self, option, trump: original(self, option, -1))
    assert found(rules) == "trump"


def test_public_announcement_kept_to_the_declarer_is_caught(monkeypatch):
    """K24, K46 (`public: yes`): the declarer's hand game and announcements are every
    player's deal values (a defender's stop_if reads schwarz_said); an engine that sets them
    for the declarer alone is caught by the deal values everybody sees."""
    original = trickcore.engine.phases.turns.take_decision

    def private(game, deal, seat, action):
        others = {s: dict(deal.context[s]) for s in deal.active if s != seat}
        original(game, deal, seat, action)
        for s, values in others.items():
            deal.context[s].clear()
            deal.context[s].update(values)

    monkeypatch.setattr(trickcore.engine.phases.turns, "take_decision", private)
    assert found("skat") == "view"


# ---------------------------------------------------------------- Skat: play and scoring
def test_trump_power_ignored_is_caught(monkeypatch, tmp_path):
    """K10, K30: the four jacks are the highest trumps in suit games and grand
    (`trump_power`, evaluated per card by the checker); an engine that ranks by the printed
    suit only is caught by the trick winners."""
    rules = house_rule(tmp_path, "skat-free", SKAT_FREE)
    original = Game._work_out_relations

    def printed_suits(self, trump, qualifier, chosen):
        tricks = self.model.tricks
        plain = attrs.evolve(tricks, play=attrs.evolve(tricks.play, trump_power=None))
        model = self.model
        self.model = attrs.evolve(model, tricks=plain)
        try:
            return original(self, trump, qualifier, chosen)
        finally:
            self.model = model

    monkeypatch.setattr(Game, "_work_out_relations", printed_suits)
    assert found(rules) == "trick winner"


def test_jack_following_its_printed_suit_is_caught(monkeypatch):
    """K29: a jack is a trump and answers a trump lead, never its printed suit; an engine
    that makes players follow by printed suits is caught by the legal cards."""
    original = Game.relations

    def printed(self, trump, qualifier="", chosen=()):
        eff, power = original(self, trump, qualifier, chosen)
        return [c // len(self.model.deck.ranks) for c in range(len(eff))], power

    monkeypatch.setattr(Game, "relations", printed)
    assert found("skat") in ("obligations", "trick winner")


def test_open_hand_not_shown_is_caught(monkeypatch):
    """K27: an ouvert declarer's hand lies face up for everyone (`open_hand_if`,
    Observation.open_hands); an engine that keeps it hidden is caught by the view."""
    monkeypatch.setattr(Deal, "_open_hands", lambda self, seat: ())
    assert found("skat") == "view"


def test_stop_if_ignored_is_caught(monkeypatch):
    """K32: a game with schwarz announced (ouvert included) ends as soon as a defender wins
    a trick, a null game when the declarer wins one (`stop_if`); an engine that plays on
    is caught."""
    original = TrickPlay.__init__

    def endless(self, game):
        original(self, game)
        self.stop_if = None

    monkeypatch.setattr(TrickPlay, "__init__", endless)
    assert found("skat") == "phases"


def test_top_trumps_off_by_one_is_caught(monkeypatch):
    """K37, K38: matadors (`top_trumps`, counted by the checker over the declarer's cards
    and the skat) raise the multiplier; an engine that counts one more is caught by the deal
    scores."""
    original = Deal.top_trumps
    monkeypatch.setattr(Deal, "top_trumps", lambda self, seat: original(self, seat) + 1)
    assert found("skat") == "deal score"


def test_skat_points_not_counted_for_the_declarer_are_caught(monkeypatch):
    """K34: the laid-away (or hand game's) skat counts for the declarer
    (`counts_for_if = declarer`); an engine that gives its points to nobody is caught."""
    monkeypatch.setattr(Deal, "set_aside_owner", lambda self: -1)
    assert found("skat") == "deal score"


# ---------------------------------------------------------------- Skat: hidden cards
def test_laid_away_card_in_the_log_is_caught(monkeypatch):
    """K22, K46: the two cards laid away are seen by the declarer alone until the end (the
    others' log says "discard a card"); an engine whose log names them is caught."""
    original = Deal._seen_as

    def named(self, action, actor, seat):
        return action.text if action.kind == "discard" else original(self, action, actor, seat)

    monkeypatch.setattr(Deal, "_seen_as", named)
    assert found("skat") == "view"


def test_laid_away_card_leaking_is_caught_by_the_information_check(monkeypatch):
    """K46: the information check covers laid-away cards: in another world with a laid-away
    card and a card of another hand swapped, a defender must see the same; an engine that
    gives the lowest laid-away card away (through the contract field) is caught."""
    original = Deal._observe

    def leaky(self, seat):
        obs = original(self, seat)
        if seat < 0 or seat == self.declarer or not self.laid_away:
            return obs
        return attrs.evolve(obs, contract=obs.contract + 1000 * min(self.laid_away))

    monkeypatch.setattr(Deal, "_observe", leaky)
    assert found("skat") == "no leak"


def test_stock_order_leaking_is_caught_by_the_information_check(monkeypatch):
    """X40: the face-down stock and its order are private; an engine that gives away its
    top card (through the contract field) is caught by the information check."""
    original = Deal._observe

    def leaky(self, seat):
        obs = original(self, seat)
        if seat < 0 or not self.stock:
            return obs
        return attrs.evolve(obs, contract=obs.contract + self.stock[0])

    monkeypatch.setattr(Deal, "_observe", leaky)
    assert found("sixty-six") == "no leak"


# ---------------------------------------------------------------- a decision at the end
MOON_EASY = (
    'extends "hearts-moon-choice"\ndecision minus {\n  offer_if = taken_suit(hearts) >= 2\n}\n'
)


def test_decision_at_the_end_asked_of_everybody_is_caught(monkeypatch, tmp_path):
    """H36 (as `at: end`): the choice is offered only to the player for whom offer_if holds
    (the house rule: two hearts taken, so that random play meets it); an engine that asks
    every player is caught by whose turn it is."""
    rules = house_rule(tmp_path, "moon-easy", MOON_EASY)

    def ask_everyone(game, deal):
        if not deal.ask_queue:
            return False
        deal.phase = "decide"
        deal.to_act = deal.ask_queue[0][0]
        return True

    monkeypatch.setattr(trickcore.engine.phases.turns, "_ask_next", ask_everyone)
    assert found(rules) == "turn"


# ---------------------------------------------------------------- a compulsory redeal
FORCED = 'extends "russisch-schnapsen"\nredeal {\n  forced_if = count_rank(A) >= 2\n}\n'


def test_compulsory_redeal_ignored_is_caught(monkeypatch, tmp_path):
    """S5 with a compulsory redeal (`forced_if`: a hand with two aces voids the deal as it
    is dealt, nobody asked); an engine that plays such a deal is caught."""
    rules = house_rule(tmp_path, "forced", FORCED)
    original = RedealOffer.start

    def lenient(self, deal):
        rules_now = self.game.model.redeal
        self.game.model = attrs.evolve(
            self.game.model, redeal=attrs.evolve(rules_now, forced_if=None)
        )
        try:
            return original(self, deal)
        finally:
            self.game.model = attrs.evolve(self.game.model, redeal=rules_now)

    monkeypatch.setattr(RedealOffer, "start", lenient)
    assert found(rules) == "redeal"


# ---------------------------------------------------------------- what is not restated
def test_a_setting_the_checker_does_not_follow_is_refused(monkeypatch):
    """The checker judges the engine only by rules it restates itself: a setting it does
    not follow (here `public`, taken out of its list as if the language had just gained it)
    makes verify refuse the file as not restated, naming the setting, instead of checking
    the engine by other rules."""
    monkeypatch.setitem(
        trickcore.checking.check_reference.RESTATED,
        "decision",
        trickcore.checking.check_reference.RESTATED["decision"] - {"public"},
    )
    report = verify("skat", examples=1, matches=0)
    assert report.violation is not None
    assert report.violation.invariant == "not restated"
    assert "'decision hand.public'" in report.violation.message


# ---------------------------------------------------------------- exchanges with the kitty
# Euchre's farmer's hand (E49) with any hand allowed to exchange, so that random play
# exchanges in almost every deal (a real farmer's hand comes once in some 200 deals).
ANY_EXCHANGE = (
    'extends "euchre-farmers-hand"\n'
    "decision exchange {\n  offer_if = count_all(exchanged) == 0\n}\n"
)


def test_exchange_with_the_cards_left_out_verifies_clean(tmp_path):
    """E49: the exchange (three cards laid away one by one, the three kitty cards taken) is
    restated by the checker, and the engine agrees; the shipped file verifies clean."""
    house_rule(tmp_path, "any-exchange", ANY_EXCHANGE)
    assert found("euchre-farmers-hand") is None


def test_exchange_taking_other_cards_than_the_kitty_is_caught(monkeypatch, tmp_path):
    """E49: the exchanger takes the kitty cards (those left out of the deal); an engine
    that gives him back the cards he laid away instead is caught by the cards he holds."""
    path = house_rule(tmp_path, "any-exchange", ANY_EXCHANGE)

    def sloppy(game, deal, card):
        seat = deal.exchange_by
        deal.hands[seat].remove(card)
        deal.exchanged.append(card)
        deal.exchange_left -= 1
        if not deal.exchange_left:
            deal.hands[seat].extend(deal.exchanged)  # his own cards back: the kitty unseen
            deal.exchanged = []
            if not trickcore.engine.phases.turns._ask_next(game, deal):
                deal.next_phase()

    monkeypatch.setattr(trickcore.engine.phases.turns, "exchange_card", sloppy)
    assert found(path) == "cards"
