"""Spades rules (P1–P40 of docs/rules/spades.md) played through the public API.

Each test plays a rule on real cards, in `variants/spades.rules` or in one of its house-rule
files (P34–P40); none of them reads the compiled model. The worked examples P26–P33 are
played on stacked deals whose tricks come out exactly as in the example.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import pytest
from conftest import run, texts

import trickcore

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]  # P2: high to low
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]
SIDES = ((0, 2), (1, 3))  # P1
NO_BAGS = [{"bags": 0}] * 4


@pytest.fixture(scope="module")
def spades() -> trickcore.Variant:
    """The base game, P1–P25."""
    return trickcore.load_variant("spades")


def house(name: str) -> trickcore.Variant:
    """A shipped house-rule file of spades (P34–P40), by its full name (so that the mutation
    tool finds the tests of each file)."""
    return trickcore.load_variant(name)


# ---------------------------------------------------------------- helpers
def suit(card: str) -> str:
    """The suit symbol of a card text."""
    return card[-1]


def strength(card: str) -> int:
    """P2 restated: higher is better within a suit."""
    return len(RANKS) - RANKS.index(card[:-1])


def trick_winner(cards: Sequence[tuple[int, str]]) -> int:
    """P14 restated: the seat of the highest spade, else of the highest card of the suit led
    (cards: (seat, card) in play order)."""
    led = suit(cards[0][1])
    return max(cards, key=lambda sc: (suit(sc[1]) == "S", suit(sc[1]) == led, strength(sc[1])))[0]


def legal(state) -> list[str]:
    """The texts of the legal actions of a deal or match."""
    return texts(state.legal_actions())


def deal_of(state) -> trickcore.Deal:
    """The deal being played (of a match, or the deal itself)."""
    d = state.current if isinstance(state, trickcore.Match) else state
    assert isinstance(d, trickcore.Deal)
    return d


def bid_round(state, bids: dict[int, int | str]) -> None:
    """Every seat bids once, in turn: an int is an ordinary bid (made after `look` when the
    seat is offered that), "blind" is blind nil."""
    for _ in range(4):
        want = bids[state.to_act]
        if want == "blind":
            state.apply("bid 0 blind")
            continue
        if "look" in legal(state):
            state.apply("look")
        state.apply(f"bid {want}")
    assert deal_of(state).phase == "play"


def layout(winners: Sequence[int]) -> list[dict[int, str]]:
    """13 tricks (seat -> card) in which trick k is won by winners[k], played legally.

    Tricks 1–9: clubs, diamonds, hearts in turn, four cards of one suit each (everyone
    follows; the winner holds the highest of the four). Trick 10: the winner of trick 9 leads
    a two (2C, 2D or 2H), the winner of trick 10 has only spades left and trumps with the
    2S, the other two throw their twos. Tricks 11–13: spades, everyone follows. So no spade
    is played before trick 10 and none is led before trick 11 (P13)."""
    assert len(winners) == 13 and winners[8] != winners[9]
    tricks: list[dict[int, str]] = []
    for k, w in enumerate(winners):
        if k == 9:
            rest = [s for s in range(4) if s != w]
            tricks.append({w: "2S", **dict(zip(rest, ["2C", "2D", "2H"]))})
            continue
        layer, s = (k // 3, "CDH"[k % 3]) if k < 9 else (k - 10, "S")
        cards = [r + s for r in RANKS[4 * layer : 4 * layer + 4]]
        others = [x for x in range(4) if x != w]
        tricks.append({w: cards[0], **dict(zip(others, cards[1:]))})
    return tricks


def winners_for(counts: Sequence[int]) -> list[int]:
    """A trick-winner sequence that gives seat s counts[s] tricks and suits `layout`."""
    assert sum(counts) == 13
    seq = [s for s in range(4) for _ in range(counts[s])]
    for shift in range(13):
        w = seq[shift:] + seq[:shift]
        if w[8] != w[9]:
            return w
    raise AssertionError("layout needs two seats that win tricks")


def stacked(v: trickcore.Variant, counts: Sequence[int], dealer: int = 0):
    """A deck order and its 13 tricks in which seat s wins counts[s] tricks."""
    tricks = layout(winners_for(counts))
    hands = {s: [t[s] for t in tricks] for s in range(4)}
    return v.stack_deck(hands, dealer=dealer), tricks


def play_tricks(state, tricks: list[dict[int, str]]) -> trickcore.Deal:
    """Play the 13 tricks of `layout`; check every trick went to its planned winner (P14)."""
    d = deal_of(state)
    while not d.is_over:
        seat = state.to_act
        k = len(d.observation(seat).tricks)
        state.apply(f"play {tricks[k][seat]}")
    played = d.observation(0).tricks
    assert [t[2] for t in played] == [trick_winner(cards) for _, cards, _ in played]
    assert [t[2] for t in played] == [next(iter(t)) for t in tricks]  # layout: winner first
    return d


def scripted_match(
    v: trickcore.Variant,
    counts: Sequence[int],
    bids: dict[int, int | str],
    scores: Sequence[int] = (0, 0, 0, 0),
    bags: Sequence[int] = (0, 0),
    more: Sequence[tuple[Sequence[int], dict[int, int | str]]] = (),
) -> trickcore.Match:
    """A match from a scoreboard (side A's and side B's bags); its first deals (dealer 0,
    then 1, ...) give the trick counts and bids of [(counts, bids), *more]."""
    plan = [(counts, bids), *more]
    orders = [stacked(v, c, dealer=i % 4) for i, (c, _) in enumerate(plan)]
    kept = [{"bags": bags[s % 2]} for s in range(4)]
    m = v.new_match(
        seed=1, deck_orders=[o for o, _ in orders], scores=list(scores), kept=kept, dealer=0
    )
    for (_, b), (_, tricks) in zip(plan, orders):
        if m.is_over:
            break
        bid_round(m, b)
        play_tricks(m, tricks)
    return m


def gains(m: trickcore.Match, deal: int = -1) -> list[int]:
    """The deal scores of a played deal of the match."""
    return list(m.deal_results[deal]["gains"])


def bag_counts(m: trickcore.Match) -> list[int]:
    """Every seat's kept bag count."""
    return [m.kept_state(s)["bags"] for s in range(4)]


def restated_side_score(bid: dict[int, int], blind: dict[int, bool], won: Sequence[int], side):
    """P16–P18 restated: (the side's deal score, bags it adds)."""
    t = sum(won[s] for s in side)
    c = sum(bid[s] for s in side)
    if c == 0:
        score, bags = t, t
    elif t >= c:
        score, bags = 10 * c + t - c, t - c
    else:
        score, bags = -10 * c, 0
    for s in side:
        if bid[s] == 0:
            score += (200 if blind[s] else 100) * (1 if won[s] == 0 else -1)
    return score, bags


def read_bids(obs: trickcore.Observation) -> tuple[dict[int, int], dict[int, bool]]:
    """Each seat's bid value and whether it was blind, from the public bids."""
    value: dict[int, int] = {}
    blind: dict[int, bool] = {}
    for seat, text in obs.bids:
        words = text.split()
        value[seat] = int(words[1])
        blind[seat] = words[2:] == ["blind"]
    return value, blind


def random_deal(v: trickcore.Variant, seed: int, dealer: int = 0, check=None) -> trickcore.Deal:
    """A deal with random bids of 0–4 and random legal cards, except that a nil bidder plays
    his lowest card half the time; `check(d)` runs before every card played."""
    rng = random.Random(seed)
    d = v.new_deal(seed=seed, dealer=dealer)
    assert isinstance(d, trickcore.Deal)
    while not d.is_over:
        acts = d.legal_actions()
        if d.phase == "play":
            if check:
                check(d)
            nil = read_bids(d.observation(0))[0][d.to_act] == 0
            if nil and rng.random() < 0.5:
                low = min(acts, key=lambda a: (suit(a.text) == "S", strength(a.text.split()[1])))
                d.apply(low)
            else:
                d.apply(rng.choice(acts))
        else:
            d.apply(rng.choice([a for a in acts if a.kind != "bid" or a.value <= 4]))
    return d


# A deal (dealer 0) for the play rules. Seat 1 leads first; seat 2 has no club.
PLAY_HANDS: dict[int, Sequence[str]] = {
    1: "AC KC QC JC 10C AD KD QD AH KH AS KS QS".split(),
    2: "JD 10D 9D 8D 7D QH JH 10H 9H 8H 4S 3S 2S".split(),
    3: "9C 8C 7C 6C 6D 5D 4D 7H 6H 5H JS 10S 9S".split(),
    0: "5C 4C 3C 2C 3D 2D 4H 3H 2H 8S 7S 6S 5S".split(),
}


def play_deal(v: trickcore.Variant) -> trickcore.Deal:
    """PLAY_HANDS after four bids of 3, seat 1 to lead."""
    d = v.new_deal(v.stack_deck(PLAY_HANDS, dealer=0), dealer=0)
    assert isinstance(d, trickcore.Deal)
    bid_round(d, dict.fromkeys(range(4), 3))
    return d


def plays(cards: Iterable[str]) -> set[str]:
    """Play actions for these cards."""
    return {f"play {c}" for c in cards}


# ---------------------------------------------------------------- P1: sides
def test_P1_four_players_only(spades):
    """P1: Spades is played by exactly four."""
    for n in (2, 3, 5):
        with pytest.raises(trickcore.TrickcoreError):
            spades.new_match(seed=1, players=n)
    assert len(spades.new_deal(seed=1).observation(0).players_in_deal) == 4


def test_P1_partners_sit_opposite_and_share_the_deal(spades):
    """P1: seat 0 bids 4 and wins nothing, his partner seat 2 wins 9: side A (0, 2) made
    its contract of 7 with 2 bags; side B (1, 3) bid 2 and won 4. Both partners of a side
    get the side's score and bags."""
    m = scripted_match(spades, [0, 2, 9, 2], {1: 1, 2: 3, 3: 1, 0: 4})
    assert gains(m) == [72, 22, 72, 22]
    assert m.scores == [72, 22, 72, 22]
    assert bag_counts(m) == [2, 2, 2, 2]


# ---------------------------------------------------------------- P2: cards
def test_P2_52_cards_13_to_each_player(spades):
    """P2: 52 different cards, 13 ranks in 4 suits; every player gets 13."""
    for seed in range(3):
        d = spades.new_deal(seed=seed)
        hands = [d.observation(s).hand for s in range(4)]
        assert [len(h) for h in hands] == [13] * 4
        assert sorted(c for h in hands for c in h) == sorted(DECK)
    for bad in ("1S", "11H", "AX"):
        with pytest.raises(trickcore.TrickcoreError):
            spades.card(bad)


@pytest.mark.parametrize("high, low", list(zip(RANKS, RANKS[1:])))
def test_P2_rank_order_in_a_plain_suit(spades, high, low):
    """P2: seat 1 leads a heart, seat 2 follows with his only heart, seats 3 and 0 hold
    none; the higher heart wins, in whichever order the two are played."""
    for lead, follow in ((low, high), (high, low)):
        other_hearts = [r + "H" for r in RANKS if r not in (lead, follow)]
        other_spades = [r + "S" for r in RANKS if r != "2"]
        hands = {
            1: [lead + "H", *other_hearts, "2S"],
            2: [follow + "H", *other_spades],
            3: [r + "C" for r in RANKS],
            0: [r + "D" for r in RANKS],
        }
        d = spades.new_deal(spades.stack_deck(hands, dealer=0), dealer=0)
        bid_round(d, dict.fromkeys(range(4), 1))
        run(d, [f"play {lead}H", f"play {follow}H", "play AC", "play AD"])
        assert d.observation(0).tricks[0][2] == (2 if follow == high else 1), (lead, follow)


@pytest.mark.parametrize("high, low", list(zip(RANKS, RANKS[1:])))
def test_P2_P14_rank_order_of_spades_and_spades_are_trumps(spades, high, low):
    """P2, P14: seat 1 leads the AC; seats 2 and 3 have no club and trump; seat 0 throws
    the AD. The higher spade wins, whatever the order; the ace of clubs does not."""
    for first, second in ((low, high), (high, low)):
        hands = {
            1: [r + "C" for r in RANKS],
            2: [first + "S", *[r + "D" for r in RANKS[1:]]],
            3: [second + "S", *[r + "H" for r in RANKS[1:]]],
        }
        d = spades.new_deal(spades.stack_deck(hands, dealer=0), dealer=0)
        bid_round(d, dict.fromkeys(range(4), 1))
        run(d, ["play AC", f"play {first}S", f"play {second}S", "play AD"])
        assert d.observation(0).tricks[0][2] == (3 if second == high else 2)


# ---------------------------------------------------------------- P3, P4: the deal
def test_P3_seat_0_deals_first_then_the_deal_passes_clockwise(spades):
    """P3: dealers 0, 1, 2, 3, 0 in the first five deals; the player on the dealer's left
    bids first."""
    m = spades.new_match(seed=5)
    dealers = []
    for _ in range(5):
        dealers.append(m.deal.dealer)
        assert m.to_act == (m.deal.dealer + 1) % 4
        d = deal_of(m)
        while not d.is_over:
            acts = legal(m)
            m.apply("look" if "look" in acts else "bid 3" if "bid 3" in acts else acts[0])
    assert dealers == [0, 1, 2, 3, 0] and not m.is_over


@pytest.mark.parametrize("dealer", range(4))
def test_P4_one_card_at_a_time_from_the_dealer_s_left(spades, dealer):
    """P4: the card at deck position i (top = 1) goes to seat (d + i) mod 4; 13 each."""
    order = list(DECK)
    random.Random(dealer).shuffle(order)
    d = spades.new_deal(order, dealer=dealer)
    for i, card in enumerate(order, start=1):
        assert card in d.observation((dealer + i) % 4).hand
    assert d.observation(0).hand_sizes == (13, 13, 13, 13)


def test_P4_never_a_redeal(spades):
    """P4: every deal is bid and played; no redeal is ever offered."""
    for seed in range(6):
        d = spades.new_deal(seed=seed, dealer=seed % 4)
        assert {a.kind for a in d.legal_actions()} == {"bid"}
        d = random_deal(spades, seed, dealer=seed % 4)
        assert not d.observation(0).redealt and len(d.observation(0).tricks) == 13


# ---------------------------------------------------------------- P5–P9: bidding
@pytest.mark.parametrize("dealer", range(4))
def test_P5_one_bid_each_from_the_dealer_s_left_dealer_last(spades, dealer):
    """P5: four bids, clockwise from the dealer's left; no pass; then play starts. Every
    bid is public; nobody bids twice."""
    d = spades.new_deal(seed=dealer, dealer=dealer)
    order = []
    for value in (2, 0, 5, 13):
        order.append(d.to_act)
        assert "pass" not in legal(d)
        with pytest.raises(trickcore.IllegalActionError):
            d.apply("pass")
        d.apply(f"bid {value}")
    assert order == [(dealer + k) % 4 for k in (1, 2, 3, 4)]
    public = tuple(zip(order, ["bid 2", "bid 0", "bid 5", "bid 13"]))
    for seat in range(4):
        assert d.observation(seat).bids == public
    assert d.phase == "play" and all(a.kind == "play" for a in d.legal_actions())
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("bid 3")
    assert d.observation(0).bids == public


def test_P6_bids_from_0_to_13_and_no_limit_on_the_total(spades):
    """P6: each player is offered exactly the bids 0..13; all four may bid 13."""
    d = spades.new_deal(seed=2)
    for _ in range(4):
        acts = d.legal_actions()
        assert sorted(a.value for a in acts) == list(range(14))
        assert {a.kind for a in acts} == {"bid"} and {a.qualifier for a in acts} == {""}
        assert set(texts(acts)) == {f"bid {v}" for v in range(14)}
        for bad in ("bid 14", "bid -1", "bid 0 blind", "look"):
            with pytest.raises(trickcore.IllegalActionError):
                d.apply(bad)
        d.apply("bid 13")
    assert d.phase == "play"


BLIND = {"bid 0 blind", "look"}
ORDINARY = {f"bid {v}" for v in range(14)}


@pytest.mark.parametrize(
    "score_a, score_b, eligible",
    [
        (0, 0, ()),
        (0, 100, (0, 2)),
        (0, 99, ()),
        (100, 0, (1, 3)),
        (-50, 50, (0, 2)),
        (180, 320, (0, 2)),
        (-300, -199, (0, 2)),
        (410, 311, ()),
    ],
)
def test_P7_blind_nil_only_100_or_more_behind(spades, score_a, score_b, eligible):
    """P7: a player may bid blind nil only if his side is at least 100 behind the other
    side's score as the deal starts."""
    m = spades.new_match(seed=3, scores=[score_a, score_b] * 2, kept=NO_BAGS)
    for _ in range(4):
        seat = m.to_act
        if seat in eligible:
            assert set(legal(m)) == BLIND
            m.apply("look")
        assert set(legal(m)) == ORDINARY
        m.apply("bid 2")
    assert deal_of(m).phase == "play"


def test_P7_both_partners_may_bid_blind_nil(spades):
    """P7: seats 2 and 0 (side A, 150 behind) both bid blind nil."""
    m = spades.new_match(seed=4, scores=[0, 150, 0, 150], kept=NO_BAGS)
    run(m, ["bid 3", "bid 0 blind", "bid 4", "bid 0 blind"])
    assert m.deal.bids == ((1, "bid 3"), (2, "bid 0 blind"), (3, "bid 4"), (0, "bid 0 blind"))
    assert deal_of(m).phase == "play"


def test_P8_P25_an_eligible_player_sees_no_card_until_he_decides(spades):
    """P8, P25: seats 0 and 2 are eligible: from the deal on their own hands are hidden from
    them (the others see theirs); the first decision is blind nil or look and nothing else;
    after look the hand is seen and every bid 0..13 (ordinary nil too) is offered; after a
    blind nil the hand is seen as well."""
    order = list(DECK)
    random.Random(8).shuffle(order)
    dealt = {s: sorted(order[(s + 3) % 4 :: 4]) for s in range(4)}  # P4, dealer 0
    m = spades.new_match(deck_orders=[order], scores=[0, 100, 0, 100], kept=NO_BAGS)
    for seat in (0, 2):
        assert m.observation(seat).hand == ()
        view = repr(m.observation(seat).to_dict())
        assert not any(f"'{c}'" in view for c in dealt[seat])
    for seat in (1, 3):
        assert sorted(m.observation(seat).hand) == dealt[seat]
    assert m.deal.hand_sizes == (13, 13, 13, 13)
    m.apply("bid 3")
    acts = m.legal_actions()
    assert set(texts(acts)) == BLIND
    blind = next(a for a in acts if a.kind == "bid")
    assert (blind.value, blind.qualifier) == (0, "blind")
    assert {a.kind for a in acts} == {"bid", "look"}
    for bad in ("bid 0", "bid 3", "bid 1 blind"):
        with pytest.raises(trickcore.IllegalActionError):
            m.apply(bad)
    assert m.observation(2).hand == ()
    m.apply("look")
    assert sorted(m.observation(2).hand) == dealt[2]
    assert set(legal(m)) == ORDINARY
    m.apply("bid 0")  # an ordinary nil after looking
    m.apply("bid 4")
    assert m.to_act == 0 and m.observation(0).hand == ()
    assert set(legal(m)) == BLIND
    m.apply("bid 0 blind")
    assert sorted(m.observation(0).hand) == dealt[0]
    assert m.deal.bids == ((1, "bid 3"), (2, "bid 0"), (3, "bid 4"), (0, "bid 0 blind"))


def test_P8_no_cards_are_exchanged_after_a_blind_nil(spades):
    """P8 (settled here): after a blind nil the partners keep their dealt hands and play
    starts at once with the forehand's lead."""
    order = list(DECK)
    random.Random(9).shuffle(order)
    m = spades.new_match(deck_orders=[order], scores=[0, 100, 0, 100], kept=NO_BAGS)
    run(m, ["bid 3", "look", "bid 4", "bid 2", "bid 0 blind"])
    assert deal_of(m).phase == "play" and m.to_act == 1
    for seat in range(4):
        obs = m.observation(seat)
        assert sorted(obs.hand) == sorted(order[(seat + 3) % 4 :: 4])
        assert obs.received == () and obs.given == ()
    assert all(a.kind == "play" for a in m.legal_actions())


def test_P9_nil_bids_add_nothing_to_the_contract(spades):
    """P9: seat 0 bids nil and wins nothing, seat 2 bids 3 and wins 3: contract 3, made
    exactly (30) plus the nil (100)."""
    m = scripted_match(spades, [0, 5, 3, 5], {1: 5, 2: 3, 3: 5, 0: 0})
    assert gains(m) == [130, 100, 130, 100]
    assert bag_counts(m) == [0, 0, 0, 0]


def test_P9_both_partners_nil_make_contract_0(spades):
    """P9, P17: seats 0 and 2 both nil and win nothing: contract 0, T = 0, two nils made."""
    m = scripted_match(spades, [0, 6, 0, 7], {1: 6, 2: 0, 3: 7, 0: 0})
    assert gains(m) == [200, 130, 200, 130]


# ---------------------------------------------------------------- P10–P15: play
@pytest.mark.parametrize("dealer", range(4))
def test_P10_the_player_left_of_the_dealer_leads_first(spades, dealer):
    """P10: after the bids the dealer's left-hand neighbour leads the first trick."""
    d = spades.new_deal(seed=11, dealer=dealer)
    bid_round(d, dict.fromkeys(range(4), 2))
    assert d.to_act == (dealer + 1) % 4 and d.observation(0).trick == ()
    d.apply(d.legal_actions()[0])
    assert d.observation(0).trick[0][0] == (dealer + 1) % 4


def test_P10_P15_thirteen_tricks_and_the_winner_leads_the_next(spades):
    """P10, P15: 13 tricks; the first led from the dealer's left, each later one by the
    winner of the one before; every seat's own tricks are recorded."""
    for seed in range(12):
        d = random_deal(spades, seed, dealer=seed % 4)
        obs = d.observation(seed % 4)
        assert len(obs.tricks) == 13 and obs.hand == ()
        assert obs.tricks[0][0] == (seed + 1) % 4
        for (_, _, winner), (leader, cards, _) in zip(obs.tricks, obs.tricks[1:]):
            assert leader == winner and cards[0][0] == winner
        assert list(obs.tricks_won) == [[t[2] for t in obs.tricks].count(s) for s in range(4)]


def test_P11_follow_suit_or_play_any_card(spades):
    """P11: seat 2 has no club: after the AC lead he may play any card, spades included;
    seats 3 and 0 must play a club."""
    d = play_deal(spades)
    d.apply("play AC")
    assert set(legal(d)) == plays(PLAY_HANDS[2])
    d.apply("play 2S")
    assert set(legal(d)) == plays(["9C", "8C", "7C", "6C"])
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("play JS")
    d.apply("play 6C")
    assert set(legal(d)) == plays(["5C", "4C", "3C", "2C"])


def test_P11_in_random_deals(spades):
    """P11 restated: a follower holding the led suit may play exactly those cards; without
    one, any card of his hand."""

    def check(d: trickcore.Deal) -> None:
        """The follower's legal cards are those P11 allows."""
        obs = d.observation(d.to_act)
        if obs.trick:
            same = [c for c in obs.hand if suit(c) == suit(obs.trick[0][1])]
            assert set(legal(d)) == plays(same or obs.hand)

    for seed in range(8):
        random_deal(spades, 100 + seed, check=check)


def test_P13_no_spade_lead_before_spades_are_broken(spades):
    """P13: the first lead may not be a spade; after a trick without a spade the next
    leader still may not lead one (P12)."""
    d = play_deal(spades)
    assert set(legal(d)) == plays(c for c in PLAY_HANDS[1] if suit(c) != "S")
    with pytest.raises(trickcore.IllegalActionError):
        d.apply("play AS")
    run(d, ["play AD", "play 7D", "play 4D", "play 2D"])  # seat 1 wins; no spade played
    assert d.to_act == 1
    assert set(legal(d)) == plays(c for c in PLAY_HANDS[1] if suit(c) != "S" and c != "AD")


def test_P12_P13_a_trumped_trick_breaks_spades_for_every_later_leader(spades):
    """P12, P13: seat 2 trumps the AC with the 2S: spades are broken; seat 2 may lead any
    card, and so may seat 1 at the next trick, though he played no spade himself."""
    d = play_deal(spades)
    run(d, ["play AC", "play 2S", "play 6C", "play 2C"])
    assert d.observation(0).tricks[0][2] == 2 and d.to_act == 2
    assert set(legal(d)) == plays(c for c in PLAY_HANDS[2] if c != "2S")
    run(d, ["play JD", "play 6D", "play 3D", "play AD"])
    assert d.to_act == 1
    assert set(legal(d)) == plays(c for c in PLAY_HANDS[1] if c not in ("AC", "AD"))
    d.apply("play AS")
    assert set(legal(d)) == plays(["4S", "3S"])


def test_P13_a_hand_of_spades_only_may_lead_a_spade_first(spades):
    """P13: the forehand holds 13 spades: he may lead any of them to the first trick."""
    spade_hand = [r + "S" for r in RANKS]
    d = spades.new_deal(spades.stack_deck({1: spade_hand}, dealer=0), dealer=0)
    bid_round(d, dict.fromkeys(range(4), 1))
    assert set(legal(d)) == plays(spade_hand)
    d.apply("play 2S")
    assert d.observation(0).trick == ((1, "2S"),)


def test_P12_P13_in_random_deals(spades):
    """P12, P13 restated: a leader may lead any card once a spade is in an earlier trick or
    when he holds only spades; otherwise exactly his other cards."""
    leads = {"broken": 0, "unbroken": 0}

    def check(d: trickcore.Deal) -> None:
        """The follower's legal cards are those P11 allows."""
        obs = d.observation(d.to_act)
        if obs.trick:
            return
        broken = any(suit(c) == "S" for _, cards, _ in obs.tricks for _, c in cards)
        plain = [c for c in obs.hand if suit(c) != "S"]
        leads["broken" if broken else "unbroken"] += 1
        assert set(legal(d)) == plays(obs.hand if broken or not plain else plain)

    for seed in range(8):
        random_deal(spades, 200 + seed, check=check)
    assert leads["broken"] and leads["unbroken"]


def test_P14_highest_spade_else_highest_card_of_the_suit_led(spades):
    """P14: a higher card of another plain suit does not win; a spade beats the led ace;
    among spades the highest wins."""
    d = play_deal(spades)
    run(d, ["play 10C", "play JD", "play 9C", "play 5C"])
    assert d.observation(0).tricks[0][2] == 1  # the JD is not of the suit led
    run(d, ["play AC", "play 2S", "play 6C", "play 2C"])
    assert d.observation(0).tricks[1][2] == 2
    run(d, ["play 3S", "play JS", "play 8S", "play QS"])
    assert d.observation(0).tricks[2][2] == 1


def test_P14_in_random_deals(spades):
    """P14 restated on every trick of random deals."""
    trumped = 0
    for seed in range(10):
        obs = random_deal(spades, 300 + seed).observation(0)
        for _, cards, winner in obs.tricks:
            assert winner == trick_winner(cards)
            trumped += suit(cards[0][1]) != "S" and suit(dict(cards)[winner]) == "S"
    assert trumped


def test_P15_the_deal_ends_with_the_13th_trick(spades):
    """P15: after 12 tricks the deal goes on; the 13th ends it and it is scored."""
    order, tricks = stacked(spades, [4, 3, 3, 3])
    d = spades.new_deal(order, dealer=0)
    bid_round(d, dict.fromkeys(range(4), 3))
    while len(d.observation(0).tricks) < 12:
        d.apply(f"play {tricks[len(d.observation(0).tricks)][d.to_act]}")
    assert not d.is_over and d.gains is None and d.to_act >= 0
    play_tricks(d, tricks)
    assert d.is_over and d.observation(0).tricks_won == (4, 3, 3, 3)
    assert d.gains is not None and d.legal_actions() == []


# ---------------------------------------------------------------- P16–P21: scoring
def test_P16_a_nil_bidder_s_tricks_count_for_his_partner(spades):
    """P16: seat 0 bids nil and wins 2, seat 2 bids 4 and wins 2: T = 4 makes the contract
    (40), the nil fails (-100), no bag."""
    m = scripted_match(spades, [2, 5, 2, 4], {1: 5, 2: 4, 3: 4, 0: 0})
    assert gains(m) == [-60, 90, -60, 90]
    assert bag_counts(m) == [0, 0, 0, 0]


def test_P16_P17_P18_every_deal_score_in_random_deals(spades):
    """P16–P18 restated: each side's deal score from the public bids and tricks won."""
    seen = set()
    for seed in range(40):
        d = random_deal(spades, 400 + seed, dealer=seed % 4)
        obs = d.observation(0)
        bid, blind = read_bids(obs)
        for side in SIDES:
            score, _ = restated_side_score(bid, blind, obs.tricks_won, side)
            assert [obs.gains[s] for s in side] == [score, score], (seed, side)
            c = sum(bid[s] for s in side)
            t = sum(obs.tricks_won[s] for s in side)
            seen.add("zero" if c == 0 else "made" if t >= c else "set")
            seen.update(
                "nil made" if obs.tricks_won[s] == 0 else "nil set" for s in side if bid[s] == 0
            )
    assert seen == {"zero", "made", "set", "nil made", "nil set"}


def test_P17_contract_made_exactly_gives_no_bag(spades):
    """P17: contract 7, 7 tricks: 70 and no bag; the other side 6 of 6: 60."""
    m = scripted_match(spades, [4, 3, 3, 3], {1: 3, 2: 3, 3: 3, 0: 4})
    assert gains(m) == [70, 60, 70, 60] and bag_counts(m) == [0, 0, 0, 0]


def test_P18_blind_nil_failed_costs_200(spades):
    """P18: seat 0's blind nil (side A 100 behind) wins a trick: -200, added to the
    contract score: seat 2 bid 4, T = 6: 42 and 2 bags."""
    m = scripted_match(
        spades, [1, 3, 5, 4], {1: 3, 2: 4, 3: 4, 0: "blind"}, scores=[0, 100, 0, 100]
    )
    assert gains(m) == [-158, 70, -158, 70]
    assert m.scores == [-158, 170, -158, 170]
    assert bag_counts(m) == [2, 0, 2, 0]


def test_P18_blind_nil_made_gains_200(spades):
    """P18: blind nil made by seat 2 (+200) with seat 0 bidding 3 and winning 4: 31 + 200."""
    m = scripted_match(
        spades, [4, 5, 0, 4], {1: 5, 2: "blind", 3: 4, 0: 3}, scores=[0, 100, 0, 100]
    )
    assert gains(m) == [231, 90, 231, 90]


def test_P19_P29_ten_bags_cost_100_and_the_rest_is_carried(spades):
    """P19, P29: side A has 8 bags, bids 6 and wins 10: 64, bags 12 -> -100 and 2 carried:
    the deal changes its score by -36."""
    m = scripted_match(
        spades, [5, 1, 5, 2], {1: 2, 2: 3, 3: 1, 0: 3}, scores=[100, 100, 100, 100], bags=(8, 0)
    )
    assert gains(m) == [64, 30, 64, 30]
    assert m.scores == [64, 130, 64, 130]
    assert bag_counts(m) == [2, 0, 2, 0]


def test_P19_22_bags_cost_200_and_leave_2(spades):
    """P19: side A (9 bags) bids nil twice and wins all 13 tricks: +13 and 13 bags, both nils
    fail (-200); 22 bags: -200 more, 2 left."""
    m = scripted_match(spades, [6, 0, 7, 0], {1: 3, 2: 0, 3: 3, 0: 0}, bags=(9, 0))
    assert gains(m) == [-187, -60, -187, -60]
    assert m.scores == [-387, -60, -387, -60]
    assert bag_counts(m) == [2, 0, 2, 0]


@pytest.mark.parametrize("bags, score, left", [(5, 0, 9), (6, -100, 0), (7, -100, 1)])
def test_P19_the_penalty_starts_at_10_bags(spades, bags, score, left):
    """P19: 4 bags added to 5, 6, 7: 9 costs nothing, 10 and 11 cost 100."""
    m = scripted_match(spades, [5, 2, 3, 3], {1: 2, 2: 2, 3: 3, 0: 2}, bags=(bags, 0))
    assert gains(m)[0] == 44
    assert m.scores[0] == 44 + score and bag_counts(m) == [left, 0, left, 0]


def test_P20_scores_may_be_negative_and_bags_are_kept_apart(spades):
    """P20: a score of 109 with no bags, plus 1 bag, is no bag penalty (bags are not read off
    the last digit); a failed contract takes a side below zero."""
    m = scripted_match(spades, [4, 3, 4, 2], {1: 4, 2: 3, 3: 4, 0: 4}, scores=[109, 0, 109, 0])
    assert gains(m) == [71, -80, 71, -80]
    assert m.scores == [180, -80, 180, -80] and bag_counts(m) == [1, 0, 1, 0]


def test_P20_a_match_starts_at_0_with_no_bags(spades):
    """P20, P21: a new match starts both sides at 0 points and 0 bags; the P26 deal then
    leaves side A 72 and 2 bags."""
    order, tricks = stacked(spades, [5, 2, 4, 2])
    m = spades.new_match(deck_orders=[order])
    assert m.scores == [0, 0, 0, 0] and bag_counts(m) == [0, 0, 0, 0]
    bid_round(m, {1: 2, 2: 3, 3: 2, 0: 4})
    play_tricks(m, tricks)
    assert m.scores == [72, 40, 72, 40] and bag_counts(m) == [2, 0, 2, 0]


def test_P21_scores_change_only_after_the_deal_and_decide_the_next_blind_nil(spades):
    """P21: nobody may bid blind nil at 0 to 0; during deal 1 the scores stay 0; after it
    side A trails -120 to 100, so in deal 2 its players (and only they) are offered the
    blind nil decision."""
    order, tricks = stacked(spades, [2, 5, 1, 5])
    m = spades.new_match(seed=2, deck_orders=[order], scores=[0] * 4, kept=NO_BAGS)
    for _ in range(4):
        assert set(legal(m)) == ORDINARY
        m.apply({1: "bid 5", 2: "bid 6", 3: "bid 5", 0: "bid 6"}[m.to_act])
    d = deal_of(m)
    while not d.is_over:
        assert m.scores == [0, 0, 0, 0] and m.deal.scores == (0, 0, 0, 0)
        m.apply(f"play {tricks[len(d.observation(0).tricks)][m.to_act]}")
    assert gains(m) == [-120, 100, -120, 100]
    assert m.scores == [-120, 100, -120, 100]
    assert m.deal.dealer == 1 and m.to_act == 2
    for _ in range(4):
        seat = m.to_act
        assert set(legal(m)) == (BLIND if seat in (0, 2) else ORDINARY), seat
        if seat in (0, 2):
            m.apply("look")
        m.apply("bid 3")


# ---------------------------------------------------------------- P22–P24: the match
@pytest.mark.parametrize("start, over", [(427, False), (428, True)])
def test_P22_the_match_ends_when_a_side_has_500(spades, start, over):
    """P22, P23: side A scores 72: 499 goes on, 500 ends the match and A wins."""
    m = scripted_match(
        spades, [5, 2, 4, 2], {1: 2, 2: 3, 3: 2, 0: 4}, scores=[start, 300, start, 300]
    )
    assert m.scores == [start + 72, 340, start + 72, 340]
    assert m.is_over is over
    assert m.winners == ([0, 2] if over else [])


def test_P22_no_end_below_500_however_long(spades):
    """P22: while no side has 500 the match goes on: everybody bids 13 (contracts of 26
    fail: -260 a deal) and after 999 deals the match is not over. The 1000th deal meets the
    file's safety stop (`deal_limit: 1000`, which the sheet does not have) and ends it."""
    m = spades.new_match(seed=1)
    for n in range(1, 1001):
        assert not m.is_over, n
        d = deal_of(m)
        while not d.is_over:
            acts = m.legal_actions()
            m.apply("bid 13" if acts[0].kind == "bid" else acts[0])
    assert m.scores == [-260_000] * 4 and len(m.deal_results) == 1000
    assert m.is_over


def test_P22_no_end_at_minus_200_without_the_option(spades):
    """P22: with `floor-minus-200` off, -230 does not end the match."""
    m = scripted_match(spades, [4, 3, 3, 3], {1: 3, 2: 4, 3: 3, 0: 4}, scores=[-150, 0, -150, 0])
    assert m.scores == [-230, 60, -230, 60] and not m.is_over


def test_P23_P33_both_sides_over_500_the_higher_wins(spades):
    """P23, P33: after a deal side A has 512 and side B 530: B wins."""
    m = scripted_match(spades, [5, 2, 4, 2], {1: 2, 2: 3, 3: 2, 0: 4}, scores=[440, 490, 440, 490])
    assert m.scores == [512, 530, 512, 530]
    assert m.is_over and m.winners == [1, 3]


def test_P24_P33_equal_scores_play_another_deal(spades):
    """P24, P33: 505 to 505 after a deal: another deal (dealer 1) is played; after it 577 to
    545 ends the match for side A."""
    deal = ([5, 2, 4, 2], {1: 2, 2: 3, 3: 2, 0: 4})
    m = scripted_match(spades, *deal, scores=[433, 465, 433, 465])
    assert m.scores == [505, 505, 505, 505]
    assert not m.is_over and m.winners == [] and m.deal.dealer == 1
    m = scripted_match(spades, *deal, scores=[433, 465, 433, 465], more=[deal])
    assert len(m.deal_results) == 2 and gains(m) == [72, 40, 72, 40]
    assert m.scores == [577, 545, 577, 545]
    assert m.is_over and m.winners == [0, 2]


def test_P24_a_tie_again_plays_on_again(spades):
    """P24, repeatedly: 600 to 600 after a deal, then both sides fail 8 (-80): 520 to 520,
    tied again, so a third deal is played; it ends the match at 592 to 560."""
    deal = ([5, 2, 4, 2], {1: 2, 2: 3, 3: 2, 0: 4})  # A +72, B +40
    both_fail = ([4, 3, 3, 3], {1: 4, 2: 4, 3: 4, 0: 4})  # A 7 of 8, B 6 of 8
    m = scripted_match(spades, *deal, scores=[528, 560, 528, 560], more=[both_fail])
    assert gains(m) == [-80, -80, -80, -80]
    assert m.scores == [520, 520, 520, 520] and not m.is_over and m.deal.dealer == 2
    m = scripted_match(spades, *deal, scores=[528, 560, 528, 560], more=[both_fail, deal])
    assert len(m.deal_results) == 3
    assert m.scores == [592, 560, 592, 560] and m.is_over and m.winners == [0, 2]


# ---------------------------------------------------------------- P25: information
def test_P25_hands_are_private_bids_tricks_and_scores_public(spades):
    """P25: no seat sees another's hand; every seat sees the same bids, the cards played and
    who won each trick, and the scores."""
    m = spades.new_match(seed=12, scores=[10, 20, 10, 20], kept=[{"bags": 3}, {"bags": 4}] * 2)
    run(m, ["bid 3", "bid 2", "bid 4", "bid 1"])
    d = deal_of(m)
    for seat in range(4):
        view = repr(m.observation(seat).to_dict())
        for other in range(4):
            if other != seat:
                assert not any(f"'{c}'" in view for c in d.hand_texts(other))
    assert m.deal.hand == ()
    for _ in range(9):
        m.apply(m.legal_actions()[0])
    views = [m.observation(s) for s in range(4)]
    assert len({(v.bids, v.tricks, v.trick, v.tricks_won, v.scores) for v in views}) == 1
    assert views[0].bids == ((1, "bid 3"), (2, "bid 2"), (3, "bid 4"), (0, "bid 1"))
    assert len(views[0].tricks) == 2 and views[0].scores == (10, 20, 10, 20)
    assert [m.kept_state(s)["bags"] for s in range(4)] == [3, 4, 3, 4]


# ---------------------------------------------------------------- P26–P33: worked examples
def test_P26_contract_7_and_9_tricks_score_72_and_2_bags(spades):
    """P26: seat 0 bids 4, seat 2 bids 3, they win 9 tricks: +72, 2 bags."""
    m = scripted_match(spades, [5, 2, 4, 2], {1: 2, 2: 3, 3: 2, 0: 4})
    assert gains(m)[0] == gains(m)[2] == 72
    assert bag_counts(m)[0] == bag_counts(m)[2] == 2
    assert gains(m)[1] == 40 and bag_counts(m)[1] == 0


def test_P27_nil_made_and_contract_5_with_6_tricks(spades):
    """P27: seat 1 nil wins nothing, seat 3 bids 5 and wins 6: 51 + 100 = +151, 1 bag."""
    m = scripted_match(spades, [4, 0, 3, 6], {1: 0, 2: 3, 3: 5, 0: 4})
    assert gains(m) == [70, 151, 70, 151]
    assert bag_counts(m) == [0, 1, 0, 1]


def test_P28_nil_failed_but_its_trick_makes_the_contract(spades):
    """P28: seat 1 nil wins 1, seat 3 bids 5 and wins 4: T = 5 makes (+50), the nil fails
    (-100): -50, no bag."""
    m = scripted_match(spades, [4, 1, 4, 4], {1: 0, 2: 4, 3: 5, 0: 4})
    assert gains(m) == [80, -50, 80, -50]
    assert bag_counts(m) == [0, 0, 0, 0]


def test_P29_eight_bags_then_four_more(spades):
    """P29: 8 bags, bid 6, 10 tricks: 64, then 12 bags cost 100: -36, 2 bags."""
    m = scripted_match(spades, [1, 5, 2, 5], {1: 3, 2: 1, 3: 3, 0: 2}, bags=(0, 8))
    assert gains(m) == [30, 64, 30, 64]
    assert m.scores == [30, -36, 30, -36] and bag_counts(m) == [0, 2, 0, 2]


def test_P30_contract_8_with_7_tricks_loses_80(spades):
    """P30: contract 8, 7 tricks: -80 and no bag."""
    m = scripted_match(spades, [4, 3, 3, 3], {1: 3, 2: 4, 3: 3, 0: 4})
    assert gains(m) == [-80, 60, -80, 60] and bag_counts(m) == [0, 0, 0, 0]


def test_P31_blind_nil_made_behind_180_to_320(spades):
    """P31: seat 0 bids blind nil (180 to 320) and wins nothing; seat 2 bids 4 and wins 4:
    40 + 200 = +240, no bag."""
    m = scripted_match(
        spades, [0, 5, 4, 4], {1: 5, 2: 4, 3: 4, 0: "blind"}, scores=[180, 320, 180, 320]
    )
    assert m.deal_results[-1]["gains"] == [240, 90, 240, 90]
    assert m.scores == [420, 410, 420, 410] and bag_counts(m) == [0, 0, 0, 0]


def test_P32_both_nil_one_fails(spades):
    """P32: seats 1 and 3 both bid nil; seat 1 wins 2 tricks, seat 3 none: +2 and 2 bags,
    -100 and +100: +2 for the deal."""
    m = scripted_match(spades, [6, 2, 5, 0], {1: 0, 2: 5, 3: 0, 0: 6})
    assert gains(m) == [110, 2, 110, 2]
    assert bag_counts(m) == [0, 2, 0, 2]


# P33 is test_P23_P33_both_sides_over_500_the_higher_wins and
# test_P24_P33_equal_scores_play_another_deal.


def test_P16_to_P24_whole_random_matches_restated(spades):
    """P16–P24 restated over random matches (blind nil taken now and then when offered):
    after every deal each side's score and bags follow from its bids and tricks; the match
    ends exactly when a side has 500 or more and the scores differ, won by the higher side."""
    ended = blind_bids = 0
    for seed in range(8):
        rng = random.Random(seed)
        m = spades.new_match(seed=seed, scores=[440, 320, 440, 320], kept=NO_BAGS)
        score = {0: 440, 1: 320}
        bags = {0: 0, 1: 0}
        while not m.is_over and len(m.deal_results) < 100:
            d = deal_of(m)
            while not d.is_over:
                acts = legal(m)
                if "look" in acts:
                    m.apply("bid 0 blind" if rng.random() < 0.25 else "look")
                elif "bid 1" in acts:
                    m.apply(f"bid {rng.choice([0, 1, 2, 2, 3, 3, 3, 4])}")
                else:
                    m.apply(rng.choice(acts))
            bid, blind = read_bids(d.observation(0))
            blind_bids += sum(blind.values())
            for i, side in enumerate(SIDES):
                gained, added = restated_side_score(bid, blind, d.observation(0).tricks_won, side)
                score[i] += gained - 100 * ((bags[i] + added) // 10)
                bags[i] = (bags[i] + added) % 10
            assert m.scores == [score[0], score[1]] * 2
            assert bag_counts(m) == [bags[0], bags[1]] * 2
            assert m.is_over is (max(score.values()) >= 500 and score[0] != score[1])
        if m.is_over:
            ended += 1
            assert m.winners == list(SIDES[0 if score[0] > score[1] else 1])
    assert ended >= 4 and blind_bids


# ---------------------------------------------------------------- P34–P40: house rules
@pytest.mark.parametrize("start, over", [(-119, False), (-120, True), (-150, True)])
def test_P34_floor_minus_200_ends_the_match(start, over):
    """P34: a side at -200 or less after a deal ends the match; the other side, higher,
    wins."""
    v = house("spades-floor-minus-200")
    m = scripted_match(v, [4, 3, 3, 3], {1: 3, 2: 4, 3: 3, 0: 4}, scores=[start, 0, start, 0])
    assert m.scores == [start - 80, 60, start - 80, 60]
    assert m.is_over is over and m.winners == ([1, 3] if over else [])


def test_P34_floor_minus_200_the_lower_side_loses():
    """P34, P23: both sides fail 8 from -150 and -170: -230 and -250 end the match, and
    side A, the less low, wins."""
    v = house("spades-floor-minus-200")
    m = scripted_match(v, [4, 3, 3, 3], {1: 4, 2: 4, 3: 4, 0: 4}, scores=[-150, -170, -150, -170])
    assert m.scores == [-230, -250, -230, -250] and m.is_over and m.winners == [0, 2]


@pytest.mark.parametrize("start, over", [(427, False), (428, True)])
def test_P34_floor_minus_200_still_ends_at_500(start, over):
    """P34 keeps P22: 500 still ends the match, 499 does not."""
    m = scripted_match(
        house("spades-floor-minus-200"),
        [5, 2, 4, 2],
        {1: 2, 2: 3, 3: 2, 0: 4},
        scores=[start, 0, start, 0],
    )
    assert m.scores[0] == start + 72
    assert m.is_over is over and m.winners == ([0, 2] if over else [])


def test_P35_no_blind_nil_even_far_behind():
    """P35: side A is 300 behind, yet every player sees his hand and is offered only the
    ordinary bids 0..13."""
    m = house("spades-no-blind-nil").new_match(seed=5, scores=[0, 300, 0, 300], kept=NO_BAGS)
    for seat in range(4):
        assert len(m.observation(seat).hand) == 13
    for _ in range(4):
        assert set(legal(m)) == ORDINARY
        for bad in ("bid 0 blind", "look"):
            with pytest.raises(trickcore.IllegalActionError):
                m.apply(bad)
        m.apply("bid 0")
    assert deal_of(m).phase == "play"


def test_P35_no_blind_nil_scores_as_the_base_game():
    """P35 changes nothing else: P27 scores the same."""
    m = scripted_match(house("spades-no-blind-nil"), [4, 0, 3, 6], {1: 0, 2: 3, 3: 5, 0: 4})
    assert gains(m) == [70, 151, 70, 151]


@pytest.mark.parametrize("scores", [[0, 0, 0, 0], [300, 0, 300, 0], [0, 99, 0, 99]])
def test_P36_blind_nil_anytime(scores):
    """P36: whatever the scores, every player first chooses blind nil or look, his hand
    hidden until then."""
    m = house("spades-blind-nil-anytime").new_match(seed=6, scores=scores, kept=NO_BAGS)
    for seat in range(4):
        assert m.observation(seat).hand == ()
    for _ in range(4):
        seat = m.to_act
        assert set(legal(m)) == BLIND
        m.apply("look")
        assert len(m.observation(seat).hand) == 13
        assert set(legal(m)) == ORDINARY
        m.apply("bid 2")
    assert deal_of(m).phase == "play"


def test_P36_blind_nil_anytime_scores_200():
    """P36 with P18: a blind nil at 0 to 0, made (seat 0 wins nothing): +200 plus seat 2's
    contract 4 of 4 (40)."""
    m = scripted_match(
        house("spades-blind-nil-anytime"), [0, 5, 4, 4], {1: 5, 2: 4, 3: 4, 0: "blind"}
    )
    assert gains(m) == [240, 90, 240, 90]


def test_P37_nil_tricks_separate_the_P28_example(spades):
    """P37: P28 again: T = 4 < 5 (-50), the nil fails (-100): -150, and 1 bag for the nil
    bidder's trick (the base game: -50, no bag)."""
    deal = ([4, 1, 4, 4], {1: 0, 2: 4, 3: 5, 0: 4})
    m = scripted_match(house("spades-nil-tricks-separate"), *deal)
    assert gains(m) == [80, -150, 80, -150] and bag_counts(m) == [0, 1, 0, 1]
    m = scripted_match(spades, *deal)
    assert gains(m) == [80, -50, 80, -50] and bag_counts(m) == [0, 0, 0, 0]


def test_P37_nil_tricks_separate_both_nil():
    """P37: P32 again: with both partners nil T = 0 (0 points); seat 1's 2 tricks are 2 bags
    and no point; the nils: -100 and +100."""
    m = scripted_match(house("spades-nil-tricks-separate"), [6, 2, 5, 0], {1: 0, 2: 5, 3: 0, 0: 6})
    assert gains(m) == [110, 0, 110, 0] and bag_counts(m) == [0, 2, 0, 2]


def test_P37_nil_tricks_separate_overtricks_and_nil_bags_add_up(spades):
    """P37: seat 0 nil wins 2, seat 2 bids 3 and wins 4: T = 4: 31 and 1 bag, plus 2 bags for
    the nil bidder's tricks (7 + 3 = 10 bags: -100), and -100 for the nil. The base game
    counts T = 6: 33."""
    deal = ([2, 4, 4, 3], {1: 3, 2: 3, 3: 3, 0: 0})
    m = scripted_match(house("spades-nil-tricks-separate"), *deal, bags=(7, 0))
    assert gains(m) == [-69, 61, -69, 61]
    assert m.scores == [-169, 61, -169, 61] and bag_counts(m) == [0, 1, 0, 1]
    m = scripted_match(spades, *deal, bags=(7, 0))
    assert gains(m) == [-67, 61, -67, 61] and bag_counts(m) == [0, 1, 0, 1]


def test_P37_nil_tricks_separate_only_nil_bidders_tricks(spades):
    """P37: seat 0 bids 1 and wins 3, his partner's nil wins 1: T = 3 (a bid of 1 is no nil):
    12 and 2 bags, 1 more bag for the nil bidder's trick, -100 for the nil. The base game:
    T = 4: 13 and 3 bags."""
    deal = ([3, 5, 1, 4], {1: 4, 2: 0, 3: 4, 0: 1})
    m = scripted_match(house("spades-nil-tricks-separate"), *deal)
    assert gains(m) == [-88, 81, -88, 81] and bag_counts(m) == [3, 1, 3, 1]
    m = scripted_match(spades, *deal)
    assert gains(m) == [-87, 81, -87, 81] and bag_counts(m) == [3, 1, 3, 1]


@pytest.mark.parametrize(
    "bags, added, penalty, left",
    [(0, 4, 0, 4), (3, 2, -50, 0), (3, 4, -50, 2), (8, 4, -100, 2), (9, 13, -200, 2)],
)
def test_P38_bag_penalty_5_50(bags, added, penalty, left):
    """P38 (N = 5, X = 50): every full 5 bags cost 50 and the rest is carried."""
    v = house("spades-bag-penalty-5-50")
    if added == 13:  # P19's deal: both nil, all 13 tricks: +13 - 200
        m = scripted_match(v, [6, 0, 7, 0], {1: 3, 2: 0, 3: 3, 0: 0}, bags=(bags, 0))
        gain = -187
    else:  # side A bids 4 and wins 4 + added
        counts = [2 + added, 4, 2, 5 - added]
        m = scripted_match(v, counts, {1: 2, 2: 2, 3: 2, 0: 2}, bags=(bags, 0))
        gain = 40 + added
    assert gains(m)[0] == gain
    assert m.scores[0] == gain + penalty and bag_counts(m)[0] == left


def test_P39_two_of_clubs_leads_the_first_trick():
    """P39: after the bids the holder of the 2C (seat 3, not the forehand) leads, and only
    the 2C; P12-P13 hold again for the later leads: no spade before one is played, any card
    after seat 1 has trumped a club."""
    v = house("spades-two-of-clubs-leads")
    hands = {
        3: "2C AD KD QD JD 10D AH KH QH AS KS QS JS".split(),
        0: "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2S".split(),
        1: "9D 8D 7D 6D 5D 4D 3D 2D JH 10H 9H 10S 9S".split(),
        2: "8H 7H 6H 5H 4H 3H 2H 8S 7S 6S 5S 4S 3S".split(),
    }
    d = v.new_deal(v.stack_deck(hands, dealer=0), dealer=0)
    bid_round(d, dict.fromkeys(range(4), 3))
    assert d.to_act == 3 and legal(d) == ["play 2C"]
    run(d, ["play 2C", "play AC", "play 9D", "play 8H"])
    assert d.observation(0).tricks[0][2] == 0 and d.to_act == 0
    assert set(legal(d)) == plays(c for c in hands[0] if c not in ("AC", "2S"))
    run(d, ["play KC", "play 10S", "play 7H", "play AD"])
    assert d.observation(0).tricks[1][2] == 1 and d.to_act == 1
    assert set(legal(d)) == plays(c for c in hands[1] if c not in ("9D", "10S"))


def test_P39_the_2C_leads_even_from_the_dealer_and_with_spades_only_besides():
    """P39: the dealer holds the 2C and twelve spades: he leads the 2C (not a spade)."""
    v = house("spades-two-of-clubs-leads")
    hand = ["2C", *[r + "S" for r in RANKS[:12]]]
    d = v.new_deal(v.stack_deck({2: hand}, dealer=2), dealer=2)
    bid_round(d, dict.fromkeys(range(4), 3))
    assert d.to_act == 2 and legal(d) == ["play 2C"]


def test_P39_base_game_forehand_leads_anything_but_spades(spades):
    """P10 without P39: the same hands, the forehand leads, not the 2C holder."""
    d = spades.new_deal(spades.stack_deck({3: ["2C"]}, dealer=0), dealer=0)
    bid_round(d, dict.fromkeys(range(4), 3))
    assert d.to_act == 1 and "play 2C" not in legal(d)


@pytest.mark.parametrize(
    "bids, counts, base, changed",
    [
        ({0: 5, 2: 5}, [6, 1, 5, 1], 101, 201),  # 10 of 11: +200 + 1
        ({0: 5, 2: 5}, [5, 3, 4, 1], -100, -200),  # 10 with 9
        ({0: 7, 2: 6}, [7, 0, 6, 0], 130, 200),  # 13 of 13
        ({0: 5, 2: 4}, [5, 2, 4, 2], 90, 90),  # 9 made: unchanged
        ({0: 5, 2: 4}, [4, 3, 4, 2], -90, -90),  # 9 failed: unchanged
        ({0: 1, 2: 0}, [3, 5, 0, 5], 112, 112),  # 1 (and a nil made): unchanged
        ({0: 0, 2: 0}, [1, 6, 1, 5], -198, -198),  # both nil: T = 2, two nils failed
    ],
)
def test_P40_ten_for_two_hundred(spades, bids, counts, base, changed):
    """P40: a contract of 10 or more scores +200 (overtricks 1 each) or -200."""
    b = {1: 1, 3: 1, **bids}
    for v, want in ((spades, base), (house("spades-ten-for-two-hundred"), changed)):
        m = scripted_match(v, counts, b)
        assert gains(m)[0] == gains(m)[2] == want, v.name
    side = counts[0] + counts[2] - bids[0] - bids[2]
    assert bag_counts(m)[0] == max(side, 0)


def test_P2_spades_are_trumps_from_the_deal_on(spades):
    """P2: spades are always trumps, so every player's observation says so while the bids
    are still being made (P5)."""
    d = spades.new_deal(seed=3)
    assert d.phase == "bids"
    assert {d.observation(s).trump for s in range(4)} == {"spades"}
