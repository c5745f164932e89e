"""Declared decisions (`decision NAME`) at the end of play, through the public API: Hearts'
house rule H36 (moon-choice) of docs/rules/hearts.md, and the checks of the block."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import trickcore

CLUBS = ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C"]


def moon_deal() -> trickcore.Deal:
    """Seat 2 holds every club in a hold hand: he leads the 2C (H12), nobody can follow, so
    he wins all 13 tricks and with them every heart and the QS (H22)."""
    text = 'extends "hearts-moon-choice"\npass_cards {\n  to = 0\n}\n'
    v = trickcore.variant_from_text(text, "moon-hold")
    d = v.new_deal(v.stack_deck({2: CLUBS}, dealer=0), dealer=0)
    while d.phase == "play":
        d.apply(d.legal_actions()[0])
    return d


@pytest.mark.parametrize("choice, gains", [("minus", [0, 0, -26, 0]), ("keep", [26, 26, 0, 26])])
def test_the_shooter_chooses_after_the_last_trick(choice, gains):
    """H36: after the 13th trick the shooter alone is asked: `minus` (-26 to himself) or
    `keep` (the others +26); nobody else is asked."""
    d = moon_deal()
    assert d.tricks_won == [0, 0, 13, 0]
    assert d.phase == "decide" and d.to_act == 2
    assert [a.text for a in d.legal_actions()] == ["minus", "keep"]
    d.apply(choice)
    assert d.is_over and d.gains == gains


def test_without_a_moon_nobody_is_asked():
    """H36 asks only a shooter: a random deal without a moon is scored straight away."""
    v = trickcore.load_variant("hearts-moon-choice")
    d = v.new_deal(seed=3)
    while not d.is_over:
        assert d.phase != "decide"
        d.apply(d.legal_actions()[0])
    assert sum(d.gains) == 26


@pytest.mark.parametrize(
    "block, message",
    [
        ("at: end, lead\n  offer_if = yes", "has one 'at'"),
        ("at: later\n  offer_if = yes", "'at' is one of"),
        ("at: before auction\n  offer_if = yes", "phases here: pass, tricks"),
        ("at: before tricks\n  who: declarer\n  offer_if = yes", "needs an auction"),
        ("at: lead\n  who: each\n  offer_if = yes", "'who' is for decisions between"),
        ("at: lead\n  offer_if = yes\n  effect: swap_turnup 9", "needs a turnup"),
        ("at: lead\n  offer_if = yes\n  rule r: score = 1", "cannot assign 'score'"),
        ("at: lead\n  offer_if = gain > 0", "unknown name 'gain'"),
    ],
)
def test_decision_blocks_are_checked(block, message):
    text = f'extends "hearts"\ndecision odd {{\n  {block}\n}}\n'
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.variant_from_text(text, "odd")
    assert message in info.value.message


def test_a_decision_may_not_take_an_action_word():
    with pytest.raises(trickcore.RulesError, match="action word"):
        trickcore.variant_from_text('extends "hearts"\ndecision pass {\n  at: lead\n}\n', "x")


CONCEDE = """
extends "tysiacha"
name: "Tysiacha: the declarer may concede"
deal {
  keep: conceded no
}
decision concede {
  at: before tricks
  who: declarer
  offer_if = yes
  rule record: conceded = yes
  effect: end_deal
}
match {
  keep +: concessions 0
}
scoring {
  declarer = if conceded then -contract - 20 * concessions else if made then contract else -contract
  defender = if count_all(conceded) > 0 then 0 else round(deal_points, 5)
}
after_deal {
  rule count_concession before add: if conceded then concessions = concessions + 1
}
"""


def concede_in(match: trickcore.Match) -> None:
    """Bid 100 from forehand, the others pass; give the two lowest cards; keep the contract;
    then concede when asked."""
    deal = match.current
    match.apply("bid 100")
    match.apply("pass")
    match.apply("pass")
    while match.current is deal and deal.phase != "decide":
        match.apply(match.legal_actions()[0])
    assert [a.text for a in match.legal_actions()] == ["concede", "keep"]
    assert match.to_act == deal.declarer
    match.apply("concede")


def test_a_declarer_concedes_before_play_and_pays_more_each_time():
    """A house rule the issue names: after the talon the declarer may concede; he loses his
    contract plus 20 for every earlier concession (a match keep value), the defenders score
    nothing, and no card is played."""
    v = trickcore.variant_from_text(CONCEDE, "concede")
    m = v.new_match(seed=4)
    first = m.current
    concede_in(m)
    assert first.is_over and first.tricks == [] and first.ended_early
    declarer = first.declarer
    assert first.gains[declarer] == -100 and sum(first.gains) == -100
    assert m.kept_state(declarer)["concessions"] == 1
    for _ in range(3):  # forehand bids: after three more deals seat 1 is forehand again
        later = m.current
        concede_in(m)
    assert later.declarer == declarer == 1
    assert later.gains[1] == -100 - 20 * 1  # his second concession costs 20 more
    assert m.kept_state(1)["concessions"] == 2


def test_keeping_plays_the_deal_as_usual():
    v = trickcore.variant_from_text(CONCEDE, "concede")
    m = v.new_match(seed=4)
    deal = m.current
    m.apply("bid 100")
    m.apply("pass")
    m.apply("pass")
    while deal.phase != "decide":
        m.apply(m.legal_actions()[0])
    m.apply("keep")
    assert deal.phase == "play" and not deal.ended_early


FORCED = """
extends "russisch-schnapsen"
name: "Russisch Schnapsen, four nines redeal at once"
redeal {
  forced_if = count_rank(9) == 4
}
"""


def test_a_compulsory_redeal_voids_the_deal_before_anyone_is_asked():
    """`redeal { forced_if }`: a hand with all four nines voids the deal as it is dealt (the
    same dealer deals again, S5); a hand without them is offered the optional redeal (S5)."""
    v = trickcore.variant_from_text(FORCED, "forced")
    nines = v.stack_deck({2: ["9H", "9S", "9G", "9E"]}, dealer=0)
    d = v.new_deal(nines, dealer=0)
    assert d.is_over and d.redealt and d.redeal_by == 2 and d.legal_actions() == []
    m = v.new_match(deck_orders=[nines, nines], seed=5)
    assert m.redeals == 2 and m.dealer == 0 and m.deals_played == 0
    assert not m.current.is_over and m.current.phase == "redeal"
    assert [r["by"] for r in m.deal_results] == [2, 2]


def test_a_decision_named_in_text_is_that_decision():
    """Decisions and choice options are told apart by their text: `claim` is not `close`
    (actions of one kind must not compare equal)."""
    v = trickcore.load_variant("sixty-six")
    table = v.actions
    assert table.decide["claim"] != table.decide["close"]
    skat = trickcore.load_variant("skat")
    d = skat.new_deal(seed=11, dealer=0)
    for text in ("bid 18", "hold", "bid 20", "pass", "bid 22", "hold", "pass", "keep"):
        d.apply(text)
    d.apply(d.legal_actions()[0])
    d.apply(d.legal_actions()[0])
    d.apply("hearts_game")
    assert d.observation(0).trump == "hearts"


def test_kontra_and_re_are_asked_in_order_after_the_announcement():
    """Skat K63 (variants/skat-kontra-re.rules): decisions between phases are asked decision
    by decision in the order of the file, so after the declarer's game the defenders are
    asked Kontra in deal order (F, then R here), and the declarer Re after a Kontra; the
    deal's score is then four times the K43 score."""
    v = trickcore.load_variant("skat-kontra-re")
    d = v.new_deal(seed=21, dealer=0)  # F = 1, M = 2, R = 0
    for text in ("bid 18", "pass", "pass"):  # M bids, F passes, R passes: M declares
        d.apply(text)
    assert d.declarer == 2
    d.apply("keep")  # he takes the skat
    d.apply(d.legal_actions()[0])
    d.apply(d.legal_actions()[0])
    d.apply("grand")
    assert (d.to_act, [a.text for a in d.legal_actions()]) == (1, ["kontra", "keep"])
    d.apply("keep")
    assert (d.to_act, [a.text for a in d.legal_actions()]) == (0, ["kontra", "keep"])
    d.apply("kontra")
    assert (d.to_act, [a.text for a in d.legal_actions()]) == (2, ["re", "keep"])
    d.apply("re")
    assert d.phase == "play" and d.observation(1).deal_keep.count((1, "re", True)) == 1
    while not d.is_over:
        d.apply(d.legal_actions()[0])
    env = d.final_env(2)
    base = env["value"] if env["won"] else -2 * env["value"]
    assert d.gains[2] == 4 * base and d.gains[0] == d.gains[1] == 0


def test_a_public_announcement_is_every_players_value():
    """Skat K24, K46 (`public: yes`): the declarer's "schneider" is announced to all, so it
    is every player's deal value, and a defender's expressions read it as yes."""
    v = trickcore.load_variant("skat")
    d = v.new_deal(seed=21, dealer=0)
    for text in ("bid 18", "pass", "pass", "hand", "clubs_game", "keep", "keep", "schneider"):
        d.apply(text)
    assert d.phase == "play"
    values = {(seat, name): value for seat, name, value in d.observation(1).deal_keep}
    assert values[(1, "schneider_said")] and values[(0, "schneider_said")]
    assert values[(1, "hand")] and not values[(1, "schwarz_said")]


def test_a_decision_that_breaks_the_number_range_stops_the_match_mid_deal():
    """A decision rule computing a number outside ±999,999,999 stops the match where it
    stands: the deal is over with nobody to act and no legal action."""
    text = (
        'extends "sixty-six"\ndeal {\n  keep +: big 0\n}\n'
        "decision boom {\n  at: lead\n  offer_if = yes\n  rule r: big = 999999999 * 999999999\n}\n"
    )
    m = trickcore.variant_from_text(text, "boom").new_match(seed=1)
    with pytest.raises(trickcore.RulesError, match="decision 'boom' rule 'r'"):
        m.apply("boom")
    assert m.is_over and m.stopped
    assert m.current.is_over and m.current.to_act == -1 and m.current.legal_actions() == []


# an `at: card` decision whose aggregate reads a name of the hand: everybody's offers
# change with each card played
HAND_AGGREGATE = """extends "doppelkopf"
name: "Last word"
decision last_word {
  at: card
  offer_if = sum_all(hand_size) == 4 * hand_size - 1 and hand_size < 6
}
"""


@pytest.mark.parametrize("name", ["doppelkopf", "doppelkopf-tournament", "hand-aggregate"])
def test_a_round_of_offers_after_a_card_is_the_round_worked_out_afresh(name):
    """The round of offers right after a card to the same trick makes only the names of the
    player who played again (`offers_round(played=...)`): each round is the one a copy of
    the deal, which keeps none of them, works out from nothing."""
    from trickcore.engine.phases.turns import offers_round

    if name == "hand-aggregate":
        v = trickcore.variant_from_text(HAND_AGGREGATE, "hand-aggregate")
    else:
        v = trickcore.load_variant(name)
    rounds = offered = 0
    for seed in range(12):
        deal = v.new_deal(seed=seed, dealer=seed % 4)
        rng = random.Random(seed)
        while not deal.is_over:
            if deal.phase == "play" and deal.window_offers is not None:
                assert offers_round(v, deal.clone()) == deal.window_offers
                rounds += 1
                offered += any(deal.window_offers)
            deal.apply(rng.choice(deal.legal_actions()))
    assert rounds > 500 and offered > 20


@pytest.mark.parametrize("name", ["doppelkopf", "doppelkopf-hochzeit"])
def test_rules_after_a_trick_skipped_by_a_part_the_same_for_all_change_nothing(name):
    """A rule after a trick whose condition begins with a part the same for every player
    (`StepRule.common`: Doppelkopf's Hochzeit test, aggregates alone) is tested for nobody
    when that part fails: every deal goes exactly as with each rule tested for each player."""
    import attrs

    from trickcore.engine.game import Game

    if name == "doppelkopf":
        v = trickcore.load_variant(name)
    else:
        v = trickcore.load_variant(Path(__file__).parent / "house_rules" / f"{name}.rules")
    tricks = v.model.tricks
    assert tricks is not None and tricks.after_trick
    assert all(rule.common is not None for rule in tricks.after_trick)
    assert tricks.after_trick[0].common_reads == ("declarer", "reservation")
    rules = tuple(attrs.evolve(r, common=None, common_reads=()) for r in tricks.after_trick)
    plain = Game(attrs.evolve(v.model, tricks=attrs.evolve(tricks, after_trick=rules)))
    held = 0
    for seed in range(16):
        deal, other = v.new_deal(seed=seed), plain.new_deal(seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            legal = deal.legal_actions()
            assert [a.text for a in legal] == [a.text for a in other.legal_actions()]
            assert deal.context == other.context and deal.side_of == other.side_of
            action = rng.choice(legal).text
            deal.apply(action)
            other.apply(action)
        held += any(c.get("partner") or c.get("clarified") for c in deal.context)
        assert deal.gains == other.gains
    assert name == "doppelkopf" or held
