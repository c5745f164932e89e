"""`trick_combination_points`: the combinations among one finished trick's cards, read in
`scoring` through `sum_tricks(x)` and in `after_trick` (and a decision's `sum_tricks(x)`). The
real file is examples/klaverjas.rules, a game trickcore does not ship, written the way a
user would write it: its "roem" (a run of three or four cards of one suit, four of a kind)
scores for the side that wins the trick it falls in. Its scoring is restated here from the
rules in the file's comments and compared with the engine over random deals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import trickcore
from trickcore.language.errors import RulesError

KLAVERJAS = Path(__file__).resolve().parent.parent / "examples" / "klaverjas.rules"
ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7"]  # the natural order of a run
PLAIN = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TRUMP = {**PLAIN, "J": 20, "9": 14}


@pytest.fixture(scope="module")
def klaverjas() -> trickcore.Variant:
    return trickcore.load_variant(KLAVERJAS)


def split(card: str) -> tuple[str, str]:
    return card[:-1], card[-1]


def roem(cards: list[str]) -> int:
    """Runs of three (20) or four (50) of one suit in the natural order; four of a kind:
    jacks 200, aces, tens, kings or queens 100."""
    out = 0
    by_suit: dict[str, list[int]] = {}
    for c in cards:
        rank, suit = split(c)
        by_suit.setdefault(suit, []).append(ORDER.index(rank))
    for places in by_suit.values():
        places.sort()
        run = 1
        for k in range(1, len(places) + 1):
            if k < len(places) and places[k] == places[k - 1] + 1:
                run += 1
                continue
            out += 20 if run == 3 else 50 if run == 4 else 0
            run = 1
    ranks = {split(c)[0] for c in cards}
    if len(cards) == 4 and len(ranks) == 1:
        rank = ranks.pop()
        out += 200 if rank == "J" else 100 if rank in ("A", "10", "K", "Q") else 0
    return out


def test_roem_restated() -> None:
    # the restatement itself, on tricks whose roem is known
    assert roem(["7H", "8H", "9H", "AS"]) == 20
    assert roem(["JH", "QH", "KH", "AH"]) == 50
    assert roem(["JC", "JD", "JH", "JS"]) == 200
    assert roem(["9C", "9D", "9H", "9S"]) == 0
    assert roem(["7H", "8H", "10H", "AS"]) == 0


def play_deal(klaverjas: trickcore.Variant, seed: int) -> tuple[object, dict[int, tuple]]:
    """A random deal; its final observation for seat 0 and each hand as play began."""
    m = klaverjas.new_match(seed=seed)
    deal = m.current
    rng = random.Random(seed)
    hands: dict[int, tuple] = {}
    while not deal.is_over:
        if not hands and deal.observation(deal.to_act).phase == "play":
            hands = {s: deal.observation(s).hand for s in range(4)}
        deal.apply(rng.choice(deal.legal_actions()))
    return deal.observation(0), hands


def restated_gains(o, hands: dict[int, tuple]) -> list[int]:
    """The file's scoring, restated from its comments."""
    trump = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}[o.trump]
    side = [0, 1, 0, 1]
    total = [0, 0]
    tricks = [0, 0]
    for number, (_leader, cards, winner) in enumerate(o.tricks, start=1):
        played = [c for _, c in cards]
        points = sum((TRUMP if split(c)[1] == trump else PLAIN)[split(c)[0]] for c in played)
        total[side[winner]] += points + roem(played) + (10 if number == len(o.tricks) else 0)
        tricks[side[winner]] += 1
    for s, hand in hands.items():  # stuk: the K and Q of trumps in one hand
        if "K" + trump in hand and "Q" + trump in hand:
            total[side[s]] += 20
    for t in (0, 1):
        if tricks[t] == len(o.tricks):  # pit
            total[t] += 100
    takers = side[o.declarer]
    made = total[takers] > total[1 - takers]
    share = [0, 0]
    share[takers] = total[takers] if made else 0
    share[1 - takers] = total[1 - takers] if made else total[0] + total[1]
    return [share[side[s]] for s in range(4)]


def test_roem_goes_to_the_side_that_wins_the_trick(klaverjas: trickcore.Variant) -> None:
    with_roem = 0
    for seed in range(60):
        o, hands = play_deal(klaverjas, seed)
        assert list(o.gains) == restated_gains(o, hands), f"seed {seed}"
        with_roem += any(roem([c for _, c in cards]) for _, cards, _ in o.tricks)
    assert with_roem >= 5  # the deals compared hold roem (the sample is not all zeros)


def test_after_trick_reads_it(klaverjas: trickcore.Variant) -> None:
    # a house rule keeping each player's roem as his tricks are won (after_trick)
    house = trickcore.variant_from_text(
        'extends "klaverjas.rules"\nname: "Klaverjas, roem kept"\n'
        "deal {\n  keep: roem_won 0\n}\n"
        "after_trick {\n"
        "  rule roem: if won_trick then roem_won = roem_won + trick_combination_points\n"
        "}\n",
        search_path=[KLAVERJAS.parent],
    )
    for seed in range(40):
        m = house.new_match(seed=seed)
        deal = m.current
        rng = random.Random(seed)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        o = deal.observation(0)
        kept = {s: v for s, name, v in o.deal_keep if name == "roem_won"}
        for s in range(4):
            mine = sum(roem([c for _, c in cards]) for _, cards, w in o.tricks if w == s)
            assert kept.get(s, 0) == mine, f"seed {seed}, seat {s}"


def test_a_file_without_combinations_cannot_read_it() -> None:
    text = (
        'extends "whist"\nname: "Whist, roem"\n'
        "scoring {\n  roem = sum_tricks(trick_combination_points)\n}\n"
    )
    with pytest.raises(RulesError) as err:
        trickcore.variant_from_text(text)
    message = str(err.value)
    assert "trick_combination_points" in message and ":4:" in message
