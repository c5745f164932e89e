"""Doppelkopf (docs/rules/doppelkopf.md DK1-DK67, `variants/doppelkopf.rules`), played
through the public API.

The worked examples DK51-DK57 are played on their deals; the tariff (DK38-DK46, the
examples DK58-DK67) is restated here from the rules, checked on the examples' figures, and
compared with the engine's scores over random deals of every kind (normal games,
Hochzeiten, silent solos, solos; announcements made at random).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from conftest import texts

import trickcore

RANKS = ["A", "10", "K", "Q", "J", "9"]
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}  # DK3
SOLOS = (
    "damensolo",
    "bubensolo",
    "solo_clubs",
    "solo_spades",
    "solo_hearts",
    "solo_diamonds",
    "fleischloser",
)
LEVELS = ("keine_90", "keine_60", "keine_30", "schwarz")


@pytest.fixture(scope="module")
def dk() -> trickcore.Variant:
    return trickcore.load_variant("doppelkopf")


def dk51_order() -> list[str]:
    """DK51: each suit's twelve cards A A 10 10 K K Q Q J J 9 9, clubs to diamonds."""
    return [
        r + s
        for s in "CSHD"
        for r in ("A", "A", "10", "10", "K", "K", "Q", "Q", "J", "J", "9", "9")
    ]


def start(
    dk: trickcore.Variant,
    order: list[str],
    owes: Iterable[bool] = (True, True, True, True),
    counted: int = 0,
    dealer: int = 0,
) -> trickcore.Match:
    """A match whose next deal is dealt from `order`, with who still owes his Pflichtsolo
    and the counting deals played so far (DK16, DK47)."""
    kept = [{"owes": o, "counted": counted} for o in owes]
    return dk.new_match(deck_orders=[order], kept=kept, dealer=dealer)


def call_all(m: trickcore.Match, calls: dict[int, str]) -> None:
    """The reservations round (DK11), each seat's call as given (healthy by default)."""
    for _ in range(4):
        m.apply(calls.get(m.to_act, "healthy"))


def pass_offers(m: trickcore.Match) -> None:
    """Pass every announcement offered before the next card (DK35)."""
    while "pass" in texts(m.legal_actions()):
        m.apply("pass")


def play(m: trickcore.Match, cards: Iterable[str]) -> None:
    """Play cards in turn, passing the offers before each."""
    for card in cards:
        pass_offers(m)
        m.apply(f"play {card}")


def offered(m: trickcore.Match) -> tuple[int, list[str]]:
    """Who is offered what in the round of offers now."""
    return m.to_act, texts(m.legal_actions())


# ------------------------------------------------------------------ cards and the deal
def test_DK2_DK3_forty_eight_cards_every_one_twice(dk: trickcore.Variant) -> None:
    deal = dk.new_deal(seed=1)
    cards = sorted(c for s in range(4) for c in deal.hand_texts(s))
    assert len(cards) == 48
    assert all(cards.count(c) == 2 for c in cards)
    assert len(set(cards)) == 24
    assert sum(POINTS[c[:-1]] for c in cards) == 240


def test_DK8_DK51_dealing(dk: trickcore.Variant) -> None:
    deal = dk.new_deal(deck_order=dk51_order(), dealer=0)
    assert deal.hand_texts(1) == sorted(
        ["AC", "AC", "10C", "AS", "AS", "10S", "AH", "AH", "10H", "AD", "AD", "10D"],
        key=dk.card,
    )
    assert sorted(deal.hand_texts(2)) == sorted(
        ["10C", "KC", "KC", "10S", "KS", "KS", "10H", "KH", "KH", "10D", "KD", "KD"]
    )
    assert sorted(deal.hand_texts(3)) == sorted(
        ["QC", "QC", "JC", "QS", "QS", "JS", "QH", "QH", "JH", "QD", "QD", "JD"]
    )
    assert sorted(deal.hand_texts(0)) == sorted(
        ["JC", "9C", "9C", "JS", "9S", "9S", "JH", "9H", "9H", "JD", "9D", "9D"]
    )


def test_copies_are_one_card_to_the_players(dk: trickcore.Variant) -> None:
    """DK2: the two copies of a card are identical: one action plays either, the legal
    actions name each card once, and an observation shows both as the same text."""
    m = start(dk, dk51_order())
    call_all(m, {})
    seat, actions = m.to_act, texts(m.legal_actions())
    pass_offers(m)
    assert m.to_act == 1
    plays = texts(m.legal_actions())
    assert plays.count("play AC") == 1 and len(plays) == len(set(plays)) == 8
    assert m.observation(1).hand.count("AC") == 2
    m.apply("play AC")
    assert m.observation(1).hand.count("AC") == 1
    assert seat == 1 and "re" not in actions  # seat 1 holds no queen of clubs: Kontra


# ------------------------------------------------------------------ reservations
def test_DK52_a_lustsolo_after_the_query(dk: trickcore.Variant) -> None:
    m = start(dk, dk51_order(), owes=(True, True, False, True))
    call_all(m, {2: "reservation", 3: "reservation"})
    # (a): only seat 3 still owes; holding both queens of clubs he may say no
    assert offered(m) == (3, ["solo", "no_solo"])
    m.apply("no_solo")
    # (b): seat 2 has played his; without both queens of clubs solo is his only answer
    assert offered(m) == (2, ["solo"])
    m.apply("solo")
    assert offered(m) == (2, list(SOLOS))
    m.apply("bubensolo")
    assert m.current.declarer == 2
    pass_offers(m)
    assert m.to_act == 1  # DK18: forehand leads a Lustsolo
    deal = m.current
    while not deal.is_over:
        m.apply(m.legal_actions()[0])
    assert m.kept[2]["counted"] == 1 and m.dealer == 1  # it counts; the deal moves on
    assert [k["owes"] for k in m.kept] == [True, True, False, True]


def test_DK52_a_pflichtsolo_instead(dk: trickcore.Variant) -> None:
    m = start(dk, dk51_order(), owes=(True, True, False, True))
    call_all(m, {2: "reservation", 3: "reservation"})
    m.apply("solo")  # seat 3, step (a)
    assert offered(m) == (3, list(SOLOS))  # seat 2 is never asked
    m.apply("damensolo")
    pass_offers(m)
    assert m.to_act == 3  # DK18: the soloist leads his Pflichtsolo
    deal = m.current
    while not deal.is_over:
        m.apply(m.legal_actions()[0])
    # DK16, DK9: an extra deal: it does not count, and seat 0 deals again
    assert m.kept[0]["counted"] == 0 and m.dealer == 0
    assert [k["owes"] for k in m.kept] == [True, True, False, False]


def test_DK13_all_healthy_is_a_normal_game(dk: trickcore.Variant) -> None:
    m = start(dk, dk51_order())
    call_all(m, {})
    assert m.current.declarer == -1
    assert m.current.phase == "play"


def test_DK53_forced_solos(dk: trickcore.Variant) -> None:
    rng = random.Random(53)
    m = dk.new_match(
        seed=53,
        kept=[{"owes": seat != 2, "counted": 21} for seat in range(4)],
        dealer=1,
    )
    forced = []
    for dealer in (1, 2, 3):
        assert m.dealer == dealer
        seat, answers = offered(m)
        assert answers == list(SOLOS)  # no reservations: he names his solo at once
        forced.append(seat)
        m.apply(rng.choice(answers))
        pass_offers(m)
        assert m.to_act == seat  # he leads
        deal = m.current
        while not deal.is_over:
            m.apply(rng.choice(m.legal_actions()))
    assert forced == [3, 0, 1]
    assert m.is_over and m.deals_played == 3


# ------------------------------------------------------------------ tricks
def trick_winner(dk: trickcore.Variant, hands: dict[int, list[str]], cards: list[str]) -> int:
    """Deal `hands` (dealer 0, so seat 1 leads), everyone healthy, play `cards` in turn
    and return who won the trick."""
    m = dk.new_match(deck_orders=[dk.stack_deck(hands, dealer=0)])
    call_all(m, {})
    play(m, cards)
    return m.observation(0).tricks[0][2]


def test_DK7_DK54_the_first_of_two_equal_cards_wins(dk: trickcore.Variant) -> None:
    hands = {1: ["10H"], 2: ["QC"], 3: ["10H"], 0: ["9D"]}
    assert trick_winner(dk, hands, ["10H", "QC", "10H", "9D"]) == 1
    hands = {1: ["AS"], 2: ["AS"], 3: ["10S"], 0: ["KS"]}
    assert trick_winner(dk, hands, ["AS", "AS", "10S", "KS"]) == 1


def test_DK54_a_diamond_is_a_trump(dk: trickcore.Variant) -> None:
    hands = {
        1: ["AC"],
        2: ["10C"],
        3: ["9D", "AS", "AS", "10S", "10S", "KS", "KS", "AH", "AH", "KH", "KH", "9H"],
        0: ["KC"],
    }
    assert trick_winner(dk, hands, ["AC", "10C", "9D", "KC"]) == 3


def test_DK54_DK6_damensolo_plain_hearts(dk: trickcore.Variant) -> None:
    hands = {
        1: ["AH"],
        2: ["10H", "QC", "QC"],
        3: ["JC", "AS", "AS", "10S", "10S", "KS", "KS", "AC", "AC", "10C", "10C", "KC"],
        0: ["KH"],
    }
    m = start(dk, dk.stack_deck(hands, dealer=0), owes=(True, True, False, True))
    call_all(m, {2: "reservation"})
    m.apply("solo")  # a Lustsolo: forehand leads
    m.apply("damensolo")
    play(m, ["AH", "10H", "JC", "KH"])
    assert m.observation(0).tricks[0][2] == 1


def test_DK29_DK55_following(dk: trickcore.Variant) -> None:
    hands = {
        1: ["KH"],
        2: ["10H", "9H", "AC", "AC", "10C", "10C", "KC", "KC", "AS", "AS", "10S", "10S"],
        3: ["10H", "QC", "QS", "KS", "KS", "9S", "9S", "9C", "9C", "JC", "JS", "JH"],
    }
    m = dk.new_match(deck_orders=[dk.stack_deck(hands, dealer=0)])
    call_all(m, {})
    play(m, ["KH"])
    pass_offers(m)
    assert texts(m.legal_actions()) == ["play 9H"]  # the 10H is a trump, not a heart
    m.apply("play 9H")
    pass_offers(m)
    assert len(texts(m.legal_actions())) == len(set(hands[3]))  # no heart: any card


# ------------------------------------------------------------------ announcements
def dk56_deal(dk: trickcore.Variant) -> trickcore.Match:
    """Seats 1 and 2 hold a queen of clubs (Re), seats 3 and 0 none (Kontra); seat 2 wins
    trick 1 with the Dulle and leads trick 2."""
    hands = {
        1: ["QC", "AC", "AC", "10C", "10C", "KC", "KC", "9C", "9C", "AS", "AS", "10S"],
        2: ["QC", "10H", "AH", "AH", "KH", "KH", "9H", "9H", "KS", "KS", "9S", "9S"],
        3: ["9D"],
        0: ["KD"],
    }
    m = dk.new_match(deck_orders=[dk.stack_deck(hands, dealer=0)])
    call_all(m, {})
    return m


def test_DK56_announcement_timing(dk: trickcore.Variant) -> None:
    m = dk56_deal(dk)
    # the first window: forehand (Re, 12 cards) is offered Re, then the others in turn
    assert offered(m) == (1, ["re", "pass"])
    play(m, ["AC", "10H", "9D", "KD"])  # nobody announces in the first four windows
    assert m.observation(0).tricks[0][2] == 2
    assert offered(m) == (2, ["re", "pass"])  # before card 5, seat 2 holds 11
    m.apply("re")
    assert offered(m) == (3, ["kontra", "pass"])  # regular: 11 cards
    m.apply("pass")
    assert offered(m) == (0, ["kontra", "pass"])
    m.apply("pass")
    assert offered(m) == (1, ["keine_90", "pass"])  # Re stands at level 0: N_1 = 10
    m.apply("pass")
    assert offered(m) == (2, ["keine_90", "pass"])
    m.apply("pass")
    assert m.to_act == 2 and "play KS" in texts(m.legal_actions())  # four passes
    m.apply("play KS")
    # seat 3 plays his second card: then he holds 10 and may only reply to Re
    while m.to_act != 3 or "pass" in texts(m.legal_actions()):
        m.apply("pass")
    m.apply(m.legal_actions()[0])
    assert len(m.observation(3).hand) == 10
    seat, answers = offered(m)
    while seat != 3:
        m.apply("pass")
        seat, answers = offered(m)
    assert answers == ["kontra", "pass"]  # a reply to Re: 10 >= N_0 - 1
    m.apply("kontra")
    deal = m.current
    assert deal.context[3]["kontra_reply"] and deal.context[0]["kontra_reply"]
    # DK34 (c): after a reply the Kontra party announces nothing more
    for _ in range(40):
        if m.current.is_over:
            break
        seat, answers = offered(m)
        if seat in (3, 0):
            assert not set(answers) & set(LEVELS)
        m.apply("pass" if "pass" in answers else answers[0])


def test_DK36_regular_re_ends_with_the_second_card(dk: trickcore.Variant) -> None:
    m = dk56_deal(dk)
    play(m, ["AC", "10H", "9D", "KD"])
    # seat 1 (Re) may say Re while he holds 11 or 12 cards: before his second card
    pass_offers(m)
    m.apply("play KS")  # seat 2 leads trick 2
    pass_offers(m)
    m.apply(m.legal_actions()[0])  # seat 3
    pass_offers(m)
    m.apply(m.legal_actions()[0])  # seat 0
    assert offered(m) == (1, ["re", "pass"])  # before his second card: 11 held
    pass_offers(m)
    m.apply(m.legal_actions()[0])
    assert len(m.observation(1).hand) == 10
    for _ in range(8):  # no Re for seat 1 any more (10 < 11, and nobody said Kontra)
        seat, answers = offered(m)
        if seat == 1:
            assert "re" not in answers
        if "pass" in answers:
            m.apply("pass")
        else:
            m.apply(answers[0])


def hochzeit_deal(dk: trickcore.Variant, trick2_winner: int) -> trickcore.Match:
    """DK57: seat 1 holds both queens of clubs and reserves (a Hochzeit); he wins trick 1
    with the Dulle; trick 2 is won by `trick2_winner` (2, or 1 himself)."""
    hands = {
        1: ["QC", "QC", "10H", "10H", "AS", "AS", "10S", "10S", "KS", "KS", "9S", "9S"],
        2: ["9H", "QS", "QS", "QH", "QH", "QD", "QD", "JC", "JC", "JS", "JS", "JH"],
        3: ["9H", "AC", "AC", "10C", "10C", "KC", "KC", "9C", "9C", "AD", "AD", "10D"],
        0: ["KH", "KH", "AH", "AH", "JH", "JD", "JD", "10D", "KD", "KD", "9D", "9D"],
    }
    m = dk.new_match(deck_orders=[dk.stack_deck(hands, dealer=0)])
    call_all(m, {1: "reservation"})
    m.apply("no_solo")  # step (a): he owes his Pflichtsolo, holds both: a Hochzeit
    assert m.current.declarer == -1
    assert m.to_act == 1 and texts(m.legal_actions())[0].startswith("play")  # no offers
    m.apply("play 10H")
    for _ in range(3):
        assert "pass" not in texts(m.legal_actions())  # DK35: not before the clarifying trick
        m.apply(m.legal_actions()[0])
    assert m.observation(0).tricks[0][2] == 1
    if trick2_winner == 2:
        m.apply("play AS")
        m.apply("play QS")  # seat 2 trumps the spade
        m.apply(m.legal_actions()[0])
        m.apply(m.legal_actions()[0])
        assert m.observation(0).tricks[1][2] == 2
    return m


def test_DK57_hochzeit_timing(dk: trickcore.Variant) -> None:
    m = hochzeit_deal(dk, 2)
    deal = m.current
    assert deal.context[0]["clarified"] == 2
    assert deal.context[2]["partner"]
    # t = 2: N_0 = 10; everyone holds 10 as trick 3 begins: Re for the Hochzeiter and his
    # partner, Kontra for the others, until each has played his card to trick 3
    seen = {}
    for _ in range(4):
        seat, answers = offered(m)
        seen[seat] = answers
        m.apply("pass")
    assert seen == {
        2: ["re", "pass"],
        3: ["kontra", "pass"],
        0: ["kontra", "pass"],
        1: ["re", "pass"],
    }


def test_DK26_hochzeit_alone_after_three_tricks(dk: trickcore.Variant) -> None:
    hands = {
        1: ["QC", "QC", "10H", "10H", "QS", "QS", "QH", "QH", "KS", "KS", "9S", "9S"],
    }
    m = dk.new_match(deck_orders=[dk.stack_deck(hands, dealer=0)])
    call_all(m, {1: "reservation"})
    m.apply("no_solo")
    for card in ("10H", "10H", "QC"):  # the three highest trumps: he wins tricks 1-3
        m.apply(f"play {card}")
        for _ in range(3):
            m.apply(m.legal_actions()[0])
    deal = m.current
    assert [t[2] for t in m.observation(0).tricks] == [1, 1, 1]
    assert deal.context[0]["clarified"] == 3 and not any(
        deal.context[s]["partner"] for s in range(4)
    )
    # he is Re alone (scored as a solo, DK45); limits N_k = 9 - k: he holds 9
    assert offered(m) == (1, ["re", "pass"])


# ------------------------------------------------------------------ the tariff, restated
def dk_scores(
    re: set[int],
    points: dict[int, int],
    tricks: dict[int, int],
    re_made: int,
    kontra_made: int,
    extras: dict[bool, int],
    n_tricks: int = 12,
    doubling: bool = False,
) -> dict[int, int]:
    """DK38-DK45 restated: each seat's score from the Re party, each seat's card points
    and tricks, how many announcements each party made (0 none, 1 Re/Kontra, 2 keine 90,
    ... 5 schwarz) and each party's extra points (by `is Re`; they count in normal games
    only); `doubling`: DK71's Re and Kontra doubling instead of adding."""
    solo = len(re) == 1
    a = {True: sum(points[s] for s in re), False: 240 - sum(points[s] for s in re)}
    t = {True: sum(tricks[s] for s in re), False: n_tricks - sum(tricks[s] for s in re)}
    lvl = {True: re_made - 1, False: kontra_made - 1}  # DK32's levels, -1: none
    s_extra = {p: 0 if solo else extras[p] for p in (True, False)}

    def reached(p: bool) -> bool:  # DK39
        mine, theirs = lvl[p], lvl[not p]
        if mine >= 4:
            return t[not p] == 0
        if mine >= 1:
            return a[p] >= (151, 181, 211)[mine - 1]
        if theirs >= 4:
            return t[p] >= 1
        if theirs >= 1:
            return a[p] >= (90, 60, 30)[theirs - 1]
        exception = lvl[False] == 0 and lvl[True] < 0
        need = (120 if exception else 121) if p else (121 if exception else 120)
        return a[p] >= need

    def below(p: bool) -> int:
        o = a[not p]
        return (o < 90) + (o < 60) + (o < 30)

    def against(p: bool) -> int:  # DK41 (d)
        theirs = lvl[not p]
        return sum(
            theirs >= k and a[p] >= need for k, need in ((1, 120), (2, 90), (3, 60), (4, 30))
        )

    won = [p for p in (True, False) if reached(p)]
    assert len(won) <= 1  # DK40
    if won:
        w = won[0]
        g = 1 + below(w) + (t[not w] == 0)
        if not doubling:
            g += 2 * (lvl[True] >= 0) + 2 * (lvl[False] >= 0)
        g += max(lvl[True], 0) + max(lvl[False], 0) + against(w)
        if not solo and not w:
            s_extra = {**s_extra, False: s_extra[False] + 1}  # DK42 (a)
        v = g + s_extra[w] - s_extra[not w]
        value = {w: v, not w: -v}
    else:
        d = {p: below(p) + against(p) + s_extra[p] for p in (True, False)}
        value = {p: d[p] - d[not p] for p in (True, False)}
    if doubling:  # DK71: x2 for each party that said Re or Kontra
        factor = (2 if lvl[True] >= 0 else 1) * (2 if lvl[False] >= 0 else 1)
        value = {p: factor * v for p, v in value.items()}
    out = {}
    for seat in range(4):
        p = seat in re
        out[seat] = 3 * value[p] if solo and p else value[p]
    return out


def party_scores(re_pts: int, re_made: int, kontra_made: int, extras=(0, 0), solo=False):
    """The restated scores of an example, as (each Re player, each Kontra player)."""
    re = {0} if solo else {0, 1}
    pts = (
        {0: re_pts, 1: 0, 2: 240 - re_pts, 3: 0}
        if not solo
        else {0: re_pts, 1: 240 - re_pts, 2: 0, 3: 0}
    )
    tricks = {0: 6, 1: 0, 2: 6, 3: 0} if not solo else {0: 6, 1: 6, 2: 0, 3: 0}
    out = dk_scores(re, pts, tricks, re_made, kontra_made, {True: extras[0], False: extras[1]})
    return out[0], out[3]


def test_DK58_to_DK67_the_worked_examples() -> None:
    # DK58: Re announced; 183-57; S(Re) 2, S(Kontra) 1: V = 6
    assert party_scores(183, 1, 0, (2, 1)) == (6, -6)
    # DK59: no announcements, 120-120: Kontra wins with gegen die Alten and a fox: 3
    assert party_scores(120, 0, 0, (0, 1)) == (-3, 3)
    # DK60: only Kontra announced, 120-120: Re wins, G = 3
    assert party_scores(120, 0, 1) == (3, -3)
    # DK61: Re and keine 90, 140-100: Kontra wins, V = 5
    assert party_scores(140, 2, 0) == (-5, 5)
    # DK62: Re, keine 90, keine 60; 130-110: V = 7
    assert party_scores(130, 3, 0) == (-7, 7)
    # DK63: no announcements, 125-115, Kontra caught both foxes: V = -1
    assert party_scores(125, 0, 0, (0, 2)) == (-1, 1)
    # DK64: both up to keine 90, 140-100: no winner, Re +1
    assert party_scores(140, 2, 2) == (1, -1)
    # DK65: Damensolo won with Re, 185-55: soloist +15, each opponent -5
    assert party_scores(185, 1, 0, solo=True) == (15, -5)
    # DK66: Bubensolo, Re and Kontra, 115-125: soloist -15, each opponent +5
    assert party_scores(115, 1, 1, solo=True) == (-15, 5)
    # DK67: Hochzeit alone 150-90, no announcements: +3 / -1 (no extra points in solos)
    assert party_scores(150, 0, 0, (0, 1), solo=True) == (3, -1)


def restated(deal, start_hands: dict[int, list[str]], doubling: bool = False) -> dict[int, int]:
    """DK20-DK27 and DK38-DK45 for a finished deal, from its public record and the hands
    as dealt (`doubling`: DK71)."""
    obs = deal.observation(0)
    log = [(seat, text) for seat, text in obs.log]
    tricks = obs.tricks
    declarer = obs.declarer
    reserved = {s for s, t in log if t == "reservation"}
    if declarer >= 0:
        re = {declarer}
    elif reserved:  # a Hochzeit: the partner wins the first of tricks 1-3 he does not
        (hz,) = reserved
        partner = next((w for _, _, w in tricks[:3] if w != hz), None)
        re = {hz} if partner is None else {hz, partner}
    else:
        re = {s for s in range(4) if "QC" in start_hands[s]}
    points = {s: 0 for s in range(4)}
    won = {s: 0 for s in range(4)}
    extras = {True: 0, False: 0}
    for i, (_, cards, winner) in enumerate(tricks):
        pts = sum(POINTS[c[:-1]] for _, c in cards)
        points[winner] += pts
        won[winner] += 1
        side = winner in re
        extras[side] += pts >= 40  # DK42 (b)
        extras[side] += sum(1 for s, c in cards if c == "AD" and (s in re) != side)  # (c)
        winning = next(c for s, c in cards if s == winner)
        extras[side] += i == len(tricks) - 1 and winning == "JC"  # (d): the last trick
    re_made = sum(1 for s, t in log if t in ("re", *LEVELS) and s in re)
    kontra_made = sum(1 for s, t in log if t in ("kontra", *LEVELS) and s not in re)
    return dk_scores(re, points, won, re_made, kontra_made, extras, len(tricks), doubling)


def random_deals(v: trickcore.Variant, count: int, seed: int, doubling: bool = False) -> dict:
    """Play `count` random first deals of `v`, of every kind, and check each deal's scores
    against the restated tariff; returns how many deals of each kind were played."""
    rng = random.Random(seed)
    kinds: dict[str, int] = {}
    for k in range(count):
        kept = [{"owes": rng.random() < 0.5, "counted": 0} for _ in range(4)]
        m = v.new_match(seed=k, kept=kept if "owes" in v.new_match().kept[0] else None)
        deal = m.current
        start_hands = {s: deal.hand_texts(s) for s in range(4)}
        while not deal.is_over:
            legal = texts(m.legal_actions())
            choice = rng.choice(legal)
            if "healthy" in legal and k % 3:
                choice = "healthy"
            if "reservation" in legal and k % 3 == 1 and "QC" in start_hands[m.to_act]:
                choice = "reservation"
            if "pass" in legal and rng.random() < 0.8:
                choice = "pass"
            m.apply(choice)
        gains = deal.gains
        obs = deal.observation(0)
        kind = (
            "solo"
            if any(t in SOLOS for _, t in obs.log)
            else "hochzeit"
            if "reservation" in [t for _, t in obs.log]
            else "silent"
            if any(start_hands[s].count("QC") == 2 for s in range(4))
            else "normal"
        )
        kinds[kind] = kinds.get(kind, 0) + 1
        assert sum(gains) == 0  # DK46
        assert restated(deal, start_hands, doubling) == dict(enumerate(gains)), (k, obs.log)
    return kinds


def test_DK38_to_DK46_restated_over_random_deals(dk: trickcore.Variant) -> None:
    """The engine's deal scores equal the restated tariff over random deals of every kind:
    normal games, Hochzeiten (with a partner and alone), silent solos and solos, with
    announcements taken at random."""
    kinds = random_deals(dk, 140, 38)
    assert all(kinds.get(kind, 0) >= 3 for kind in ("solo", "hochzeit", "silent", "normal")), kinds


# ------------------------------------------------------------------ house rules
def test_DK70_ohne_neunen() -> None:
    v = trickcore.load_variant("doppelkopf-ohne-neunen")
    order = [r + s for s in "CSHD" for r in ("A", "A", "10", "10", "K", "K", "Q", "Q", "J", "J")]
    deal = v.new_deal(deck_order=order, dealer=0)
    assert all(len(deal.hand_texts(s)) == 10 for s in range(4))
    # seat d+1+j gets positions 3j+1..3j+3, 12+4j+1..12+4j+4, 28+3j+1..28+3j+3
    assert sorted(deal.hand_texts(1)) == sorted(order[0:3] + order[12:16] + order[28:31])
    assert sorted(deal.hand_texts(0)) == sorted(order[9:12] + order[24:28] + order[37:40])
    m = v.new_match(deck_orders=[order])
    call_all(m, {})
    # N_0 = 9 - 0: everyone holds 10, a regular Re or Kontra is offered before the first
    # card; the tariff (Karlchen in the 10th trick) is the base one
    assert offered(m)[1] in (["re", "pass"], ["kontra", "pass"])
    kinds = random_deals(v, 50, 70)
    assert sum(kinds.values()) == 50


def test_DK71_doubling() -> None:
    v = trickcore.load_variant("doppelkopf-doubling")
    # DK58 under doubling: G = 1 + 1 + 1 = 3 without Re's 2; V = (3 + 2 - 1) x 2 = 8
    re = {0, 1}
    pts = {0: 183, 1: 0, 2: 57, 3: 0}
    tricks = {0: 6, 1: 0, 2: 6, 3: 0}
    assert dk_scores(re, pts, tricks, 1, 0, {True: 2, False: 1}, doubling=True)[0] == 8
    random_deals(v, 60, 71, doubling=True)


def test_DK72_bock_rounds() -> None:
    """A deal ending 120-120 or a solo the opponents win makes the next four deals Bock
    deals, whose scores are doubled; a trigger in a Bock round queues another round."""
    v = trickcore.load_variant("doppelkopf-bock-rounds")
    base = trickcore.load_variant("doppelkopf")
    rng = random.Random(72)
    bocked = triggered = 0
    for seed in range(6):
        m = v.new_match(seed=seed)
        twin = base.new_match(seed=seed)
        while not m.is_over:
            before = m.kept[0]["bock_deals"]
            deal, other = m.current, twin.current
            while not deal.is_over:
                action = rng.choice(texts(m.legal_actions()))
                m.apply(action)
                twin.apply(action)
            factor = 2 if before > 0 else 1
            assert deal.gains == [factor * g for g in other.gains]
            bocked += before > 0
            points = {s: 0 for s in range(4)}
            for _, cards, winner in deal.observation(0).tricks:
                points[winner] += sum(POINTS[c[:-1]] for _, c in cards)
            after = m.kept[0]["bock_deals"] if not m.is_over else None
            if after is not None:
                queued = after - max(before - 1, 0)
                assert queued in (0, 4)
                triggered += queued == 4
    assert bocked > 0 and triggered > 0


def test_DK73_no_pflichtsolo() -> None:
    v = trickcore.load_variant("doppelkopf-no-pflichtsolo")
    m = v.new_match(deck_orders=[dk51_order()])
    call_all(m, {2: "reservation", 3: "reservation"})
    # one step for every reserving player: seat 2 without both queens must say solo
    assert offered(m) == (2, ["solo"])
    m.apply("solo")
    m.apply("fleischloser")
    pass_offers(m)
    assert m.to_act == 2  # DK73: the soloist always leads
    deal = m.current
    rng = random.Random(73)
    while not deal.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert m.dealer == 1  # the dealer moves on
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    assert m.deals_played == 24


# ------------------------------------------------------------------ hidden worlds
def test_DK49_worlds_keep_the_partner_hidden_and_the_copies_alike(dk: trickcore.Variant) -> None:
    """The worlds a seat samples agree with all it saw (a window's passes and skips, the
    copies of a card played, the Hochzeit's clarifying trick) and put the other queen of
    clubs, its holder's partner, wherever the cards allow."""
    import attrs

    rng = random.Random(49)
    partners: set[int] = set()
    checked = 0
    for seed in range(8):
        m = dk.new_match(seed=seed)
        deal = m.current
        for step in range(70):
            if deal.is_over:
                break
            if step % 23 == 11:
                seat = m.to_act
                obs = m.observation(seat)
                log = [t for _, t in obs.log]
                hidden = (
                    obs.hand.count("QC") == 1
                    and "reservation" not in log
                    and not any(t == "play QC" for s, t in obs.log if s != seat)
                )
                for world in dk.sample_worlds(obs, 3, random.Random(step)):
                    seen = world.observation(seat)
                    assert attrs.evolve(seen, scores=(), kept=()) == attrs.evolve(
                        obs, scores=(), kept=()
                    )
                    checked += 1
                    if hidden:  # the other queen of clubs, still in its holder's hand
                        partners.update(
                            s for s in range(4) if s != seat and "QC" in world.hand_texts(s)
                        )
            legal = texts(m.legal_actions())
            quiet = [t for t in ("healthy", "pass") if t in legal]  # nobody tells his party
            m.apply(quiet[0] if quiet else rng.choice(legal))
    assert checked >= 30
    assert len(partners) >= 2  # the partner is not always found in the same seat


def test_DK47_a_tournament_carries_its_totals_from_series_to_series(tmp_path) -> None:
    """`doppelkopf-tournament`: each series (a match, DK47) owes its Pflichtsoli anew, and
    the tournament totals run on: a series made after another starts them where the other
    left them (`match { carry: tournament }`, `new_match(after=...)`); a saved series
    reloads with them."""
    v = trickcore.load_variant("doppelkopf-tournament")
    rng = random.Random(47)
    first = v.new_match(seed=1)
    while not first.is_over:
        first.apply(rng.choice(first.legal_actions()))
    totals = [k["tournament"] for k in first.kept]
    assert totals == first.scores
    second = v.new_match(seed=2, after=first)
    assert [k["tournament"] for k in second.kept] == totals
    assert all(k["owes"] and k["counted"] == 0 for k in second.kept)  # owed anew
    while not second.is_over:
        second.apply(rng.choice(second.legal_actions()))
    assert [k["tournament"] for k in second.kept] == [
        t + s for t, s in zip(totals, second.scores, strict=True)
    ]
    assert second.winners == [
        s for s in range(4) if second.kept[s]["tournament"] == max(totals_of(second))
    ]
    path = tmp_path / "series.json"
    trickcore.save_match(second, path)
    again = trickcore.load_match(path)
    assert again.kept == second.kept and again.scores == second.scores
    # a match of another variant, or of other seats, is no series before this one
    with pytest.raises(trickcore.TrickcoreError, match="after="):
        v.new_match(after=trickcore.load_variant("skat").new_match(seed=1))
    # without `carry`, nothing is carried
    base = trickcore.load_variant("doppelkopf")
    played = base.new_match(seed=1, kept=[{"owes": False, "counted": 5}] * 4)
    assert base.new_match(after=played).kept[0] == {"owes": True, "counted": 0}


def totals_of(m: trickcore.Match) -> list[int]:
    return [k["tournament"] for k in m.kept]


def test_DK68_the_second_dulle_beats_the_first_but_in_the_last_trick(dk) -> None:
    second = trickcore.load_variant("doppelkopf-second-dulle")
    hands = {1: ["10H"], 2: ["QC"], 3: ["10H"], 0: ["9D"]}
    assert trick_winner(dk, hands, ["10H", "QC", "10H", "9D"]) == 1  # DK7
    assert trick_winner(second, hands, ["10H", "QC", "10H", "9D"]) == 3  # DK68
    # in the 12th trick DK7 applies: deals (at most 300 tried) in which both Dullen, held
    # to the end, fall in the last trick
    for seed in range(300):
        m = second.new_match(deck_orders=[second.stack_deck(hands, dealer=0)])
        call_all(m, {})
        rng = random.Random(seed)
        deal = m.current
        while not deal.is_over:
            legal = texts(m.legal_actions())
            keep = [a for a in legal if a != "play 10H" and a not in ("re", "kontra")]
            m.apply(rng.choice(keep or legal))
        last = deal.observation(0).tricks[-1]
        dullen = [seat for seat, card in last[1] if card == "10H"]
        if len(dullen) == 2:
            assert last[2] == dullen[0]  # the first Dulle wins the 12th trick
            return
    raise AssertionError("no deal of 300 brought both Dullen to the last trick")


def test_played_card_reads_either_copy_of_a_card():
    # DK1 (two of each card): played_card(QC) holds once either ♣Q was played; a house rule
    # where no ♣Q may be led before one has been played keeps the first leader's ♣Q back
    house = trickcore.variant_from_text(
        'extends "doppelkopf"\nname: "Queens late"\n'
        "play {\n  lead_if = not card_is(QC) or played_card(QC)\n}\n",
        "queens-late",
    )
    checked = 0
    for seed in range(40):
        match = house.new_match(seed=seed)
        while not match.is_over and match.observation(match.to_act).phase != "play":
            match.apply(match.legal_actions()[-1])
        while not match.is_over and not any(a.kind == "play" for a in match.legal_actions()):
            match.apply("pass")  # the announcements offered before the first card (DK35)
        if match.is_over:
            continue
        obs = match.observation(match.to_act)
        plays = {a.text for a in match.legal_actions() if a.kind == "play"}
        if obs.trick or not plays or obs.tricks:
            continue
        if "QC" in obs.hand and len(set(obs.hand)) > 1:
            assert "play QC" not in plays and plays
            checked += 1
    assert checked >= 3


# ------------------------------------------------------------------ DK69 the Schweine
@pytest.fixture(scope="module")
def schweinchen() -> trickcore.Variant:
    return trickcore.load_variant("doppelkopf-schweinchen")


def shown(m: trickcore.Match, seat: int) -> dict[int, bool]:
    """Who has shown the Schweine, as `seat` sees it (DK69: public once shown)."""
    return {s: v for s, name, v in m.observation(seat).deal_keep if name == "schweine"}


def test_DK69_the_schweine_beat_the_dullen(dk, schweinchen) -> None:
    # seat 1 dealt both ♦A leads one; a Dulle, a ♣Q and a ♦9 follow
    hands = {1: ["AD", "AD"], 2: ["10H", "10H"], 3: ["QC", "QC"], 0: ["9D", "9D"]}
    cards = ["AD", "10H", "QC", "9D"]
    assert trick_winner(dk, hands, cards) == 2  # DK5: the Dulle is the highest trump
    assert trick_winner(schweinchen, hands, cards) == 1  # DK69: the Schwein above it
    # led second, after the Dulle: still the highest; the other ♦A next trick as well
    m = schweinchen.new_match(deck_orders=[schweinchen.stack_deck(hands, dealer=0)])
    call_all(m, {})
    assert not any(shown(m, 0).values())  # nobody knows before the first ♦A is played
    play(m, ["AD"])
    assert shown(m, 0)[1] and shown(m, 3)[1] and not shown(m, 0)[2]  # public once played
    play(m, ["10H", "QC", "9D", "AD", "10H", "QC", "9D"])
    assert [t[2] for t in m.observation(0).tricks] == [1, 1]


def test_DK69_two_holders_of_one_diamond_ace_each_are_no_schweine(schweinchen) -> None:
    hands = {1: ["AD", "9D"], 2: ["10H", "10H"], 3: ["QC", "QC"], 0: ["AD", "9D"]}
    m = schweinchen.new_match(deck_orders=[schweinchen.stack_deck(hands, dealer=0)])
    call_all(m, {})
    play(m, ["AD", "10H", "QC", "AD"])
    assert m.observation(0).tricks[0][2] == 2  # DK7's order: the Dulle wins
    assert not any(shown(m, 2).values())


def test_DK69_no_schweine_in_a_solo(schweinchen) -> None:
    # a Lustsolo in diamonds by seat 2; seat 1 holds both ♦A: they stay below the Dulle
    hands = {
        1: ["AD", "AD"],
        2: ["10H", "QC", "QC"],
        3: ["JC", "AS", "AS", "10S", "10S", "KS", "KS", "AC", "AC", "10C", "10C", "KC"],
        0: ["9D"],
    }
    m = start(schweinchen, schweinchen.stack_deck(hands, dealer=0), owes=(True, True, False, True))
    call_all(m, {2: "reservation"})
    m.apply("solo")
    m.apply("solo_diamonds")
    play(m, ["AD", "10H", "JC", "9D"])
    assert m.observation(0).tricks[0][2] == 2
    assert not any(shown(m, 0).values())


@pytest.mark.parametrize(
    ("re_made", "kontra_points", "kontra_wins"),
    [(2, 89, False), (2, 90, True), (3, 59, False), (3, 60, True), (4, 29, False), (4, 30, True)],
)
def test_DK39_the_marks_against_an_announcement(re_made, kontra_points, kontra_wins) -> None:
    # DK39: against Re's keine 90 / 60 / 30 (Re needing 151 / 181 / 211), Kontra, who
    # announced nothing, needs 90 / 60 / 30; the card points are set by the file (the rest
    # of the deal played with everything passed) and the extra points left out (DK42)
    house = trickcore.variant_from_text(
        'extends "doppelkopf"\nname: "DK39 marks"\n'
        "deal {\n"
        f"  keep: re_made {re_made}, kontra_made 0, re_reply no, kontra_reply no, partner no, "
        "clarified 0\n}\n"
        "scoring {\n"
        f"  points = if re then {240 - kontra_points} else {kontra_points}\n"
        "  extra = 0\n}\n"
    )
    m = house.new_match(seed=7)
    deal = m.current
    # DK20: the Re party holds the queens of clubs (all healthy: a normal game)
    re = {s for s in range(4) if "QC" in deal.observation(s).hand}
    call_all(m, {})
    while not deal.is_over:
        pass_offers(m)
        if not deal.is_over:
            m.apply(texts(m.legal_actions())[0])
    gains = deal.observation(0).gains
    assert gains is not None
    for seat in range(4):
        won = gains[seat] > 0
        assert won == (kontra_wins if seat not in re else not kontra_wins), (seat, gains)
