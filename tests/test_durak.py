"""Durak in random play: the rules D1–D14 hold after every action of many whole deals.

The scripted, rule-by-rule tests are in `test_rules_durak.py`; here random players play
`variants/durak.rules` (and `durak-36.rules`) and every state is checked against the rules
through the public API (observations and legal actions), plus the house rules that change
who attacks first and whether the attack may be passed on.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import run, texts

import trickcore

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7"]


@pytest.fixture(scope="module")
def durak() -> trickcore.Variant:
    return trickcore.load_variant("durak")


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def cards_seen(obs) -> int:
    """Every card the public view accounts for: hands, stock, table, discards."""
    on_table = sum(1 for a, b in obs.table for c in (a, b) if c)
    return sum(obs.hand_sizes) + obs.stock_size + on_table + len(obs.discarded)


def next_active(active: tuple[int, ...], seat: int, seats: int) -> int:
    for k in range(1, seats + 1):
        if (seat + k) % seats in active:
            return (seat + k) % seats
    return seat


def random_states(v: trickcore.Variant, seed: int, players: int) -> Iterator:
    """The deal after each action of random play (the same object, advanced)."""
    rng = random.Random(seed)
    d = v.new_deal(seed=seed, dealer=seed % players, players=players)
    while not d.is_over:
        yield d
        d.apply(rng.choice(d.legal_actions()))
    yield d


def check_deal(v: trickcore.Variant, seed: int, players: int, size: int = 32) -> dict[str, int]:
    """Play one random deal, checking D2, D4, D6, D7, D8, D13 after every action."""
    seen = {"outs_mid_deal": 0, "full_bouts": 0, "throws_before_answer": 0}
    ranks = [r.symbol for r in v.model.deck.ranks]
    start_cards = 6
    for d in random_states(v, seed, players):
        obs = d.public_view()
        assert cards_seen(obs) == size
        assert obs.trump_card_in_stock == (obs.stock_size > 0)  # D2: drawn last
        if obs.stock_size:
            assert not obs.out  # D13: nobody goes out while the stock lasts
        assert all(obs.hand_sizes[s] == 0 for s in obs.out)
        if d.is_over:
            break
        assert d.to_act in obs.active
        assert obs.defender == next_active(obs.active, obs.attacker, players)  # D4
        if not obs.table:
            start_cards = obs.hand_sizes[obs.defender]
        assert len(obs.table) <= min(6, start_cards)  # D7
        seen["full_bouts"] += len(obs.table) == min(6, start_cards) and start_cards < 6
        if obs.out:
            seen["outs_mid_deal"] += 1
        mine = d.observation(d.to_act).hand
        legal = texts(d.legal_actions())
        on_table = {rank(c) for pair in obs.table for c in pair if c}
        if obs.phase == "throw":  # D6: never the defender; only ranks on the table
            assert d.to_act != obs.defender
            assert [t for t in legal if t.startswith("throw")]  # skip_unable: yes
            assert all(rank(t.split()[1]) in on_table for t in legal if t.startswith("throw"))
            if all(b is None for _, b in obs.table) and not obs.taking:
                seen["throws_before_answer"] += 1
        if obs.phase == "defend":  # D8
            trump = obs.trump_card[-1]
            for t in legal:
                if t.startswith("beat"):
                    _, a, _, b = t.split()
                    higher = ranks.index(rank(b)) < ranks.index(rank(a))
                    assert (suit(a) == suit(b) and higher) or (suit(b) == trump != suit(a))
        assert all(t.split()[1] in mine for t in legal if t.split()[0] in ("throw", "attack"))
    obs = d.public_view()
    if obs.draw:
        # D13: the last players ran out together, or the bout cap (durak.rules: 500) ended it
        assert obs.loser == -1 and (not any(obs.hand_sizes) or obs.bouts == 500)
    else:  # D13: the durak is the last player holding cards
        assert obs.active == (obs.loser,) and obs.hand_sizes[obs.loser] > 0
        assert sum(obs.hand_sizes) == obs.hand_sizes[obs.loser]
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_play_keeps_the_rules(durak, players):
    """D2, D4, D6, D7, D8, D13 after every action of 25 random deals."""
    totals: dict[str, int] = {}
    for seed in range(25):
        for key, n in check_deal(durak, seed, players).items():
            totals[key] = totals.get(key, 0) + n
    assert totals["throws_before_answer"] > 0  # D6: offered before the defender answers
    assert totals["full_bouts"] > 0  # D7: bouts filled up to a defender's fewer cards
    if players > 2:
        assert totals["outs_mid_deal"] > 0


def test_random_play_durak_36_with_six_players():
    """D1, D2 with 36 cards: six players get every card; the last card dealt shows trump."""
    v = trickcore.load_variant("durak-36")
    deck = [r + s for s in "SCDH" for r in [*RANKS, "6"]]
    d = v.new_deal(deck, dealer=0, players=6)
    obs = d.public_view()
    assert obs.stock_size == 0 and obs.trump_card == deck[-1] and obs.trump == "hearts"
    assert deck[-1] in d.observation(0).hand  # the dealer receives the last card
    assert not [t for t in texts(d.legal_actions()) if t.startswith("swap")]
    for seed in range(10):
        check_deal(v, seed, 6, size=36)


def test_random_matches_count_durak_finishes(durak):
    """D14 over random matches: durak finishes counted, the durak deals next."""
    for seed in range(3):
        m = durak.new_match(seed=seed, players=4)
        rng = random.Random(seed)
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        results = m.deal_results
        counts = [m.kept_state(s)["durak_count"] for s in range(4)]
        assert m.deals_played == 10 and all(r["loser"] >= 0 or r["draw"] for r in results)
        assert counts == [sum(1 for r in results if r["loser"] == s) for s in range(4)]
        for prev, nxt in zip(results, results[1:]):
            if not prev["draw"]:
                assert nxt["dealer"] == prev["loser"]
        assert m.winners == [s for s in range(4) if counts[s] == min(counts)]


def test_durak_actions_have_canonical_text(durak):
    """Attack cards may be named in any order; the action keeps one canonical text."""
    hands = {1: "9S 9H 9D AS KS QS".split(), 2: "10S 10H JD 7C 8C KH".split()}
    d = durak.new_deal(durak.stack_deck(hands, ["7H"], players=3), players=3)
    d.apply("attack 9H 9S")
    assert d.public_view().table == (("9S", None), ("9H", None))
    run(d, ["done", "beat 9S with 10S"])
    assert d.history[-1][1].text == "beat 9S with 10S"
    assert d.public_view().log[0] == (1, "attack 9S 9H")


def test_transfer_house_rule_is_a_short_file(durak):
    """House rule `transfer: yes` (perevodnoy): before any beat, the defender may pass the
    attack on with a card of its rank, when the next player holds enough cards; the shipped
    Durak never offers it."""
    v = trickcore.variant_from_text('extends "durak"\nbouts {\n  transfer: yes\n}\n', "perevodnoy")
    hands = {1: "9S AS KS QS JS 10S", 2: "9C 9D 10H JD 8H KH", 0: "9H QH JH 10D 8D 7D"}
    order = v.stack_deck({s: h.split() for s, h in hands.items()}, ["7H"], players=3)
    d = durak.new_deal(order, players=3)
    run(d, ["attack 9S", "done"])
    assert d.to_act == 2 and not [t for t in texts(d.legal_actions()) if "transfer" in t]
    d = v.new_deal(order, players=3)
    run(d, ["attack 9S", "done"])
    assert {"transfer 9C", "transfer 9D"} <= set(texts(d.legal_actions()))
    d.apply("transfer 9C")
    obs = d.public_view()
    assert obs.defender == 0 and obs.attacker == 1 and len(obs.table) == 2
    # the old defender may now throw in his other 9: he is a thrower like the others
    assert d.to_act == 2 and texts(d.legal_actions()) == ["throw 9D", "done"]
    d = v.new_deal(order, players=3)
    run(d, ["attack 9S", "throw 9H", "beat 9S with 10H", "done", "done"])
    # 9H is still unbeaten and seat 2 holds 9C and 9D, but a card is beaten: no transfer
    assert d.to_act == 2 and not [t for t in texts(d.legal_actions()) if "transfer" in t]
    # the same when the beating card is the deck's first card (AS, card number 0)
    hands = {1: "9S KS QS JS 10S 8S", 2: "9C 9D AS JD 8H KH", 0: "9H QH JH 10D 8D 7D"}
    order = v.stack_deck({s: h.split() for s, h in hands.items()}, ["7H"], players=3)
    d = v.new_deal(order, players=3)
    run(d, ["attack 9S", "throw 9H", "beat 9S with AS"])
    assert d.to_act == 2 and not [t for t in texts(d.legal_actions()) if "transfer" in t]


def test_house_rule_lowest_trump_attacks_first():
    """House rule `first_attacker: lowest_trump` replaces D4: the holder of the lowest
    trump attacks first."""
    v = trickcore.variant_from_text(
        'extends "durak"\nbouts {\n  first_attacker: lowest_trump\n}\n', "lowest-trump"
    )
    hands = {
        1: "9S 9H 9D AS KS QS".split(),
        2: "10S AH JD 7C 8C KH".split(),
        0: "8H QH JH 10D 8D 7D".split(),  # the 8 of trumps: the lowest trump held
    }
    d = v.new_deal(v.stack_deck(hands, ["7H", "AC"], dealer=0, players=3), dealer=0, players=3)
    obs = d.public_view()
    assert (obs.attacker, obs.defender, d.to_act) == (0, 1, 0)


LOWEST_FIRST = Path(__file__).resolve().parent.parent / "examples" / "durak-lowest-trump.rules"


def test_the_lowest_trump_attacks_first_in_the_first_deal_only():
    """`first_attacker = deal_number == 1 and lowest_trump` (examples/durak-lowest-trump.rules):
    in deal 1 the holder of the lowest trump attacks; from deal 2 on the rule holds for
    nobody, and D4's player left of the dealer (the last durak, D14) attacks."""
    v = trickcore.load_variant(LOWEST_FIRST)
    hands = {
        1: "9S 9H 9D AS KS QS".split(),
        2: "10S AH JD 7C 8C KH".split(),
        0: "8H QH JH 10D 8D 7D".split(),  # the 8 of trumps: the lowest trump dealt
    }
    order = v.stack_deck(hands, ["7H", "AC"], dealer=0, players=3)
    first = v.new_match(deck_orders=[order, order], players=3)
    assert (first.current.attacker, first.to_act) == (0, 0)
    # the same cards dealt as deal 2 of a match (the dealer's left, seat 1, attacks)
    later = v.new_deal(order, dealer=0, players=3, deal_number=2)
    assert (later.attacker, later.to_act) == (1, 1)
    # no trump dealt to a hand (7H turned up, every other heart in the stock): D4
    hands = {
        1: "9S 9C 9D AS KS QS".split(),
        2: "10S AC JD 7C 8C KD".split(),
        0: "8S QC JC 10D 8D 7D".split(),
    }
    order = v.stack_deck(hands, ["7H"], dealer=0, players=3)
    assert v.new_match(deck_orders=[order], players=3).current.attacker == 1


@pytest.mark.parametrize("rules", ["house", "example"])
def test_hidden_worlds_keep_the_first_attacker_the_rule_names(rules):
    """D4 by a rule over the hands (`lowest_trump`): a hidden world is a deck order the
    rules could have dealt, so dealt afresh it gives the first attack to the player who
    made it. (Worlds made by renaming unseen cards had moved the lowest trump to another
    hand in about one of four.)"""
    if rules == "house":
        v = trickcore.variant_from_text(
            'extends "durak"\nbouts {\n  first_attacker: lowest_trump\n}\n', "lowest-trump"
        )
    else:
        v = trickcore.load_variant(LOWEST_FIRST)
    worlds = 0
    for seed in range(4):
        m = v.new_match(seed=seed, players=3)
        rng = random.Random(seed)
        for _ in range(5):
            m.apply(rng.choice(m.legal_actions()))
        d = m.current
        first = d.history[0][0]
        for seat in range(3):
            for w in v.sample_worlds(m.observation(seat), 8, random.Random(seed)):
                fresh = v.new_deal(list(w.deck_order), dealer=d.dealer, players=3)
                assert fresh.attacker == first
                worlds += 1
    assert worlds == 4 * 3 * 8
