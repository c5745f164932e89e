"""Contract Bridge rules (B1–B61 of docs/rules/bridge.md) played through the public API.

Each test plays a rule on real cards in `variants/bridge.rules` or in one of its house-rule
files (B57-B61); none
of them reads the compiled model. The scoring examples B42–B54 are
played on stacked deals whose 13 tricks come out exactly as planned, whoever leads.

Where a test is not about who calls or leads first (B7, B17), its auction starts with
whoever the deal offers the first call to and its play with whoever is to lead, so that
each rule is judged on its own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from conftest import texts

import trickcore

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]  # B2: high to low
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]
STRAINS = ["clubs", "diamonds", "hearts", "spades", "notrump"]  # B3: low to high
SUIT_OF = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S", "notrump": None}
BIDS = [f"bid {level} {s}" for level in range(1, 8) for s in STRAINS]  # B9: the 35 bids
NS, EW = (0, 2), (1, 3)  # B1
# B5: the vulnerable sides of boards 1..16
VULNERABLE = {
    1: "", 2: "NS", 3: "EW", 4: "NSEW", 5: "NS", 6: "EW", 7: "NSEW", 8: "",
    9: "EW", 10: "NSEW", 11: "", 12: "NS", 13: "NSEW", 14: "", 15: "NS", 16: "EW",
}  # fmt: skip


@pytest.fixture(scope="module")
def bridge() -> trickcore.Variant:
    """The base game, B1–B56."""
    return trickcore.load_variant("bridge")


def house(name: str) -> trickcore.Variant:
    """A shipped house-rule file of bridge (B58, B59), by its full name (so that the mutation
    tool finds the tests of each file)."""
    return trickcore.load_variant(name)


# ---------------------------------------------------------------- helpers
def legal(state) -> list[str]:
    """The texts of the legal actions of a deal or match."""
    return texts(state.legal_actions())


def deal_of(state) -> trickcore.Deal:
    """The deal being played (of a match, or the deal itself)."""
    d = state.current if isinstance(state, trickcore.Match) else state
    assert isinstance(d, trickcore.Deal)
    return d


def suit(card: str) -> str:
    """The suit symbol of a card text."""
    return card[-1]


def strength(card: str) -> int:
    """B2 restated: higher is better within a suit."""
    return len(RANKS) - RANKS.index(card[:-1])


def side_of(seat: int) -> tuple[int, int]:
    """B1: the partnership of a seat."""
    return NS if seat in NS else EW


def vulnerable(board: int, seat: int) -> bool:
    """B5 restated: is the seat's side vulnerable on this board?"""
    sides = VULNERABLE[(board - 1) % 16 + 1]
    return ("NS" if seat in NS else "EW") in sides


def dealer_of(board: int) -> int:
    """B4 restated."""
    return (board - 1) % 4


def auction_over(state) -> bool:
    """The auction is over: the deal ended or no call (pass) is offered any more."""
    d = deal_of(state)
    return d.is_over or "pass" not in legal(state)


def finish_auction(state) -> None:
    """Everybody passes until the auction ends."""
    while not auction_over(state):
        state.apply("pass")


def auction_to(state, declarer: int, contract: str, doubling: str = "") -> None:
    """Seats pass until `declarer` calls; he bids the contract; the next (an opponent)
    doubles and the declarer's partner redoubles, as asked; then three passes."""
    while state.to_act != declarer:
        state.apply("pass")
    state.apply(contract)
    if doubling:
        state.apply("double")
        if doubling == "redoubled":
            state.apply("redouble")
    finish_auction(state)


def layout(winners: Sequence[int], trump: str | None) -> list[dict[int, str]]:
    """13 tricks (seat -> card) in which trick k goes to winners[k] whoever leads it.

    Tricks 1–12: clubs, diamonds, hearts, spades, three tricks each; in each the four
    players follow with one of A K Q J, 10 9 8 7 or 6 5 4 3, the winner holding the highest.
    Trick 13: the four twos, one each. At no trump the leader wins it (winners[12] must be
    winners[11]); in a suit the holder of the trump two does."""
    assert len(winners) == 13
    tricks: list[dict[int, str]] = []
    for k in range(12):
        s, layer = SUITS[k // 3], k % 3
        cards = [r + s for r in RANKS[4 * layer : 4 * layer + 4]]
        w = winners[k]
        tricks.append({w: cards[0], **dict(zip([x for x in range(4) if x != w], cards[1:]))})
    w = winners[12]
    if trump is None:
        assert winners[11] == w
    top = "2" + (trump or "C")
    rest = [c for c in ("2C", "2D", "2H", "2S") if c != top]
    tricks.append({w: top, **dict(zip([x for x in range(4) if x != w], rest))})
    return tricks


def winners_for(declarer: int, taken: int) -> list[int]:
    """A winner sequence in which the declaring side wins `taken` tricks (the declarer about
    half, dummy the rest) and the defenders the others, the last two won by one seat."""
    dummy, left, right = (declarer + 2) % 4, (declarer + 1) % 4, (declarer + 3) % 4
    lost = 13 - taken
    seq = (
        [declarer] * (taken - taken // 2)
        + [dummy] * (taken // 2)
        + [left] * (lost - lost // 2)
        + [right] * (lost // 2)
    )
    for shift in range(13):  # some seat wins 4 or more: some rotation ends in a pair
        w = seq[shift:] + seq[:shift]
        if w[11] == w[12]:
            return w
    raise AssertionError("no layout")


def hands_of(tricks: list[dict[int, str]]) -> dict[int, list[str]]:
    """Each seat's 13 cards in a layout."""
    return {s: [t[s] for t in tricks] for s in range(4)}


def play_tricks(state, tricks: list[dict[int, str]]) -> trickcore.Deal:
    """Play the planned tricks: whatever hand is to play (the declarer playing dummy's
    too) plays its card of the current trick; then check every winner (B22)."""
    d = deal_of(state)
    while not d.is_over:
        k = len(d.public_view().tricks)
        acts = set(legal(state))
        mine = [t for t in (f"play {c}" for c in tricks[k].values()) if t in acts]
        assert len(mine) == 1, (k, mine, acts)
        state.apply(mine[0])
    played = d.public_view().tricks
    assert [t[2] for t in played] == [next(iter(t)) for t in tricks]
    return d


def board_gains(
    v: trickcore.Variant,
    board: int,
    declarer: int,
    contract: str,
    taken: int,
    doubling: str = "",
) -> list[int]:
    """Board `board` (dealer and deal number as B4): `declarer` bids the contract, it is
    doubled or redoubled as asked, the declaring side takes `taken` tricks; the gains."""
    strain = contract.split()[2]
    tricks = layout(winners_for(declarer, taken), SUIT_OF[strain])
    dealer = dealer_of(board)
    order = v.stack_deck(hands_of(tricks), dealer=dealer)
    d = v.new_deal(order, dealer=dealer, deal_number=board)
    auction_to(d, declarer, contract, doubling)
    play_tricks(d, tricks)
    assert d.gains is not None
    return list(d.gains)


def restated_score(contract: str, doubling: str, vul: bool, taken: int) -> int:
    """B24–B31 restated: the declaring side's board score (negative: the defenders')."""
    level, strain = int(contract.split()[1]), contract.split()[2]
    factor = {"": 1, "doubled": 2, "redoubled": 4}[doubling]
    minor = strain in ("clubs", "diamonds")
    per = 20 if minor else 30
    if taken >= level + 6:
        trick = factor * (level * per + (10 if strain == "notrump" else 0))
        score = trick + ((500 if vul else 300) if trick >= 100 else 50)
        score += {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
        score += {"": 0, "doubled": 50, "redoubled": 100}[doubling]
        each = per if not doubling else (200 if vul else 100) * factor // 2
        return score + (taken - level - 6) * each
    down = level + 6 - taken
    if not doubling:
        return -down * (100 if vul else 50)
    steps = [200, 300] if vul else [100, 200, 200, 300]
    total = sum(steps[min(i, len(steps) - 1)] for i in range(down))
    return -total * factor // 2


def side_gains(score: int, declarer: int) -> list[int]:
    """The four seats' gains when the declaring side scores `score` (negative: the
    defenders score -score): one side gets it, both partners (B34)."""
    decl = side_of(declarer)
    return [
        (score if score > 0 else 0) if s in decl else (-score if score < 0 else 0) for s in range(4)
    ]


def random_deal(v: trickcore.Variant, seed: int, dealer: int = 0, check=None) -> trickcore.Deal:
    """A deal with a random auction (mostly passes, so that it ends) and random cards;
    `check(d)` runs before every call and card."""
    rng = random.Random(seed)
    d = v.new_deal(seed=seed, dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    while not d.is_over:
        if check:
            check(d)
        acts = legal(d)
        if "pass" in acts and rng.random() < 0.6:
            d.apply("pass")
        else:
            d.apply(rng.choice(acts))
    return d


def last_call_not_pass(calls: Sequence[tuple[int, str]]) -> tuple[int, str] | None:
    """The most recent call other than pass, with its seat."""
    return next(((s, c) for s, c in reversed(calls) if c != "pass"), None)


def restated_calls(calls: Sequence[tuple[int, str]], seat: int) -> set[str]:
    """B8, B10–B13 restated: the calls open to `seat` after `calls`."""
    bids = [c for _, c in calls if c.startswith("bid")]
    above = BIDS[BIDS.index(bids[-1]) + 1 :] if bids else BIDS
    out = {"pass", *above}
    last = last_call_not_pass(calls)
    if last is not None and last[0] not in side_of(seat):
        if last[1].startswith("bid"):
            out.add("double")
        elif last[1] == "double":
            out.add("redouble")
    return out


def view(d: trickcore.Deal, seat: int):
    """The observation of a seat, or the public view for -1."""
    return d.public_view() if seat < 0 else d.observation(seat)


def plays(cards) -> set[str]:
    """Play actions for these cards."""
    return {f"play {c}" for c in cards}


def open_hand(obs, seat: int) -> tuple[str, ...] | None:
    """The cards of `seat` lying face up in an observation, or None."""
    return next((tuple(cards) for s, cards in obs.open_hands if s == seat), None)


# ---------------------------------------------------------------- B1–B3: cards and players
def test_B1_four_players_only(bridge):
    """B1: bridge is played by exactly four."""
    for n in (2, 3, 5):
        with pytest.raises(trickcore.TrickcoreError):
            bridge.new_match(seed=1, players=n)
    assert len(bridge.new_deal(seed=1).observation(0).players_in_deal) == 4


def test_B1_partners_sit_opposite_and_share_each_board(bridge):
    """B1: South (2) declares and makes 1NT: North (0), his partner, gets the same score;
    East and West (1, 3) get nothing. West declaring: East shares."""
    assert board_gains(bridge, 1, 2, "bid 1 notrump", 7) == [90, 0, 90, 0]
    assert board_gains(bridge, 1, 3, "bid 1 notrump", 7) == [0, 90, 0, 90]


def test_B2_52_cards_13_each(bridge):
    """B2: one 52-card deck, 13 ranks in 4 suits; everyone holds 13."""
    for seed in range(3):
        d = bridge.new_deal(seed=seed)
        hands = [d.observation(s).hand for s in range(4)]
        assert [len(h) for h in hands] == [13] * 4
        assert sorted(c for h in hands for c in h) == sorted(DECK)
    for bad in ("1S", "11H", "AX", "AN"):
        with pytest.raises(trickcore.TrickcoreError):
            bridge.card(bad)


def test_B3_B9_strains_rank_within_a_level(bridge):
    """B3, B9: after 1♥ the level-1 bids left are 1♠ and 1NT; after 1NT only level 2 and
    up; after 2♣ the next is 2♦."""
    d = bridge.new_deal(seed=3)
    d.apply("bid 1 hearts")
    assert [b for b in legal(d) if b.startswith("bid 1 ")] == ["bid 1 spades", "bid 1 notrump"]
    d.apply("bid 1 notrump")
    assert not [b for b in legal(d) if b.startswith("bid 1 ")]
    assert "bid 2 clubs" in legal(d)
    d.apply("bid 2 clubs")
    assert [b for b in legal(d) if b.startswith("bid")][0] == "bid 2 diamonds"


# ---------------------------------------------------------------- B4–B6: the deal
def test_B4_dealer_of_each_board(bridge):
    """B4, B33: boards 1–4 of a match are dealt by North, East, South, West; passed-out
    boards (B41) move the deal on too."""
    m = bridge.new_match(seed=4)
    dealers = []
    for _ in range(4):
        dealers.append(m.deal.dealer)
        for _ in range(4):
            m.apply("pass")
    assert dealers == [0, 1, 2, 3] and m.is_over


def test_B4_B59_dealer_of_boards_5_to_8():
    """B4, B59: in an 8-board match boards 5–8 are dealt by North, East, South, West."""
    m = house("bridge-boards-8").new_match(seed=5)
    dealers = []
    for _ in range(8):
        dealers.append(m.deal.dealer)
        for _ in range(4):
            m.apply("pass")
    assert dealers == [0, 1, 2, 3, 0, 1, 2, 3] and m.is_over


@pytest.mark.parametrize("board", range(1, 33))
def test_B5_vulnerability_by_board(bridge, board):
    """B5: on board b (b > 16 as ((b - 1) mod 16) + 1) North-South, then East-West,
    declare 7NT and go one down: the defenders get 100 if the declaring side is vulnerable,
    else 50."""
    for declarer in (0, 1):
        gains = board_gains(bridge, board, declarer, "bid 7 notrump", 12)
        down = 100 if vulnerable(board, declarer) else 50
        assert gains == side_gains(-down, declarer), (board, declarer)


def test_B5_vulnerability_of_a_made_game(bridge):
    """B5, B26: 3NT made on board 4 (both vulnerable) scores 600 for either side; on board 1
    (neither) 400; on board 12 (N-S only) 600 for N-S and 400 for E-W."""
    for board, ns, ew in ((4, 600, 600), (1, 400, 400), (12, 600, 400), (16, 400, 600)):
        assert board_gains(bridge, board, 2, "bid 3 notrump", 9) == side_gains(ns, 2)
        assert board_gains(bridge, board, 3, "bid 3 notrump", 9) == side_gains(ew, 3)


@pytest.mark.parametrize("dealer", range(4))
def test_B6_one_card_at_a_time_from_the_dealer_s_left(bridge, dealer):
    """B6: deck position i (top = 1) goes to seat (d + 1 + ((i - 1) mod 4)) mod 4."""
    order = list(DECK)
    random.Random(dealer).shuffle(order)
    d = bridge.new_deal(order, dealer=dealer)
    for i, card in enumerate(order, start=1):
        assert card in d.observation((dealer + 1 + (i - 1) % 4) % 4).hand
    assert d.observation(0).hand_sizes == (13, 13, 13, 13)


# ---------------------------------------------------------------- B7–B16: the auction
@pytest.mark.parametrize("dealer", range(4))
def test_B7_the_dealer_calls_first_then_clockwise(bridge, dealer):
    """B7: the dealer makes the first call; then the turn passes clockwise."""
    d = bridge.new_deal(seed=7, dealer=dealer)
    order = []
    for call in ("pass", "bid 1 clubs", "pass", "pass", "bid 1 hearts"):
        order.append(d.to_act)
        d.apply(call)
    assert order == [(dealer + k) % 4 for k in range(5)]


def test_B7_a_player_who_passed_may_call_again(bridge):
    """B7: the first caller passes; at his next turn he may bid, double or pass again."""
    d = bridge.new_deal(seed=8)
    first = d.to_act
    for call in ("pass", "bid 1 clubs", "pass", "pass"):
        d.apply(call)
    assert d.to_act == first
    assert {"pass", "double", "bid 1 diamonds", "bid 7 notrump"} <= set(legal(d))
    d.apply("bid 1 spades")
    assert d.public_view().bids[-1] == (first, "bid 1 spades")


def test_B8_B13_the_calls_of_the_opening_turn(bridge):
    """B8, B10, B13: the first caller may pass or make any of the 35 bids; there is nothing
    to double or redouble yet."""
    d = bridge.new_deal(seed=9)
    assert set(legal(d)) == {"pass", *BIDS}
    for bad in ("double", "redouble", "bid 0 clubs", "bid 8 clubs", "bid 1 trumps", "bid 1"):
        with pytest.raises(trickcore.IllegalActionError):
            d.apply(bad)


def test_B9_B10_the_35_bids_in_rank_order(bridge):
    """B9, B10: the players bid the 35 bids one after another, from 1♣ to 7NT; at each
    turn the bids offered are exactly those ranking above the last; after 7NT none is."""
    d = bridge.new_deal(seed=10)
    for i, b in enumerate(BIDS):
        assert {x for x in legal(d) if x.startswith("bid")} == set(BIDS[i:]), b
        d.apply(b)
    assert not [x for x in legal(d) if x.startswith("bid")]
    assert "pass" in legal(d) and "double" in legal(d)


def test_B10_B40_no_bid_at_or_below_the_last(bridge):
    """B10, B40: after 2♥ nobody may bid 2♦ or 2♥ (nor 1NT); 2♠ and 2NT are fine."""
    d = bridge.new_deal(seed=11)
    d.apply("bid 2 hearts")
    for bad in ("bid 2 diamonds", "bid 2 hearts", "bid 1 notrump"):
        with pytest.raises(trickcore.IllegalActionError):
            d.apply(bad)
    d.apply("pass")
    for bad in ("bid 2 diamonds", "bid 2 hearts"):
        assert bad not in legal(d)
    assert {"bid 2 spades", "bid 2 notrump"} <= set(legal(d))


def test_B11_B39_double_an_opponent_s_bid_passes_between(bridge):
    """B11, B39: after F 1♠ (F the first caller), pass, pass, F's left-hand opponent may
    still double: the last call other than pass is an opponent's bid."""
    d = bridge.new_deal(seed=12)
    first = d.to_act
    d.apply("bid 1 spades")
    assert "double" in legal(d)  # F + 1, at once
    d.apply("pass")
    assert "double" not in legal(d)  # F + 2: his partner's bid (B40)
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("double")
    d.apply("pass")
    assert d.to_act == (first + 3) % 4 and "double" in legal(d)
    d.apply("double")
    assert d.public_view().bids[-1] == ((first + 3) % 4, "double")


def test_B11_no_double_of_a_doubled_bid(bridge):
    """B11: after 1♠ doubled, the doubler's partner may not double again (the last call
    other than pass is a double, not a bid); nor may anyone double once it is redoubled."""
    d = bridge.new_deal(seed=13)
    for call in ("bid 1 spades", "double", "pass"):
        d.apply(call)
    assert "double" not in legal(d)
    d = bridge.new_deal(seed=13)
    for call in ("bid 1 spades", "double", "redouble"):
        d.apply(call)
    assert "double" not in legal(d) and "redouble" not in legal(d)
    d.apply("pass")
    assert "double" not in legal(d) and "redouble" not in legal(d)


def test_B12_B39_redouble_after_an_opponent_s_double(bridge):
    """B12, B39: after F 1♠, double, F's partner may redouble at once; if he and the next
    pass, F himself may redouble at his turn."""
    d = bridge.new_deal(seed=14)
    first = d.to_act
    d.apply("bid 1 spades")
    d.apply("double")
    assert "redouble" in legal(d)
    d.apply("pass")
    assert "redouble" not in legal(d)  # the doubler's partner: his side's own double
    d.apply("pass")
    assert d.to_act == first and "redouble" in legal(d)
    d.apply("redouble")
    assert d.public_view().bids[-1] == (first, "redouble")


def test_B12_B40_no_redouble_without_a_double(bridge):
    """B12, B40: after F 1♠ the next player may not redouble (there is no double yet)."""
    d = bridge.new_deal(seed=15)
    d.apply("bid 1 spades")
    assert "redouble" not in legal(d)
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("redouble")


def test_B8_B10_B13_calls_in_random_auctions(bridge):
    """B8, B10–B13 restated: at every call of random auctions the calls offered are pass,
    every higher bid, double after an opponent's bid and redouble after an opponent's
    double (passes in between do not matter), and nothing else."""
    seen = set()

    def check(d: trickcore.Deal) -> None:
        """The calls offered are those B8–B13 allow."""
        if auction_over(d):
            return
        calls = d.public_view().bids
        want = restated_calls(calls, d.to_act)
        assert set(legal(d)) == want, calls
        seen.update(w for w in ("double", "redouble") if w in want)

    for seed in range(40):
        random_deal(bridge, 500 + seed, dealer=seed % 4, check=check)
    assert seen == {"double", "redouble"}


def test_B14_three_passes_end_the_auction(bridge):
    """B14: after a bid, two passes do not end the auction, three do; after a double or a
    redouble the same."""
    for tail in ((), ("double",), ("double", "redouble")):
        d = bridge.new_deal(seed=16)
        d.apply("bid 1 clubs")
        for call in tail:
            d.apply(call)
        d.apply("pass")
        d.apply("pass")
        assert not auction_over(d)
        d.apply("pass")
        assert auction_over(d) and not d.is_over
        assert all(a.startswith("play") for a in legal(d))


def test_B14_a_bid_after_three_opening_passes(bridge):
    """B14: three passes at the start do not end the auction: the fourth player may open,
    and then three passes end it with him declaring."""
    d = bridge.new_deal(seed=17)
    fourth = (d.to_act + 3) % 4
    for _ in range(3):
        d.apply("pass")
    assert d.to_act == fourth and "bid 1 clubs" in legal(d)
    d.apply("bid 1 clubs")
    finish_auction(d)
    assert d.public_view().declarer == fourth and d.public_view().contract == 1


def test_B14_B41_passed_out(bridge):
    """B14, B41: four passes: the board is over with no play, both sides score 0."""
    d = bridge.new_deal(seed=18, dealer=2)
    for _ in range(4):
        d.apply("pass")
    assert d.is_over and d.public_view().tricks == () and list(d.gains) == [0, 0, 0, 0]


def test_B41_passed_out_board_then_the_next_dealer(bridge):
    """B41, B4: in a match a passed-out board scores 0 and the next board is dealt by the
    next dealer, as board 2."""
    m = bridge.new_match(seed=19)
    for _ in range(4):
        m.apply("pass")
    assert m.scores == [0, 0, 0, 0] and not m.is_over
    assert m.deal.dealer == 1 and m.deals_played == 1


def test_B15_contract_doubled_redoubled_or_cancelled(bridge):
    """B15: the contract is the last bid, doubled if doubled after it, redoubled if
    redoubled; a new bid cancels an earlier double."""
    cases = [
        (("bid 4 hearts",), "4 hearts"),
        (("bid 4 hearts", "double"), "4 hearts doubled"),
        (("bid 4 hearts", "double", "redouble"), "4 hearts redoubled"),
        (("bid 1 hearts", "double", "bid 2 hearts"), "2 hearts"),
        (("bid 1 hearts", "double", "redouble", "bid 2 clubs", "bid 2 hearts"), "2 hearts"),
    ]
    for calls, text in cases:
        d = bridge.new_deal(seed=20)
        for call in calls:
            d.apply(call)
        finish_auction(d)
        for seat in range(4):
            assert view(d, seat).contract_text == text, calls


def test_B15_a_cancelled_double_scores_undoubled(bridge):
    """B15: 1♥ doubled, then partner bids 2♥: played undoubled; made exactly with 8
    tricks: 110, not the doubled 470."""
    tricks = layout(winners_for(0, 8), "H")
    d = bridge.new_deal(bridge.stack_deck(hands_of(tricks), dealer=0), dealer=0)
    while d.to_act != 2:
        d.apply("pass")
    for call in ("bid 1 hearts", "double", "bid 2 hearts"):
        d.apply(call)
    finish_auction(d)
    play_tricks(d, tricks)
    assert list(d.gains) == [110, 0, 110, 0]


def test_B16_the_first_of_the_side_to_name_the_strain_declares(bridge):
    """B16, B55: F 1♦, F+2 1♠, F 2♠, F+2 4♠: F+2 named spades first and declares; had F
    opened 1♠ and F+2 raised, F would declare. An opponent's earlier mention of the strain
    does not count."""
    d = bridge.new_deal(seed=21)
    first = d.to_act
    for call in ("bid 1 diamonds", "pass", "bid 1 spades", "pass", "bid 2 spades", "pass"):
        d.apply(call)
    d.apply("bid 4 spades")
    finish_auction(d)
    obs = d.public_view()
    assert (obs.declarer, obs.contract, obs.contract_text) == ((first + 2) % 4, 4, "4 spades")
    d = bridge.new_deal(seed=21)
    for call in ("bid 1 spades", "pass", "bid 3 spades", "pass"):
        d.apply(call)
    finish_auction(d)
    assert d.public_view().declarer == first
    d = bridge.new_deal(seed=21)
    for call in ("bid 1 hearts", "bid 1 spades", "bid 2 hearts", "pass", "bid 3 hearts"):
        d.apply(call)
    finish_auction(d)  # F+1 bid spades, not hearts: F named hearts first for his side
    assert d.public_view().declarer == first
    d = bridge.new_deal(seed=21)
    for call in ("bid 1 clubs", "bid 1 hearts", "bid 2 hearts", "pass", "bid 3 hearts"):
        d.apply(call)
    finish_auction(d)  # F+1 (an opponent) named hearts first; for N-S it was F+2, not F
    assert d.public_view().declarer == (first + 2) % 4


def test_B16_declarer_in_random_auctions(bridge):
    """B16 restated: the declarer is the member of the last bidder's side who first bid the
    contract's strain."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        d = bridge.new_deal(seed=600 + seed)
        while not auction_over(d):
            acts = legal(d)
            d.apply("pass" if rng.random() < 0.5 else rng.choice(acts))
        if d.is_over:
            continue
        calls = d.public_view().bids
        last_seat, last_bid = next((s, c) for s, c in reversed(calls) if c.startswith("bid"))
        strain = last_bid.split()[2]
        want = next(s for s, c in calls if s in side_of(last_seat) and c.split()[2:] == [strain])
        assert d.public_view().declarer == want, calls
        checked += 1
    assert checked > 10


# ---------------------------------------------------------------- B17–B23: play
@pytest.mark.parametrize("declarer", range(4))
def test_B17_the_defender_left_of_declarer_leads(bridge, declarer):
    """B17: after the auction the defender on the declarer's left makes the opening lead,
    from his own hand."""
    d = bridge.new_deal(seed=22)
    auction_to(d, declarer, "bid 2 clubs")
    leader = (declarer + 1) % 4
    assert d.to_act == leader
    assert set(legal(d)) == plays(d.observation(leader).hand)
    d.apply(legal(d)[0])
    assert d.public_view().trick[0][0] == leader


def test_B18_B36_dummy_face_up_after_the_opening_lead(bridge):
    """B18, B36: before the opening lead only dummy sees his hand; once the lead is made,
    all 13 of dummy's cards lie face up for everyone, and stay so (as they are played) to
    the end; the declarer's and the defenders' hands are never shown."""
    d = bridge.new_deal(seed=23)
    auction_to(d, 2, "bid 3 notrump")  # South declares, North is dummy
    dummy_hand = d.observation(0).hand
    assert len(dummy_hand) == 13
    for seat in (1, 2, 3, -1):
        assert open_hand(view(d, seat), 0) is None
    d.apply(legal(d)[0])  # the opening lead
    for seat in (1, 2, 3, -1):
        assert open_hand(view(d, seat), 0) == dummy_hand
    while not d.is_over:
        now = d.observation(0).hand
        for seat in (1, 2, 3, -1):
            obs = view(d, seat)
            assert sorted(open_hand(obs, 0) or ()) == sorted(now)
            assert all(s == 0 for s, _ in obs.open_hands)
        d.apply(legal(d)[-1])


@pytest.mark.parametrize("declarer", range(4))
def test_B19_dummy_s_turns_go_to_the_declarer(bridge, declarer):
    """B19, B20: dummy never acts; every time dummy's hand is to play or lead, the declarer
    is offered exactly the cards of dummy's hand (following suit, B21) and `playing_for`
    names dummy; at his own turns the declarer plays from his own hand."""
    dummy = (declarer + 2) % 4
    d = bridge.new_deal(seed=24 + declarer)
    auction_to(d, declarer, "bid 1 notrump")
    dummy_turns = 0
    while not d.is_over:
        assert d.to_act != dummy
        obs = d.public_view()
        trick = obs.trick
        if trick:
            hand_seat = (trick[-1][0] + 1) % 4
        else:
            hand_seat = obs.tricks[-1][2] if obs.tricks else None
        if hand_seat == dummy:
            dummy_turns += 1
            assert d.to_act == declarer
            assert d.observation(declarer).playing_for == dummy
            cards = d.observation(dummy).hand
            led = [c for c in cards if trick and suit(c) == suit(trick[0][1])]
            assert set(legal(d)) == plays(led or cards)
        elif d.to_act == declarer:
            assert d.observation(declarer).playing_for is None
            assert set(legal(d)) <= plays(d.observation(declarer).hand)
        d.apply(legal(d)[0])
    assert dummy_turns >= 12


def test_B19_nobody_plays_for_dummy_once_the_deal_is_over(bridge):
    """B19: once the 13th trick is played nobody is to act, so no view names a hand being
    played for (`playing_for` is None), whoever played the last card."""
    for seed in range(4):
        d = bridge.new_deal(seed=seed)
        auction_to(d, seed % 4, "bid 1 notrump")
        while not d.is_over:
            d.apply(legal(d)[0])
        assert [view(d, s).playing_for for s in (0, 1, 2, 3, -1)] == [None] * 5, seed


def test_B20_dummy_wins_and_leads_from_dummy_s_hand(bridge):
    """B20, B56: North (dummy) wins the first trick: the next lead is made from North's
    hand, the action offered to South, the declarer."""
    winners = [0, 2, 2, 2, 2, 2, 2, 2, 2, 1, 3, 1, 1]
    tricks = layout(winners, None)
    d = bridge.new_deal(bridge.stack_deck(hands_of(tricks), dealer=0), dealer=0)
    auction_to(d, 2, "bid 1 notrump")
    for _ in range(4):
        d.apply(next(f"play {c}" for c in tricks[0].values() if f"play {c}" in legal(d)))
    assert d.public_view().tricks[0][2] == 0
    assert d.to_act == 2 and d.observation(2).playing_for == 0
    assert set(legal(d)) == plays(d.observation(0).hand)
    d.apply(f"play {tricks[1][0]}")
    assert d.public_view().trick == ((0, tricks[1][0]),)
    play_tricks(d, tricks)


def test_B21_follow_suit_else_any_card(bridge):
    """B21: a player holding the suit led must play one of that suit; a void player may
    play any card, trump or not, and need not beat the cards already played (in random
    deals, for the hand that is to play: his own or dummy's)."""
    voids = {"trumped": 0, "discarded": 0}

    def check(d: trickcore.Deal) -> None:
        """The cards offered are those B21 allows."""
        if auction_over(d) and not d.is_over:
            obs = d.public_view()
            if not obs.trick:
                return
            seat = (obs.trick[-1][0] + 1) % 4
            hand = view(d, seat).hand
            same = [c for c in hand if suit(c) == suit(obs.trick[0][1])]
            assert set(legal(d)) == plays(same or hand)
            if not same:
                trump = SUIT_OF[obs.contract_text.split()[1]]
                voids["trumped" if any(suit(c) == trump for c in hand) else "discarded"] += 1

    for seed in range(12):
        random_deal(bridge, 700 + seed, check=check)
    assert voids["trumped"] and voids["discarded"]


def trick_winner(cards: Sequence[tuple[int, str]], trump: str | None) -> int:
    """B22 restated: the seat of the highest trump, else of the highest card of the suit
    led (cards: (seat, card) in play order)."""
    led = suit(cards[0][1])
    return max(cards, key=lambda sc: (suit(sc[1]) == trump, suit(sc[1]) == led, strength(sc[1])))[0]


def test_B2_B22_highest_trump_else_highest_of_the_suit_led(bridge):
    """B2, B22 restated on every trick of random deals: the trump is the contract's strain,
    none at no trump; ranks run A K Q ... 2; the winner of a trick leads the next (B20)."""
    kinds = set()
    ranks = set()
    for seed in range(20):
        d = random_deal(bridge, 800 + seed, dealer=seed % 4)
        obs = d.public_view()
        if not obs.tricks:
            continue
        trump = SUIT_OF[obs.contract_text.split()[1]]
        kinds.add("notrump" if trump is None else "suit")
        for _, cards, winner in obs.tricks:
            assert winner == trick_winner(cards, trump)
            ranks.add(dict(cards)[winner][:-1])
        for (_, _, winner), (leader, cards, _) in zip(obs.tricks, obs.tricks[1:]):
            assert leader == winner and cards[0][0] == winner
    assert kinds == {"notrump", "suit"} and len(ranks) >= 8


def test_B22_a_trump_two_beats_the_suit_led(bridge):
    """B22: in 4♥ the last trick is led by East (2♦), South, void of diamonds, trumps with the
    2♥ and wins it; at no trump East's 2♣ led wins against the 2♦, 2♥ and 2♠."""
    winners = [0, 0, 2, 2, 0, 2, 0, 2, 0, 2, 3, 1, 2]
    d = bridge.new_deal(bridge.stack_deck(hands_of(layout(winners, "H")), dealer=0), dealer=0)
    auction_to(d, 0, "bid 4 hearts")
    last = play_tricks(d, layout(winners, "H")).public_view().tricks[12]
    assert last[0] == 1 and dict(last[1])[1] == "2D" and last[2] == 2
    winners[12] = 1
    d = bridge.new_deal(bridge.stack_deck(hands_of(layout(winners, None)), dealer=0), dealer=0)
    auction_to(d, 0, "bid 4 notrump")
    last = play_tricks(d, layout(winners, None)).public_view().tricks[12]
    assert last[0] == 1 and dict(last[1])[1] == "2C" and last[2] == 1


def test_B23_all_13_tricks_are_played_and_counted_by_side(bridge):
    """B23, B35: every contract is played to the 13th trick (no claim, even when the
    result is settled); each side's trick count is public and adds up to 13."""
    tricks = layout(winners_for(0, 13), "S")
    d = bridge.new_deal(bridge.stack_deck(hands_of(tricks), dealer=0), dealer=0)
    auction_to(d, 0, "bid 1 spades")
    for k in range(12):
        assert not d.is_over
        for _ in range(4):
            d.apply(next(f"play {c}" for c in tricks[k].values() if f"play {c}" in legal(d)))
    assert not d.is_over and d.observation(1).hand_sizes == (1, 1, 1, 1)
    play_tricks(d, tricks)
    for seat in (1, 2, -1):
        won = view(d, seat).tricks_won
        assert won[0] + won[2] == 13 and sum(won) == 13


# ---------------------------------------------------------------- B24–B31: scoring
EXAMPLES = [
    # (rule, contract, doubling, vulnerable, tricks, declaring side's score)
    ("B42", "bid 4 spades", "", False, 10, 420),
    ("B42", "bid 4 spades", "", True, 10, 620),
    ("B43", "bid 3 notrump", "", False, 10, 430),
    ("B43", "bid 3 notrump", "", True, 10, 630),
    ("B44", "bid 1 notrump", "", False, 9, 150),
    ("B45", "bid 2 clubs", "", True, 10, 130),
    ("B46", "bid 2 hearts", "doubled", False, 9, 570),
    ("B46", "bid 2 hearts", "doubled", True, 9, 870),
    ("B47", "bid 1 clubs", "redoubled", False, 7, 230),
    ("B48", "bid 1 notrump", "doubled", False, 7, 180),
    ("B48", "bid 2 notrump", "doubled", False, 8, 490),
    ("B49", "bid 5 clubs", "doubled", True, 11, 750),
    ("B50", "bid 6 diamonds", "", True, 12, 1370),
    ("B50", "bid 7 notrump", "", True, 13, 2220),
    ("B50", "bid 6 spades", "doubled", False, 12, 1210),
    ("B51", "bid 4 spades", "", False, 9, -50),
    ("B51", "bid 4 spades", "", True, 8, -200),
    ("B51", "bid 4 hearts", "doubled", False, 7, -500),
    ("B51", "bid 4 hearts", "doubled", True, 7, -800),
    ("B51", "bid 2 spades", "doubled", False, 4, -800),
    ("B51", "bid 3 notrump", "redoubled", True, 8, -400),
    ("B52", "bid 1 spades", "redoubled", True, 8, 1120),
]


@pytest.mark.parametrize("declarer", [2, 1])
@pytest.mark.parametrize("rule, contract, doubling, vul, taken, score", EXAMPLES)
def test_B24_to_B31_worked_examples(bridge, declarer, rule, contract, doubling, vul, taken, score):
    """B24–B31 by the worked examples B42–B52: the declaring side (South, then East) plays
    the contract on a board where it is (not) vulnerable and takes the tricks of the
    example; the score goes to the declaring side if made, to the defenders if defeated."""
    board = {(2, False): 1, (2, True): 2, (1, False): 2, (1, True): 3}[(declarer, vul)]
    assert restated_score(contract, doubling, vul, taken) == score  # the restatement agrees
    gains = board_gains(bridge, board, declarer, contract, taken, doubling)
    assert gains == side_gains(score, declarer), rule


def test_B25_trick_score_counts_only_contracted_tricks(bridge):
    """B25, B26, B29: 1♠ with six overtricks (13 tricks), not vulnerable: trick score 30,
    a part-score (50), overtricks 6 x 30: 260, no game bonus though 13 tricks were won."""
    assert board_gains(bridge, 1, 0, "bid 1 spades", 13) == [260, 0, 260, 0]


def test_B26_game_threshold_exactly_100(bridge):
    """B26: 5♦ (100) is a game, 4♦ (80) is not; 3NT (100) is, 2NT (70) is not (not
    vulnerable: +300 against +50)."""
    assert board_gains(bridge, 1, 0, "bid 5 diamonds", 11) == side_gains(400, 0)
    assert board_gains(bridge, 1, 0, "bid 4 diamonds", 10) == side_gains(130, 0)
    assert board_gains(bridge, 1, 0, "bid 2 notrump", 8) == side_gains(120, 0)


def test_B27_slam_bonus_not_doubled(bridge):
    """B27: 7♣ made, not vulnerable: 140 + 300 + 1000 = 1440; doubled: 280 + 300 + 1000
    + 50 = 1630 (the slam bonus stays 1000)."""
    assert board_gains(bridge, 1, 0, "bid 7 clubs", 13) == side_gains(1440, 0)
    assert board_gains(bridge, 1, 0, "bid 7 clubs", 13, "doubled") == side_gains(1630, 0)


def test_B29_redoubled_overtricks(bridge):
    """B29, B28: 1♣ redoubled with one overtrick: 80 + 50 + 100 insult + 200 not vulnerable
    (430), + 400 vulnerable (630); with three overtricks not vulnerable 80 + 50 + 100 + 600."""
    assert board_gains(bridge, 1, 0, "bid 1 clubs", 8, "redoubled") == side_gains(430, 0)
    assert board_gains(bridge, 2, 0, "bid 1 clubs", 8, "redoubled") == side_gains(630, 0)
    assert board_gains(bridge, 1, 0, "bid 1 clubs", 10, "redoubled") == side_gains(830, 0)


@pytest.mark.parametrize("doubling", ["", "doubled", "redoubled"])
@pytest.mark.parametrize("vul", [False, True])
@pytest.mark.parametrize("down", range(1, 8))
def test_B31_undertrick_table(bridge, doubling, vul, down):
    """B31: the totals for 1 to 7 undertricks, undoubled, doubled and redoubled, not
    vulnerable and vulnerable, as the sheet lists them (7NT by North)."""
    table = {
        ("", False): [50, 100, 150, 200, 250, 300, 350],
        ("", True): [100, 200, 300, 400, 500, 600, 700],
        ("doubled", False): [100, 300, 500, 800, 1100, 1400, 1700],
        ("doubled", True): [200, 500, 800, 1100, 1400, 1700, 2000],
        ("redoubled", False): [200, 600, 1000, 1600, 2200, 2800, 3400],
        ("redoubled", True): [400, 1000, 1600, 2200, 2800, 3400, 4000],
    }
    want = table[(doubling, vul)][down - 1]
    board = 2 if vul else 1
    assert board_gains(bridge, board, 0, "bid 7 notrump", 13 - down, doubling) == side_gains(
        -want, 0
    )


def test_B24_to_B31_random_contracts(bridge):
    """B24–B31 restated for random contracts, doublings, boards and trick counts."""
    rng = random.Random(31)
    for _ in range(30):
        contract = rng.choice(BIDS)
        doubling = rng.choice(["", "doubled", "redoubled"])
        board = rng.randint(1, 16)
        declarer = rng.randrange(4)
        taken = rng.randint(0, 13)
        score = restated_score(contract, doubling, vulnerable(board, declarer), taken)
        gains = board_gains(bridge, board, declarer, contract, taken, doubling)
        assert gains == side_gains(score, declarer), (contract, doubling, board, taken)


# ---------------------------------------------------------------- B32–B34: the match
def match_of(v: trickcore.Variant, plans: Sequence[tuple | None]) -> trickcore.Match:
    """A match whose board b is plans[b - 1]: (declarer, contract, tricks, doubling), or
    None for a passed-out board."""
    orders, layouts = [], []
    for b, plan in enumerate(plans, start=1):
        if plan is None:
            orders.append(list(DECK))
            layouts.append(None)
            continue
        declarer, contract, taken, _ = plan
        tricks = layout(winners_for(declarer, taken), SUIT_OF[contract.split()[2]])
        orders.append(v.stack_deck(hands_of(tricks), dealer=dealer_of(b)))
        layouts.append(tricks)
    m = v.new_match(deck_orders=orders, seed=1)
    for plan, tricks in zip(plans, layouts):
        if plan is None:
            for _ in range(4):
                m.apply("pass")
            continue
        declarer, contract, _, doubling = plan
        auction_to(m, declarer, contract, doubling)
        play_tricks(m, tricks)
    return m


def test_B32_B53_part_scores_do_not_add_up(bridge):
    """B32, B53: N-S make 2♠ on board 1 (110) and 2♥ on board 2 (110, vulnerable): each
    board earns its own 50 part-score bonus and no game bonus: 220 in all."""
    m = match_of(bridge, [(0, "bid 2 spades", 8, ""), (2, "bid 2 hearts", 8, "")])
    assert [r["gains"] for r in m.deal_results] == [[110, 0, 110, 0]] * 2
    assert m.scores == [220, 0, 220, 0] and not m.is_over


def test_B33_B34_B54_a_four_board_match(bridge):
    """B33, B34, B54: board 1 N-S 4♠ +1 (450); board 2 E-W 3NT two down, not vulnerable
    (100 to N-S); board 3 E-W 2♥ doubled made, vulnerable (670); board 4 passed out. N-S
    550, E-W 670: East and West win; the signed N-S result is -120; the match is over."""
    plans = [
        (0, "bid 4 spades", 11, ""),
        (1, "bid 3 notrump", 7, ""),
        (3, "bid 2 hearts", 8, "doubled"),
        None,
    ]
    m = match_of(bridge, plans)
    assert [r["gains"] for r in m.deal_results] == [
        [450, 0, 450, 0],
        [100, 0, 100, 0],
        [0, 670, 0, 670],
        [0, 0, 0, 0],
    ]
    assert m.scores == [550, 670, 550, 670]
    assert m.scores[0] - m.scores[1] == -120
    assert m.is_over and sorted(m.winners) == [1, 3]
    with pytest.raises(trickcore.IllegalActionError):
        m.apply("pass")


def test_B34_equal_totals_are_a_tie(bridge):
    """B34: N-S make 1NT on board 1 (90), two boards are passed out, E-W make 1NT on board 4
    (90): equal totals, a tie shared by all four (the last declarer does not break it)."""
    plans = [(0, "bid 1 notrump", 7, ""), None, None, (1, "bid 1 notrump", 7, "")]
    m = match_of(bridge, plans)
    assert m.scores == [90, 90, 90, 90]
    assert m.is_over and sorted(m.winners) == [0, 1, 2, 3]


def test_B33_vulnerability_of_the_four_boards(bridge):
    """B33, B5: in a match, 2♠ doubled one down costs N-S 100, 200, 100, 200 on boards
    1–4 (not vulnerable, vulnerable, not, vulnerable)."""
    plans = [(0, "bid 2 spades", 7, "doubled")] * 4
    m = match_of(bridge, plans)
    assert [r["gains"] for r in m.deal_results] == [
        [0, 100, 0, 100],
        [0, 200, 0, 200],
        [0, 100, 0, 100],
        [0, 200, 0, 200],
    ]
    assert m.is_over and sorted(m.winners) == [1, 3]


# ---------------------------------------------------------------- B35, B36: information
def test_B35_calls_cards_and_trick_counts_are_public(bridge):
    """B35: every call, every card played and the trick counts are the same in every
    player's view; each player sees his own hand and no other (dummy aside, B36)."""
    d = bridge.new_deal(seed=35)
    auction_to(d, 1, "bid 2 diamonds", "doubled")
    for _ in range(21):
        d.apply(legal(d)[0])
    views = [d.observation(s) for s in range(4)]
    for v in views:
        assert v.bids == views[0].bids and v.tricks == views[0].tricks
        assert v.trick == views[0].trick and v.tricks_won == views[0].tricks_won
    assert [c for _, c in views[0].bids[-5:]] == ["bid 2 diamonds", "double"] + ["pass"] * 3
    for s in range(4):
        shown = {c for seat, cards in views[s].open_hands for c in cards}
        others = {c for t in range(4) if t not in (s, 3) for c in views[t].hand}
        assert not shown & others  # only dummy (West, 3) is ever shown


def test_B36_dummy_seen_only_by_himself_before_the_lead(bridge):
    """B36: after the auction, before the opening lead, dummy's cards appear nowhere in the
    other players' views."""
    d = bridge.new_deal(seed=36)
    auction_to(d, 0, "bid 1 clubs")
    dummy = set(d.observation(2).hand)
    for seat in (0, 1, 3, -1):
        seen = repr(view(d, seat).to_dict())
        assert not any(f"'{c}'" in seen for c in dummy), seat


# ---------------------------------------------------------------- B37–B56: worked examples
def test_B37_dealing_example(bridge):
    """B37: the deck 2♣ ... A♣ 2♦ ... A♠, dealer North: East gets 2♣ 6♣ 10♣ A♣ 5♦ ...,
    South 3♣ 7♣ ..., West 4♣ 8♣ ..., North 5♣ 9♣ ..."""
    order = [r + s for s in SUITS for r in reversed(RANKS)]
    d = bridge.new_deal(order, dealer=0)
    want = {
        1: "2C 6C 10C AC 5D 9D KD 4H 8H QH 3S 7S JS",
        2: "3C 7C JC 2D 6D 10D AD 5H 9H KH 4S 8S QS",
        3: "4C 8C QC 3D 7D JD 2H 6H 10H AH 5S 9S KS",
        0: "5C 9C KC 4D 8D QD 3H 7H JH 2S 6S 10S AS",
    }
    for seat, cards in want.items():
        assert sorted(view(d, seat).hand) == sorted(cards.split())


def test_B38_auction_example(bridge):
    """B38: North (dealer) 1♣, East pass, South 1♥, West 1♠, North 2♥, East 2♠, South 4♥,
    West double, pass, pass, South redouble, pass, pass, pass: 4♥ redoubled by N-S, South
    declares (he bid hearts first), North is dummy, West leads."""
    d = bridge.new_deal(seed=38, dealer=0)
    calls = [
        (0, "bid 1 clubs"), (1, "pass"), (2, "bid 1 hearts"), (3, "bid 1 spades"),
        (0, "bid 2 hearts"), (1, "bid 2 spades"), (2, "bid 4 hearts"), (3, "double"),
        (0, "pass"), (1, "pass"), (2, "redouble"), (3, "pass"), (0, "pass"), (1, "pass"),
    ]  # fmt: skip
    for seat, call in calls:
        assert d.to_act == seat, call
        d.apply(call)
    obs = d.public_view()
    assert (obs.declarer, obs.contract_text) == (2, "4 hearts redoubled")
    assert d.to_act == 3


def test_B39_B40_examples_with_north_calling_first(bridge):
    """B39, B40 as written, North dealing and calling first: after North 1♠, East pass,
    South pass West may double; South may not double 1♠; East may not redouble."""
    d = bridge.new_deal(seed=39, dealer=0)
    assert d.to_act == 0
    d.apply("bid 1 spades")
    assert d.to_act == 1 and "redouble" not in legal(d)
    d.apply("pass")
    assert d.to_act == 2 and "double" not in legal(d)
    d.apply("pass")
    assert d.to_act == 3 and "double" in legal(d)


def test_B55_declarer_by_first_mention_as_written(bridge):
    """B55 as written, North dealing: North 1♦, South 1♠, North 2♠, South 4♠ (East and West
    pass): South declares 4♠ and West leads."""
    d = bridge.new_deal(seed=55, dealer=0)
    for seat, call in [(0, "bid 1 diamonds"), (1, "pass"), (2, "bid 1 spades"), (3, "pass"),
                       (0, "bid 2 spades"), (1, "pass"), (2, "bid 4 spades")]:  # fmt: skip
        assert d.to_act == seat, call
        d.apply(call)
    finish_auction(d)
    assert (d.public_view().declarer, d.public_view().contract_text) == (2, "4 spades")
    assert d.to_act == 3


def test_B56_dummy_s_turns_example(bridge):
    """B56: South declares, West leads the ♥3; North's 13 cards go face up; the next card to
    the trick is dummy's, and the play from North's hand is offered to South."""
    hands = {3: ["3H"]}
    d = bridge.new_deal(bridge.stack_deck(hands, dealer=0), dealer=0)
    auction_to(d, 2, "bid 2 notrump")
    assert d.to_act == 3
    d.apply("play 3H")
    north = d.observation(0).hand
    assert len(north) == 13
    for seat in (1, 2, 3):
        assert open_hand(view(d, seat), 0) == north
    assert d.to_act == 2 and d.observation(2).playing_for == 0
    hearts = [c for c in north if suit(c) == "H"]
    assert set(legal(d)) == plays(hearts or north)


# ---------------------------------------------------------------- B57–B61: house rules
def test_B58_chicago_vulnerability():
    """B58: 7NT one down by N-S, then by E-W, on boards 1–4: board 1 neither vulnerable,
    board 2 E-W only, board 3 N-S only, board 4 both (the base game: 2 N-S, 3 E-W); a deal
    numbered 5 to 8 goes round the same four again (as a Chicago of 8 boards would)."""
    v = house("bridge-chicago-vulnerability")
    want = {1: (50, 50), 2: (50, 100), 3: (100, 50), 4: (100, 100)}
    want |= {b + 4: w for b, w in want.items()}
    for board, (ns, ew) in want.items():
        assert board_gains(v, board, 0, "bid 7 notrump", 12) == side_gains(-ns, 0)
        assert board_gains(v, board, 1, "bid 7 notrump", 12) == side_gains(-ew, 1)


def test_B58_chicago_is_a_four_board_match():
    """B58: the Chicago match has four boards, dealt by North, East, South, West."""
    m = house("bridge-chicago-vulnerability").new_match(seed=58)
    dealers = []
    while not m.is_over:
        dealers.append(m.deal.dealer)
        for _ in range(4):
            m.apply("pass")
    assert dealers == [0, 1, 2, 3]


def test_B59_eight_boards_with_b5_vulnerability():
    """B59: an 8-board match; boards 5–8 follow B5 (5 N-S, 6 E-W, 7 both, 8 neither): 3NT
    made by N-S scores 600, 400, 600, 400 there; the match ends after board 8."""
    v = house("bridge-boards-8")
    plans = [None] * 4 + [(0, "bid 3 notrump", 9, "")] * 4
    m = match_of(v, plans)
    assert [r["gains"][0] for r in m.deal_results[4:]] == [600, 400, 600, 400]
    assert m.scores == [2000, 0, 2000, 0]
    assert m.is_over and m.deals_played == 8 and sorted(m.winners) == [0, 2]


def test_B60_a_passed_out_board_is_dealt_again_by_the_same_dealer():
    """B60: four passes throw the board in: nothing is scored, the same dealer deals it
    again with new cards and the same board number (so the same vulnerability, B5); no
    redeal is ever offered to a player. A board with a bid is scored as in the base game."""
    v = house("bridge-redeal-passed-out")
    m = v.new_match(seed=60)
    first = [m.current.hand_texts(s) for s in range(4)]
    assert m.current.phase == "bid" and "redeal" not in legal(m.current)
    for _ in range(4):
        m.apply("pass")
    assert m.redeals == 1 and m.deals_played == 0 and m.scores == [0, 0, 0, 0]
    assert m.dealer == 0 and m.current.to_act == 0
    assert [m.current.hand_texts(s) for s in range(4)] != first
    m.apply("bid 1 clubs")
    for _ in range(3):
        m.apply("pass")
    while m.deals_played == 0:
        m.apply(legal(m.current)[0])
    assert m.dealer == 1 and m.deal_results[-1]["gains"] != [0, 0, 0, 0]


def test_B57_the_rubber_of_the_sheets_example():
    """B57 (a)-(e), the sheet's example: N-S 2S (60 below); E-W 3NT (100 below, E-W's
    game, N-S's 60 no longer counts); N-S 4H +1 (120 below, 30 above, N-S's game); N-S 3D
    (60 below), then 2C +1 vulnerable (40 below, 20 above): N-S's second game and 500.
    N-S 830, E-W 100; the rubber (the match) is over, N-S win."""
    v = house("bridge-rubber")
    plans = [
        (0, "bid 2 spades", 8, ""),
        (1, "bid 3 notrump", 9, ""),
        (0, "bid 4 hearts", 11, ""),
        (0, "bid 3 diamonds", 9, ""),
        (0, "bid 2 clubs", 9, ""),
    ]
    m = match_of(v, plans)
    assert [r["gains"][0] + r["gains"][1] for r in m.deal_results] == [60, 100, 150, 60, 560]
    assert m.scores == [830, 100, 830, 100]
    assert m.is_over and sorted(m.winners) == [0, 2]
    assert m.kept_state(0)["games"] == 2 and m.kept_state(1)["games"] == 1


def test_B57_vulnerability_comes_from_games_won_not_from_the_board():
    """B57 (c): after N-S win a game, their 4S one down costs 100 (vulnerable), though
    board 2 of B5 would make them vulnerable anyway and board 3 would not: E-W, without a
    game, lose 50 for one down on board 3 where B5 makes them vulnerable."""
    v = house("bridge-rubber")
    m = match_of(
        v, [(0, "bid 4 spades", 10, ""), (0, "bid 4 spades", 9, ""), (1, "bid 4 spades", 9, "")]
    )
    assert [r["gains"] for r in m.deal_results[1:]] == [[0, 100, 0, 100], [50, 0, 50, 0]]


def _honours_difference(
    holding: dict[int, list[str]],
    contract: str,
    declarer: int,
    honours: trickcore.Variant | None = None,
    base: trickcore.Variant | None = None,
) -> list[int]:
    """The gains of `honours` (B61) minus those of `base` (the base game) on the same cards
    and the same play."""
    honours = honours or house("bridge-honours-duplicate")
    base = base or trickcore.load_variant("bridge")
    order = base.stack_deck(holding, dealer=declarer)
    out = []
    for v in (honours, base):
        d = v.new_deal(order, dealer=declarer)
        d.apply(contract)
        for _ in range(3):
            d.apply("pass")
        while not d.is_over:
            d.apply(legal(d)[0])
        out.append(d.gains)
    return [a - b for a, b in zip(out[0], out[1], strict=True)]


def test_B61_honours_score_for_the_side_holding_them_whatever_the_result():
    """B61 with B57 (d): four of A K Q J 10 of trumps in one hand 100, all five 150, for the
    side holding them (here the defenders); at NT four aces in one hand 150; three
    honours, or four split between partners, nothing."""
    four = {1: ["AS", "KS", "QS", "JS"]}
    assert _honours_difference(four, "bid 1 spades", 0) == [0, 100, 0, 100]
    five = {2: ["AS", "KS", "QS", "JS", "10S"]}
    assert _honours_difference(five, "bid 1 spades", 0) == [150, 0, 150, 0]
    aces = {3: ["AS", "AH", "AD", "AC"]}
    assert _honours_difference(aces, "bid 1 notrump", 0) == [0, 150, 0, 150]
    split = {0: ["AS", "KS"], 2: ["QS", "JS"]}
    assert _honours_difference(split, "bid 1 spades", 0) == [0, 0, 0, 0]
    three = {1: ["AH", "KH", "QH"]}
    assert _honours_difference(three, "bid 1 hearts", 0) == [0, 0, 0, 0]


def test_house_rules_extend_the_base_and_keep_its_play():
    """B58-B60 change only what their rule changes: B55's auction declares the same way in
    each house-rule file."""
    for name in (
        "bridge-chicago-vulnerability",
        "bridge-boards-8",
        "bridge-redeal-passed-out",
        "bridge-rubber",
        "bridge-honours-duplicate",
    ):
        v = house(name)
        d = v.new_deal(seed=55, dealer=0)
        first = d.to_act
        for call in ("bid 1 diamonds", "pass", "bid 1 spades", "pass", "bid 4 spades"):
            d.apply(call)
        finish_auction(d)
        assert d.public_view().declarer == (first + 2) % 4, name


def test_B57_honours_in_rubber_bridge(tmp_path):
    """B57 (d): in rubber scoring the side holding the honours scores them above the line,
    whatever the result: at NT four aces in one hand 150, in a suit four of A K Q J 10 of
    trumps in one hand 100, all five 150. Measured against the same file with honours
    taken out, on the same cards and the same play."""
    plain = tmp_path / "no-honours.rules"
    plain.write_text('extends "bridge-rubber"\nscoring {\n  honours = 0\n}\n')
    rubber, without = house("bridge-rubber"), trickcore.load_variant(str(plain))

    def difference(holding: dict[int, list[str]], contract: str, declarer: int) -> list[int]:
        return _honours_difference(holding, contract, declarer, rubber, without)

    assert difference({3: ["AS", "AH", "AD", "AC"]}, "bid 1 notrump", 0) == [0, 150, 0, 150]
    assert difference({1: ["AS", "KS", "QS", "JS"]}, "bid 1 spades", 0) == [0, 100, 0, 100]
    five = {2: ["AS", "KS", "QS", "JS", "10S"]}
    assert difference(five, "bid 1 spades", 0) == [150, 0, 150, 0]
    assert difference({0: ["AS", "KS"], 2: ["QS", "JS"]}, "bid 1 spades", 0) == [0, 0, 0, 0]
