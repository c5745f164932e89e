"""The checker restates the trick-game constructs of Hearts and Spades itself (passing,
bids and blind bids, a fixed trump, the holder of a card leading, `play_if`, scoring for
every player with aggregates over the table and the side, `end_if` and `play_on`): an
engine broken in each of these places is caught, each by the invariant it breaks."""

from __future__ import annotations

import attrs
from conftest import found, house_rule

import trickcore.language.exprs
from trickcore.checking.verify import verify
from trickcore.engine.deal import Deal
from trickcore.engine.game import Game
from trickcore.engine.match import Match
from trickcore.engine.phases.bids import Bids
from trickcore.engine.phases.passing import PassCards
from trickcore.engine.phases.tricks import TrickPlay
from trickcore.language.model import Deck


# ---------------------------------------------------------------- passing
def test_cards_passed_the_wrong_way_are_caught(monkeypatch):
    """H7, H9: in deal 1 each player's three cards go to his left; an engine that passes
    them to the right is caught by the hands the checker replays itself."""
    original = PassCards.apply

    def backwards(self, deal, action):
        takers = deal.pass_takers  # worked out as they should be; the cards go the other way
        active = deal.active
        n = len(active)
        deal.pass_takers = {g: [active[(active.index(g) - deal.pass_to) % n]] for g in takers}
        try:
            original(self, deal, action)
        finally:
            deal.pass_takers = takers

    monkeypatch.setattr(PassCards, "apply", backwards)
    assert found("hearts") == "cards"


def test_pass_direction_shown_wrong_is_caught(monkeypatch):
    """H7: the direction of the passing is public (Observation.pass_to, `to` evaluated by
    the checker); an engine that shows the opposite direction is caught by the view."""
    original = PassCards.start

    def backwards(self, deal):
        passing = original(self, deal)
        deal.pass_to = (len(deal.active) - deal.pass_to) % len(deal.active)
        return passing

    monkeypatch.setattr(PassCards, "start", backwards)
    assert found("hearts") == "view"


def test_pass_direction_from_a_wrong_mod_is_caught(monkeypatch):
    """H7: the direction is mod(deal_number, 4), evaluated by the checker itself; an engine
    whose mod() is off by one passes across in deal 1, and shows that direction (pass_to)
    as soon as the passing begins: caught by the view."""
    _, _, _, help_text = trickcore.language.exprs._NUMERIC_FUNCS["mod"]
    monkeypatch.setitem(
        trickcore.language.exprs._NUMERIC_FUNCS, "mod", (2, 2, lambda x, m: (x + 1) % m, help_text)
    )
    assert found("hearts") == "view"


def test_leak_of_another_players_set_aside_cards_is_caught(monkeypatch):
    """H9, H27: the cards a player sets aside are hidden from the others until the exchange
    (and then known to the recipient only); an observation that gives away a card set aside
    by the next player is caught by the information check in the pass phase."""
    original = Deal._observe

    def leaky(self, seat):
        obs = original(self, seat)
        if seat < 0 or self.phase != "pass":
            return obs
        aside = self.set_aside.get((seat + 1) % self.seats, ())
        return attrs.evolve(obs, contract=obs.contract + min(aside, default=0))

    monkeypatch.setattr(Deal, "_observe", leaky)
    assert found("hearts") == "no leak"


# ---------------------------------------------------------------- bids
BLIND_ALWAYS = 'extends "spades"\nbids {\n  blind_if = yes\n}\n'


def test_blind_bidder_seeing_his_hand_is_caught(monkeypatch, tmp_path):
    """P8, P25: a player who may bid blind nil does not see his cards until he says look
    (or bids blind); an engine that shows them to him is caught."""
    rules = house_rule(tmp_path, "blind-always", BLIND_ALWAYS)
    original = Deal._observe

    def peeking(self, seat):
        obs = original(self, seat)
        if seat < 0 or obs.hand or not self.hands[seat]:
            return obs
        return attrs.evolve(obs, hand=tuple(self.hand_texts(seat)))

    monkeypatch.setattr(Deal, "_observe", peeking)
    assert found(rules) == "hidden hand"


def test_blind_hand_leaking_through_another_field_is_caught(monkeypatch, tmp_path):
    """P8, P25: the information check covers the bids phase: before he looks, a player's
    own cards are hidden from him too, so a world with one of them swapped must look the
    same to him."""
    rules = house_rule(tmp_path, "blind-always", BLIND_ALWAYS)
    original = Deal._observe

    def leaky(self, seat):
        obs = original(self, seat)
        if seat < 0 or obs.hand or not self.hands[seat]:
            return obs
        return attrs.evolve(obs, contract=obs.contract + max(self.hands[seat]))

    monkeypatch.setattr(Deal, "_observe", leaky)
    # only before a player looks, in the bids phase of a deal checked in full: more runs
    assert found(rules, examples=100) == "no leak"


def test_blind_if_ignored_is_caught(monkeypatch, tmp_path):
    """P8: a player for whom `blind_if` holds first decides between a blind bid and look;
    an engine that lets him bid at once, as if he had looked, is caught."""
    rules = house_rule(tmp_path, "blind-always", BLIND_ALWAYS)
    original = Bids.start

    def sighted(self, deal):
        started = original(self, deal)
        deal.looked = [True] * deal.seats
        return started

    monkeypatch.setattr(Bids, "start", sighted)
    assert found(rules) == "bids"


def test_max_other_score_read_wrong_is_caught(monkeypatch):
    """P7, P21: blind nil is open to a player whose side is 100 or more behind the other
    side as the deal begins (`max_other_score`, from the checker's own match book); an
    engine that reads max_other_score as 0 never offers it and is caught."""
    original = Game.match_context

    def flat(self, *args, **kwargs):
        contexts = original(self, *args, **kwargs)
        for context in contexts:
            context["max_other_score"] = 0
        return contexts

    monkeypatch.setattr(Game, "match_context", flat)
    # a side far below zero is then offered blind nil wrongly, a side 100 behind is not:
    # the first bidder is offered the wrong bids, or a later one shown the wrong hand
    assert found("spades") in ("bids", "view", "hidden hand")


def test_bids_above_the_hand_size_are_caught(monkeypatch):
    """P6: a bid is a number of tricks from 0 to 13 (`max = hand_size`); an engine that
    also offers 14 is caught by the checker's own list of legal bids."""
    original = Bids.legal

    def generous(self, deal):
        legal = original(self, deal)
        if legal and legal[-1].kind == "bid" and not legal[-1].qualifier:
            legal = [*legal, self.game.actions.bid(legal[-1].value + 1)]
        return legal

    monkeypatch.setattr(Bids, "legal", generous)
    assert found("spades") == "bids"


# ---------------------------------------------------------------- play
def test_ignoring_play_if_is_caught(monkeypatch, tmp_path):
    """H15 (as `play_if`): a card that play_if forbids is not offered unless it forbids every
    card; an engine that ignores play_if is caught. The house rule forbids discarding
    hearts at all, so that random play meets it at once."""
    rules = house_rule(
        tmp_path,
        "no-heart-discards",
        'extends "hearts"\nplay {\n  play_if = can_follow or not card_suit(hearts)\n}\n',
    )
    original = TrickPlay._allowed

    def lax(self, deal, cards, rule, can_follow, state=None):
        return original(self, deal, cards, rule, can_follow, state) if can_follow is None else cards

    monkeypatch.setattr(TrickPlay, "_allowed", lax)
    assert found(rules) == "obligations"


def test_play_if_allowing_no_card_allows_every_card(monkeypatch, tmp_path):
    """A play_if that allows none of the cards the obligations leave allows them all (the
    checker's own fallback); an engine that then offers only the lowest card is caught. The
    house rule allows aces only, so the fallback is met at almost every trick."""
    rules = house_rule(
        tmp_path, "aces-only", 'extends "hearts"\nplay {\n  play_if = card_rank(A)\n}\n'
    )
    original = TrickPlay._allowed

    def stingy(self, deal, cards, rule, can_follow, state=None):
        return original(self, deal, cards, rule, can_follow, state) or cards[:1]

    monkeypatch.setattr(TrickPlay, "_allowed", stingy)
    assert found(rules) == "obligations"


def test_wrong_played_suit_count_is_caught(monkeypatch):
    """H16, H17: hearts may be led once a heart lies in a finished trick (`played_suit`,
    counted by the checker itself); an engine for which nothing was ever played is caught."""
    original = trickcore.language.exprs._suit_or_card

    def blind_to_the_table(func, args, sym, key):
        typ, fn = original(func, args, sym, key)
        if func == "played_suit":
            return typ, lambda env: 0
        return typ, fn

    monkeypatch.setattr(trickcore.language.exprs, "_suit_or_card", blind_to_the_table)
    assert found("hearts") == "obligations"


def test_first_lead_not_by_the_holder_of_the_two_of_clubs_is_caught(monkeypatch):
    """H12: the holder of the 2C (after the passing) leads to the first trick; an engine
    that lets the player left of the dealer lead is caught."""
    original = TrickPlay.start

    def eldest(self, deal):
        started = original(self, deal)
        deal.leader = deal.to_act = deal.active[0]
        return started

    monkeypatch.setattr(TrickPlay, "start", eldest)
    assert found("hearts") == "turn"


def test_fixed_trump_left_out_is_caught(monkeypatch, tmp_path):
    """P2, P14: spades are trumps from the first trick; an engine that plays without a trump
    is caught by the trick records (leads are free here, so only the trump differs)."""
    rules = house_rule(tmp_path, "free-leads", 'extends "spades"\nremove play.lead_if\n')
    original = TrickPlay.start

    def trumpless(self, deal):
        started = original(self, deal)
        deal.trump = -1
        return started

    monkeypatch.setattr(TrickPlay, "start", trumpless)
    assert found(rules) == "trump"


def test_card_points_by_expression_ignored_is_caught(monkeypatch):
    """H3: each heart 1, the QS 13 (`card_points = EXPR`, evaluated per card by the
    checker); an engine that counts points by rank only is caught."""
    monkeypatch.setattr(
        Deck,
        "card_points",
        property(lambda self: tuple(self.points[c % len(self.ranks)] for c in range(self.size))),
    )
    assert found("hearts") == "card points"


# ---------------------------------------------------------------- scoring
def test_side_aggregate_over_the_player_alone_is_caught(monkeypatch):
    """P16, P17: a side's tricks are both partners' (`sum_side(tricks_won)`); an engine
    whose side aggregates see the player alone is caught by the deal scores."""
    original = trickcore.language.exprs._aggregate

    def selfish(func, arg, scope):
        typ, fn = original(func, arg, scope)
        if not func.endswith("_side"):
            return typ, fn
        return typ, lambda env: fn({**env, trickcore.language.exprs.SIDE_KEY: [env]})

    monkeypatch.setattr(trickcore.language.exprs, "_aggregate", selfish)
    assert found("spades") == "deal score"


# ---------------------------------------------------------------- match end
def test_end_if_ignored_is_caught(monkeypatch, tmp_path):
    """H24 (as `end_if`): the match ends after the deal at whose end the condition holds for
    a player; an engine that ignores it and deals again is caught. The house rule ends the
    match after two deals, so that random runs reach its end."""
    rules = house_rule(
        tmp_path, "two-deals", 'extends "hearts"\nmatch {\n  end_if = deal_number >= 2\n}\n'
    )
    monkeypatch.setattr(Match, "_end_if_holds", lambda self: False)
    assert found(rules) == "match end"


def test_play_on_ignored_is_caught(monkeypatch, tmp_path):
    """P23, P24: when the match would end with both sides level, another deal is played
    (`tie_break: highest, play_on`); an engine that ends it there is caught. The house rule
    would end every deal with every player level, so only play_on keeps the match going."""
    rules = house_rule(
        tmp_path,
        "always-level",
        'extends "spades"\nmatch {\n  end_if = yes\n  rank_by = 0\n}\n',
    )
    original = Match._check_end

    def impatient(self, deal):
        model = self.game.model
        ties = tuple(t for t in model.match.tie_break if t != "play_on")
        self.game.model = attrs.evolve(model, match=attrs.evolve(model.match, tie_break=ties))
        try:
            original(self, deal)
        finally:
            self.game.model = model

    monkeypatch.setattr(Match, "_check_end", impatient)
    assert found(rules) == "match end"


def test_winners_ranked_by_rank_by_are_checked(monkeypatch):
    """H25: the lowest total wins (`rank_by = -score`); an engine that names the highest
    score the winner is caught."""
    monkeypatch.setattr(Match, "standing", lambda self, seat: self.scores[seat])
    report = verify("hearts", examples=1, matches=1)
    assert report.violation is not None and report.violation.invariant == "winners"


def test_end_if_winners_are_ranked_by_score_before_the_tie_break(tmp_path):
    """T21 under `end_if` (the winners are ranked among all seats by score, then by
    `tie_break`): a Tysiacha match that ends after its third deal is won by the highest
    score, and the declarer rule only decides among equal scores. The checker ranks so, and
    a correct engine agrees with it."""
    rules = tmp_path / "three-deals.rules"
    rules.write_text(
        'extends "tysiacha"\nmatch {\n  target: none\n  end_if = deal_number >= 3\n}\n'
    )
    assert found(rules) is None
