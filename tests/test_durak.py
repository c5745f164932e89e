"""Durak, rule by rule (D1–D14 of RULES.md), on variants/durak.rules and durak-36.rules."""

from __future__ import annotations

import random

import pytest
from conftest import run, texts

import trickcore


@pytest.fixture(scope="module")
def durak():
    return trickcore.load_variant("durak")


# Three players, dealer 0: seat 1 attacks seat 2 first. Trump hearts (7H turned up);
# the stock's top cards are AC, KC.
HANDS = {
    1: "9S 9H 9D AS KS QS".split(),
    2: "10S 10H JD 7C 8C KH".split(),
    0: "AH QH JH 10D 8D 7D".split(),
}
STOCK = ["7H", "AC", "KC"]  # the turned-up card, then the stock from the top


def deal3(v, hands=HANDS, stock=STOCK, players=3):
    return v.new_deal(
        v.stack_deck(hands, stock, dealer=0, players=players), dealer=0, players=players
    )


def count_cards(d) -> int:
    on_table = sum(1 for a, b in d.table for c in (a, b) if c >= 0)
    return sum(len(h) for h in d.hands) + len(d.stock) + on_table + len(d.discarded)


def random_deal(v, seed, players):
    rng = random.Random(seed)
    d = v.new_deal(seed=seed, dealer=seed % players, players=players)
    while not d.is_over:
        yield d
        d.apply(rng.choice(d.legal_actions()))
    yield d


def finished(v, seed, players):
    """A whole deal of random play."""
    states = list(random_deal(v, seed, players))
    return states[-1]


# ---------------------------------------------------------------- cards and deal
def test_D1_32_cards_two_to_five_players(durak):
    assert durak.model.deck.size == 32 and durak.model.players == (2, 3, 4, 5)
    assert [r.symbol for r in durak.model.deck.ranks] == ["A", "K", "Q", "J", "10", "9", "8", "7"]
    with pytest.raises(trickcore.TrickcoreError, match="played by 2, 3, 4, 5 players"):
        durak.new_deal(seed=1, players=6)
    v36 = trickcore.load_variant("durak-36")
    assert v36.model.deck.size == 36 and max(v36.model.players) == 6
    d = v36.new_deal(seed=2, players=6)
    assert [len(d.hand_texts(s)) for s in range(6)] == [6] * 6
    assert d.observation(0).stock_size == 0 and d.observation(0).trump is not None


def test_D2_six_each_then_the_trump_card_under_the_stock(durak):
    d = deal3(durak)
    for seat, hand in HANDS.items():
        assert sorted(d.observation(seat).hand) == sorted(hand)
    obs = d.observation(0)
    assert obs.trump == "hearts" and obs.trump_card == "7H" and obs.trump_card_in_stock
    assert obs.stock_size == 32 - 18
    # the trump card is the last card drawn
    for state in random_deal(durak, 3, 3):
        if state.stock and len(state.stock) == 1:
            assert state.stock[0] == durak.card("7H") or state.trump_card in state.stock
    order = [durak.card_text(c) for c in range(32)]
    d = durak.new_deal(order, dealer=0, players=2)
    assert d.observation(0).trump_card == order[12]
    assert d.stock[0] == durak.card(order[12]) and d.stock[-1] == durak.card(order[13])


def test_D3_no_card_points(durak):
    assert durak.model.deck.total_points == 0


# ---------------------------------------------------------------- a bout
def test_D4_left_of_dealer_attacks_the_next_player(durak):
    d = deal3(durak)
    obs = d.observation(0)
    assert (obs.attacker, obs.defender, d.to_act) == (1, 2, 1)


def test_D5_one_card_or_several_of_one_rank(durak):
    d = deal3(durak)
    legal = texts(d.legal_actions())
    assert "attack 9S 9D 9H" in legal and "attack 9S 9D" in legal
    assert not [t for t in legal if t.startswith("attack AS ")]
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("attack 9S AS")
    d.apply("attack 9S 9H")
    assert d.observation(0).table == (("9S", None), ("9H", None))


def test_D6_throw_in_order_from_the_attacker_skipping_the_defender(durak):
    d = deal3(durak)
    run(d, ["attack 9S", "beat 9S with 10S"])
    # attacker 1 holds 9D, 9H (a 9 is on the table): he is offered first
    assert d.to_act == 1 and texts(d.legal_actions()) == ["throw 9D", "throw 9H", "done"]
    d.apply("done")
    # seat 0 holds 10D (a 10 is on the table)
    assert d.to_act == 0 and texts(d.legal_actions()) == ["throw 10D", "done"]


def test_D6_players_with_nothing_to_add_are_skipped(durak):
    hands = dict(HANDS)
    hands[0] = "AH QH JH KD 8D 7D".split()  # no 9 and no 10
    d = deal3(durak, hands)
    run(d, ["attack 9S", "beat 9S with 10S", "done"])
    assert d.observation(0).bouts == 1  # seat 0 was skipped and the bout is over
    assert d.observation(0).discarded == ("9S", "10S")


def test_D7_at_most_six_attack_cards(durak):
    hands = {
        1: "8S 8H QS JD 8D QD".split(),
        2: "JS QH 7S 7H 7D 9S".split(),
        0: "8C JC 10S 10H 10D 9H".split(),
    }
    d = deal3(durak, hands, ["AC"])  # clubs trump
    run(d, ["attack 8S", "beat 8S with JS", "throw 8H", "beat 8H with QH", "throw QS", "take"])
    run(d, ["throw JD", "throw 8D", "throw QD"])
    # six attack cards: seat 0 still holds 8C and JC but is not offered a throw-in
    assert d.observation(0).bouts == 1
    assert len(d.hand_texts(2)) == 4 + 8


def test_D7_never_more_than_the_defender_held(durak):
    seen_small = 0
    for seed in range(40):
        start = None
        for d in random_deal(durak, seed, 3):
            if d.is_over:
                break
            if not d.table:
                start = len(d.hands[d.defender])
            attack_cards = len(d.table)
            assert attack_cards <= min(6, start)
            if start < 6 and attack_cards == start:
                seen_small += 1
    assert seen_small > 0


def test_D8_beating_rules(durak):
    d = deal3(durak)
    d.apply("attack KS")
    # seat 2 holds 10S (lower spade), and hearts are trump: 10H and KH beat any spade
    assert texts(d.legal_actions()) == ["beat KS with KH", "beat KS with 10H", "take"]
    d = deal3(durak)
    d.apply("attack 9H")  # a trump: only a higher trump beats it
    assert texts(d.legal_actions()) == ["beat 9H with KH", "beat 9H with 10H", "take"]


def test_D8_throw_ins_after_take(durak):
    d = deal3(durak)
    run(d, ["attack 9S", "take"])
    assert d.observation(0).taking
    assert d.to_act == 1 and "throw 9D" in texts(d.legal_actions())
    run(d, ["throw 9D", "throw 9H"])  # nobody else holds a 9: the bout ends
    obs = d.observation(2)
    assert obs.bouts == 1 and {"9S", "9D", "9H"} <= set(obs.hand)


def test_D9_won_bout_is_discarded(durak):
    d = deal3(durak)
    run(d, ["attack 9S", "beat 9S with 10S", "done", "done"])
    assert d.observation(1).discarded == ("9S", "10S")


def test_D10_refill_attacker_first_then_round_the_table(durak):
    d = deal3(durak)
    run(d, ["attack 9S", "beat 9S with 10S", "done", "done"])
    # attacker 1 draws AC (top of the stock), then defender 2 draws KC
    assert "AC" in d.hand_texts(1) and "KC" in d.hand_texts(2)
    assert d.observation(0).stock_size == 14 - 2


def test_D11_next_attacker(durak):
    d = deal3(durak)
    run(d, ["attack 9S", "beat 9S with 10S", "done", "done"])
    obs = d.observation(0)
    assert (obs.attacker, obs.defender) == (2, 0)  # a won defence: the defender attacks
    d = deal3(durak)
    run(d, ["attack 9S", "take", "done"])
    obs = d.observation(0)
    assert (obs.attacker, obs.defender) == (0, 1)  # a take: the player after the defender


def test_D12_swap_the_seven_of_trumps():
    v = trickcore.load_variant("durak")
    hands = {1: "7C 9H 9D AS KS QS".split(), 2: "10S 10H JD 8H 8C KH".split()}
    d = deal3(v, hands, ["AC", "KD"])  # AC turned up: clubs trump
    assert "swap 7C" in texts(d.legal_actions())
    d.apply("swap 7C")
    obs = d.observation(2)
    assert obs.trump_card == "7C" and obs.trump == "clubs" and "AC" in d.hand_texts(1)
    assert d.to_act == 1 and "swap 7C" not in texts(d.legal_actions())
    # the swap is offered on any turn of the holder, not to others
    d = deal3(v, {2: "7C 10H JD 8H 8C KH".split(), 1: "9S 9H 9D AS KS QS".split()}, ["AC"])
    assert "swap 7C" not in texts(d.legal_actions())
    d.apply("attack 9S")
    assert "swap 7C" in texts(d.legal_actions())


def test_D13_going_out_loser_and_draw(durak):
    draws = losses = mid_deal_outs = 0
    for seed in range(300):
        for d in random_deal(durak, seed, 4):
            if d.stock:
                assert len(d.in_game) == 4  # nobody goes out while the stock lasts
            if not d.is_over and d.out:
                mid_deal_outs += 1
            assert count_cards(d) == 32
        if d.draw:
            draws += 1
            assert d.loser == -1 and all(not h for h in d.hands)
        else:
            losses += 1
            assert d.hand_texts(d.loser) and all(not d.hands[s] for s in range(4) if s != d.loser)
    assert draws > 0 and losses > 0 and mid_deal_outs > 0


def test_D13_draw_when_the_last_two_run_out_together(durak):
    for seed in range(2000):
        d = finished(durak, seed, 2)
        if d.draw:
            last = d.history[-1][1]
            assert last.kind in ("beat", "done", "take")
            assert d.observation(0).out and all(not h for h in d.hands)
            return
    raise AssertionError("no drawn two-player deal found")


def test_D14_match_counts_durak_finishes_and_the_durak_deals_next(durak):
    m = durak.new_match(seed=4, players=4)
    rng = random.Random(4)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert m.deals_dealt == 10
    results = m.deal_results
    counts = [m.kept_state(s)["durak_count"] for s in range(4)]
    assert sum(counts) == sum(1 for r in results if not r["draw"])
    for prev, nxt in zip(results, results[1:]):
        if not prev["draw"]:
            assert nxt["dealer"] == prev["loser"]
    fewest = min(counts)
    assert m.winners == [s for s in range(4) if counts[s] == fewest]


def test_every_deal_ends_within_the_bout_cap(durak):
    # The stated bound: a deal ends within `max_bouts` bouts (500), then it is a draw.
    # Random play ends far sooner; a ring of players who always take reaches the cap.
    longest = 0
    for seed in range(100):
        longest = max(longest, finished(durak, seed, 3).bouts)
    assert longest < 200
    d = durak.new_deal(seed=1, players=3)
    actions = 0
    while not d.is_over:
        legal = d.legal_actions()
        pick = next((a for a in legal if a.kind == "take"), None)
        pick = pick or next((a for a in legal if a.kind == "done"), None) or legal[0]
        d.apply(pick)
        actions += 1
        assert actions < 20_000
    assert d.bouts <= durak.model.bouts.max_bouts


@pytest.mark.parametrize("players", [2, 5])
def test_two_and_five_players_play_through(durak, players):
    for seed in range(30):
        for d in random_deal(durak, seed, players):
            assert count_cards(d) == 32
            assert d.is_over or d.to_act in d.in_game
        assert d.is_over


def test_durak_actions_have_canonical_text(durak):
    d = deal3(durak)
    d.apply("attack 9H 9S")  # card order in the text does not matter
    assert d.observation(0).table == (("9S", None), ("9H", None))
    d.apply("beat 9S with 10S")
    assert d.history[-1][1].text == "beat 9S with 10S"


def test_transfer_house_rule_is_a_short_file():
    v = trickcore.variant_from_text('extends "durak"\nbouts {\n  transfer: yes\n}\n', "perevodnoy")
    hands = {1: "9S AS KS QS JS 10S".split(), 2: "9C 10H JD 8H 8C KH".split()}
    d = deal3(v, hands, ["7H"])
    d.apply("attack 9S")
    assert "transfer 9C" in texts(d.legal_actions())
    d.apply("transfer 9C")
    obs = d.observation(0)
    assert obs.defender == 0 and d.to_act == 0 and len(obs.table) == 2


def test_house_rule_lowest_trump_attacks_first():
    v = trickcore.variant_from_text(
        'extends "durak"\nbouts {\n  first_attacker: lowest_trump\n}\n', "lowest-trump"
    )
    hands = dict(HANDS)
    hands[0] = "8H QH JH 10D 8D 7D".split()  # seat 0 holds the 8 of trumps, the lowest held
    hands[2] = "10S AH JD 7C 8C KH".split()
    d = v.new_deal(v.stack_deck(hands, ["7H", "AC"], dealer=0, players=3), dealer=0, players=3)
    obs = d.observation(1)
    assert (obs.attacker, obs.defender, d.to_act) == (0, 1, 0)
