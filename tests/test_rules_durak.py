"""Durak rule by rule (D1–D14 of docs/rules/durak.md), each on a stacked deck and scripted actions.

Every test plays the shipped `variants/durak.rules` (`durak-36.rules` for D1 and D12 with 36
cards, or a house rule written as a short file that extends one) through the public API and
fails when the rule it names is broken. D6 is the reading of `durak.rules`: throw-ins are
offered right after the attack (before the defender answers), after every beat that puts a
new rank on the table and after a take, in a fixed order from the attacker round the table,
skipping the defender; a thrower keeps his chance until he says `done`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from conftest import run, texts

import trickcore

BoutDeal = Any  # a deal of bouts (the package does not export its class)

SUITS = "SCDH"
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7"]


@pytest.fixture(scope="module")
def durak() -> trickcore.Variant:
    return trickcore.load_variant("durak")


def house(name: str, body: str) -> trickcore.Variant:
    """A house rule on Durak written as a short rules file."""
    return trickcore.variant_from_text(f'extends "durak"\n{body}\n', name)


def stacked(
    v: trickcore.Variant,
    hands: dict[int, str],
    stock: str,
    players: int = 3,
    dealer: int = 0,
) -> BoutDeal:
    """A deal with these hands; `stock`: the turned-up card, then the stock from the top."""
    order = v.stack_deck(
        {s: h.split() for s, h in hands.items()}, stock.split(), dealer=dealer, players=players
    )
    return v.new_deal(order, dealer=dealer, players=players)


def legal(d: BoutDeal) -> set[str]:
    return set(texts(d.legal_actions()))


def hand(d: BoutDeal, seat: int) -> set[str]:
    """A seat's hand as it sees it (its own observation)."""
    return set(d.observation(seat).hand)


def table(d: BoutDeal) -> tuple[tuple[str, str | None], ...]:
    return d.public_view().table


def play_with(d: BoutDeal, policy: Callable[[list[str]], str], limit: int = 5000) -> None:
    """Finish a deal, choosing each action by `policy` over the legal action texts."""
    for _ in range(limit):
        if d.is_over:
            return
        d.apply(policy(texts(d.legal_actions())))
    raise AssertionError("the deal did not end")


def taker(options: list[str]) -> str:
    """Attack with the first card, never throw in, always take."""
    for kind in ("take", "done"):
        if kind in options:
            return kind
    return options[0]


def beater(options: list[str]) -> str:
    """Beat when possible, else take; throw in whatever can be thrown; attack with the last
    attack offered (several cards of one rank when possible)."""
    for prefix in ("beat", "throw", "take", "done", "attack"):
        found = [o for o in options if o.startswith(prefix)]
        if found:
            return found[-1] if prefix == "attack" else found[0]
    return options[0]


# Three players, dealer 0: seat 1 attacks seat 2, seat 0 is the third. Hearts are trump
# (7H turned up); the stock's top cards are AC, KC, QC.
HANDS3 = {
    1: "9S 9H 9D AS KS QS",
    2: "10S 10H JD 7C 8H KH",
    0: "AH QH JH 10D 8D 7D",
}
STOCK3 = "7H AC KC QC"


# ---------------------------------------------------------------- cards and deal
def test_D1_32_cards_ranked_A_to_7_two_to_five_players(durak):
    """D1: the deck is exactly A..7 in four suits, 2–5 players; rank order A K Q J 10 9 8 7."""
    deck = [r + s for s in SUITS for r in RANKS]
    for players in (2, 3, 4, 5):
        d = durak.new_deal(deck, dealer=0, players=players)
        seen = {c for s in range(players) for c in d.observation(s).hand}
        obs = d.public_view()
        assert len(seen) == 6 * players and obs.stock_size == 32 - 6 * players
    for players in (1, 6):
        with pytest.raises(trickcore.TrickcoreError, match="2, 3, 4, 5 players"):
            durak.new_deal(seed=1, players=players)
    with pytest.raises(trickcore.TrickcoreError):
        durak.new_deal([*deck[:-1], "6S"], players=2)  # no 6s in the 32-card deck
    # the rank order, as beating shows it: 10S is beaten by J, Q, K, A of spades, not by 9S
    d = stacked(durak, {1: "10S 7C 8C 9C QD KD", 2: "9S JS QS KS AS 7D"}, "7H")
    d.apply("attack 10S")
    beats = {t.split()[-1] for t in legal(d) if t.startswith("beat")}
    assert beats == {"JS", "QS", "KS", "AS"}


def test_D2_one_at_a_time_from_left_of_dealer_then_the_turned_up_card(durak):
    """D2: 6 cards each one at a time clockwise from the dealer's left; the next card is trump."""
    deck = [r + s for s in SUITS for r in RANKS]
    d = durak.new_deal(deck, dealer=1, players=3)  # seats 2, 0, 1 receive in this order
    for k, seat in enumerate((2, 0, 1)):
        assert hand(d, seat) == set(deck[k:18:3])
    obs = d.public_view()
    assert obs.trump_card == deck[18] and obs.trump == "diamonds" and obs.trump_card_in_stock
    assert obs.stock_size == 32 - 18


def test_D2_the_turned_up_card_is_the_last_card_drawn(durak):
    """D2: players draw the stock from the top; the turned-up card comes last, to whoever
    draws the 20th card (here seat 1, the attacker of the bout that empties the stock)."""
    deck = [r + s for s in SUITS for r in RANKS]
    d = durak.new_deal(deck, dealer=0, players=2)
    first_hands = set(deck[:12])
    draw_order = deck[13:] + [deck[12]]  # the stock from the top, the turned-up card last
    holder = -1
    while not d.is_over and holder < 0:
        obs = d.public_view()
        drawn = 20 - obs.stock_size
        known = {c for s in (0, 1) for c in d.observation(s).hand}
        known |= {c for pair in obs.table for c in pair if c} | set(obs.discarded)
        assert known == first_hands | set(draw_order[:drawn])
        assert obs.trump_card_in_stock == (obs.stock_size > 0)
        if obs.stock_size == 0:
            holder = next(s for s in (0, 1) if deck[12] in d.observation(s).hand)
        d.apply(taker(texts(d.legal_actions())))
    assert holder == 1 and d.public_view().trump_card == "10C"


def test_D3_no_card_points(durak):
    """D3: cards are worth nothing; a played deal leaves every score at 0 (only the durak
    count is kept)."""
    assert durak.model.deck.total_points == 0
    m = durak.new_match(seed=5, players=3)
    while m.deals_played < 2:
        m.apply(beater(texts(m.legal_actions())))
    assert m.scores == [0, 0, 0]
    assert sum(m.kept_state(s)["durak_count"] for s in range(3)) == sum(
        1 for r in m.deal_results if not r["draw"]
    )


# ---------------------------------------------------------------- a bout
def test_D4_left_of_dealer_attacks_the_next_player(durak):
    """D4: the player left of the dealer attacks; the next player defends."""
    for dealer, players, (attacker, defender) in ((0, 3, (1, 2)), (2, 4, (3, 0)), (4, 5, (0, 1))):
        d = durak.new_deal(seed=3, dealer=dealer, players=players)
        obs = d.public_view()
        assert (obs.attacker, obs.defender, d.to_act) == (attacker, defender, attacker)
        assert all(t.startswith(("attack", "swap")) for t in legal(d))


def test_D5_one_card_or_several_of_one_rank(durak):
    """D5: an attack is one card or several of one rank, never of mixed ranks."""
    d = stacked(durak, HANDS3, STOCK3)
    attacks = legal(d)
    assert {"attack 9S", "attack 9S 9D", "attack 9S 9H", "attack 9S 9D 9H", "attack AS"} <= attacks
    assert not [t for t in attacks if t.startswith("attack A") and len(t.split()) > 2]
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("attack 9S AS")
    d.apply("attack 9S 9H")
    assert table(d) == (("9S", None), ("9H", None))


# ---------------------------------------------------------------- D6: throwing in
def test_D6_offered_right_after_the_attack_and_the_thrower_keeps_his_chance(durak):
    """D6: right after the attack, before the defender answers, the attacker (first in
    order) may add his other 9s; after a throw-in he is asked again."""
    d = stacked(durak, HANDS3, STOCK3)
    d.apply("attack 9S")
    assert d.to_act == 1 and legal(d) == {"throw 9D", "throw 9H", "done"}
    d.apply("throw 9D")
    assert d.to_act == 1 and legal(d) == {"throw 9H", "done"}
    d.apply("throw 9H")
    # seat 0 holds no 9: skipped; now the defender answers all three
    assert d.to_act == 2 and d.public_view().phase == "defend"
    assert table(d) == (("9S", None), ("9D", None), ("9H", None))
    assert "take" in legal(d) and "beat 9S with 10S" in legal(d)


FOUR = {
    1: "9S 9H AS KS QS JS",  # attacker
    2: "9D 10S 10H 7C 8C KH",  # defender: holds a 9 but is never asked to throw in
    3: "9C AD KD QD JD 8D",
    0: "10D AH QH JH 7D 8S",
}


def test_D6_order_from_the_attacker_round_the_table_skipping_the_defender(durak):
    """D6: with four players the chance goes attacker 1, then 3, then 0; never defender 2."""
    d = stacked(durak, FOUR, "7H", players=4)
    d.apply("attack 9S")
    asked = []
    while d.public_view().phase == "throw":
        asked.append(d.to_act)
        d.apply("done")
    assert asked == [1, 3]  # seat 0 holds no 9: skipped
    assert d.to_act == 2
    d.apply("beat 9S with 10S")  # a new rank: everyone may add again; seat 0 holds 10D
    asked = []
    while d.public_view().phase == "throw":
        asked.append(d.to_act)
        d.apply("done")
    assert asked == [1, 3, 0] and d.public_view().bouts == 1


@pytest.mark.parametrize("players", [4, 5])
def test_D6_throw_in_by_neighbours_differs_from_all(durak, players):
    """D6 `throw_in_by`: `all` offers every other player; the house rule `neighbours` only
    the attacker and the player left of the defender (with 4 or 5 players they differ)."""
    hands = {1: "9S AS KS QS JS 8S", 2: "10S 10H 7C 8C KH 7S", 3: "9H AD KD QD JD 8D"}
    hands[0] = "9D AH QH JH 7D AC"
    if players == 5:
        hands[4] = "9C KC QC JC 10C 10D"
    neighbours = house("neighbours", "bouts {\n  throw_in_by: neighbours\n}")
    everyone = [3, 0] if players == 4 else [3, 4, 0]
    for v, expected in ((durak, everyone), (neighbours, [3])):
        d = stacked(v, hands, "7H", players=players)
        d.apply("attack 9S")
        asked = []
        while d.public_view().phase == "throw":
            asked.append(d.to_act)
            d.apply("done")
        assert asked == expected and d.to_act == 2


def test_D6_a_player_with_nothing_to_add_is_skipped(durak):
    """D6: `skip_unable: yes` skips a player without a card of a rank on the table; the
    house rule `skip_unable: no` asks him anyway, offering only `done`."""
    d = stacked(durak, HANDS3, STOCK3)
    run(d, ["attack 9S", "done"])  # seat 0 holds no 9
    assert d.to_act == 2 and d.public_view().phase == "defend"
    ask_all = house("ask-all", "bouts {\n  skip_unable: no\n}")
    d = stacked(ask_all, HANDS3, STOCK3)
    run(d, ["attack 9S", "done"])
    assert d.to_act == 0 and texts(d.legal_actions()) == ["done"]
    d.apply("done")
    assert d.to_act == 2


def test_D6_a_beat_with_a_new_rank_reopens_the_chance_and_one_without_does_not(durak):
    """D6: after `done`, a player is asked again only when a beat puts a new rank on the
    table; a beat with a rank already there asks nobody who has said `done`."""
    d = stacked(durak, HANDS3, STOCK3)
    run(d, ["attack 9S", "done", "beat 9S with 10S"])  # 10 is new
    assert d.to_act == 1 and legal(d) == {"throw 9D", "throw 9H", "done"}
    run(d, ["done"])
    assert d.to_act == 0 and legal(d) == {"throw 10D", "done"}
    d.apply("throw 10D")
    assert d.to_act == 2  # nobody left with a 9 or 10 who has not said done
    d.apply("beat 10D with 10H")  # rank 10 is already on the table: seat 1 stays done
    obs = d.public_view()
    assert obs.bouts == 1 and set(obs.discarded) == {"9S", "10S", "10D", "10H"}


def test_D6_D8_throw_ins_after_a_take(durak):
    """D6, D8: after `take` every player may add again (their `done` is forgotten), each
    keeping his chance; then the defender picks up the whole table."""
    d = stacked(durak, HANDS3, STOCK3)
    run(d, ["attack 9S", "done", "take"])
    assert d.public_view().taking
    assert d.to_act == 1 and legal(d) == {"throw 9D", "throw 9H", "done"}
    d.apply("throw 9D")
    assert d.to_act == 1 and legal(d) == {"throw 9H", "done"}
    d.apply("throw 9H")
    obs = d.observation(2)
    assert obs.bouts == 1 and {"9S", "9D", "9H"} <= set(obs.hand) and obs.discarded == ()
    assert (obs.attacker, obs.defender) == (0, 1)  # D11 after a take


def test_D6_house_rule_after_beats_keeps_the_old_timing():
    """D6 house rule `throw_in: after_beats`: throw-ins only once every attack card is
    beaten (the defender answers each throw-in first), and after a take."""
    v = house("after-beats", "bouts {\n  throw_in: after_beats\n}")
    d = stacked(v, HANDS3, STOCK3)
    d.apply("attack 9S")
    assert d.to_act == 2 and "beat 9S with 10S" in legal(d)  # no throw-in before the answer
    d.apply("beat 9S with 10S")
    assert d.to_act == 1 and legal(d) == {"throw 9D", "throw 9H", "done"}
    d.apply("throw 9D")
    assert d.to_act == 2 and "beat 9D with JD" in legal(d)
    d.apply("beat 9D with JD")
    assert d.to_act == 1 and legal(d) == {"throw 9H", "done"}
    run(d, ["done", "throw 10D"])  # seat 0 adds a 10
    assert d.to_act == 2
    d.apply("take")
    assert d.to_act == 1 and legal(d) == {"throw 9H", "done"}


# ---------------------------------------------------------------- D7: the bout limit
def test_D7_the_defenders_cards_at_the_start_of_the_bout_count_not_those_left(durak):
    """D7: the defender began with 6 cards, so after he has beaten one (5 left) the bout
    still takes a 6th attack card; then no 7th is offered though seat 0 holds JC."""
    hands = {1: "8S 8H JH AS KS QS", 0: "8D 8C JD JC 7D QC", 2: "JS 10S 10H 9D 9S QD"}
    d = stacked(durak, hands, "7H")
    run(d, ["attack 8S 8H", "throw 8D", "throw 8C", "beat 8S with JS", "throw JH"])
    assert d.to_act == 0 and legal(d) == {"throw JD", "throw JC", "done"}
    d.apply("throw JD")
    assert len(table(d)) == 6 and "JC" in hand(d, 0)
    assert d.to_act == 2 and d.public_view().phase == "defend"


def test_D7_never_more_than_six_even_when_the_defender_holds_more(durak):
    """D7: a defender holding 7 cards at the start still faces at most 6 attack cards."""
    hands = {1: "AS 8S 8H JH KD 9C", 0: "8D 8C JD JC 7D QC", 2: "JS 10S 10H 9D 9S QS"}
    d = stacked(durak, hands, "7H 10C QD 9H")
    run(d, ["attack AS", "take"])  # seat 2 now holds 7 cards
    run(d, ["attack 7D", "beat 7D with KD"])  # seat 0 attacks seat 1, who beats it
    obs = d.public_view()
    assert (obs.attacker, obs.defender, obs.hand_sizes[2]) == (1, 2, 7)
    run(d, ["attack 8S 8H", "throw 8D", "throw 8C", "beat 8S with JS", "throw JH", "throw JD"])
    assert len(table(d)) == 6 and "JC" in hand(d, 0)
    assert d.to_act == 2 and d.public_view().phase == "defend"


# Five players, dealer 0 (order 1, 2, 3, 4, 0). Diamonds are trump (7D turned up); the
# stock is 7H and then the turned-up card: it runs out after the first bout.
FIVE = {
    1: "9S KS AH 8S JS JH",
    2: "10S 10H 10C 10D QS QH",
    3: "9H 9C AS KH KC KD",
    4: "9D QD 8D 8C 7S 7C",
    0: "QC AC JD 8H JC AD",
}


def five_first_bout(v: trickcore.Variant) -> BoutDeal:
    """Seat 1 attacks 9S, seats 3 and 4 throw in 9H 9C 9D, seat 2 beats all four."""
    d = stacked(v, FIVE, "7D 7H", players=5)
    run(d, ["attack 9S", "throw 9H", "throw 9C", "throw 9D"])
    run(d, ["beat 9S with 10S", "beat 9H with 10H", "beat 9C with 10C", "beat 9D with 10D"])
    return d


def test_D7_never_more_than_the_defender_held(durak):
    """D7: seat 3 begins bout 2 with 4 cards: after 4 attack cards nobody may add, though
    seat 0 holds AC and seat 1 AH when an ace is on the table."""
    d = five_first_bout(durak)
    obs = d.public_view()
    assert (obs.attacker, obs.defender, obs.hand_sizes[3]) == (2, 3, 4)
    run(d, ["attack QS QH", "throw QD", "throw QC"])
    assert d.to_act == 3 and len(table(d)) == 4
    d.apply("beat QS with AS")  # an ace on the table, but the bout is full
    assert d.to_act == 3 and d.public_view().phase == "defend"
    assert "AC" in hand(d, 0) and "AH" in hand(d, 1)


# ---------------------------------------------------------------- D8, D9
def test_D8_what_beats_what(durak):
    """D8: a higher card of the suit, any trump on a non-trump, a higher trump on a trump."""
    d = stacked(durak, HANDS3, STOCK3)
    run(d, ["attack 9S", "done"])
    beats = {t.split()[-1] for t in legal(d) if t.startswith("beat 9S")}
    assert beats == {"10S", "8H", "10H", "KH"} and "take" in legal(d)  # not JD, 7C
    d = stacked(durak, HANDS3, STOCK3)
    run(d, ["attack 9H", "done"])  # a trump: only a higher trump; 8H does not
    assert legal(d) == {"beat 9H with 10H", "beat 9H with KH", "take"}
    d = stacked(durak, HANDS3, STOCK3)
    run(d, ["attack 9S 9D", "done"])  # each attack card needs its own card
    run(d, ["beat 9S with 10H", "done", "done"])
    beats = {t.split()[-1] for t in legal(d) if t.startswith("beat")}
    assert d.to_act == 2 and beats == {"JD", "8H", "KH"}  # 10H is on the table already


def test_D8_a_take_picks_up_every_card_on_the_table(durak):
    """D8: the taker picks up attack and defence cards, his own beats included."""
    d = stacked(durak, HANDS3, STOCK3)
    run(d, ["attack 9S", "done", "beat 9S with 10S", "throw 9D", "done", "done", "take"])
    run(d, ["done", "done"])
    obs = d.observation(2)
    assert obs.bouts == 1 and obs.discarded == () and obs.table == ()
    assert {"9S", "10S", "9D"} <= set(obs.hand) and len(obs.hand) == 6 - 1 + 3


def test_D9_a_defended_bout_is_discarded(durak):
    """D9: every attack card beaten and nobody adds more: the table goes out of play."""
    d = stacked(durak, HANDS3, STOCK3)
    run(d, ["attack 9S", "done", "beat 9S with 10S", "done", "done"])
    obs = d.observation(2)
    assert obs.bouts == 1 and set(obs.discarded) == {"9S", "10S"} and obs.table == ()
    assert not {"9S", "10S"} & (set(obs.hand) | hand(d, 1) | hand(d, 0))


# ---------------------------------------------------------------- D10: refilling
REFILL4 = {
    1: "9S AS KS QS JS 8S",
    2: "10S 10H 10C JD KH 8C",
    3: "9H AD KD QD 8D 7S",
    0: "9C AH QH JH 7D 7C",
}


def refill_bout(v: trickcore.Variant) -> BoutDeal:
    """Four players: seat 1 attacks 9S, seats 3 and 0 throw in, defender 2 beats all three;
    then 1 needs one card, 2 three, 3 one, 0 one."""
    d = stacked(v, REFILL4, "KC AC QC JC 10D 9D 8H", players=4)
    run(d, ["attack 9S", "throw 9H", "throw 9C"])
    run(d, ["beat 9S with 10S", "beat 9H with 10H", "beat 9C with 10C"])
    assert d.public_view().bouts == 1
    return d


def test_D10_refill_attacker_first_then_round_the_table(durak):
    """D10: the attacker draws first, then the others in order round the table (the
    defender, next to him, second), each up to 6, from the top of the stock."""
    d = refill_bout(durak)
    drawn = {s: hand(d, s) - set(REFILL4[s].split()) for s in range(4)}
    assert drawn == {1: {"AC"}, 2: {"QC", "JC", "10D"}, 3: {"9D"}, 0: {"8H"}}


def test_D10_house_rule_defender_last(durak):
    """D10 house rule `refill_order: defender_last`: the defender draws after everyone."""
    v = house("defender-last", "bouts {\n  refill_order: defender_last\n}")
    d = refill_bout(v)
    drawn = {s: hand(d, s) - set(REFILL4[s].split()) for s in range(4)}
    assert drawn == {1: {"AC"}, 3: {"QC"}, 0: {"JC"}, 2: {"10D", "9D", "8H"}}


def test_D10_while_the_stock_lasts(durak):
    """D10: the stock runs out during the refill: the attacker gets the top card, the
    defender the turned-up card; the players after them get nothing."""
    d = five_first_bout(durak)
    assert hand(d, 1) - set(FIVE[1].split()) == {"7H"}
    assert hand(d, 2) - set(FIVE[2].split()) == {"7D"}
    obs = d.public_view()
    assert obs.stock_size == 0 and not obs.trump_card_in_stock
    assert obs.hand_sizes == (6, 6, 3, 4, 5)  # seats 0..4


def test_D10_transfer_house_rule_refills_round_the_table_from_the_attacker():
    """D10 with the transfer house rule: the defender is not next to the attacker, and draws
    in his place round the table (after seat 2, who passed the attack on)."""
    v = house("perevodnoy", "bouts {\n  transfer: yes\n}")
    hands = {1: "9S AS KS QS JS 8S", 2: "9H AH QH JH 7D 7C", 3: "10S 10H 10C JD KH 8C"}
    hands[0] = "9C AD KD QD 8D 7S"
    d = stacked(v, hands, "KC AC QC JC 10D 9D 8H", players=4)
    run(d, ["attack 9S", "done"])  # seat 0 keeps his 9C for now
    assert "transfer 9H" in legal(d)
    run(d, ["transfer 9H", "throw 9C"])  # defender now seat 3; seat 0 is asked again
    assert d.public_view().defender == 3
    run(d, ["beat 9S with 10S", "beat 9H with 10H", "beat 9C with 10C"])
    drawn = {s: hand(d, s) - set(hands[s].split()) for s in range(4)}
    assert drawn == {1: {"AC"}, 2: {"QC"}, 3: {"JC", "10D", "9D"}, 0: {"8H"}}


# ---------------------------------------------------------------- D11, D12
def test_D11_next_attacker_after_a_defence_and_after_a_take(durak):
    """D11: a won defence: the defender attacks next; a take: the player after him."""
    d = stacked(durak, FOUR, "7H", players=4)
    run(d, ["attack 9S", "done", "done", "beat 9S with 10S", "done", "done", "done"])
    obs = d.public_view()
    assert obs.bouts == 1 and (obs.attacker, obs.defender, d.to_act) == (2, 3, 2)
    d = stacked(durak, FOUR, "7H", players=4)
    run(d, ["attack 9S", "done", "done", "take", "done", "done"])
    obs = d.public_view()
    assert obs.bouts == 1 and (obs.attacker, obs.defender, d.to_act) == (3, 0, 3)


def test_D11_D13_a_player_out_is_skipped(durak):
    """D11, D13: seat 3 beats the last attack card with his last card while the stock is
    empty: he is out; the next attacker is the next active player after him."""
    d = five_first_bout(durak)  # the stock is empty now
    run(d, ["attack QS QH", "throw QD", "throw QC", "beat QS with AS"])
    run(d, ["beat QH with KH", "beat QC with KC", "beat QD with KD"])
    obs = d.public_view()
    assert obs.out == (3,) and obs.active == (1, 2, 4, 0) and not obs.hand_sizes[3]
    assert (obs.attacker, obs.defender, d.to_act) == (4, 0, 4) and not d.is_over


def test_D12_swap_the_seven_of_trumps_on_any_turn_of_its_holder(durak):
    """D12: the holder of the 7 of trumps may swap it for the turned-up card (clubs here),
    as attacker, thrower or defender, only while that card lies under the stock."""
    d = stacked(durak, {1: "7C 9H 9D AS KS QS", 2: "10S 10H JD 8H 8C KH"}, "AC KD")
    assert "swap 7C" in legal(d)
    assert all("swap" not in t for t in texts(d.legal_actions()) if d.to_act != 1)
    d.apply("swap 7C")
    obs = d.observation(2)
    assert obs.trump_card == "7C" and obs.trump == "clubs" and obs.trump_card_in_stock
    assert "AC" in hand(d, 1) and "7C" not in hand(d, 1)
    assert d.to_act == 1 and not [t for t in legal(d) if t.startswith("swap")]
    # as defender
    d = stacked(durak, {1: "9S AS KS QS JS 8S", 2: "7C 10H JD 8H 8D KH"}, "AC")
    d.apply("attack 9S")
    assert d.to_act == 2 and "swap 7C" in legal(d) and "take" in legal(d)
    # as thrower
    d = stacked(durak, {1: "9S AS KS QS JS 8S", 0: "7C 9H JD 8H 8D KH"}, "AC")
    d.apply("attack 9S")
    assert d.to_act == 0 and legal(d) == {"throw 9H", "done", "swap 7C"}


def test_D12_house_rule_without_the_swap():
    """D12 house rule `swap_rank: none`: no trump is ever swapped for the turned-up card,
    whatever trumps the attacker holds (the ace and king of trumps here, and the 7)."""
    v = house("no-swap", "bouts {\n  swap_rank: none\n}")
    d = stacked(v, {1: "AC KC 7C 9H 9D AS", 2: "10S 10H JD 8H 8C KH"}, "10C KD")
    assert d.to_act == 1 and "attack 7C" in legal(d)
    assert not [t for t in legal(d) if t.startswith("swap")]
    rng = random.Random(12)
    for seed in range(20):
        d = v.new_deal(seed=seed, players=3)
        while not d.is_over:
            assert not [t for t in legal(d) if t.startswith("swap")]
            d.apply(rng.choice(d.legal_actions()))


def test_D12_a_drawn_seven_may_swap_and_no_swap_once_the_stock_is_gone(durak):
    """D12: a 7 of trumps drawn from the stock may be swapped; once the turned-up card has
    been drawn, the holder of the 7 may no longer swap."""
    hands = dict(HANDS3)
    hands[2] = "10S 10H JD 9C 8H KH"
    d = stacked(durak, hands, "AC 7C KC")  # seat 1 draws 7C after the first bout
    run(d, ["attack 9S", "done", "take", "done"])  # seat 2 takes; seat 0 attacks next
    assert "7C" in hand(d, 1) and d.public_view().trump_card == "AC"
    d.apply("attack QH")  # nobody else holds a queen: seat 1 defends
    assert d.to_act == 1 and "swap 7C" in legal(d)
    hands = dict(FIVE)
    hands[4], hands[0] = "9D QD 8D 8C 7S 7D", "QC 7C JD 8H JC AD"
    d = stacked(durak, hands, "AC 7H", players=5)  # clubs trump, seat 0 holds 7C
    assert d.to_act == 1
    run(d, ["attack 9S", "throw 9H", "throw 9C", "throw 9D"])
    run(d, ["beat 9S with 10S", "beat 9H with 10H", "beat 9C with 10C", "beat 9D with 10D"])
    obs = d.public_view()
    assert obs.stock_size == 0 and not obs.trump_card_in_stock and "7C" in hand(d, 0)
    run(d, ["attack QS QH"])
    while d.to_act != 0:
        d.apply("done" if "done" in legal(d) else "take")
    assert not [t for t in legal(d) if t.startswith("swap")]


# ---------------------------------------------------------------- D13: out, durak, draw
def test_D13_nobody_goes_out_while_the_stock_lasts(durak):
    """D13: seat 1 plays all six cards in one bout while the stock lasts: he stays in and
    draws six new cards."""
    hands = {1: "8S 8H 8D 8C JS JH", 2: "JD 10S 10C 7C 9C KD", 0: "AH QH 10H 10D 9D 7D"}
    d = stacked(durak, hands, "7H")
    run(d, ["attack 8S 8H 8D 8C", "beat 8D with JD", "throw JS", "throw JH"])
    obs = d.public_view()
    assert obs.hand_sizes[1] == 0 and obs.stock_size > 0 and 1 in obs.active
    d.apply("take")  # the bout is full (6 attack cards): it ends
    obs = d.public_view()
    assert obs.bouts == 1 and obs.out == () and obs.active == (1, 2, 0)
    assert obs.hand_sizes == (6, 6, 6 + 6) and (obs.attacker, obs.defender) == (0, 1)


def test_D13_the_last_player_holding_cards_is_the_durak(durak):
    """D13: players go out as they run out of cards (the stock being empty); the last one
    holding cards loses, and nobody out is asked to act again."""
    d = five_first_bout(durak)
    out_order: list[int] = []
    while not d.is_over:
        obs = d.public_view()
        assert d.to_act not in obs.out and obs.stock_size == 0
        out_order += [s for s in obs.out if s not in out_order]
        d.apply(beater(texts(d.legal_actions())))
    obs = d.public_view()
    assert obs.loser >= 0 and not obs.draw and obs.active == (obs.loser,)
    assert obs.hand_sizes[obs.loser] > 0 and sum(obs.hand_sizes) == obs.hand_sizes[obs.loser]
    assert sorted(obs.out) == sorted({0, 1, 2, 3, 4} - {obs.loser})
    assert list(obs.out[: len(out_order)]) == out_order


def test_D13_draw_when_the_last_two_run_out_together(durak):
    """D13: two players left; the defender beats the attacker's last card with his own last
    card: both are out at once and the deal is a draw, with no durak."""
    deck = "8D 9H JD 7C AC 10C 10S JS 7D AS 8C KD QH AD 7H 10H 8S KH QC 9C 7S AH JC JH 8H 9D"
    d = durak.new_deal((deck + " 10D QS KC QD 9S KS").split(), dealer=0, players=2)
    before = d.public_view()
    while not d.is_over:
        before = d.public_view()
        d.apply(beater(texts(d.legal_actions())))
    seat, last = d.history[-1]
    assert last.text == "beat JC with QC" and seat == before.defender == 0
    assert before.hand_sizes[before.defender] == 1 and before.hand_sizes[before.attacker] == 0
    assert before.stock_size == 0 and [b for _, b in before.table].count(None) == 1
    obs = d.public_view()
    assert obs.draw and obs.loser == -1 and obs.hand_sizes == (0, 0)
    assert set(obs.out) == {0, 1} and obs.active == ()


def test_D13_bout_cap_ends_a_deal_as_a_draw():
    """The bout cap (`max_bouts`, a house rule of 2 here) really ends a played deal: after
    the second bout it is over, a draw with no durak, though all hold cards."""
    v = house("two-bouts", "bouts {\n  max_bouts: 2\n}")
    order = v.stack_deck({s: h.split() for s, h in HANDS3.items()}, STOCK3.split(), players=3)
    m = v.new_match(deck_orders=[order], players=3)
    run(m, ["attack 9S", "done", "take", "done"])  # bout 1: seat 2 takes
    assert not m.current.is_over and m.deals_played == 0
    run(m, ["attack AH", "take"])  # bout 2: seat 1 takes the ace of trumps
    result = m.deal_results[0]
    assert m.deals_played == 1 and result["bouts"] == 2
    assert result["draw"] and result["loser"] == -1 and not result["out"]
    assert [m.kept_state(s)["durak_count"] for s in range(3)] == [0, 0, 0]


# ---------------------------------------------------------------- D14: the match
def test_D14_the_durak_is_counted_and_deals_next(durak):
    """D14: the durak of a deal gets one more durak finish and deals the next deal; the
    match ranks players by fewest durak finishes."""
    m = durak.new_match(seed=0, players=3)
    assert m.deal.dealer == 0
    while m.deals_played < 1:
        m.apply(beater(texts(m.legal_actions())))
    loser = m.deal_results[0]["loser"]
    assert loser == 2  # not seat 1, who would deal next if the deal passed to the left
    assert m.deal.dealer == 2 and m.deal.attacker == 0
    assert [m.kept_state(s)["durak_count"] for s in range(3)] == [0, 0, 1]
    assert [m.standing(s) for s in range(3)] == [0, 0, -1]
    while not m.is_over:
        m.apply(beater(texts(m.legal_actions())))
    counts = [m.kept_state(s)["durak_count"] for s in range(3)]
    results = m.deal_results
    assert m.deals_played == 10 and sum(counts) == sum(1 for r in results if not r["draw"])
    for s in range(3):
        assert counts[s] == sum(1 for r in results if r["loser"] == s)
    for prev, nxt in zip(results, results[1:]):
        if not prev["draw"]:
            assert nxt["dealer"] == prev["loser"]
    assert m.winners == [s for s in range(3) if counts[s] == min(counts)]
    assert len(set(counts)) > 1  # the ranking is not a tie of everyone


# ---------------------------------------------------------------- the caps and the 36-card deck
def single_taker(options: list[str]) -> str:
    """Attack with one card (never several, never a swap), never throw in, always take."""
    for kind in ("take", "done"):
        if kind in options:
            return kind
    return next(o for o in options if o.startswith("attack ") and len(o.split()) == 2)


def test_D13_a_deal_still_going_after_exactly_500_bouts_is_a_draw(durak):
    """D13 with the shipped cap: three players who each attack with one card and always
    take pass the cards round for ever; the deal is still on after bout 499 and ends as a
    draw with the 500th bout, not later."""
    m = durak.new_match(seed=0, players=3)
    while m.deal.bouts < 499:  # finished bouts
        m.apply(single_taker(texts(m.legal_actions())))
    assert m.deals_played == 0 and not m.current.is_over
    while m.deals_played < 1:
        m.apply(single_taker(texts(m.legal_actions())))
    result = m.deal_results[0]
    assert result["bouts"] == 500 and result["draw"] and result["loser"] == -1
    assert [m.kept_state(s)["durak_count"] for s in range(3)] == [0, 0, 0]


def test_D14_no_score_target_a_durak_match_goes_on_from_1000(durak):
    """D14: a Durak match is a number of deals, not a race to a score: a scoreboard at 1000
    (or more) does not end it after a deal."""
    m = durak.new_match(scores=[1000, 0, 0], players=3, seed=1)
    while m.deals_played < 2:
        m.apply(beater(texts(m.legal_actions())))
    assert not m.is_over and m.deals_played == 2


@pytest.fixture(scope="module")
def durak36() -> trickcore.Variant:
    return trickcore.load_variant("durak-36")


def test_D1_durak_36_seats_two_to_six_players(durak36):
    """D1 (36-card deck, `durak-36`): every count from 2 to 6 is seated and dealt 6 cards
    each (6 players take all 36: no stock); 1 and 7 players are refused."""
    deck = [r + s for s in SUITS for r in [*RANKS, "6"]]
    for players in (2, 3, 4, 5, 6):
        d = durak36.new_deal(deck, dealer=0, players=players)
        assert [len(d.observation(s).hand) for s in range(players)] == [6] * players
        assert d.public_view().stock_size == 36 - 6 * players
        m = durak36.new_match(seed=players, players=players)
        assert m.to_act in range(players)
    for players in (0, 1, 7, 8):
        with pytest.raises(trickcore.TrickcoreError, match="2, 3, 4, 5, 6 players"):
            durak36.new_deal(seed=1, players=players)
        with pytest.raises(trickcore.TrickcoreError):
            durak36.new_match(seed=1, players=players)


def test_D12_durak_36_swaps_the_six_of_trumps_not_the_seven(durak36):
    """D12 with 36 cards: the lowest trump, the 6, is swapped for the turned-up card; the 7
    of trumps is an ordinary card."""
    d = stacked(durak36, {1: "6C 9H 9D AS KS QS", 2: "7C 10H JD 8H 8C KH"}, "AC KD")
    assert [t for t in legal(d) if t.startswith("swap")] == ["swap 6C"]
    d.apply("swap 6C")
    assert d.public_view().trump_card == "6C" and "AC" in hand(d, 1)
    # the holder of the 7 of trumps, defending, has no swap
    d = stacked(
        durak36, {0: "9S AS KS QS JS 8S", 1: "7C 10H JD 8H 8D KH"}, "AC", players=2, dealer=1
    )
    d.apply("attack 9S")
    assert d.to_act == 1 and "take" in legal(d)
    assert not [t for t in legal(d) if t.startswith("swap")]


def test_a_bouts_beats_rule_written_with_powers_beats_as_d8_does():
    # D8 written out as a rule over the two cards' powers: a higher card of the same suit,
    # or a trump over a plain card; over random bouts the beats offered are D8's exactly
    plain = trickcore.load_variant("durak-36")
    house = trickcore.variant_from_text(
        'extends "durak-36"\nname: "D8 as powers"\nbouts {\n'
        "  beats = (same_suit and card_power > other_power) or (card_is_trump and not "
        "other_trump)\n}\n",
        "d8-as-powers",
    )
    rng = random.Random(4)
    compared = 0
    for seed in range(12):
        a, b = plain.new_match(seed=seed), house.new_match(seed=seed)
        for _ in range(80):
            if a.is_over:
                break
            mine = sorted(x.text for x in a.legal_actions())
            assert sorted(x.text for x in b.legal_actions()) == mine
            compared += sum(1 for t in mine if t.startswith("beat"))
            choice = rng.choice(mine)
            a.apply(choice)
            b.apply(choice)
    assert compared > 50
