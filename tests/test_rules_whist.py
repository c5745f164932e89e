"""Whist rules (W1–W47 of docs/rules/whist.md) played through the public API.

Each test plays a rule on real cards in `variants/whist.rules` or one of its house-rule files
(W44 `whist-long-whist`, W45 `whist-no-honours`, W47 `whist-trick-count`); none reads the
compiled model. The worked examples W32–W43 are played on stacked deals whose tricks and
honours come out exactly as the example says, from a match started at its score.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from conftest import texts

import trickcore

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]  # W2: high to low
SUITS = "CDHS"
HONOURS = ("A", "K", "Q", "J")  # W3
SIDE_A, SIDE_B = (0, 2), (1, 3)  # W1


@pytest.fixture(scope="module")
def whist() -> trickcore.Variant:
    """The base game, W1–W43."""
    return trickcore.load_variant("whist")


# ---------------------------------------------------------------- helpers
def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> str:
    return card[:-1]


def strength(card: str) -> int:
    """W2 restated: higher is better within a suit."""
    return len(RANKS) - RANKS.index(rank(card))


def trick_winner(cards: Sequence[tuple[int, str]], trump: str) -> int:
    """W11 restated: the seat of the highest trump, else of the highest card of the suit led
    (cards: (seat, card) in play order)."""
    led = suit(cards[0][1])
    return max(cards, key=lambda sc: (suit(sc[1]) == trump, suit(sc[1]) == led, strength(sc[1])))[0]


def side_of(seat: int) -> tuple[int, int]:
    return SIDE_A if seat in SIDE_A else SIDE_B


def kept(a: tuple[int, int, int] = (0, 0, 0), b: tuple[int, int, int] = (0, 0, 0)) -> list:
    """The match state of both sides as (points, games, game values), for every seat (both
    partners keep the same, W28)."""
    out = []
    for seat in range(4):
        points, games, values = a if seat in SIDE_A else b
        out.append({"points": points, "games": games, "game_values": values})
    return out


def state(m: trickcore.Match, seat: int) -> tuple[int, int, int]:
    k = m.kept_state(seat)
    return k["points"], k["games"], k["game_values"]


def layout(
    trump: str,
    trumps: dict[int, Sequence[str]],
    suit_winners: Sequence[int],
    two_holder: int,
) -> list[dict[int, str]]:
    """13 tricks (seat -> card) that every legal play of them turns out as planned.

    Tricks 1–9: the three other suits, three tricks each, everybody following with one of
    A K Q J, 10 9 8 7 or 6 5 4 3 of the suit, the planned winner holding the highest
    (`suit_winners`, 9 seats). Tricks 10–12: the trumps A..3, each seat holding the three
    ranks `trumps[seat]` says, played highest first: each trick goes to the highest trump
    in it. Trick 13: the four twos, one each; the trump two (`two_holder`) wins it."""
    others = [s for s in SUITS if s != trump]
    tricks: list[dict[int, str]] = []
    for k, w in enumerate(suit_winners):
        s, layer = others[k // 3], k % 3
        cards = [r + s for r in RANKS[4 * layer : 4 * layer + 4]]
        tricks.append({w: cards[0], **dict(zip([x for x in range(4) if x != w], cards[1:]))})
    held = {seat: sorted(trumps[seat], key=RANKS.index) for seat in range(4)}
    assert sorted(r for rs in held.values() for r in rs) == sorted(RANKS[:12])
    assert all(len(rs) == 3 for rs in held.values())
    for j in range(3):
        tricks.append({seat: held[seat][j] + trump for seat in range(4)})
    rest = [x for x in range(4) if x != two_holder]
    twos = [t for t in ("2C", "2D", "2H", "2S") if t != "2" + trump]
    tricks.append({two_holder: "2" + trump, **dict(zip(rest, twos))})
    return tricks


def winners_of(tricks: list[dict[int, str]], trump: str) -> list[int]:
    """Who wins each planned trick (W11), whoever leads it."""
    return [trick_winner(list(t.items()), trump) for t in tricks]


def start(
    v: trickcore.Variant,
    tricks: list[dict[int, str]],
    turnup: str,
    dealer: int = 0,
    at: list | None = None,
) -> trickcore.Match:
    """A match whose first deal holds the planned tricks, the dealer's card `turnup` dealt
    face up (W7), started from the score `at`."""
    hands = {s: [t[s] for t in tricks if t[s] != turnup] for s in range(4)}
    assert len(hands[dealer]) == 12, "the turn-up must be one of the dealer's cards"
    order = v.stack_deck(hands, dealer=dealer, turnup=turnup)
    return v.new_match(deck_orders=[order], kept=at, dealer=dealer)


def play_tricks(m: trickcore.Match, tricks: list[dict[int, str]]) -> None:
    """Play the planned tricks: whoever is to play plays his card of the current trick."""
    deals = m.deals_played
    while m.deals_played == deals:
        k = len(m.current.public_view().tricks)
        want = f"play {tricks[k][m.to_act]}"
        assert want in texts(m.legal_actions()), (k, want)
        m.apply(want)


def plan(
    side_a_tricks: int,
    a_honours: Sequence[str],
    trump: str = "S",
) -> tuple[list[dict[int, str]], str]:
    """A deal dealt by seat 0 in which side A (seats 0 and 2) wins `side_a_tricks` tricks and
    holds the trump honours `a_honours` (the others are side B's), and the turn-up (one of
    seat 0's trumps). Side A's honours go to seat 0 first (at most 3), then seat 2; side B's
    to seat 1, then 3; the low trumps fill up from 10 down, side A's seats first."""
    b_honours = [r for r in HONOURS if r not in a_honours]
    trumps: dict[int, list[str]] = {s: [] for s in range(4)}
    for ranks, seats in ((a_honours, SIDE_A), (b_honours, SIDE_B)):
        for r in ranks:
            seat = seats[0] if len(trumps[seats[0]]) < 3 else seats[1]
            trumps[seat].append(r)
    lows = list(RANKS[4:12])
    for seat in (0, 2, 1, 3):
        while len(trumps[seat]) < 3:
            trumps[seat].append(lows.pop(0))
    trump_tricks = winners_of(layout(trump, trumps, [0] * 9, 0)[9:12], trump)
    need = side_a_tricks - sum(w in SIDE_A for w in trump_tricks)
    assert 0 <= need <= 10, "this layout cannot give that many tricks"
    free = [0] * min(need, 10) + [1] * (10 - min(need, 10))
    tricks = layout(trump, trumps, free[:9], free[9])
    assert sum(w in SIDE_A for w in winners_of(tricks, trump)) == side_a_tricks
    turnup = min((t[0] for t in tricks if suit(t[0]) == trump), key=strength)
    return tricks, turnup


def random_match(v: trickcore.Variant, seed: int) -> trickcore.Match:
    m = v.new_match(seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    return m


# ---------------------------------------------------------------- cards and deal
def test_W1_four_players_in_two_fixed_sides(whist):
    with pytest.raises(trickcore.TrickcoreError):
        whist.new_match(players=3)
    m = random_match(whist, 3)
    scores = m.scores
    assert scores[0] == scores[2] and scores[1] == scores[3]  # W28


def test_W2_W5_W32_the_deal_one_card_at_a_time_from_the_eldest(whist):
    deck = [r + s for s in "CDHS" for r in reversed(RANKS)]  # 2C 3C ... AC, 2D ... AS
    m = whist.new_match(deck_orders=[deck])
    hands = {s: set(m.observation(s).hand) for s in range(4)}
    assert hands[1] == set("2C 6C 10C AC 5D 9D KD 4H 8H QH 3S 7S JS".split())
    assert hands[2] == set("3C 7C JC 2D 6D 10D AD 5H 9H KH 4S 8S QS".split())
    assert hands[3] == set("4C 8C QC 3D 7D JD 2H 6H 10H AH 5S 9S KS".split())
    assert hands[0] == set("5C 9C KC 4D 8D QD 3H 7H JH 2S 6S 10S AS".split())
    for s in range(4):  # W7: the last card, the A♠, turned up: spades are trump
        obs = m.observation(s)
        assert obs.turned_up == "AS" and obs.trump == "spades"
    assert len(whist.new_match(seed=1).current.deck_order) == 52


@pytest.mark.parametrize("seed", range(6))
def test_W4_W42_the_deal_passes_clockwise_whatever_the_games(whist, seed):
    m = whist.new_match(seed=seed)
    rng = random.Random(seed)
    game_ends = []
    while not m.is_over:
        assert m.current.dealer == m.deals_played % 4  # W4: seat 0 deals first
        games = sum(state(m, s)[1] for s in (0, 1))
        deals = m.deals_played
        while m.deals_played == deals and not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        if sum(state(m, s)[1] for s in (0, 1)) > games:
            game_ends.append(m.deals_played)
    if seed == 0:  # W42: some game ends on a deal that leaves the next dealer mid-round
        assert any(n % 4 for n in game_ends)


def test_W6_W8_no_redeal_and_no_bidding(whist):
    m = whist.new_match(seed=2)
    assert all(t.startswith("play ") for t in texts(m.legal_actions()))
    assert m.to_act == 1  # W9: the eldest hand leads


# ---------------------------------------------------------------- the turn-up
def test_W7_W43_the_turn_up_is_the_dealers_card_and_stays_known(whist):
    # W43: seat 0 deals and turns up the 4♥; seat 1 leads the 9♥, seats 2 and 3 follow;
    # seat 0, holding the 4♥ and the K♥, may play either
    hands = {
        1: ["9H", *[r + "C" for r in RANKS[:12]]],
        2: ["10H", *[r + "D" for r in RANKS[:12]]],
        3: ["JH", "2C", "2D", *[r + "S" for r in ("A", "K", "Q", "10", "9", "8", "7", "6", "5")]],
        0: ["KH", "AH", "QH", "8H", "7H", "6H", "5H", "3H", "2H", "4S", "3S", "2S"],
    }
    hands[3].append("JS")
    order = whist.stack_deck(hands, dealer=0, turnup="4H")
    for card in ("KH", "4H"):
        m = whist.new_match(deck_orders=[order])
        assert "4H" in m.observation(0).hand  # part of his hand from the deal on
        assert all(m.observation(s).trump == "hearts" for s in range(4))
        for play in ("play 9H", "play 10H", "play JH"):
            m.apply(play)
        legal = set(texts(m.legal_actions()))
        assert {"play KH", "play 4H"} <= legal
        m.apply(f"play {card}")
        for s in range(4):  # W30: still known to all, from the deal to the end
            assert m.observation(s).turned_up == "4H"
        assert ("4H" in m.observation(0).hand) == (card == "KH")


def test_W7_W29_W30_only_the_turn_up_is_seen_of_another_hand(whist):
    m = whist.new_match(seed=5)
    rng = random.Random(5)
    dealer_hand = set(m.observation(0).hand)
    turned = m.observation(1).turned_up
    assert turned in dealer_hand
    for seat in (1, 2, 3):
        obs = m.observation(seat)
        assert not dealer_hand - {turned} & set(obs.hand)
        assert obs.turned_up == turned
    for _ in range(20):
        m.apply(rng.choice(m.legal_actions()))
        assert {m.observation(s).turned_up for s in range(4)} == {turned}


# ---------------------------------------------------------------- play
def test_W10_follow_suit_else_any_card(whist):
    for seed in range(8):
        m = whist.new_match(seed=seed)
        rng = random.Random(seed)
        assert m.to_act == (m.current.dealer + 1) % 4  # W9
        while m.deals_played == 0:
            seat = m.to_act
            hand = m.observation(seat).hand
            trick = m.current.public_view().trick
            legal = set(texts(m.legal_actions()))
            if trick:  # W10: follow if he can, else any card; no duty to trump
                led = suit(trick[0][1])
                follow = [c for c in hand if suit(c) == led]
                assert legal == {f"play {c}" for c in (follow or hand)}
            else:
                assert legal == {f"play {c}" for c in hand}
            m.apply(rng.choice(sorted(legal)))
        assert len(m.deal_results) == 1


def test_W11_W12_winners_in_random_deals(whist):
    for seed in range(6):
        d = whist.new_deal(seed=seed)
        rng = random.Random(seed)
        trump = d.observation(0).trump[0].upper()
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
        tricks = d.public_view().tricks
        assert len(tricks) == 13  # W13: all 13 tricks are played
        leader = (d.dealer + 1) % 4  # W9: the eldest leads, then each trick's winner
        for first, cards, winner in tricks:
            assert first == leader == cards[0][0]
            assert winner == trick_winner(cards, trump)  # W11
            leader = winner
        # W12: the tricks count for the side that won them
        won = [sum(1 for t in tricks if t[2] in side) for side in (SIDE_A, SIDE_B)]
        assert sum(won) == 13
        # W31: every card of every hand as dealt has been shown by the end
        assert len({c for t in tricks for _, c in t[1]}) == 52


# ---------------------------------------------------------------- scoring a deal
def test_W14_W34_odd_tricks(whist):
    for a_tricks, a_points, b_points in ((9, 3, 0), (7, 1, 0), (6, 0, 1), (4, 0, 3)):
        tricks, turnup = plan(a_tricks, ["A", "Q"])  # W33: honours divided, 2 each
        m = start(whist, tricks, turnup)
        play_tricks(m, tricks)
        assert state(m, 0)[0] == state(m, 2)[0] == a_points
        assert state(m, 1)[0] == state(m, 3)[0] == b_points


def test_W15_W16_W35_honours_whoever_wins_the_tricks(whist):
    # W35: side B held the A, K and J of trumps, side A the Q: B scores 2 for honours, even
    # when side A wins 9 tricks (3 points)
    tricks, turnup = plan(9, ["Q"])
    m = start(whist, tricks, turnup)
    play_tricks(m, tricks)
    assert state(m, 0)[0] == 3 and state(m, 1)[0] == 2
    # had side B held all four: 4 (side A still 3)
    tricks, turnup = plan(9, [])
    m = start(whist, tricks, turnup)
    play_tricks(m, tricks)
    assert state(m, 0)[0] == 3 and state(m, 1)[0] == 4


def test_W15_honours_held_by_one_partner_or_split(whist):
    # all four in side A's hands (seat 0 three, seat 2 one): 4; side B wins 7 tricks: 1
    tricks, turnup = plan(6, ["A", "K", "Q", "J"])
    m = start(whist, tricks, turnup)
    play_tricks(m, tricks)
    assert state(m, 0)[0] == 4 and state(m, 1)[0] == 1


def test_W17_W36_no_honours_at_four(whist):
    # side A at 4, side B at 1; A holds all four honours, B wins 7 tricks: B to 2, A stays
    tricks, turnup = plan(6, ["A", "K", "Q", "J"])
    m = start(whist, tricks, turnup, at=kept((4, 0, 0), (1, 0, 0)))
    play_tricks(m, tricks)
    assert state(m, 0) == (4, 0, 0) and state(m, 1) == (2, 0, 0)


def test_W18_W22_W37_tricks_before_honours(whist):
    # side A at 3, side B at 2; A wins 8 tricks: 2 points, to 5, the game; B's four honours
    # are not scored; B has 2: a double, 2 to side A, and both start again at 0 (W20)
    tricks, turnup = plan(8, [])
    m = start(whist, tricks, turnup, at=kept((3, 0, 0), (2, 0, 0)))
    play_tricks(m, tricks)
    assert state(m, 0) == (0, 1, 2) and state(m, 2) == (0, 1, 2)
    assert state(m, 1) == (0, 0, 0)


def test_W18_W22_W38_a_game_by_honours(whist):
    # side A at 3, side B at 1; B wins 8 tricks (to 3); A held three honours and stood at
    # 3: 2 points, to 5, the game; B has 3: a single, 1 to side A
    tricks, turnup = plan(5, ["A", "K", "Q"])
    m = start(whist, tricks, turnup, at=kept((3, 0, 0), (1, 0, 0)))
    play_tricks(m, tricks)
    assert state(m, 0) == (0, 1, 1) and state(m, 1) == (0, 0, 0)


def test_W20_W22_W39_a_big_hand_is_a_treble_and_the_rest_is_lost(whist):
    tricks, turnup = plan(13, ["A", "K", "Q", "J"])
    m = start(whist, tricks, turnup)
    play_tricks(m, tricks)
    assert state(m, 0) == (0, 1, 3) and state(m, 1) == (0, 0, 0)
    assert m.scores == [0, 0, 0, 0]  # the rubber goes on


def test_W21_exactly_one_side_reaches_game(whist):
    for seed in range(10):
        m = random_match(whist, seed)
        games = [m.kept_state(s)["games"] for s in range(4)]
        assert sorted({games[0], games[1]}) in ([1, 2], [0, 2])


# ---------------------------------------------------------------- the rubber and the match
def test_W23_W24_W25_W27_W40_a_rubber_of_three_games(whist):
    # game 1 to side A as a single (1), game 2 to side B as a double (2); side A wins game
    # 3 with side B at 0: a treble (3). A: 1 + 3 + 2 = 6, B: 2; A wins the rubber by 4
    tricks, turnup = plan(11, ["A", "Q"])
    m = start(whist, tricks, turnup, at=kept((0, 1, 1), (0, 1, 2)))
    play_tricks(m, tricks)
    assert m.is_over
    assert m.scores == [4, 0, 4, 0]  # W28: both partners score the side's result
    assert sorted(m.winners) == [0, 2]


def test_W23_W25_W41_a_rubber_of_two_games(whist):
    # game 1 to side A as a treble; side A at 3 wins game 2 with side B at 1 (a double):
    # A: 3 + 2 + 2 = 7, B: 0; the third game is not played
    tricks, turnup = plan(8, ["A", "Q"])
    m = start(whist, tricks, turnup, at=kept((3, 1, 3), (1, 0, 0)))
    play_tricks(m, tricks)
    assert m.is_over and m.scores == [7, 0, 7, 0]


def test_W23_a_second_game_for_each_side_is_needed(whist):
    # one game each: the rubber goes on to the third game
    tricks, turnup = plan(13, ["A", "K", "Q", "J"])
    m = start(whist, tricks, turnup, at=kept((0, 0, 0), (0, 1, 2)))
    play_tricks(m, tricks)
    assert not m.is_over and state(m, 0) == (0, 1, 3)


def test_W26_W27_W28_the_rubber_winners_score_its_difference(whist):
    for seed in range(10):
        m = random_match(whist, seed)
        k = [m.kept_state(s) for s in range(4)]
        a_won = k[0]["games"] == 2
        winners, losers = (SIDE_A, SIDE_B) if a_won else (SIDE_B, SIDE_A)
        total = k[winners[0]]["game_values"] + 2
        other = k[losers[0]]["game_values"]
        assert total > other  # W26
        assert [m.scores[s] for s in winners] == [total - other] * 2
        assert [m.scores[s] for s in losers] == [0, 0]
        assert sorted(m.winners) == sorted(winners)


# ---------------------------------------------------------------- house rules
def test_W44_long_whist_a_game_of_ten():
    v = trickcore.load_variant("whist-long-whist")
    # at 9 no honours: side A at 9 with all four honours, side B wins 7 tricks (to 1)
    tricks, turnup = plan(6, ["A", "K", "Q", "J"])
    m = start(v, tricks, turnup, at=kept((9, 0, 0), (0, 0, 0)))
    play_tricks(m, tricks)
    assert state(m, 0) == (9, 0, 0) and state(m, 1) == (1, 0, 0)
    # at 8 honours count: 8 + 4 = 12, a game; the losers have 1 (a double, 1 to 4)
    m = start(v, tricks, turnup, at=kept((8, 0, 0), (0, 0, 0)))
    play_tricks(m, tricks)
    assert state(m, 0) == (0, 1, 2)
    # the losers at 5 to 9: a single; at 0: a treble
    for b_points, value in ((4, 2), (5, 1), (8, 1)):
        tricks, turnup = plan(9, ["A", "Q"])
        m = start(v, tricks, turnup, at=kept((7, 0, 0), (b_points, 0, 0)))
        play_tricks(m, tricks)
        assert state(m, 0) == (0, 1, value), b_points
    tricks, turnup = plan(13, ["A", "Q"])
    m = start(v, tricks, turnup, at=kept((3, 0, 0), (0, 0, 0)))
    play_tricks(m, tricks)
    assert state(m, 0) == (0, 1, 3)
    # five points are not a game here
    tricks, turnup = plan(11, ["A", "Q"])
    m = start(v, tricks, turnup)
    play_tricks(m, tricks)
    assert state(m, 0) == (5, 0, 0)


def test_W45_no_honours():
    v = trickcore.load_variant("whist-no-honours")
    tricks, turnup = plan(6, ["A", "K", "Q", "J"])
    m = start(v, tricks, turnup)
    play_tricks(m, tricks)
    assert state(m, 0) == (0, 0, 0) and state(m, 1) == (1, 0, 0)
    # and side A at 3 with three honours does not reach game by them (W38 without honours)
    tricks, turnup = plan(5, ["A", "K", "Q"])
    m = start(v, tricks, turnup, at=kept((3, 0, 0), (1, 0, 0)))
    play_tricks(m, tricks)
    assert state(m, 0) == (3, 0, 0) and state(m, 1) == (3, 0, 0)


def test_W47_trick_count_over_24_deals():
    v = trickcore.load_variant("whist-trick-count")
    tricks, turnup = plan(9, ["A", "K", "Q", "J"])
    m = start(v, tricks, turnup)
    play_tricks(m, tricks)
    assert m.scores == [9, 4, 9, 4]  # each side its tricks; honours do not count
    for seed in (1, 2):
        m = random_match(v, seed)
        assert m.deals_played == 24
        assert m.scores[0] + m.scores[1] == 13 * 24
        a, b = m.scores[0], m.scores[1]
        want = [0, 2] if a > b else [1, 3] if b > a else [0, 1, 2, 3]
        assert sorted(m.winners) == want


def test_W46_trumps_in_rotation_by_the_deal_number():
    v = trickcore.load_variant("whist-trump-rotation")
    m = v.new_match(seed=4)
    rng = random.Random(4)
    cycle = ["hearts", "clubs", "diamonds", "spades"]
    seen = []
    while not m.is_over and m.deals_played < 9:
        n = m.deals_played
        obs = m.observation(0)
        seen.append(obs.trump)
        assert obs.turned_up is None  # no card is turned up
        assert all(len(m.observation(s).hand) == 13 for s in range(4))
        while m.deals_played == n and not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
    assert seen == [cycle[k % 4] for k in range(len(seen))] and len(seen) >= 5
    # the honours are those of the deal's trump suit: W35 with hearts trump in deal 1
    tricks, _ = plan(9, ["Q"], trump="H")
    hands = {s: [t[s] for t in tricks] for s in range(4)}
    m = v.new_match(deck_orders=[v.stack_deck(hands, dealer=0)])
    play_tricks(m, tricks)
    assert state(m, 0)[0] == 3 and state(m, 1)[0] == 2
