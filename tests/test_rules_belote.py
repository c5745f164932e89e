"""Belote without declarations (docs/rules/belote.md, house rule BL59: BL1-BL26, BL35-BL57
without BL27-BL34) played through the public API on `variants/belote-sans-annonces.rules`.

The worked examples BL47, BL49 and BL50 are played on their deck orders; the card order,
the duties of play and the scoring (made, dedans, litige and the reserve, capot, belote) are
restated here from the rules and compared with the engine at every play of random matches.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import trickcore

SUITS = "CDHS"
PLAIN = ["A", "10", "K", "Q", "J", "9", "8", "7"]  # BL4, high to low
TRUMP = ["J", "9", "A", "10", "K", "Q", "8", "7"]  # BL3, high to low
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}  # BL4
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}  # BL3
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
TEAM = {0: (0, 2), 2: (0, 2), 1: (1, 3), 3: (1, 3)}  # BL1


@pytest.fixture(scope="module")
def belote() -> trickcore.Variant:
    return trickcore.load_variant("belote-sans-annonces")


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> str:
    return card[:-1]


def strength(card: str, trump: str) -> int:
    """BL3, BL4: higher is better; every trump above every plain card."""
    if suit(card) == trump:
        return 100 - TRUMP.index(rank(card))
    return 10 - PLAIN.index(rank(card))


def winner_so_far(trick: Sequence[tuple[int, str]], trump: str) -> int:
    """BL20, BL21: the master: the highest trump, else the highest card of the suit led."""
    led = suit(trick[0][1])
    live = [(s, c) for s, c in trick if suit(c) in (trump, led)]
    return max(live, key=lambda sc: strength(sc[1], trump))[0]


def allowed(hand: Sequence[str], trick: Sequence[tuple[int, str]], seat: int, trump: str) -> set:
    """BL22-BL24 restated: the cards a player may play to a trick that has been led."""
    if not trick:
        return set(hand)
    led = suit(trick[0][1])
    trumps = [c for c in hand if suit(c) == trump]
    in_trick = [strength(c, trump) for _, c in trick if suit(c) == trump]
    higher = [c for c in trumps if not in_trick or strength(c, trump) > max(in_trick)]
    if led == trump:  # BL24: a trump, higher than every trump in it if he can
        return set(higher or trumps or hand)
    same = [c for c in hand if suit(c) == led]
    if same:  # BL22
        return set(same)
    if winner_so_far(trick, trump) in TEAM[seat] and winner_so_far(trick, trump) != seat:
        return set(hand)  # BL23 (a): his partner is master
    return set(higher or trumps or hand)  # BL23 (b)


def card_points(card: str, trump: str) -> int:
    return (TRUMP_POINTS if suit(card) == trump else PLAIN_POINTS)[rank(card)]


def deal_scores(
    tricks: Sequence, hands: dict[int, list[str]], trump: str, taker: int, reserve: int
) -> tuple[dict[tuple[int, int], int], int]:
    """BL35-BL41 restated: each team's score and the reserve after the deal."""
    teams = [(0, 2), (1, 3)]
    won = {t: 0 for t in teams}
    count = {t: 0 for t in teams}
    for k, (_leader, cards, winner) in enumerate(tricks):
        team = TEAM[winner]
        won[team] += sum(card_points(c, trump) for _, c in cards)
        count[team] += 1
        if k == len(tricks) - 1:
            won[team] += 10  # BL5: dix de der
    belote = {t: 0 for t in teams}
    for seat, hand in hands.items():  # BL25: K and Q of trumps in one hand
        if f"K{trump}" in hand and f"Q{trump}" in hand:
            belote[TEAM[seat]] += 20
    cards = {t: 250 if count[t] == 8 else won[t] for t in teams}  # BL36
    total = {t: cards[t] + belote[t] for t in teams}  # BL37
    takers = TEAM[taker]
    defenders = next(t for t in teams if t != takers)
    if total[takers] > total[defenders]:  # BL38, BL41
        score = {takers: total[takers] + reserve, defenders: total[defenders]}
        reserve = 0
    elif total[takers] < total[defenders]:  # BL39
        full = 250 if count[defenders] == 8 else 162
        score = {takers: belote[takers], defenders: full + belote[defenders] + reserve}
        reserve = 0
    else:  # BL40: litige
        score = {takers: 0, defenders: total[defenders]}
        reserve += total[takers]
    return score, reserve


# ---------------------------------------------------------------- BL47, BL49
# BL47: spades, hearts, diamonds, clubs, each A K Q J 10 9 8 7, top card first
BL47_ORDER = [r + s for s in "SHDC" for r in ["A", "K", "Q", "J", "10", "9", "8", "7"]]


def test_bl47_the_two_distributions_and_the_turned_up_card(belote):
    m = belote.new_match(deck_orders=[BL47_ORDER], dealer=0)
    hands = {s: set(m.observation(s).hand) for s in range(4)}
    assert hands[1] == {"AS", "KS", "QS", "10H", "9H"}  # BL9: 1-3 and 13-14
    assert hands[2] == {"JS", "10S", "9S", "8H", "7H"}
    assert hands[3] == {"8S", "7S", "AH", "AD", "KD"}
    assert hands[0] == {"KH", "QH", "JH", "QD", "JD"}
    assert m.observation(2).turnup == "10D"  # BL10: position 21, seen by all
    assert {a.text for a in m.legal_actions()} == {"pass", "bid diamonds"}  # BL13
    m.apply("pass")
    m.apply("pass")
    m.apply("bid diamonds")  # seat 3 takes: diamonds are trump
    final = {
        1: {"AS", "KS", "QS", "10H", "9H", "9D", "8D", "7D"},
        2: {"JS", "10S", "9S", "8H", "7H", "AC", "KC", "QC"},
        3: {"8S", "7S", "AH", "AD", "KD", "10D", "JC", "10C"},  # BL16: the 10D, and 2 cards
        0: {"KH", "QH", "JH", "QD", "JD", "9C", "8C", "7C"},
    }
    for seat, cards in final.items():
        assert set(m.observation(seat).hand) == cards  # BL11, BL12
    obs = m.observation(0)
    assert obs.trump == "diamonds" and obs.declarer == 3 and obs.phase == "play"
    assert m.to_act == 1  # BL19: the dealer's left leads, whoever took


def test_bl17_eight_passes_throw_the_deal_in(belote):
    m = belote.new_match(deck_orders=[BL47_ORDER], dealer=0)
    for _ in range(4):
        m.apply("pass")
    # BL14: the second round names any suit but the turned-up card's
    assert {a.text for a in m.legal_actions()} == {"pass", "bid clubs", "bid hearts", "bid spades"}
    for _ in range(4):
        m.apply("pass")
    # BL17: nothing is scored; the next dealer deals a fresh deck order (BL8)
    assert m.scores == [0, 0, 0, 0] and m.current.dealer == 1
    assert m.observation(0).phase == "bid" and m.to_act == 2


def test_bl49_the_duties_of_play_in_bl47(belote):
    m = belote.new_match(deck_orders=[BL47_ORDER], dealer=0)
    for action in ("pass", "pass", "bid diamonds", "play AS"):
        m.apply(action)

    def legal() -> set[str]:
        return {a.text.removeprefix("play ") for a in m.legal_actions()}

    assert legal() == {"JS", "10S", "9S"}  # seat 2: any spade
    m.apply("play 9S")
    assert legal() == {"8S", "7S"}  # seat 3
    m.apply("play 8S")
    assert legal() == {"QD", "JD"}  # seat 0: no spade, an opponent master: trump (BL23 b)
    m.apply("play QD")
    m.apply("play KH")  # seat 0 won with the trump and leads
    m.apply("play 10H")
    m.apply("play 8H")
    m.apply("play AH")  # seat 3 wins the hearts
    m.apply("play AD")  # and leads a trump
    assert legal() == {"JD"}  # seat 0 must beat the AD (BL24)
    m.apply("play JD")
    assert legal() == {"9D", "8D", "7D"}  # seat 1 cannot beat the JD: any trump
    m.apply("play 7D")
    assert legal() == set(m.observation(2).hand)  # seat 2 has no trump: any card


# ---------------------------------------------------------------- BL50
def bl50_order(hands: dict[int, list[str]], turnup: str, dealer: int, taker: int) -> list[str]:
    """A deck order (BL9-BL12 restated) that deals these final hands: each hand's first 5
    cards in the first distribution, the turn-up at 21, the rest in the second."""
    seats = [(dealer + k) % 4 for k in range(1, 5)]
    order: list[str] = []
    for packet in (slice(0, 3), slice(3, 5)):
        for s in seats:
            order += hands[s][packet]
    order.append(turnup)
    for s in seats:
        rest = [c for c in hands[s][5:] if c != turnup]
        order += rest
    assert len(order) == 32 and len(set(order)) == 32
    return order


def test_bl50_a_partner_who_is_master_frees_him_from_trumping(belote):
    # hearts trump, taken by seat 0 (North) in the first round; West (3) leads the KS
    hands = {
        3: ["KS", "8S", "9C", "10C", "JC", "QD", "KD", "AD"],
        0: ["AS", "QS", "7D", "8D", "9D", "10D", "JD", "JH"],
        1: ["7S", "9S", "10S", "JS", "AC", "KC", "QC", "8H"],
        2: ["8C", "7C", "KH", "10H", "AH", "9H", "7H", "QH"],
    }
    order = bl50_order(hands, turnup="JH", dealer=2, taker=0)
    m = belote.new_match(deck_orders=[order], dealer=2)
    m.apply("pass")  # seat 3
    m.apply("bid hearts")  # seat 0 takes the JH
    assert {s: set(m.observation(s).hand) for s in range(4)} == {
        s: set(h) for s, h in hands.items()
    }
    for card in ("KS", "AS", "7S"):
        m.apply(f"play {card}")
    # South (2), North's partner, has no spade: he may discard (the 8C) or trump
    assert {a.text for a in m.legal_actions()} == {f"play {c}" for c in hands[2]}


def test_bl50_an_opponent_master_with_a_trump_must_be_overtrumped(belote):
    # East (1) holds no spade here: his spades go to West and North
    hands = {
        3: ["KS", "8S", "9S", "10S", "JC", "QD", "KD", "AD"],
        0: ["AS", "QS", "JS", "7S", "9D", "10D", "JD", "JH"],
        1: ["QH", "9C", "10C", "AC", "KC", "QC", "7D", "8D"],
        2: ["8C", "7C", "KH", "10H", "AH", "9H", "7H", "8H"],
    }
    order = bl50_order(hands, turnup="JH", dealer=2, taker=0)
    m = belote.new_match(deck_orders=[order], dealer=2)
    m.apply("pass")
    m.apply("bid hearts")
    for card in ("KS", "AS", "QH"):  # East trumps: East is master
        m.apply(f"play {card}")
    # BL23 (b), BL50: South must overtrump the QH: K, 10, A or 9 of hearts (BL3)
    assert {a.text for a in m.legal_actions()} == {"play KH", "play 10H", "play AH", "play 9H"}


# ---------------------------------------------------------------- random matches
def _play_and_restate(v: trickcore.Variant, seed: int, seen: dict[str, int]) -> None:
    """A random match, each play's legal cards and each deal's scores and reserve compared
    with BL22-BL24 and BL35-BL41 restated, the match's end with BL43."""
    rng = random.Random(seed)
    m = v.new_match(seed=seed)
    reserve = 0
    scores = [0, 0]
    hands: dict[int, list[str]] = {}
    results = 0
    while not m.is_over:
        seat = m.to_act
        obs = m.observation(seat)
        if obs.phase == "play":
            if not obs.tricks and not obs.trick and not hands:  # as play begins (BL25)
                hands = {s: list(m.observation(s).hand) for s in range(4)}
            trump = {v: k for k, v in SUIT_NAMES.items()}[obs.trump]
            legal = {a.text.removeprefix("play ") for a in m.legal_actions()}
            assert legal == allowed(obs.hand, obs.trick, seat, trump), (obs.hand, obs.trick)
            last = (obs, trump)
        action = rng.choice(m.legal_actions())
        m.apply(action)
        if len(m.deal_results) > results:  # a deal was scored
            results = len(m.deal_results)
            obs, trump = last
            record = m.deal_results[-1]
            final = m.observation(0)
            tricks = [
                *obs.tricks,
                (None, (*obs.trick, (seat, action.text.removeprefix("play "))), None),
            ]
            # the last trick: its winner restated (BL20)
            cards = tricks[-1][1]
            tricks[-1] = (cards[0][0], cards, winner_so_far(cards, trump))
            for _, cs, w in tricks:
                assert w == winner_so_far(cs, trump)  # BL20
            score, reserve_after = deal_scores(tricks, hands, trump, record["declarer"], reserve)
            gains = record["gains"]
            for team, value in score.items():
                assert [gains[s] for s in team] == [value, value]
            kind = "litige" if reserve_after > reserve else "played"
            seen[kind] = seen.get(kind, 0) + 1
            if reserve and reserve_after == 0:
                seen["reserve paid"] = seen.get("reserve paid", 0) + 1
            if 250 in score.values() or 250 + 20 in score.values():
                seen["capot"] = seen.get("capot", 0) + 1
            reserve = reserve_after
            assert [dict(k)["reserve"] for k in final.kept] == [reserve] * 4
            scores = [scores[0] + score[(0, 2)], scores[1] + score[(1, 3)]]
            assert m.scores == [scores[0], scores[1], scores[0], scores[1]]
            hands = {}
    # BL43: over at 1000, the higher team wins (equal totals would have played on)
    assert max(scores) >= 1000 and scores[0] != scores[1]
    best = (0, 2) if scores[0] > scores[1] else (1, 3)
    assert sorted(m.winners) == list(best)


def test_random_matches_follow_the_duties_and_the_scoring(belote):
    seen: dict[str, int] = {}
    for seed in range(40):
        _play_and_restate(belote, seed, seen)
    assert seen["played"] > 300
    assert seen.get("litige", 0) >= 1 and seen.get("reserve paid", 0) >= 1, seen
    assert seen.get("capot", 0) >= 1, seen


def test_bl57_when_both_teams_pass_1000_the_higher_wins(belote):
    both = 0
    for seed in range(30):
        rng = random.Random(seed)
        m = belote.new_match(seed=seed, scores=[940, 985, 940, 985])
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        a, b = m.scores[0], m.scores[1]
        assert max(a, b) >= 1000 and a != b  # BL43: equal totals play another deal
        assert sorted(m.winners) == ([0, 2] if a > b else [1, 3])
        # the match ended after the first deal that took a team to 1000
        before = [r["scores"] for r in m.deal_results[:-1]]
        assert all(max(s) < 1000 or s[0] == s[1] for s in before)
        both += min(a, b) >= 1000
    assert both >= 3  # BL57's case: both past 1000
