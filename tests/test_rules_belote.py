"""Belote (docs/rules/belote.md BL1-BL57, `variants/belote.rules`) and its house rule BL59
without declarations (`variants/belote-sans-annonces.rules`), played through the public API.

The worked examples BL47-BL50 are played on their deck orders; the card order, the duties of
play, the combinations and their comparison, and the scoring (made, dedans, litige and the
reserve, capot, belote) are restated here from the rules and compared with the engine at
every play of random matches.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from conftest import refused_at

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
    """BL59: the game without declarations (BL27-BL34 dropped)."""
    return trickcore.load_variant("belote-sans-annonces")


@pytest.fixture(scope="module")
def full() -> trickcore.Variant:
    """The base game, BL1-BL57, declarations included."""
    return trickcore.load_variant("belote")


NATURAL = ["A", "K", "Q", "J", "10", "9", "8", "7"]  # BL6: for combinations only
CARRE_VALUE = {"J": 200, "9": 150, "A": 100, "10": 100, "K": 100, "Q": 100}  # BL28
CARRE_ORDER = ["A", "10", "K", "Q", "J", "9"]  # BL31 (c)


def combinations(hand: Sequence[str], trump: str) -> list[tuple[int, tuple]]:
    """BL27-BL29 restated: (value, comparison key of BL31 (a)-(d)) of each combination."""
    out = []
    for s in SUITS:
        places = sorted(NATURAL.index(rank(c)) for c in hand if suit(c) == s)
        runs: list[list[int]] = []
        for p in places:
            if runs and runs[-1][-1] == p - 1:
                runs[-1].append(p)
            else:
                runs.append([p])
        for run in runs:
            if len(run) >= 3:  # BL27: each longest run is one sequence
                value = {3: 20, 4: 50}.get(len(run), 100)
                out.append((value, (value, 0, len(run), -run[0], s == trump)))
    for r, value in CARRE_VALUE.items():
        if sum(rank(c) == r for c in hand) == 4:  # BL28
            out.append((value, (value, 1, 0, -CARRE_ORDER.index(r), False)))
    return out


def combination_scores(
    hands: dict[int, list[str]], declared: set[int], order: list[int], trump: str
) -> dict[tuple[int, int], int]:
    """BL31, BL32: the team holding the best declared combination (ties: the one who played
    earlier to the first trick, `order`) scores every combination its members declared."""
    best = best_declarer(hands, declared, order, trump)
    out = {(0, 2): 0, (1, 3): 0}
    if best is not None:
        team = TEAM[best]
        out[team] = sum(v for s in team if s in declared for v, _ in combinations(hands[s], trump))
    return out


def best_declarer(
    hands: dict[int, list[str]], declared: set[int], order: list[int], trump: str
) -> int | None:
    """BL31: who declared the best combination (ties: the one who played earlier to the
    first trick, `order`); None if nobody declared."""
    best = None
    for seat in declared:
        for _value, key in combinations(hands[seat], trump):
            mine = (key, -order.index(seat))
            if best is None or mine > best[0]:
                best = (mine, seat)
    return None if best is None else best[1]


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
    tricks: Sequence,
    hands: dict[int, list[str]],
    trump: str,
    taker: int,
    reserve: int,
    combos: dict[tuple[int, int], int] | None = None,
) -> tuple[dict[tuple[int, int], int], int]:
    """BL35-BL41 restated: each team's score and the reserve after the deal (`combos`: the
    combinations each team scores, BL32)."""
    combos = combos or {(0, 2): 0, (1, 3): 0}
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
    total = {t: cards[t] + combos[t] + belote[t] for t in teams}  # BL37
    takers = TEAM[taker]
    defenders = next(t for t in teams if t != takers)
    if total[takers] > total[defenders]:  # BL38, BL41
        score = {takers: total[takers] + reserve, defenders: total[defenders]}
        reserve = 0
    elif total[takers] < total[defenders]:  # BL39
        full = 250 if count[defenders] == 8 else 162
        every = sum(combos.values())  # every scoring combination, whichever team's
        score = {takers: belote[takers], defenders: full + every + belote[defenders] + reserve}
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


def bl50_play(v: trickcore.Variant, hands: dict[int, list[str]], *cards: str) -> trickcore.Match:
    """BL50's deal (dealer 2; seat 3 passes, seat 0 takes the JH: hearts trump) with these
    final hands, and these cards played from seat 3 on."""
    m = v.new_match(deck_orders=[bl50_order(hands, turnup="JH", dealer=2, taker=0)], dealer=2)
    m.apply("pass")
    m.apply("bid hearts")
    assert {s: set(m.observation(s).hand) for s in range(4)} == {
        s: set(h) for s, h in hands.items()
    }
    for card in cards:
        m.apply(f"play {card}")
    return m


def test_bl50_a_partner_who_is_master_frees_him_from_trumping(belote):
    # hearts trump, taken by seat 0 (North) in the first round; West (3) leads the KS
    hands = {
        3: ["KS", "8S", "9C", "10C", "JC", "QD", "KD", "AD"],
        0: ["AS", "QS", "7D", "8D", "9D", "10D", "JD", "JH"],
        1: ["7S", "9S", "10S", "JS", "AC", "KC", "QC", "8H"],
        2: ["8C", "7C", "KH", "10H", "AH", "9H", "7H", "QH"],
    }
    m = bl50_play(belote, hands, "KS", "AS", "7S")
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
    m = bl50_play(belote, hands, "KS", "AS", "QH")  # East trumps: East is master
    # BL23 (b), BL50: South must overtrump the QH: K, 10, A or 9 of hearts (BL3)
    assert {a.text for a in m.legal_actions()} == {"play KH", "play 10H", "play AH", "play 9H"}


# ---------------------------------------------------------------- random matches
def _play_and_restate(
    v: trickcore.Variant, seed: int, seen: dict[str, int], declares: bool = False
) -> None:
    """A random match, each play's legal cards and each deal's scores and reserve compared
    with BL22-BL24 and BL35-BL41 restated, the match's end with BL43."""
    rng = random.Random(seed)
    m = v.new_match(seed=seed)
    reserve = 0
    scores = [0, 0]
    hands: dict[int, list[str]] = {}
    declared: set[int] = set()
    results = 0
    while not m.is_over:
        seat = m.to_act
        obs = m.observation(seat)
        if obs.phase == "play":
            if not obs.tricks and not obs.trick and not hands:  # as play begins (BL25)
                hands = {s: list(m.observation(s).hand) for s in range(4)}
            trump = {v: k for k, v in SUIT_NAMES.items()}[obs.trump]
            texts = {a.text for a in m.legal_actions()}
            # BL30: before his first card, a player holding a combination may declare
            first = not obs.tricks and seat not in declared
            may_declare = first and bool(combinations(hands[seat], trump))
            assert ("declare" in texts) == (may_declare and declares), (seat, hands[seat])
            legal = {x.removeprefix("play ") for x in texts if x != "declare"}
            assert legal == allowed(obs.hand, obs.trick, seat, trump), (obs.hand, obs.trick)
            last = (obs, trump)
        action = rng.choice(m.legal_actions())
        if action.text == "declare":
            declared.add(seat)
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
            order = [s for s, _ in tricks[0][1]]  # the first trick's order of play
            combos = combination_scores(hands, declared, order, trump)
            if any(combos.values()):
                seen["combinations"] = seen.get("combinations", 0) + 1
            score, reserve_after = deal_scores(
                tricks, hands, trump, record["declarer"], reserve, combos
            )
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
            declared = set()
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


def test_random_matches_of_the_full_game_score_the_declared_combinations(full):
    seen: dict[str, int] = {}
    for seed in range(40):
        _play_and_restate(full, seed, seen, declares=True)
    assert seen["played"] > 300 and seen.get("combinations", 0) > 50, seen


def test_bl48_the_best_combination_of_bl47_and_who_scores_it(full):
    m = full.new_match(deck_orders=[BL47_ORDER], dealer=0)
    for action in ("pass", "pass", "bid diamonds"):
        m.apply(action)
    offered = {}
    for seat in (1, 2, 3, 0):  # BL30: each declares just before his first card
        texts = {a.text for a in m.legal_actions()}
        offered[seat] = "declare" in texts
        if offered[seat]:
            m.apply("declare")
            assert "declare" not in {a.text for a in m.legal_actions()}  # once only
        m.apply(next(a for a in m.legal_actions() if a.kind == "play"))
    # seat 3's AD KD lack the QD: no combination, only "no declaration" (BL30)
    assert offered == {1: True, 2: True, 3: False, 0: True}
    hands = {
        1: ["AS", "KS", "QS", "10H", "9H", "9D", "8D", "7D"],
        2: ["JS", "10S", "9S", "8H", "7H", "AC", "KC", "QC"],
        3: ["8S", "7S", "AH", "AD", "KD", "10D", "JC", "10C"],
        0: ["KH", "QH", "JH", "QD", "JD", "9C", "8C", "7C"],
    }
    # BL48: seat 1's ace-high tierce ties seat 2's; BL31 (e): seat 1 played first, so team
    # B scores seat 1's two tierces (40) and team A nothing for its four
    combos = combination_scores(hands, {0, 1, 2}, [1, 2, 3, 0], "D")
    assert combos == {(1, 3): 40, (0, 2): 0}
    rng = random.Random(0)
    while len(m.deal_results) == 0:
        obs = m.observation(0)
        seat, action = m.to_act, rng.choice(m.legal_actions())
        m.apply(action)
    cards = (*obs.trick, (seat, action.text.removeprefix("play ")))
    tricks = [*obs.tricks, (cards[0][0], cards, winner_so_far(cards, "D"))]
    score, _ = deal_scores(tricks, hands, "D", 3, 0, combos)
    gains = m.deal_results[0]["gains"]
    assert [gains[1], gains[0]] == [score[(1, 3)], score[(0, 2)]]


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


# ---------------------------------------------------------------- house rules BL58-BL62
def _twin_deals(a: trickcore.Variant, b: trickcore.Variant, seed: int):
    """The same random actions in two variants whose play is the same: each deal's gains in
    both, while both matches run."""
    rng = random.Random(seed)
    ma, mb = a.new_match(seed=seed), b.new_match(seed=seed)
    out = []
    while not ma.is_over and not mb.is_over:
        legal = ma.legal_actions()
        assert [x.text for x in legal] == [x.text for x in mb.legal_actions()]
        action = rng.choice(legal)
        ma.apply(action.text)
        mb.apply(action.text)
        if len(ma.deal_results) > len(out):
            out.append((ma.deal_results[-1], mb.deal_results[-1]))
    return out


def test_bl58_arrondi_writes_each_score_rounded_to_ten(full):
    arrondi = trickcore.load_variant("belote-arrondi")
    for seed in range(20):
        # the first deal of each match: both start from the same scores and no reserve
        base, rounded = _twin_deals(full, arrondi, seed)[0]
        # BL58: units 0-4 down, 5-9 up; made or not is decided before rounding
        assert rounded["gains"] == [(g + 5) // 10 * 10 for g in base["gains"]]


def test_bl60_a_match_to_501():
    v = trickcore.load_variant("belote-match-501")
    for seed in range(10):
        rng = random.Random(seed)
        m = v.new_match(seed=seed)
        while not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        assert 501 <= max(m.scores) < 1000 + 600
        before = [r["scores"] for r in m.deal_results[:-1]]
        assert all(max(s) < 501 or s[0] == s[1] for s in before)


def test_bl61_no_undertrump_lets_him_discard_when_he_cannot_overtrump():
    v = trickcore.load_variant("belote-no-undertrump")
    checked = freed = 0
    for seed in range(25):
        rng = random.Random(seed)
        m = v.new_match(seed=seed)
        while not m.is_over and m.deals_dealt < 3:
            seat = m.to_act
            obs = m.observation(seat)
            texts = {a.text for a in m.legal_actions()}
            if obs.phase == "play" and obs.trick:
                trump = {n: k for k, n in SUIT_NAMES.items()}[obs.trump]
                legal = {x.removeprefix("play ") for x in texts if x != "declare"}
                want = allowed(obs.hand, obs.trick, seat, trump)
                led = suit(obs.trick[0][1])
                void = not any(suit(c) == led for c in obs.hand)
                trumped = any(suit(c) == trump for _, c in obs.trick)
                master = winner_so_far(obs.trick, trump)
                if led != trump and void and trumped and master not in TEAM[seat]:
                    # BL61: cannot overtrump -> any card, instead of BL23 (b)'s any trump
                    best = max(strength(c, trump) for _, c in obs.trick if suit(c) == trump)
                    if not any(suit(c) == trump and strength(c, trump) > best for c in obs.hand):
                        want = set(obs.hand)
                        freed += legal != allowed(obs.hand, obs.trick, seat, trump)
                assert legal == want, (obs.hand, obs.trick)
                checked += 1
            m.apply(rng.choice(m.legal_actions()))
    assert checked > 1000 and freed >= 3


def test_bl62_a_dedans_takers_belote_goes_to_the_defenders(full):
    lost = trickcore.load_variant("belote-lost-dedans")
    moved = 0
    for seed in range(40):
        base, other = _twin_deals(full, lost, seed)[0]  # the first deal: same scores
        taker_team = TEAM[base["declarer"]]
        defenders = TEAM[(base["declarer"] + 1) % 4]
        g, h = base["gains"], other["gains"]
        if 0 < g[taker_team[0]] <= 40 and g[defenders[0]] >= 162:  # dedans, takers' belote
            moved += 1
            assert h[taker_team[0]] == 0 and h[defenders[0]] == g[defenders[0]] + 20
        else:
            assert h == g
    assert moved >= 1


def _declared_deal(full: trickcore.Variant, hands: dict[int, list[str]], seed: int):
    """Deal these final hands (hearts turned up to seat 1, who takes; dealer 0), let every
    player holding a combination declare before his first card, play the rest at random;
    the deal's gains and what BL27-BL41 restated give, with the combinations' scores."""
    m = full.new_match(deck_orders=[bl50_order(hands, "7H", dealer=0, taker=1)], dealer=0)
    m.apply("bid hearts")
    declared = set()
    rng = random.Random(seed)
    while not m.deal_results:
        obs = m.observation(m.to_act)
        seat = m.to_act
        texts = [a.text for a in m.legal_actions()]
        action = "declare" if "declare" in texts else rng.choice(texts)
        if action == "declare":
            declared.add(seat)
        m.apply(action)
    cards = (*obs.trick, (seat, action.removeprefix("play ")))
    tricks = [*obs.tricks, (cards[0][0], cards, winner_so_far(cards, "H"))]
    combos = combination_scores(hands, declared, [1, 2, 3, 0], "H")
    score, _ = deal_scores(tricks, hands, "H", 1, 0, combos)
    return m.deal_results[0]["gains"], score, combos


def test_bl31_b_of_two_equal_sequences_the_one_in_trumps_is_best(full):
    hands = {
        1: ["AC", "KC", "QC", "8S", "7S", "9D", "7H", "10D"],  # a tierce to the ace, plain
        2: ["AH", "KH", "QH", "8D", "7D", "JS", "10S", "9C"],  # the same, in trumps
        3: ["AD", "KD", "JC", "10C", "JH", "10H", "AS", "KS"],
        0: ["QD", "JD", "8C", "7C", "9H", "8H", "QS", "9S"],
    }
    for seed in range(3):
        gains, score, combos = _declared_deal(full, hands, seed)
        # seat 1 played first to the first trick, yet seat 2's tierce in trumps is best
        assert combos == {(0, 2): 20, (1, 3): 0}
        assert [gains[0], gains[1]] == [score[(0, 2)], score[(1, 3)]]


def test_bl28_bl31_c_four_nines_beat_four_kings_and_their_side_scores_both(full):
    hands = {
        1: ["KC", "KD", "KH", "KS", "8C", "7H", "8D", "8S"],  # four kings: 100
        3: ["9C", "9D", "9H", "9S", "7C", "7D", "7S", "AC"],  # four nines: 150
        2: ["QC", "10C", "AD", "JD", "AH", "JH", "AS", "JS"],
        0: ["JC", "QD", "10D", "QH", "10H", "8H", "QS", "10S"],
    }
    for seed in range(3):
        gains, score, combos = _declared_deal(full, hands, seed)
        assert combos == {(1, 3): 250, (0, 2): 0}  # BL32: the nines' side scores both
        assert [gains[0], gains[1]] == [score[(0, 2)], score[(1, 3)]]


# ---------------------------------------------------------------- the constructs' misuse
@pytest.mark.parametrize(
    ("change", "line", "words"),
    [
        # a pickup needs a turned-up card in the pattern
        ("deal {\n  pattern: 3 each, 2 each, rest stock\n}\n", None, "needs a turned-up card"),
        # draw_up takes its cards from a stock
        ("deal {\n  pattern: 3 each, 2 each, 1 turnup, rest out\n}\n", None, "from a stock"),
        # the pattern deals more than draw_up's size already
        ("draw_up {\n  to: 4\n}\n", 5, "already gives a hand more than 4"),
        # the stock cannot fill every hand to 9 (4 x 4 = 16 > 11 + 1)
        ("draw_up {\n  to: 9\n}\n", 5, "takes 16 cards"),
        # without draw_up the taker would hold one card more
        ("remove draw_up\ndeal {\n  flow: auction, pickup, tricks\n}\n", None, "lay_away: 1"),
    ],
)
def test_a_misused_draw_up_or_pickup_is_refused_where_it_stands(change, line, words):
    refused_at(f'extends "belote-sans-annonces"\n\n\n{change}', line, words)


# ---------------------------------------------------------------- BL25, BL30 said aloud
def _said(m: trickcore.Match, seat: int, name: str, watcher: int) -> int | bool | None:
    """What `watcher` sees `seat` has said this deal (a deal value, public: BL25, BL30)."""
    for s, key, value in m.observation(watcher).deal_keep:
        if s == seat and key == name:
            return value
    return None


@pytest.mark.parametrize("name", ["belote", "belote-sans-annonces"])
def test_bl25_bl30_what_is_said_aloud_is_seen_by_every_seat(name):
    """BL25: the holder of the K and Q of trumps says "belote" as he plays the first of them
    and "rebelote" as he plays the second; BL30: a declarer states his combinations (their
    value in all, and each one's kind, length and top card, but not its suit). Every seat sees
    it, the opponent on his left included, and nothing before it is said."""
    v = trickcore.load_variant(name)
    announced = {"belote": 0, "rebelote": 0, "declared": 0, "several": 0}
    stated: dict[tuple, set[int]] = {}  # BL31 key without the trump mark -> strengths stated
    for seed in range(12):
        rng = random.Random(seed)
        m = v.new_match(seed=seed)
        hands: dict[int, list[str]] = {}
        deals = 0
        while not m.is_over and deals < 4:
            seat = m.to_act
            obs = m.observation(seat)
            watcher = (seat + 1) % 4  # an opponent
            actions = m.legal_actions()  # declares whenever he may
            action = next((a for a in actions if a.text == "declare"), rng.choice(actions))
            if obs.phase == "play" and not hands and not obs.tricks and not obs.trick:
                hands = {s: list(m.observation(s).hand) for s in range(4)}
            if obs.phase == "play":
                trump = {v: k for k, v in SUIT_NAMES.items()}[obs.trump]
                pair = {f"K{trump}", f"Q{trump}"}
                holder = pair <= set(hands[seat])
                left = pair & set(obs.hand)  # of the pair, what he holds before this card
                if action.text == "declare":
                    assert _said(m, seat, "said_points", watcher) == 0  # not said before
                card = action.text.removeprefix("play ")
                m.apply(action)
                if len(m.deal_results) > deals:
                    deals, hands = len(m.deal_results), {}
                    continue
                if action.text == "declare":
                    combos = combinations(hands[seat], trump)
                    assert _said(m, seat, "said_points", watcher) == sum(x for x, _ in combos)
                    # BL30: each combination stated, the best first (BL31's order)
                    keys = sorted((key for _, key in combos), reverse=True)
                    assert len(keys) <= 3  # eight cards hold three at most
                    for k, name in enumerate(("said_best", "said_second", "said_third")):
                        said = _said(m, seat, name, watcher)
                        if k >= len(keys):
                            assert said == 0, (name, combos)
                            continue
                        stated.setdefault(keys[k][:-1], set()).add(said)  # type: ignore[arg-type]
                    announced["declared"] += 1
                    announced["several"] += len(keys) > 1
                elif holder and card in pair:
                    announced["belote" if len(left) == 2 else "rebelote"] += 1
                for s, hand in hands.items():  # BL25: for every seat, after every card
                    gone = pair - set(m.observation(s).hand) if pair <= set(hand) else set()
                    assert _said(m, s, "belote_said", watcher) is (len(gone) >= 1), (s, gone)
                    assert _said(m, s, "rebelote_said", watcher) is (len(gone) == 2), (s, gone)
            else:
                m.apply(action)
    assert announced["belote"] > 3 and announced["rebelote"] > 3, announced
    if name == "belote-sans-annonces":
        assert announced["declared"] == 0
        return
    assert announced["declared"] > 20 and announced["several"] > 0, announced
    # BL30: the strength stated names each combination's kind, length and top card, one
    # value for each and none for two, ordered as BL31 orders them (the suit left unsaid)
    assert all(len(values) == 1 for values in stated.values()), stated
    order = sorted(stated, key=lambda key: next(iter(stated[key])))
    assert order == sorted(stated)


# ---------------------------------------------------------------- BL33 shown face up
def combination_cards(hand: Sequence[str]) -> set[str]:
    """BL27, BL28 restated: the cards of a hand that belong to a sequence or a carré."""
    out: set[str] = set()
    for s in SUITS:
        held = {NATURAL.index(rank(c)): c for c in hand if suit(c) == s}
        run: list[str] = []
        for place in range(len(NATURAL) + 1):
            if place in held:
                run.append(held[place])
                continue
            if len(run) >= 3:
                out.update(run)
            run = []
    for r in CARRE_VALUE:
        if sum(rank(c) == r for c in hand) == 4:
            out.update(c for c in hand if rank(c) == r)
    return out


def shown_after_first_trick(
    hands: dict[int, list[str]], declared: set[int], order: list[int], trump: str
) -> set[int]:
    """BL31-BL33: the players whose combinations lie face up once the first trick is
    complete: those of the team holding the best declared combination who declared."""
    best = best_declarer(hands, declared, order, trump)
    return set() if best is None else {s for s in TEAM[best] if s in declared}


def test_bl33_the_scoring_teams_combinations_are_shown_after_the_first_trick(full):
    """BL47/BL48's deal: team B scores seat 1's two tierces (AS KS QS, 9D 8D 7D), so once
    the first trick is complete every other seat sees those of them still in seat 1's hand;
    seat 2's declared combinations (team A) are never shown, nor anything before."""
    m = full.new_match(deck_orders=[BL47_ORDER], dealer=0)
    for action in ("pass", "pass", "bid diamonds"):
        m.apply(action)
    tierces = {"AS", "KS", "QS", "9D", "8D", "7D"}
    while not m.observation(0).tricks:
        for watcher in range(4):
            assert m.observation(watcher).open_hands == ()  # BL33: not before
        texts = [a.text for a in m.legal_actions()]
        m.apply("declare" if "declare" in texts else texts[0])
    rng = random.Random(1)
    while not m.deal_results:
        hand = set(m.observation(1).hand)
        for watcher in (0, 2, 3):
            shown = dict(m.observation(watcher).open_hands)
            assert set(shown) <= {1}  # seat 2's declaration is not shown (BL33)
            assert set(shown.get(1, ())) == tierces & hand
        assert m.observation(1).open_hands == ()  # his own hand is his anyway
        m.apply(rng.choice(m.legal_actions()))


def test_bl33_random_deals_show_exactly_the_scoring_teams_declared_combinations(full):
    """Every observation of random matches: after the first trick, each declared member of
    the team holding the best combination (BL31, BL32) has his combinations' cards still in
    hand shown to the other three, and nothing else is shown (BL33, BL45)."""
    counted = {"shown": 0, "hidden": 0}
    for seed in range(12):
        rng = random.Random(seed)
        m = full.new_match(seed=seed)
        hands: dict[int, list[str]] = {}
        declared: set[int] = set()
        order: list[int] = []
        deals = 0
        while not m.is_over and deals < 6:
            obs = m.observation(0)
            if obs.phase == "play" and not obs.tricks and not obs.trick and not hands:
                hands = {s: list(m.observation(s).hand) for s in range(4)}
            trump = {v: k for k, v in SUIT_NAMES.items()}.get(obs.trump or "", "")
            shown_by = set()
            if obs.phase == "play" and obs.tricks:
                order = [s for s, _ in obs.tricks[0][1]]
                shown_by = shown_after_first_trick(hands, declared, order, trump)
            for watcher in range(4):
                now = m.observation(watcher)
                expected = {
                    s: sorted(combination_cards(hands[s]) & set(m.observation(s).hand))
                    for s in sorted(shown_by - {watcher})
                }
                expected = {s: cs for s, cs in expected.items() if cs}
                assert {s: sorted(cs) for s, cs in now.open_hands} == expected, (seed, watcher)
                counted["shown" if expected else "hidden"] += 1
            action = rng.choice(m.legal_actions())
            if action.text == "declare":
                declared.add(m.to_act)
            before = len(m.deal_results)
            m.apply(action)
            if len(m.deal_results) > before:
                deals += 1
                hands, declared = {}, set()
    assert counted["shown"] > 200 and counted["hidden"] > 200, counted


def test_bl27_a_quinte_is_worth_100_and_its_side_scores_it(full):
    """BL27: five cards in a row of one suit (A K Q J 10 of clubs) are a quinte, 100; the
    only combination at the table, so its side scores it (BL32)."""
    hands = {
        1: ["AC", "KC", "QC", "JC", "10C", "7H", "8S", "7S"],  # the quinte
        2: ["AH", "KH", "9H", "8D", "7D", "JS", "10S", "9C"],
        3: ["AD", "KD", "JD", "10D", "QH", "JH", "AS", "KS"],
        0: ["QD", "9D", "8C", "7C", "10H", "9S", "QS", "8H"],
    }
    assert combinations(hands[1], "H") == [(100, (100, 0, 5, 0, False))]
    assert not any(combinations(hands[s], "H") for s in (0, 2, 3))
    for seed in range(2):
        gains, score, combos = _declared_deal(full, hands, seed)
        assert combos == {(1, 3): 100, (0, 2): 0}
        assert [gains[0], gains[1]] == [score[(0, 2)], score[(1, 3)]]
