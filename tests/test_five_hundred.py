"""Five Hundred (examples/five-hundred.rules), a game trickcore does not ship, written from
its usual rules with general constructs: the joker as a suit of its own, the highest trump
in every deal; bids ranked by their value, with misère and open misère placed between the
suit bids; the kitty laid away; a misère bidder playing alone; the bid table in scoring;
a side that can win only by making its bid."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import trickcore
from trickcore.testing import check_rules

FIVE_HUNDRED = Path(__file__).resolve().parent.parent / "examples" / "five-hundred.rules"

# seat 1 (the dealer's left) bids; seats 2 and 3 and the dealer hold the rest
HANDS = {
    1: ["AX", "JH", "JD", "AH", "KH", "QH", "10H", "9H", "AS", "AC"],
    2: ["8H", "7H", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S"],
    3: ["6H", "5H", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C"],
    0: ["4H", "AD", "KD", "QD", "10D", "9D", "8D", "7D", "6D", "5D"],
}
KITTY = ["4D", "5S", "5C"]


@pytest.fixture(scope="module")
def five_hundred() -> trickcore.Variant:
    return trickcore.load_variant(FIVE_HUNDRED)


def dealt(five_hundred: trickcore.Variant, hands=HANDS, kitty=KITTY):
    order = five_hundred.stack_deck(hands, talon=kitty, dealer=0)
    return five_hundred.new_deal(deck_order=order, dealer=0)


def won_by_seat_1(deal, bid: str) -> None:
    """Seat 1 makes `bid`, the others pass, and he lays away the kitty's three cards."""
    deal.apply(bid)
    for _ in range(3):
        deal.apply("pass")
    for card in KITTY:
        deal.apply(f"discard {card}")


def bids(deal) -> list[str]:
    return [a.text for a in deal.legal_actions()]


def test_the_deck_holds_43_cards_10_each_and_a_kitty_of_3(five_hundred) -> None:
    assert five_hundred.model.deck.size == 43
    deal = five_hundred.new_deal(seed=3)
    assert [len(deal.observation(s).hand) for s in range(4)] == [10] * 4
    assert deal.observation(0).talon_size == 3


def test_bids_rank_by_their_value_with_the_misere_bids_between(five_hundred) -> None:
    deal = dealt(five_hundred)
    first = bids(deal)
    assert {"pass", "bid 6 spades", "bid 6 clubs"} <= set(first)
    # open misère only as 10 (500: above 10 diamonds, 480, below 10 hearts, 500)
    assert "bid 10 open_misere" in first and "bid 9 open_misere" not in first
    assert (
        first.index("bid 10 diamonds")
        < first.index("bid 10 open_misere")
        < first.index("bid 10 hearts")
    )
    # misère only once a 7 was bid, and only as 8 (250: above 8 spades, below 8 clubs)
    assert not any("misere" in b and "open" not in b for b in first)
    deal.apply("bid 7 spades")
    after = bids(deal)
    assert "bid 8 misere" in after and "bid 7 misere" not in after
    assert after.index("bid 8 spades") < after.index("bid 8 misere") < after.index("bid 8 clubs")
    deal.apply("bid 8 spades")
    assert [b for b in bids(deal) if b != "pass"][:2] == ["bid 8 misere", "bid 8 clubs"]


def test_the_joker_beats_the_right_bower_and_follows_as_a_trump(five_hundred) -> None:
    hands = {
        1: ["JH", "JD", "AH", "KH", "QH", "10H", "9H", "AS", "AC", "KC"],
        2: ["AX", "8H", "7H", "KS", "QS", "JS", "10S", "9S", "8S", "7S"],
    }
    deal = dealt(five_hundred, hands)
    won_by_seat_1(deal, "bid 7 hearts")
    assert deal.to_act == 1  # the bidder leads
    deal.apply("play JH")  # the right bower: every trump may follow, the joker too
    assert sorted(bids(deal)) == ["play 7H", "play 8H", "play AX"]
    deal.apply("play AX")
    for _ in range(2):
        deal.apply(deal.legal_actions()[0])
    assert deal.observation(0).tricks[0][2] == 2


def test_the_joker_led_in_no_trumps_is_named_and_its_suit_followed(five_hundred) -> None:
    """In no trumps the joker's holder may lead it only by naming a suit first (four public
    decisions); the others must then follow the suit named if they can; the joker, the only
    trump, wins the trick. With a trump suit nothing is named."""
    deal = dealt(five_hundred)
    won_by_seat_1(deal, "bid 6 notrump")
    offered = bids(deal)
    assert {"name_spades", "name_clubs", "name_diamonds", "name_hearts"} <= set(offered)
    assert "play AX" not in offered
    deal.apply("name_hearts")
    assert bids(deal) == ["play AX"]
    deal.apply("play AX")
    assert sorted(bids(deal)) == ["play 7H", "play 8H"]  # seat 2 holds hearts
    deal.apply("play 8H")
    deal.apply("play 6H")
    assert sorted(bids(deal)) == ["play 4H"]  # the dealer's only heart
    deal.apply("play 4H")
    assert deal.observation(0).tricks[0][2] == 1
    # the next trick forgets it: no suit named, the joker is gone
    assert not any(a.startswith("name_") for a in bids(deal))
    trumps = dealt(five_hundred)
    won_by_seat_1(trumps, "bid 6 hearts")
    assert not any(a.startswith("name_") for a in bids(trumps))
    assert "play AX" in bids(trumps)


def test_the_left_bower_is_a_trump_of_the_suit_named(five_hundred) -> None:
    """With hearts trumps, JD is a heart: a player whose only heart it is must play it to a
    heart led, and it beats the king of trumps."""
    hands = {
        1: ["AX", "JH", "AH", "KH", "QH", "10H", "9H", "AS", "AC", "KC"],
        2: ["JD", "8D", "7D", "6D", "KS", "QS", "JS", "10S", "9S", "8S"],
    }
    deal = dealt(five_hundred, hands)
    won_by_seat_1(deal, "bid 7 hearts")
    deal.apply("play KH")
    assert bids(deal) == ["play JD"]
    for _ in range(3):
        deal.apply(deal.legal_actions()[0])
    assert deal.observation(0).tricks[0][2] == 2


def score(five_hundred, level: int, bidder_tricks: int, strain: str = "hearts") -> tuple:
    """The gains of seats 1 (a bidder) and 2 (an opponent) over random deals in which seat
    1's side bids `level strain` and takes `bidder_tricks` tricks; None if none is found."""
    rng = random.Random(level * 100 + bidder_tricks)
    for seed in range(400):
        deal = five_hundred.new_deal(seed=seed, dealer=0)
        deal.apply(f"bid {level} {strain}")
        for _ in range(3):
            deal.apply("pass")
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        o = deal.observation(1)
        if o.tricks_won[1] + o.tricks_won[3] == bidder_tricks:
            return o.gains[1], o.gains[3], o.gains[2], o.gains[0]
    return None


@pytest.mark.parametrize(
    "level, strain, tricks, bidders, opponents",
    [
        (7, "hearts", 7, 200, 30),  # 7♥ made: 200; the opponents 10 a trick
        (6, "spades", 5, -40, 50),  # 6♠ down one: -40
        (6, "notrump", 6, 120, 40),
    ],
)
def test_the_bid_table(five_hundred, level, strain, tricks, bidders, opponents) -> None:
    gains = score(five_hundred, level, tricks, strain)
    assert gains is not None
    assert gains == (bidders, bidders, opponents, opponents)


def test_all_ten_tricks_on_a_bid_worth_less_than_250_score_250(five_hundred) -> None:
    hands = {1: ["AX", "JH", "JD", "AH", "KH", "QH", "10H", "9H", "8H", "7H"]}
    deal = dealt(five_hundred, hands)
    won_by_seat_1(deal, "bid 6 hearts")  # worth 100
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    o = deal.observation(0)
    assert o.tricks_won[1] == 10
    assert o.gains == (0, 250, 0, 250)


def test_a_misere_bidder_plays_alone_and_must_take_no_trick(five_hundred) -> None:
    deal = dealt(five_hundred)
    deal.apply("bid 7 spades")
    deal.apply("bid 8 misere")  # seat 2, over seat 1's 7
    for _ in range(3):
        deal.apply("pass")
    assert deal.to_act == 2  # he takes the kitty
    for card in KITTY:
        deal.apply(f"discard {card}")
    assert deal.observation(2).sitting_out == (0,)  # his partner
    rng = random.Random(8)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    o = deal.observation(0)
    assert all(len(cards) == 3 for _, cards, _ in o.tricks)
    assert o.gains[2] == o.gains[0] == (250 if o.tricks_won[2] == 0 else -250)
    assert o.gains[1] == o.gains[3] == 0  # the opponents score nothing against a misère


def cautious(match, rng: random.Random) -> trickcore.Action:
    """A random action, except that bids stay at the 6-level (long matches)."""
    legal = match.legal_actions()
    modest = [a for a in legal if a.text == "pass" or a.text.startswith("bid 6 ")]
    return rng.choice(modest or legal)


def test_the_opponents_tricks_stop_at_490_and_only_a_made_bid_wins() -> None:
    """Deal by deal: a side that defended and would pass 500 stands at 490 (or where it
    stood, if higher). A match won at 500 was won by a side that made its bid in the last
    deal; one ended by a side at -500 or below is won by the other side."""
    variant = trickcore.load_variant(FIVE_HUNDRED)
    capped = won = 0
    for seed in range(12):
        match = variant.new_match(seed=seed)
        rng = random.Random(seed)
        before = [0] * 4
        while not match.is_over:
            match.apply(cautious(match, rng))
            if len(match.deal_results) and match.deal_results[-1]["scores"] != before:
                result = match.deal_results[-1]
                bidders = {result["declarer"], (result["declarer"] + 2) % 4}
                for seat in set(range(4)) - bidders:
                    plain = before[seat] + result["gains"][seat]
                    want = max(before[seat], 490) if plain >= 500 else plain
                    assert result["scores"][seat] == want
                    capped += plain >= 500
                before = list(result["scores"])
        last = match.deal_results[-1]
        scores = last["scores"]
        if max(scores) >= 500:
            assert set(match.winners) == {last["declarer"], (last["declarer"] + 2) % 4}
            assert all(last["gains"][s] > 0 and scores[s] >= 500 for s in match.winners)
            won += 1
    assert capped > 0 and won > 0


def test_a_side_at_minus_500_loses_the_match() -> None:
    """Random bids, often far too high: a side falls to -500 and the other side wins."""
    variant = trickcore.load_variant(FIVE_HUNDRED)
    lost = 0
    for seed in range(6):
        match = variant.new_match(seed=seed)
        rng = random.Random(seed)
        while not match.is_over:
            match.apply(rng.choice(match.legal_actions()))
        scores = match.deal_results[-1]["scores"]
        if min(scores) <= -500 and max(scores) < 500 and sum(x > -500 for x in scores) == 2:
            assert set(match.winners) == {s for s in range(4) if scores[s] > -500}
            lost += 1
    assert lost > 0


def test_the_file_keeps_every_invariant() -> None:
    check_rules(FIVE_HUNDRED, examples=10, matches=1)
