"""Preferans, Sochi convention (variants/preferans.rules): a test per numbered rule R1-R68 of
docs/rules/preferans.md, with scripted deals (deck orders and actions through the
public API). The deck orders of the worked examples were chosen so that a fixed way of
playing (`finish`: always the first legal card) gives the example's tricks.

The match score is kept exact as n x R(i) (R48: n seated players), so results are checked
as n times the sheet's fractions."""

from __future__ import annotations

from fractions import Fraction

import pytest

import trickcore
from trickcore.language.errors import TrickcoreError

V = trickcore.load_variant("preferans")
# R52: each suit from 7 up to A, spades, clubs, diamonds, hearts
ORDERED = [r + s for s in "SCDH" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]

# deck orders found for the worked examples (see the module docstring)
R53 = (
    "9C QH KC QD 8D 7H JH KH JD AH AC 9H JC 10C KD 8H "
    "AD AS JS 7S 10H 10D 7D 9S 7C QC 8C 8S KS 9D 10S QS"
)
R54 = (
    "JH 8D 8S KS KC 9C 7D 10H 10D 8C 7S 8H QS KH JS 7C "
    "9S JD AD QH KD 7H JC AC AS AH QC 10S 10C QD 9D 9H"
)
R55A = (
    "7D 8S 7H QD KD 10S QS QH AH 9S 8C KH 9C QC KC 10C "
    "AC 9H JH KS 8D 9D JD AD 7C JS JC 10D 8H 10H AS 7S"
)
R55B = (
    "8S KH 8H 8C 9C QS KS QC 9S 7C KD 8D QD KC 10H JH "
    "7D 7S 10S AH JD QH 9D 10D 10C JC 7H AS 9H JS AD AC"
)
R55C = (
    "QH 7C JH 8D KS 10S 9D AH AS 9S KD AD 7D JS 10H 9C "
    "AC 8C KC QD 8H KH 10D 7H 8S 10C JC 9H JD QC QS 7S"
)
R56 = (
    "8S 10H QC KH AD 9C 7D JS 10C 9H 8H 7S QH AC QS 9S "
    "7H 10D AS 7C AH JH KC 10S 8C KS JC 8D JD 9D KD QD"
)
R57 = (
    "9D KD QH 7D JH 7H 10S QD 8D QC KS 10D 9H QS KH AS "
    "KC JS 8C 10C AH AC 8S JD 7S JC 10H AD 8H 9C 7C 9S"
)
R59A = (
    "10S 9C 8D AC 7S KS 10D 8C 7C 9H 9S 10C JS 7D JH KH "
    "10H AD 7H 8H 8S QC 9D AH KD JC KC JD QH AS QS QD"
)
R59B = (
    "7C AS 9S 7S AH 10C KH JS AD QC QS 9D JC QH 8S KC "
    "7H 10D KS QD 9C 8H 10H KD 9H 8D 8C 10S AC 7D JH JD"
)
R60A = (
    "9H KC 10S QC 8S 8H 10D 7C JC KS 9S JH AD KD 7H 10H "
    "KH 8D 7S AH QS 9D QH AC JD 10C AS 9C QD 8C 7D JS"
)
TALON_HIGH = (  # an all-pass whose first talon card (AD) is above every card played to it
    "QH JH 7H KH JS 9H AD QD 10C 10H AH 10S QS AS 8C 9D "
    "JC 9S 7S 8H 8S 7C 7D KC AC 8D KS JD 10D 9C QC KD"
)
R60B = (
    "QD 7H AH 7S 9S 8S 10H JH 7C KS 8H JD QC 8C KD 8D "
    "7D QH 10D JC KH 9H AC 9C QS AD AS 10C JS KC 10S 9D"
)
R60C = R54  # with dealer 2 its all-pass gives 0, 6, 4
FAILED = (
    "QC 10S KC AH JH 9H JS 10H JC 7S 9S 8D AS 8C JD QH "
    "7D 9C 10D 7H 8S KH QD KD QS 9D AC AD 10C 7C KS 8H"
)


def start(order=ORDERED, players=3, dealer=0, kept=None, variant=V, more=()):
    """A match whose first deal has this deck order (a text or a list of cards)."""
    first = order.split() if isinstance(order, str) else list(order)
    orders = [first, *[o.split() for o in more]]
    return variant.new_match(deck_orders=orders, players=players, dealer=dealer, kept=kept)


def script(m, actions):
    """Apply actions in turn; `*` is the first legal action (a discard, say)."""
    for a in actions:
        m.apply(m.legal_actions()[0] if a == "*" else a)


def finish(m):
    """Play the current deal to its end, always the first legal action; its Deal."""
    deal = m.current
    n = m.deals_played
    while m.deals_played == n:
        m.apply(m.legal_actions()[0])
    return deal


def texts(m):
    return [str(a) for a in m.legal_actions()]


def sheet(m, seat):
    return m.kept_state(seat)


def contract_deal(declare, whists, order=ORDERED, players=3, dealer=0, kept=None, variant=V):
    """The auction `declare`, two discards, `keep contract`, then the whist round."""
    m = start(order, players, dealer, kept, variant)
    script(m, [*declare, "*", "*", "keep contract", *whists])
    return m


# ---------------------------------------------------------------- cards and players
def test_r01_thirty_two_cards_without_points():
    deck = V.model.deck
    assert deck.size == 32
    assert [r.symbol for r in deck.ranks] == ["A", "K", "Q", "J", "10", "9", "8", "7"]
    assert deck.total_points == 0  # only tricks count


def test_r02_suit_order_in_the_auction():
    m = start()
    m.apply("bid 6 clubs")
    bids = texts(m)
    assert "bid 6 spades" not in bids and "bid 6 clubs" not in bids
    assert bids[:3] == ["bid 6 diamonds", "bid 6 hearts", "bid 6 notrump"]


def test_r03_three_or_four_seated_and_the_dealer_sits_out_with_four():
    assert V.model.players == (3, 4)
    with pytest.raises(TrickcoreError):
        V.new_match(seed=1, players=5)
    m3 = start(players=3, dealer=0)
    assert all(len(m3.observation(s).hand) == 10 for s in range(3))
    m4 = start(players=4, dealer=1)
    assert m4.observation(1).hand == () and m4.current.active == [2, 3, 0]
    seen = set()
    while m4.deals_played == 0:
        seen.add(m4.to_act)
        m4.apply(m4.legal_actions()[0])
    assert 1 not in seen  # the dealer who sits out makes no decision


def test_r04_positions_skip_the_dealer_who_sits_out():
    assert start(players=3, dealer=2).current.active == [0, 1, 2]
    assert start(players=4, dealer=3).current.active == [0, 1, 2]
    assert start(players=4, dealer=0).current.active == [1, 2, 3]
    assert start(players=4, dealer=2).to_act == 3  # first hand


# ---------------------------------------------------------------- deal
def test_r05_the_deal_passes_clockwise_whatever_happened():
    m = start()
    script(m, ["pass", "pass", "pass"])  # an all-pass is played, never redealt
    finish(m)
    assert m.current.dealer == 1 and m.deals_played == 1
    script(m, ["pass", "pass", "pass"])
    finish(m)
    assert m.current.dealer == 2


def test_r06_dealing_pattern_in_packets_of_two():
    m = start()
    d = m.current
    order = ORDERED
    for seat, base in ((1, 0), (2, 2), (0, 4)):  # first, second, third hand
        want = {order[base + i] for i in (0, 1)} | {
            order[8 + 6 * k + base - 0 + i] for k in range(4) for i in (0, 1)
        }
        assert set(m.observation(seat).hand) == want
    assert [V.model.deck.card_text(c) for c in d.talon] == [order[6], order[7]]


def test_r07_the_talon_is_unseen_during_the_auction():
    m = start()
    m.apply("bid 6 spades")
    for seat in range(3):
        obs = m.observation(seat)
        assert obs.talon_shown is None and obs.talon_size == 2


# ---------------------------------------------------------------- bidding
def test_r08_the_ladder_has_26_bids_with_misere_after_8nt():
    bids = [t for t in texts(start()) if t.startswith("bid")]
    assert len(bids) == 26
    i = bids.index("bid 8 misere")
    assert bids[i - 1] == "bid 8 notrump" and bids[i + 1] == "bid 9 spades"
    assert not any(b.endswith("misere") and b != "bid 8 misere" for b in bids)


def test_r09_first_hand_calls_first_then_clockwise_skipping_passers():
    m = start(dealer=0)
    assert m.to_act == 1
    m.apply("bid 6 spades")
    assert m.to_act == 2
    m.apply("pass")
    assert m.to_act == 0
    m.apply("bid 6 clubs")
    assert m.to_act == 1  # seat 2 passed: skipped


def test_r10_a_bid_ranks_strictly_higher_jumps_allowed():
    m = start()
    m.apply("bid 7 diamonds")
    bids = texts(m)
    assert "bid 7 diamonds" not in bids and "bid 7 clubs" not in bids
    assert "bid 7 hearts" in bids and "bid 10 notrump" in bids and "pass" in bids
    with pytest.raises(TrickcoreError):
        m.apply("bid 7 diamonds")


def test_r11_misere_only_as_a_first_bid_below_it_and_then_only_pass():
    m = start()
    m.apply("bid 6 spades")  # seat 1
    m.apply("bid 8 misere")  # seat 2: his first bid
    assert "bid 8 misere" not in texts(m)  # seat 0: above misere now
    assert texts(m)[0] == "bid 9 spades"
    m.apply("bid 9 spades")
    assert "bid 8 misere" not in texts(m)  # seat 1 has bid before
    m.apply("pass")
    assert m.to_act == 2 and texts(m) == ["pass"]  # he bid misere: only pass


def test_r12_a_pass_is_final():
    m = start()
    script(m, ["pass", "bid 6 spades", "bid 6 clubs", "bid 6 diamonds"])
    assert m.to_act == 0  # seat 1 passed and is never asked again
    m.apply("pass")
    assert m.current.declarer == 2


def test_r13_when_the_auction_ends():
    m = start()  # (b) the example: 6S, 6C, pass, 6NT, pass
    script(m, ["bid 6 spades", "bid 6 clubs", "pass", "bid 6 notrump", "pass"])
    assert m.current.declarer == 1 and m.current.qualifier == "notrump"
    assert m.current.contract == 6
    m = start()  # two passes first: the third hand still calls, a bid makes him declarer
    script(m, ["pass", "pass"])
    assert m.to_act == 0
    m.apply("bid 6 spades")
    assert m.current.declarer == 0 and m.current.phase == "give"
    m = start()  # (a) three passes: an all-pass, played
    script(m, ["pass", "pass", "pass"])
    assert m.current.declarer == -1 and m.current.phase == "play"


# ---------------------------------------------------------------- talon and contract
def test_r14_the_talon_is_shown_to_all_and_taken():
    m = start()
    script(m, ["bid 6 spades", "pass", "pass"])
    for seat in range(3):
        assert m.observation(seat).talon_shown == ("KS", "AS")
    assert len(m.observation(1).hand) == 12 and {"KS", "AS"} <= set(m.observation(1).hand)


def test_r15_two_discards_seen_by_the_declarer_alone():
    m = start()
    script(m, ["bid 6 spades", "pass", "pass"])
    assert texts(m) == [f"discard {c}" for c in m.observation(1).hand]
    script(m, ["discard AS", "discard 7S"])
    assert m.current.phase == "raise"
    assert set(m.observation(1).laid_away) == {"AS", "7S"}
    assert m.observation(0).laid_away == ()
    assert m.observation(0).log[-1] == (1, "discard a card")
    assert len(m.observation(1).hand) == 10


def test_r16_the_announcement_never_lowers_and_never_names_misere():
    m = start()
    script(m, ["bid 6 spades", "pass", "pass", "*", "*"])
    named = texts(m)
    assert named[0] == "keep contract" and "bid 6 clubs" in named and "bid 10 notrump" in named
    assert not any("misere" in t for t in named)
    m.apply("bid 9 hearts")
    assert m.current.contract == 9 and m.current.qualifier == "hearts"
    assert m.observation(0).trump == "hearts"
    # after a winning misere bid the only action is keep contract
    m = start()
    script(m, ["bid 8 misere", "pass", "pass", "*", "*"])
    assert texts(m) == ["keep contract"]


@pytest.mark.parametrize("level,value", [(6, 2), (7, 4), (8, 6), (9, 8), (10, 10)])
def test_r17_contract_value(level, value):
    m = contract_deal([f"bid {level} notrump", "pass", "pass"], ["pass_whist", "pass_whist"])
    assert m.deals_played == 1
    assert sheet(m, 1)["pool"] == value  # R37: passed out, V in his pool


@pytest.mark.parametrize("level,quota", [(6, 4), (7, 2), (8, 1), (9, 1)])
def test_r18_defenders_requirement(level, quota):
    """With one whister who takes no trick at all the shortfall is the whole Q: V x Q."""
    m = contract_deal([f"bid {level} spades", "pass", "pass"], ["whist", "pass_whist"], R57)
    deal = finish(m)
    value = 2 * (level - 5)
    defenders = 10 - deal.tricks_won[1]
    assert sheet(m, 2)["mountain"] == value * max(0, quota - defenders)


# ---------------------------------------------------------------- whisting
def test_r19_whist_choices_and_half_whist():
    m = start()
    script(m, ["bid 7 hearts", "pass", "pass", "*", "*", "keep contract"])
    assert m.to_act == 2 and texts(m) == ["whist", "pass_whist"]  # D1
    m.apply("whist")
    assert m.to_act == 0 and texts(m) == ["whist", "pass_whist"]  # D2 after a whist
    m = start()
    script(m, ["bid 7 hearts", "pass", "pass", "*", "*", "keep contract", "pass_whist"])
    assert texts(m) == ["whist", "pass_whist", "half_whist"]  # 7-level, D1 passed
    m = start()
    script(m, ["bid 8 hearts", "pass", "pass", "*", "*", "keep contract", "pass_whist"])
    assert texts(m) == ["whist", "pass_whist"]  # no half-whist at the 8-level


def test_r20_after_a_half_whist_d1_speaks_again():
    m = start()
    script(m, ["bid 7 hearts", "pass", "pass", "*", "*", "keep contract"])
    script(m, ["pass_whist", "half_whist"])
    assert m.to_act == 2 and texts(m) == ["whist", "pass_whist"]
    m.apply("whist")  # he alone whists: played, open, D2 is a passer
    assert m.current.phase == "play"
    assert {s for s, _ in m.observation(1).open_hands} == {0, 2}


def test_r21_both_pass_the_deal_is_not_played():
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["pass_whist"])
    n = m.deals_played
    m.apply("pass_whist")
    assert m.deals_played == n + 1 and m.deal_results[-1]["declarer"] == 1
    assert sheet(m, 1)["pool"] == 4 and sheet(m, 0) == sheet(m, 2)
    assert sheet(m, 0)["whists_left1"] == 0 and sheet(m, 0)["mountain"] == 0


def test_r22_two_whisters_play_closed():
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "whist"])
    assert m.current.phase == "play"
    for seat in range(3):
        assert m.observation(seat).open_hands == ()
    while m.current.cards_played < 5:
        assert m.observation(m.to_act).playing_for is None
        m.apply(m.legal_actions()[0])


def test_r23_one_whister_open_play_and_he_plays_both_hands():
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"])
    obs = m.observation(1)
    assert {s for s, _ in obs.open_hands} == {0, 2}  # both defenders, before the lead
    assert 1 not in {s for s, _ in m.observation(0).open_hands}  # the declarer stays hidden
    assert m.to_act == 1  # R25: the first hand (the declarer here) leads
    m.apply(m.legal_actions()[0])
    assert m.current.turn == 2 and m.to_act == 2
    m.apply(m.legal_actions()[0])
    assert m.current.turn == 0 and m.to_act == 2  # the passer's turn goes to the whister
    assert m.observation(2).playing_for == 0


def test_r24_misere_is_not_whisted_and_opens_after_the_lead():
    m = start()
    script(m, ["pass", "bid 8 misere", "pass", "*", "*", "keep contract"])
    assert m.current.phase == "play" and m.to_act == 1  # no whist round; first hand leads
    assert m.observation(2).open_hands == ()
    m.apply(m.legal_actions()[0])
    assert {s for s, _ in m.observation(2).open_hands} == {0, 1}
    assert m.observation(2).trump is None
    m.apply(m.legal_actions()[0])
    assert m.to_act == 0  # each defender plays his own hand


# ---------------------------------------------------------------- play
def test_r25_the_first_hand_leads_whoever_declares():
    m = contract_deal(["pass", "pass", "bid 6 spades"], ["whist", "whist"])
    assert m.current.declarer == 0 and m.to_act == 1


def test_r26_follow_suit_else_trump_never_obliged_to_beat():
    m = contract_deal(["pass", "pass", "bid 6 spades"], ["whist", "whist"])
    # seat 1 holds 7S 8S 7C 8C KC AC JD QD 9H 10H; seat 2 holds no club... play clubs
    m.apply("play 7C")  # seat 1 leads a club
    hand2 = m.observation(2).hand
    clubs = [c for c in hand2 if c.endswith("C")]
    assert texts(m) == [f"play {c}" for c in clubs]  # must follow, any club (9C, not only 10C)
    m.apply("play 9C")
    hand0 = set(m.observation(0).hand)
    legal = {t.split()[1] for t in texts(m)}
    if any(c.endswith("C") for c in hand0):
        assert all(c.endswith("C") for c in legal)
    else:  # void: a trump if he holds one
        spades = {c for c in hand0 if c.endswith("S")}
        assert legal == (spades or hand0)


def test_r27_highest_trump_else_highest_of_the_suit_led():
    m = contract_deal(["pass", "pass", "bid 6 hearts"], ["whist", "whist"])
    deal = m.current
    while not deal.tricks:
        m.apply(m.legal_actions()[0])
    leader, cards, winner = m.observation(0).tricks[0]
    led = cards[0][1][-1]
    trumps = [(s, c) for s, c in cards if c.endswith("H")]
    order = [r.symbol for r in V.model.deck.ranks]

    def strength(card):
        return -order.index(card[:-1])

    pool = trumps or [(s, c) for s, c in cards if c.endswith(led)]
    assert winner == max(pool, key=lambda sc: strength(sc[1]))[0]


def test_r28_trump_is_the_contract_suit_none_at_nt_misere_all_pass():
    m = contract_deal(["bid 6 diamonds", "pass", "pass"], ["whist", "whist"])
    assert m.observation(0).trump == "diamonds"
    m = contract_deal(["bid 6 notrump", "pass", "pass"], ["whist", "whist"])
    assert m.observation(0).trump is None
    m = start()
    script(m, ["pass", "pass", "pass"])
    assert m.observation(0).trump is None


def test_r29_each_trick_is_its_winners_in_open_play_too():
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"], R53)
    deal = finish(m)
    assert deal.tricks_won == [1, 7, 2]  # seat 0 (the passer) keeps his trick
    assert [t.winner for t in deal.tricks].count(0) == 1


def test_r30_all_pass_is_closed_without_trump():
    m = start()
    script(m, ["pass", "pass", "pass"])
    deal = m.current
    assert deal.trump == -1
    for seat in range(3):
        assert m.observation(seat).open_hands == ()
    while m.deals_played == 0:
        assert m.observation(m.to_act).playing_for is None
        m.apply(m.legal_actions()[0])


def test_r31_the_talon_leads_the_first_two_tricks_of_an_all_pass():
    m = start(R60A)
    script(m, ["pass", "pass", "pass"])
    talon = R60A.split()[6:8]  # deck positions 7 and 8
    trick = m.observation(1).trick
    assert trick == ((-1, talon[0]),) and m.to_act == 1  # the first hand plays first
    script(m, ["*", "*", "*"])
    assert m.observation(0).trick == ((-1, talon[1]),)
    assert m.to_act == 1
    script(m, ["*", "*", "*"])
    assert m.to_act == 1 and m.observation(0).trick == ()  # the first hand leads trick 3
    deal = finish(m)
    assert [t.leader for t in deal.tricks[:2]] == [-1, -1]
    assert all(len(t.cards) == 4 for t in deal.tricks[:2])
    assert sum(deal.tricks_won) == 10


def test_r31_the_talon_card_itself_wins_nothing():
    """The trick goes to the highest card of the talon card's suit played by a player, even
    below the talon card (here AD leads and the players follow lower). A trick nobody
    follows would be nobody's, but in this deal of 32 cards it cannot happen: the players
    hold at least 6 cards of every suit (the language's tests show one)."""
    m = start(TALON_HIGH)
    script(m, ["pass", "pass", "pass"])
    deal = m.current
    script(m, ["*", "*", "*"])
    first = deal.tricks[0]
    ct = V.model.deck.card_text
    assert ct(first.cards[0][1]) == "AD"
    order = [r.symbol for r in V.model.deck.ranks]
    followed = [(s, ct(c)) for s, c in first.cards[1:] if ct(c).endswith("D")]
    best = min(followed, key=lambda sc: order.index(sc[1][:-1]))
    assert first.winner == best[0] and deal.tricks_won[best[0]] == 1


# ---------------------------------------------------------------- scoring a deal
def test_r32_the_sheet_starts_at_zero_and_stays_whole():
    m = start()
    assert sheet(m, 0) == {
        "pool": 0,
        "mountain": 0,
        "whists_left1": 0,
        "whists_left2": 0,
        "whists_left3": 0,
        "allpass_run": 0,
        "pools_closed": False,
    }
    obs = m.observation(2)
    assert dict(obs.kept[0])["pool"] == 0  # the sheet is in every observation


def test_r33_r34_made_contract_writes_v_in_the_pool_and_overtricks_earn_nothing():
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"], R53)
    deal = finish(m)
    assert deal.tricks_won[1] == 7 and sheet(m, 1)["pool"] == 4
    m = contract_deal(["bid 8 diamonds", "pass", "pass"], ["whist", "whist"], R57)
    deal = finish(m)
    assert deal.tricks_won[1] == 10 and sheet(m, 1)["pool"] == 6  # 2 overtricks: nothing


def test_r35_failed_contract_mountain_and_consolation():
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"], FAILED)
    deal = finish(m)
    assert deal.tricks_won[1] == 5  # two undertricks, V = 4
    assert sheet(m, 1)["mountain"] == 8 and sheet(m, 1)["pool"] == 0
    # consolation 8 each; the whister (seat 2) also writes V x T = 4 x 5 trick whists
    assert sheet(m, 2)["whists_left2"] == 8 + 20  # seat 1 is two to the left of seat 2
    assert sheet(m, 0)["whists_left1"] == 8  # the passer: consolation only


def test_r35_a_dealer_sitting_out_gets_no_consolation():
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "whist"], FAILED, 4, 2)
    deal = finish(m)
    assert deal.tricks_won[3] == 5 and deal.declarer == 3  # seat 3 is the first hand
    assert sheet(m, 2)["mountain"] == 0
    assert sum(v for k, v in sheet(m, 2).items() if k.startswith("whists")) == 0
    assert sheet(m, 3)["mountain"] == 8
    assert sheet(m, 0)["whists_left3"] >= 8 and sheet(m, 1)["whists_left2"] >= 8


def test_r36_trick_whists_greedy_single_whister():
    m = contract_deal(["pass", "pass", "bid 6 diamonds"], ["whist", "pass_whist"], R56)
    deal = finish(m)
    assert deal.tricks_won == [7, 1, 2]
    assert sheet(m, 1)["whists_left2"] == 2 * 3  # the passer's tricks count for him
    assert sheet(m, 2)["whists_left1"] == 0  # the passer writes nothing


def test_r37_both_passed_v_in_the_pool_only():
    m = contract_deal(["bid 9 clubs", "pass", "pass"], ["pass_whist", "pass_whist"])
    assert m.deals_played == 1
    assert sheet(m, 1)["pool"] == 8
    for seat in (0, 2):
        assert sheet(m, seat)["mountain"] == 0 and sheet(m, seat)["whists_left1"] == 0


def test_r38_whisters_responsibility_covered_by_the_examples():
    """(a) R56, (b) R55 and R68, (c) R57, (d) 10-level: never short."""
    m = contract_deal(["bid 10 spades", "pass", "pass"], ["whist", "pass_whist"], R57)
    deal = finish(m)
    assert deal.tricks_won[1] < 10 or sheet(m, 2)["mountain"] == 0
    assert sheet(m, 2)["mountain"] == 0 and sheet(m, 0)["mountain"] == 0


R57_FOUR = (
    "10C 7C 7H QH 10D JD AC JH KC 7S 8C AS 8D QC 9C 9D "
    "JS 8H 9S KS 8S KH 9H QS AD 7D QD 10H 10S JC KD AH"
)


def test_r38_d2_is_the_second_defender_to_speak_with_four_seated():
    """R38(c) with 4 seated: the dealer (seat 2) sits between the declarer (seat 1) and D1
    (seat 3); D2 is seat 0."""
    m = contract_deal(["pass", "pass", "bid 8 diamonds"], [], R57_FOUR, players=4, dealer=2)
    assert m.to_act == 3  # D1 speaks first
    script(m, ["whist", "whist"])
    deal = finish(m)
    assert deal.tricks_won[1] == 10
    assert sheet(m, 0)["mountain"] == 6 and sheet(m, 3)["mountain"] == 0
    assert sheet(m, 2)["mountain"] == 0 and sheet(m, 1)["pool"] == 6


def test_r39_half_whist_that_stands():
    m = contract_deal(["pass", "pass", "bid 6 clubs"], ["pass_whist", "half_whist"])
    n = m.deals_played
    m.apply("pass_whist")
    assert m.deals_played == n + 1  # not played
    assert sheet(m, 0)["pool"] == 2
    assert sheet(m, 2)["whists_left1"] == 4  # 2 x 2, against seat 0 (one to his left)


def test_r40_misere_scoring():
    m = start(R59A)
    script(m, ["pass", "bid 8 misere", "pass", "*", "*", "keep contract"])
    deal = finish(m)
    assert deal.tricks_won[2] == 2
    assert sheet(m, 2)["mountain"] == 20 and sheet(m, 2)["pool"] == 0


def test_r41_a_passer_whose_partner_passed_or_half_whisted_writes_nothing():
    m = contract_deal(["pass", "pass", "bid 7 clubs"], ["pass_whist", "half_whist", "pass_whist"])
    assert sheet(m, 1) == sheet(start(), 1)  # D1 passed twice: nothing written
    m = contract_deal(["bid 6 hearts", "pass", "pass"], ["pass_whist", "pass_whist"])
    assert sheet(m, 0)["whists_left1"] == 0 and sheet(m, 2)["whists_left2"] == 0


def test_r42_the_dealer_sitting_out_has_nothing_written():
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"], R53, 4, 2)
    finish(m)
    assert sheet(m, 2) == sheet(start(players=4), 2)
    assert m.deal_results[-1]["declarer"] == 3


def test_r43_all_pass_mountains_and_progression():
    m = start(R60A, more=(R60B, R60C))
    for _ in range(3):
        script(m, ["pass", "pass", "pass"])
        finish(m)
    assert [sheet(m, s)["mountain"] for s in range(3)] == [3 + 10 + 0, 5 + 6 + 18, 2 + 4 + 12]
    assert sheet(m, 0)["allpass_run"] == 3 and sheet(m, 0)["pool"] == 0
    # any other deal resets the count
    script(m, ["bid 6 spades", "pass", "pass", "*", "*", "keep contract"])
    script(m, ["pass_whist", "pass_whist"])
    assert sheet(m, 0)["allpass_run"] == 0


# ---------------------------------------------------------------- pool, aid, the end
def test_r44_a_pool_never_exceeds_p():
    kept = [{"pool": 19}, {"pool": 0}, {"pool": 0}]
    m = contract_deal(["pass", "pass", "bid 10 notrump"], ["pass_whist", "pass_whist"], kept=kept)
    assert sheet(m, 0)["pool"] == 20  # 10 earned: 1 taken, 9 aid
    assert sheet(m, 1)["pool"] + sheet(m, 2)["pool"] == 9


def test_r45_the_match_ends_when_every_pool_is_full_and_at_deal_300():
    kept = [{"pool": 20}, {"pool": 18}, {"pool": 20}]
    m = contract_deal(["bid 6 spades", "pass", "pass"], ["pass_whist", "pass_whist"], kept=kept)
    assert m.is_over and m.deals_played == 1
    assert V.model.match.deal_limit == 300
    kept = [{"pool": 10}, {"pool": 18}, {"pool": 20}]
    m = contract_deal(["bid 6 spades", "pass", "pass"], ["pass_whist", "pass_whist"], kept=kept)
    assert not m.is_over


def test_r46_r61_aid_goes_to_the_highest_open_pool():
    kept = [{"pool": 12}, {"pool": 18}, {"pool": 15}]
    m = contract_deal(["bid 8 hearts", "pass", "pass"], ["pass_whist", "pass_whist"], kept=kept)
    assert [sheet(m, s)["pool"] for s in range(3)] == [12, 20, 19]
    assert sheet(m, 1)["whists_left1"] == 40  # seat 2 is one to the left of seat 1


def test_r46_aid_ties_go_clockwise_from_the_earner_and_reach_a_dealer_sitting_out():
    kept = [{"pool": 15}, {"pool": 20}, {"pool": 15}, {"pool": 15}]
    # 4 seated, dealer 0 sits out; seat 1 earns 10 at 10NT; pools 15 tie: seat 2 first
    m = contract_deal(
        ["bid 10 notrump", "pass", "pass"], ["pass_whist", "pass_whist"], players=4, kept=kept
    )
    assert [sheet(m, s)["pool"] for s in range(4)] == [15, 20, 20, 20]
    assert sheet(m, 1)["whists_left1"] == 50 and sheet(m, 1)["whists_left2"] == 50
    kept = [{"pool": 16}, {"pool": 20}, {"pool": 20}, {"pool": 20}]
    m = contract_deal(
        ["bid 8 notrump", "pass", "pass"], ["pass_whist", "pass_whist"], players=4, kept=kept
    )
    assert sheet(m, 0)["pool"] == 20 and sheet(m, 1)["whists_left3"] == 40  # the dealer


def test_r47_r62_aid_with_every_other_pool_closed():
    kept = [
        {"pool": 20, "mountain": 5},
        {"pool": 18, "mountain": 3},
        {"pool": 20, "mountain": 9},
    ]
    m = contract_deal(["bid 8 hearts", "pass", "pass"], ["pass_whist", "pass_whist"], kept=kept)
    assert [sheet(m, s)["pool"] for s in range(3)] == [20, 20, 20]
    assert [sheet(m, s)["mountain"] for s in range(3)] == [6, 0, 10]


def test_r48_the_settlement_adds_up_to_zero_and_ranks_the_match():
    m = V.new_match(seed=3, players=3)
    while not m.is_over:
        m.apply(m.legal_actions()[0])
    assert sum(m.scores) == 0
    assert m.winners == [s for s in range(3) if m.scores[s] == max(m.scores)]


# ---------------------------------------------------------------- information
def test_r49_calls_and_whist_choices_are_public():
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"])
    log = [text for _, text in m.observation(0).log]
    assert log[:3] == ["bid 7 hearts", "pass", "pass"]
    assert log[-3:] == ["keep contract", "whist", "pass_whist"]
    assert dict(m.observation(0).kept[1])["pool"] == 0  # the sheet is public


def test_r50_the_talon_is_seen_by_nobody_before_the_auction_ends():
    m = start()
    assert all(m.observation(s).talon_shown is None for s in range(3))
    for seat in range(3):
        assert not {"KS", "AS"} & set(m.observation(seat).hand)


def test_r51_two_whisters_hide_every_hand_the_declarer_is_never_shown():
    m = contract_deal(["bid 6 hearts", "pass", "pass"], ["whist", "whist"])
    while m.deals_played == 0:
        for seat in range(3):
            assert m.observation(seat).open_hands == ()
        m.apply(m.legal_actions()[0])
    m = contract_deal(["bid 6 hearts", "pass", "pass"], ["whist", "pass_whist"])
    while m.deals_played == 0:
        assert all(s != 1 for s, _ in m.observation(0).open_hands)
        m.apply(m.legal_actions()[0])


# ---------------------------------------------------------------- worked examples
def test_r52_deal_by_deck_order_with_three_and_four_seated():
    m = start()
    assert set(m.observation(1).hand) == {
        "7S",
        "8S",
        "7C",
        "8C",
        "KC",
        "AC",
        "JD",
        "QD",
        "9H",
        "10H",
    }
    assert set(m.observation(2).hand) == {
        "9S",
        "10S",
        "9C",
        "10C",
        "7D",
        "8D",
        "KD",
        "AD",
        "JH",
        "QH",
    }
    assert set(m.observation(0).hand) == {
        "JS",
        "QS",
        "JC",
        "QC",
        "9D",
        "10D",
        "7H",
        "8H",
        "KH",
        "AH",
    }
    m4 = start(players=4, dealer=2)
    for three, four in ((1, 3), (2, 0), (0, 1)):
        assert set(m4.observation(four).hand) == set(m.observation(three).hand)
    assert m4.observation(2).hand == ()
    assert m4.current.talon == m.current.talon


def test_r53_made_one_whister():
    m = contract_deal(["bid 7 hearts", "pass", "pass"], ["whist", "pass_whist"], R53)
    deal = finish(m)
    assert deal.tricks_won == [1, 7, 2]
    assert sheet(m, 1)["pool"] == 4
    assert sheet(m, 2)["whists_left2"] == 12  # seat 2 against seat 1
    assert all(sheet(m, s)["mountain"] == 0 for s in range(3))


def test_r54_failed_two_whisters():
    m = contract_deal(["pass", "bid 6 spades", "pass"], ["whist", "whist"], R54)
    deal = finish(m)
    assert deal.tricks_won == [4, 2, 4]
    assert sheet(m, 2)["mountain"] == 4
    assert sheet(m, 0)["whists_left2"] == 12  # W(0,2)
    assert sheet(m, 1)["whists_left1"] == 8  # W(1,2)


@pytest.mark.parametrize(
    "order,tricks,mountains,whists1",
    [
        (R55A, [8, 2, 0], [0, 0, 4], 4),
        (R55B, [7, 3, 0], [0, 0, 2], 6),
        (R55C, [9, 1, 0], [0, 2, 4], 2),
    ],
)
def test_r55_whisters_short_at_the_six_level(order, tricks, mountains, whists1):
    m = contract_deal(["pass", "pass", "bid 6 notrump"], ["whist", "whist"], order)
    deal = finish(m)
    assert deal.tricks_won == tricks
    assert [sheet(m, s)["mountain"] for s in range(3)] == mountains
    assert sheet(m, 0)["pool"] == 2
    assert sheet(m, 1)["whists_left2"] == whists1  # seat 1 against seat 0


def test_r56_one_whister_short():
    m = contract_deal(["pass", "pass", "bid 6 diamonds"], ["whist", "pass_whist"], R56)
    deal = finish(m)
    assert deal.tricks_won == [7, 1, 2]
    assert sheet(m, 0)["pool"] == 2
    assert sheet(m, 1)["whists_left2"] == 6 and sheet(m, 1)["mountain"] == 2


def test_r57_eight_level_both_whist():
    m = contract_deal(["bid 8 diamonds", "pass", "pass"], ["whist", "whist"], R57)
    deal = finish(m)
    assert deal.tricks_won == [0, 10, 0]
    assert sheet(m, 1)["pool"] == 6
    assert sheet(m, 0)["mountain"] == 6 and sheet(m, 2)["mountain"] == 0  # D2 is seat 0


@pytest.mark.parametrize("level,pool", [(7, 4), (6, 2)])
def test_r58_half_whist(level, pool):
    m = contract_deal(["pass", "pass", f"bid {level} clubs"], ["pass_whist", "half_whist"])
    m.apply("pass_whist")
    assert sheet(m, 0)["pool"] == pool
    assert sheet(m, 2)["whists_left1"] == 4
    assert sheet(m, 1)["whists_left2"] == 0


@pytest.mark.parametrize("order,taken,pool,mountain", [(R59A, 2, 0, 20), (R59B, 0, 10, 0)])
def test_r59_misere(order, taken, pool, mountain):
    m = start(order)
    script(m, ["pass", "bid 8 misere", "pass", "*", "*", "keep contract"])
    deal = finish(m)
    assert deal.tricks_won[2] == taken
    assert sheet(m, 2)["pool"] == pool and sheet(m, 2)["mountain"] == mountain
    for seat in (0, 1):
        assert sheet(m, seat) == sheet(start(), seat)


def test_r60_all_pass_progression():
    """The sheet's first all-pass (3, 4, 2 and a trick nobody's) cannot be dealt (see
    test_r31_the_talon_card_itself_wins_nothing); the first here gives 3, 5, 2."""
    m = start(R60A, more=(R60B, R60C))
    got = []
    for _ in range(3):
        before = [sheet(m, s)["mountain"] for s in range(3)]
        script(m, ["pass", "pass", "pass"])
        deal = finish(m)
        got.append((deal.tricks_won, [sheet(m, s)["mountain"] - before[s] for s in range(3)]))
    assert got == [
        ([3, 5, 2], [3, 5, 2]),
        ([5, 3, 2], [10, 6, 4]),
        ([0, 6, 4], [0, 18, 12]),
    ]
    assert sum(1 for t in m.deal_results) == 3


def test_r61_aid():
    test_r46_r61_aid_goes_to_the_highest_open_pool()


def test_r62_aid_with_all_others_closed():
    test_r47_r62_aid_with_every_other_pool_closed()


def quiet(pool_size=20):
    """Preferans where a contract both defenders pass writes nothing (V = 0): the deal leaves
    the sheet as it was, so the match score is the settlement of the sheet given."""
    return trickcore.variant_from_text(
        f'extends "preferans"\nscoring {{\n  value = 0\n  pool_size = {pool_size}\n}}\n',
        "preferans-quiet",
    )


def settle(kept, players=3, pool_size=20):
    m = contract_deal(
        ["bid 6 spades", "pass", "pass"],
        ["pass_whist", "pass_whist"],
        players=players,
        kept=kept,
        variant=quiet(pool_size),
    )
    assert [sheet(m, s)["pool"] for s in range(players)] == [k["pool"] for k in kept]
    return [Fraction(x, players) for x in m.scores], m


def whists(table, players):
    """Kept whist names from W(i, j): seat i's whists against the seat k to his left."""
    out = [{} for _ in range(players)]
    for i in range(players):
        for k in (1, 2, 3):
            out[i][f"whists_left{k}"] = table.get((i, (i + k) % players), 0) if k < players else 0
    return out


def test_r63_settlement_closed_pools():
    w = whists({(0, 1): 50, (0, 2): 12, (1, 0): 30, (1, 2): 40, (2, 0): 24, (2, 1): 66}, 3)
    kept = [{"pool": 20, "mountain": m, **w[i]} for i, m in enumerate((14, 38, 8))]
    results, m = settle(kept)
    assert results == [68, -226, 158] and sum(results) == 0
    assert m.winners == [2]


def test_r64_settlement_at_the_deal_cap_in_fractions():
    w = whists({(0, 1): 8, (1, 0): 20, (1, 2): 4, (2, 0): 6}, 3)
    kept = [
        {"pool": p, "mountain": mo, **w[i]} for i, (p, mo) in enumerate(((10, 4), (6, 1), (9, 12)))
    ]
    results, _ = settle(kept, pool_size=10)
    assert results == [Fraction(46, 3), Fraction(118, 3), Fraction(-164, 3)]


def test_r65_settlement_with_four_seated():
    table = {
        (0, 1): 12,
        (0, 3): 4,
        (1, 0): 30,
        (1, 2): 16,
        (2, 0): 8,
        (2, 1): 40,
        (2, 3): 20,
        (3, 1): 6,
        (3, 2): 2,
    }
    w = whists(table, 4)
    kept = [{"pool": 20, "mountain": mo, **w[i]} for i, mo in enumerate((10, 25, 0, 7))]
    results, m = settle(kept, players=4)
    assert results == [-17, -157, 155, 19]
    assert m.scores == [-68, -628, 620, 76]  # kept exact as n x R(i)


def test_r66_auction_with_misere():
    m = start()
    script(m, ["bid 6 spades", "bid 8 misere", "pass", "bid 9 spades"])
    assert texts(m) == ["pass"]
    m.apply("pass")
    assert m.current.declarer == 1 and m.current.contract == 9
    m = start()
    script(m, ["bid 6 spades", "bid 8 misere", "pass", "pass"])
    assert m.current.declarer == 2 and m.current.qualifier == "misere"


def test_r67_announcement_from_seven_diamonds():
    m = start()
    script(m, ["bid 7 diamonds", "pass", "pass", "*", "*"])
    named = texts(m)
    assert named[:3] == ["keep contract", "bid 7 hearts", "bid 7 notrump"]
    assert "bid 8 spades" in named and "bid 10 notrump" in named
    assert "bid 6 notrump" not in named and not any("misere" in t for t in named)
    assert "bid 7 clubs" not in named


def test_r68_two_whisters_at_the_seven_level():
    order = R55C  # with 7 spades declared by seat 0: declarer 9, D1 one, D2 none
    m = contract_deal(["pass", "pass", "bid 7 spades"], ["whist", "whist"], order)
    deal = finish(m)
    assert deal.tricks_won == [9, 1, 0]
    assert sheet(m, 2)["mountain"] == 4 and sheet(m, 1)["mountain"] == 0
    assert sheet(m, 1)["whists_left2"] == 4 and sheet(m, 0)["pool"] == 4


def test_r46_aid_goes_to_the_highest_pool_first_not_to_the_nearest_seat():
    """R46: the aid goes to the highest open pool below P first, whoever sits nearer the
    earner clockwise: 4 seated, dealer 0 sits out, seat 1 (pool 20) earns 10 at 10NT; seat 3
    (16) is filled first although seat 2 (12) sits nearer, then seat 2; seat 0 (10) gets
    nothing."""
    kept = [{"pool": 10}, {"pool": 20}, {"pool": 12}, {"pool": 16}]
    m = contract_deal(
        ["bid 10 notrump", "pass", "pass"], ["pass_whist", "pass_whist"], players=4, kept=kept
    )
    assert [sheet(m, s)["pool"] for s in range(4)] == [10, 20, 18, 20]
