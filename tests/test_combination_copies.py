"""Combinations in a deck with copies of every card, and combinations of given cards
(`combination NAME { cards: K, Q }`, `cards: QS, JD`), with `times`: how often a hand holds
one whole. The real file is examples/pinochle.rules, a game trickcore does not ship, written
the way a user would write it: its melds are counted in each hand with the trump named (a
run 150, twice 1,500; marriages 20, 40 in trumps; the 9 of trumps 10 each; aces, kings,
queens, jacks "around" 100, 80, 60, 40, each twice ten times as much; the pinochle 40, twice
300). The meld table is restated here from the file's comments and compared with the
engine on worked hands and on random deals (docs: docs/language.md, "combination NAME")."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from conftest import found, random_deal

import trickcore
import trickcore.engine.combinations
from trickcore.interfaces.summary import rules_summary
from trickcore.language.errors import RulesError
from trickcore.testing import check_rules

PINOCHLE = Path(__file__).resolve().parent.parent / "examples" / "pinochle.rules"
KLAVERJAS = PINOCHLE.parent / "klaverjas.rules"
SUITS = "CDHS"
TRUMP_OPTION = {"C": "in_clubs", "D": "in_diamonds", "H": "in_hearts", "S": "in_spades"}
AROUND = {"A": 100, "K": 80, "Q": 60, "J": 40}


def split(card: str) -> tuple[str, str]:
    return card[:-1], card[-1]


def melds(hand: list[str], trump: str) -> int:
    """The meld table of the file's comments, counted from a hand and the trump suit."""
    held = Counter(hand)
    out = 0
    run = [f"{r}{trump}" for r in ("A", "10", "K", "Q", "J")]
    times = min(held[c] for c in run)
    out += 1500 if times == 2 else 150 if times == 1 else 0  # the run, its royal marriage
    for suit in SUITS:  # marriages: those of a run are in it already
        pairs = min(held[f"K{suit}"], held[f"Q{suit}"])
        if suit == trump:
            pairs -= times
        out += pairs * (40 if suit == trump else 20)
    out += 10 * held[f"9{trump}"]
    for rank, worth in AROUND.items():
        times_around = min(held[f"{rank}{s}"] for s in SUITS)
        out += worth * (10 if times_around == 2 else times_around)
    pinochles = min(held["QS"], held["JD"])
    out += 300 if pinochles == 2 else 40 * pinochles
    return out


def test_the_meld_table_restated() -> None:
    # the restatement itself, on hands whose melds are known
    assert melds(["AH", "10H", "KH", "QH", "JH", "9H"], "H") == 160
    assert melds(["AH", "10H", "KH", "KH", "QH", "QH", "JH"], "H") == 190
    assert melds(["AC", "AD", "AH", "AS", "AS"], "H") == 100
    assert melds(["QS", "QS", "JD", "JD", "KS"], "H") == 300 + 20


@pytest.fixture(scope="module")
def melds_alone() -> trickcore.Variant:
    """The file with each player scoring his own melds alone (a house rule of the test)."""
    return trickcore.variant_from_text(
        'extends "pinochle.rules"\nscoring {\n  share = combination_points\n}\n',
        "melds-alone",
        search_path=[PINOCHLE.parent],
    )


FILL = ["10C", "10D", "10S", "9C", "9D", "9S", "JC", "JS"]  # no meld among them alone


def full_hand(hand: list[str], trump: str) -> list[str]:
    """`hand` made up to 12 cards with cards that add no meld to it (no 9 of trumps)."""
    left = Counter({f"{r}{s}": 2 for r in ("A", "10", "K", "Q", "J", "9") for s in SUITS})
    left.subtract(hand)
    out = list(hand)
    for c in FILL * 2:
        if len(out) < 12 and c != f"9{trump}" and left[c] > 0:
            left[c] -= 1
            out.append(c)
    return out


def bid_and_name(variant: trickcore.Variant, hand: list[str], trump: str):
    """A deal where seat 1 (forehand) holds `hand` made up to 12 cards,
    bids 100, the others pass, and he names `trump`."""
    order = variant.stack_deck({1: full_hand(hand, trump)}, dealer=0)
    deal = variant.new_deal(deck_order=order, dealer=0)
    deal.apply("bid 100")
    for _ in range(3):
        deal.apply("pass")
    deal.apply(TRUMP_OPTION[trump])
    return deal


def melds_of(variant: trickcore.Variant, hand: list[str], trump: str) -> int:
    """Seat 1's gain in `bid_and_name`'s deal played out by first legal actions: his melds
    alone in `melds_alone`."""
    deal = bid_and_name(variant, hand, trump)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    return deal.observation(1).gains[1]


WORKED = [
    # (hand, trump, melds): each from the table in the file's comments
    (["AH", "10H", "KH", "QH", "JH", "9H"], "H", 160),  # run and dix
    (["AH", "10H", "KH", "QH", "JH", "AH", "10H", "KH", "QH", "JH", "9H", "9H"], "H", 1520),
    (["AH", "10H", "KH", "KH", "QH", "QH", "JH"], "H", 190),  # run and a royal marriage
    (["KH", "QH", "KC", "QC", "KC", "QC"], "H", 80),  # a royal marriage, two in clubs
    (["AC", "AD", "AH", "AS"], "S", 100),  # aces around
    (["AC", "AD", "AH", "AS", "AS"], "D", 100),  # one ace more is no more
    (["AC", "AD", "AH", "AS", "AC", "AD", "AH", "AS"], "C", 1000),  # double aces
    (["KC", "KD", "KH", "KS", "QC"], "D", 100),  # kings around, a marriage in clubs
    (["QS", "JD"], "H", 40),  # pinochle
    (["QS", "JD", "QS", "JD"], "H", 300),  # double pinochle
    (["QS", "JD", "QS"], "S", 40),  # a pinochle and a half
    (["KS", "QS", "JD"], "C", 60),  # the Q of spades in a marriage and the pinochle
]


@pytest.mark.parametrize(("hand", "trump", "worth"), WORKED, ids=lambda x: str(x))
def test_worked_hands(
    melds_alone: trickcore.Variant, hand: list[str], trump: str, worth: int
) -> None:
    assert melds(hand, trump) == melds(full_hand(hand, trump), trump) == worth
    assert melds_of(melds_alone, hand, trump) == worth


def test_random_deals_score_the_meld_table(melds_alone: trickcore.Variant) -> None:
    """Over random deals, each player's gain is his melds with the trump named."""
    with_melds = 0
    for seed in range(40):
        hands, o = random_deal(melds_alone, seed)
        trump = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}[o.trump]
        expected = [melds(list(hands[s]), trump) for s in range(4)]
        assert list(o.gains) == expected, f"seed {seed}"
        with_melds += sum(1 for worth in expected if worth > 0)
    assert with_melds >= 80  # most hands hold a meld: the sample is not all zeros


def test_the_melds_lie_face_up() -> None:
    """`open_hand_if = card_in_combination`: every copy of a meld's cards is shown to all
    once the play begins, and no card outside the melds."""
    deal = bid_and_name(trickcore.load_variant(PINOCHLE), ["QS", "JD", "QS", "KD", "9C"], "H")
    assert deal.observation(0).phase == "play"
    shown = dict(deal.observation(0).open_hands)[1]
    assert sorted(shown) == ["JD", "QS", "QS"]


def test_the_file_keeps_every_invariant() -> None:
    check_rules(PINOCHLE, examples=20, matches=0)


def test_an_engine_that_counts_each_combination_once_is_caught(monkeypatch) -> None:
    """`times` always 1: double melds score as single ones, and the checker's scores differ."""
    real = trickcore.engine.combinations._env

    def once(*args, **kwargs):
        env = real(*args, **kwargs)
        env["times"] = 1
        return env

    monkeypatch.setattr(trickcore.engine.combinations, "_env", once)
    assert found(PINOCHLE, examples=60) == "deal score"


def beside(tmp_path: Path, example: Path, text: str) -> Path:
    """A house-rule file `extends`-ing a copy of an example file in the same folder."""
    (tmp_path / example.name).write_text(example.read_text())
    path = tmp_path / "house.rules"
    path.write_text(f'extends "{example.name}"\n{text}')
    return path


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        ("combination bad {\n  cards: QS, XD\n  value = 1\n}\n", "'XD' is no card", "3:"),
        ("combination bad {\n  cards: K, K\n  value = 1\n}\n", "named twice", "3:"),
        ("combination bad {\n  cards: QS, QS\n  value = 1\n}\n", "named twice", "3:"),
        (
            "combination bad {\n  cards: K, Q\n  order: K, Q\n  value = 1\n}\n",
            "'order' belongs to a run",
            "4:",
        ),
        ("combination bad {\n  cards: K, Q\n  run: 2\n  value = 1\n}\n", "either", "3:"),
        ("combination bad {\n  cards: K, Q\n  value = times * bogus\n}\n", "bogus", "4:"),
    ],
)
def test_errors_say_what_and_where(tmp_path: Path, text: str, message: str, where: str) -> None:
    with pytest.raises(RulesError) as err:
        trickcore.load_variant(beside(tmp_path, PINOCHLE, text))
    assert message in str(err.value)
    assert f"house.rules:{where}" in str(err.value)


def test_a_plain_deck_holds_each_combination_once(tmp_path: Path) -> None:
    """Without copies `times` is 1: a file of given cards reads the same in a plain deck
    (Klaverjas, examples/klaverjas.rules, with a "stuk" written as a combination)."""
    path = beside(
        tmp_path,
        KLAVERJAS,
        "combination stuk {\n  cards: K, Q\n"
        "  value = if card_in_trump_suit then 20 * times else 0\n}\n",
    )
    variant = trickcore.load_variant(path)
    check_rules(path, examples=10, matches=0)
    lines = dict(rules_summary(variant.model))["Combinations"]
    assert any(line.startswith("Stuk: the cards KC, QC or KD, QD") for line in lines)
    assert not any("times is how often" in line for line in lines)  # no copies: not said


def test_hidden_worlds_lay_the_same_melds_face_up() -> None:
    """A world drawn for a seat (`sample_worlds`) holds each shown meld where it lies, with
    both copies of a card shown twice, and no meld in the other cards of a hand that shows
    some: every world shows seat 0 what it sees."""
    variant = trickcore.load_variant(PINOCHLE)
    deal = bid_and_name(variant, ["QS", "JD", "QS", "KD", "9C"], "H")
    obs = deal.observation(0)
    assert dict(obs.open_hands)[1] == ("JD", "QS", "QS")
    assert len(obs.open_hands) == 3  # the other hands show melds too
    worlds = variant.sample_worlds(obs, 10, rng=1)
    assert len(worlds) == 10
    for world in worlds:
        assert world.observation(0) == obs
        assert Counter(world.observation(1).hand)["QS"] == 2


def test_hidden_worlds_agree_in_the_first_tricks() -> None:
    """Over random deals, every world drawn in the first tricks shows what the seat sees:
    the melds face up where they lie, no other meld in those hands, each copy counted."""
    variant = trickcore.load_variant(PINOCHLE)
    drawn = 0
    for seed in range(10):
        deal = variant.new_match(seed=seed).current
        rng = random.Random(seed)
        while deal.observation(deal.to_act).phase != "play":
            deal.apply(rng.choice(deal.legal_actions()))
        for step in range(8):
            seat = deal.to_act
            obs = deal.observation(seat)
            for world in variant.sample_worlds(obs, 4, random.Random(step)):
                assert world.observation(seat) == obs, (seed, step)
                drawn += 1
            deal.apply(rng.choice(deal.legal_actions()))
    assert drawn == 10 * 8 * 4


def test_combinations_in_a_deck_without_some_cards(tmp_path: Path) -> None:
    """`without` (card numbers no longer the faces'): Klaverjas in 28 cards, the sevens
    left out. Its roem (runs and four of a kind among a trick's cards) is scored as the
    file's comments say (restated in tests/test_trick_combinations.py), and the checker
    agrees with the engine."""
    from test_trick_combinations import play_deal, restated_gains, roem

    path = beside(
        tmp_path,
        KLAVERJAS,
        'name: "Klaverjas, 28 cards"\ndeck {\n  without: 7C, 7D, 7H, 7S\n}\n'
        "deal {\n  pattern: 3 each, 2 each, 2 each\n}\n",
    )
    check_rules(path, examples=15, matches=0)
    variant = trickcore.load_variant(path)
    with_roem = 0
    for seed in range(40):
        o, hands = play_deal(variant, seed)
        assert len(o.tricks) == 7
        assert list(o.gains) == restated_gains(o, hands), f"seed {seed}"
        with_roem += any(roem([c for _, c in cards]) for _, cards, _ in o.tricks)
    assert with_roem >= 3


def test_given_ranks_the_deck_never_holds_together_are_refused() -> None:
    # Whist without its kings: no suit holds a K and a Q, so `cards: K, Q` is no combination
    text = (
        'extends "whist"\ndeck {\n  without: KC, KD, KH, KS\n}\n'
        "deal {\n  pattern: 4 each, 4 each, 4 each\n}\n"
        "combination pair {\n  cards: K, Q\n  value = 1\n}\n"
    )
    with pytest.raises(RulesError) as err:
        trickcore.variant_from_text(text, "house")
    assert "holds these ranks together in no suit" in str(err.value)
    assert "house:9:10" in str(err.value)


def test_a_deck_order_naming_a_card_more_often_than_the_deck_holds_it_is_refused() -> None:
    """A deck order of the double deck names each face twice (its two copies in turn); a
    face named three times is refused with what was repeated, not an IndexError."""
    variant = trickcore.load_variant(PINOCHLE)
    texts = [variant.model.deck.card_text(c) for c in range(variant.model.deck.size)]
    assert variant.new_deal(deck_order=texts, dealer=0).is_over is False
    triple = ["AS" if t == "KS" else t for t in texts]  # AS three times (and once more)
    with pytest.raises(trickcore.TrickcoreError, match="repeated: AS"):
        variant.new_deal(deck_order=triple, dealer=0)
