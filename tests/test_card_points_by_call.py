"""Card points that depend on the game named: `deck { card_points = EXPR }` may read the
contract's call (`strain_is`, `bid_is`) and the options chosen, as `play.power` does. The real
file is examples/jass.rules (Schieber, a game trickcore does not ship), written the way a user
would write it: in a trump suit the jack 20 and the nine 14; in Obenabe (no trump) every
eight 8; in Undenufe (no trump, the six high) the six 11, every eight 8 and the ace nothing.
Its table and its deal score are restated here from the file's comments and compared with the
engine over random deals (docs: docs/language.md, "card_points")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import found, random_deal

import trickcore
import trickcore.engine.card_relations
from trickcore.interfaces.summary import rules_summary
from trickcore.language.errors import RulesError
from trickcore.testing import check_rules

JASS = Path(__file__).resolve().parent.parent / "examples" / "jass.rules"
SUIT_OF = {"H": "hearts", "D": "diamonds", "S": "spades", "C": "clubs"}
PLAIN = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}


def points(card: str, game: str) -> int:
    """A card's points in the game named (a suit's name, obenabe or undenufe), from the
    file's comments."""
    rank, suit = card[:-1], SUIT_OF[card[-1]]
    if suit == game and rank in ("J", "9"):
        return {"J": 20, "9": 14}[rank]
    if game in ("obenabe", "undenufe") and rank == "8":
        return 8
    if game == "undenufe" and rank in ("A", "6"):
        return {"A": 0, "6": 11}[rank]
    return PLAIN.get(rank, 0)


def test_the_table_restated() -> None:
    # 152 in every game, as the file says
    deck = [f"{r}{s}" for r in ("A", "K", "Q", "J", "10", "9", "8", "7", "6") for s in "HDSC"]
    for game in ("hearts", "spades", "obenabe", "undenufe"):
        assert sum(points(c, game) for c in deck) == 152
    assert points("6C", "undenufe") == 11 and points("AC", "undenufe") == 0
    assert points("8D", "obenabe") == 8 and points("8D", "diamonds") == 0


def test_random_deals_count_the_cards_by_the_game_named() -> None:
    """Each player's card points are those of the cards in the tricks he won, valued by the
    game named; each side's gain is the file's deal score: its cards, 5 for the last trick,
    100 for all nine, 20 for K and Q of trumps in one hand, times the game's multiplier."""
    variant = trickcore.load_variant(JASS)
    games: set[str] = set()
    for seed in range(60):
        hands, o = random_deal(variant, seed)
        game = o.qualifier  # the call: a suit's name, obenabe or undenufe
        games.add(game)
        taken = [0, 0, 0, 0]
        for _, cards, winner in o.tricks:
            taken[winner] += sum(points(c, game) for _, c in cards)
        assert list(o.card_points_taken) == taken, f"seed {seed} ({game})"
        last = o.tricks[-1][2]
        times = {"hearts": 1, "diamonds": 1, "spades": 2, "clubs": 2}.get(game, 3)
        trump = {v: k for k, v in SUIT_OF.items()}.get(game)
        for side in ((0, 2), (1, 3)):
            won = sum(taken[s] for s in side) + (5 if last in side else 0)
            if all(winner in side for _, _, winner in o.tricks):
                won += 100
            won += sum(20 for s in side if trump and {f"K{trump}", f"Q{trump}"} <= set(hands[s]))
            assert o.gains[side[0]] == o.gains[side[1]] == times * won, f"seed {seed}"
    assert {"obenabe", "undenufe"} <= games and games & {"hearts", "diamonds", "spades", "clubs"}


def test_show_says_what_each_game_counts() -> None:
    text = " ".join(dict(rules_summary(trickcore.load_variant(JASS).model))["Cards"])
    assert "With the call obenabe: 8H 8, 8D 8, 8S 8, 8C 8 (152 in the deck)." in text
    assert "With the call undenufe: AH 0, 8H 8, 6H 11," in text
    assert "With hearts trump: JH 20, 9H 14 (152 in the deck)." in text
    assert "With the call obenabe and hearts trump" not in text  # a strain names its trump


def test_the_file_keeps_every_invariant() -> None:
    check_rules(JASS, examples=20, matches=1)


def test_an_engine_that_ignores_the_call_is_caught(monkeypatch) -> None:
    """Card points worked out for the trump alone: Obenabe's eights and Undenufe's sixes
    count nothing, and the checker's card points differ."""
    real = trickcore.engine.card_relations.CardRelations.points_with

    def trump_only(self, trump, call="", chosen=()):
        return real(self, trump)

    monkeypatch.setattr(trickcore.engine.card_relations.CardRelations, "points_with", trump_only)
    assert found(JASS, examples=60) == "card points"


ACES_HIGH = (
    'extends "klaverjas.rules"\n'
    "choice aces {\n  at: before tricks\n  who: declarer\n  options: aces_plain, aces_high\n}\n"
    "deck {\n  card_points = if card_rank(A) then (if aces_high then 20 else 11)"
    " else if card_rank(10) then 10 else if card_rank(K) then 4 else if card_rank(Q) then 3"
    " else if card_rank(J) then (if card_in_trump_suit then 20 else 2)"
    " else if card_rank(9) and card_in_trump_suit then 14 else 0\n}\n"
)


def test_points_may_read_an_option_chosen() -> None:
    """A house rule of the Klaverjas example: the taker may make the aces worth 20."""
    variant = trickcore.variant_from_text(ACES_HIGH, "aces-high", search_path=[JASS.parent])
    cards = " ".join(dict(rules_summary(variant.model))["Cards"])
    assert "With aces_high chosen: AC 20, AD 20, AH 20, AS 20 (156 in the deck)." in cards
    assert "With aces_high chosen and" not in cards  # the option and a trump: both changes
    for option, ace in (("aces_plain", 11), ("aces_high", 20)):
        deal = variant.new_match(seed=3).current
        rng = random.Random(3)
        chose = False
        while not deal.is_over:
            legal = deal.legal_actions()
            offered = option in [a.text for a in legal]
            chose |= offered
            deal.apply(option if offered else rng.choice(legal))
        o = deal.observation(0)
        trump = o.trump[0].upper()
        worth = {"A": ace, "10": 10, "K": 4, "Q": 3}
        taken = [0, 0, 0, 0]
        for _, cards, winner in o.tricks:
            for _, c in cards:
                rank, suit = c[:-1], c[-1]
                trumps = {"J": 20, "9": 14} if suit == trump else {"J": 2}
                taken[winner] += worth.get(rank, trumps.get(rank, 0))
        assert chose and list(o.card_points_taken) == taken, option


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        ("deck {\n  card_points = if strain_is(grand) then 1 else 0\n}\n", "grand", "3:"),
        ("deck {\n  card_points = if bid_is(alone) then 1 else 0\n}\n", "qualifier", "3:"),
        ("deck {\n  card_points = if pushed then 1 else 0\n}\n", "pushed", "3:"),
        ("deck {\n  card_points = if tricks_won > 0 then 1 else 0\n}\n", "tricks_won", "3:"),
    ],
)
def test_errors_say_what_and_where(tmp_path: Path, text: str, message: str, where: str) -> None:
    (tmp_path / "jass.rules").write_text(JASS.read_text())
    path = tmp_path / "house.rules"
    path.write_text(f'extends "jass.rules"\n{text}')
    with pytest.raises(RulesError) as err:
        trickcore.load_variant(path)
    assert message in str(err.value)
    assert f"house.rules:{where}" in str(err.value)


def jass_deal(hands: dict[int, str], game: str, pushed: bool = False):
    """A Jass deal with these hands (dealer 0, seat 1 the forehand), the game named by seat 1
    (or, pushed, by his partner, seat 3)."""
    variant = trickcore.load_variant(JASS)
    order = variant.stack_deck({s: h.split() for s, h in hands.items()}, dealer=0)
    deal = variant.new_deal(deck_order=order, dealer=0)
    deal.apply("schieben" if pushed else "keep")
    if pushed:
        for seat in (1, 2, 3):  # he may not name it now, seat 2 never, seat 3 must
            assert deal.to_act == seat
            assert [a.text for a in deal.legal_actions()] == (
                [f"bid {g}" for g in GAMES] if seat == 3 else ["pass"]
            )
            deal.apply(f"bid {game}" if seat == 3 else "pass")
        assert deal.observation(0).declarer == 3
    else:
        deal.apply(f"bid {game}")
    return deal


GAMES = ["hearts", "diamonds", "spades", "clubs", "obenabe", "undenufe"]


def legal_plays(deal) -> list[str]:
    return sorted(a.text.split()[1] for a in deal.legal_actions())


def test_a_trump_instead_of_following_but_never_under_the_trick_s_trump() -> None:
    deal = jass_deal(
        {
            1: "AS 9S 8S 7S AD KD QD JD 10D",
            2: "KS 10H 7C 8C 9C 10C JC QC KC",
            3: "QS 7H 6C AC 9D 8D 7D 6D 6S",
        },
        "hearts",
    )
    deal.apply("play AS")
    assert legal_plays(deal) == ["10H", "KS"]  # follow, or trump even so; no club
    deal.apply("play 10H")
    assert legal_plays(deal) == ["6S", "QS"]  # the 7 of trumps would go under the 10


def test_the_puur_need_not_follow_trumps() -> None:
    deal = jass_deal(
        {
            1: "9H AH KH QH 8H 7H 6H AD KD",
            2: "JH AS KS QS 10S 9S 8S 7S 6S",
            3: "10H AC KC QC JC 10C 9C 8C 7C",
        },
        "hearts",
        pushed=True,
    )
    deal.apply("play 9H")  # the forehand leads, pushed or not
    assert legal_plays(deal) == sorted(["JH", "AS", "KS", "QS", "10S", "9S", "8S", "7S", "6S"])
    deal.apply("play AS")
    assert legal_plays(deal) == ["10H"]  # another trump: he must follow with it


def test_under_the_trick_s_trump_with_nothing_but_trumps() -> None:
    """`trumps_held == hand_size`: a hand of trumps alone may go under the trick's trump."""
    deal = jass_deal(
        {
            1: "AS KS QS JS AD KD QD JD 10D",
            2: "10S 9S 8S 10H AC KC QC JC 10C",
            3: "KH QH JH 8H 7H 6H 9D 8D 7D",
        },
        "hearts",
    )
    for plays in (("AS", "10S", "9D", "7S"), ("KS", "9S", "8D", "6S"), ("QS", "8S", "7D", "8C")):
        for card in plays:
            deal.apply(f"play {card}")
    deal.apply("play JS")
    deal.apply("play 10H")  # no spade left: he trumps
    assert legal_plays(deal) == sorted(["KH", "QH", "JH", "8H", "7H", "6H"])


def test_hidden_worlds_agree_through_the_deal() -> None:
    """Over random deals, every world drawn for the player to act shows what he sees: the
    game named, the cards played under its duties (a discard on a trump lead: no trump but
    the Puur in that hand), the points counted so far."""
    variant = trickcore.load_variant(JASS)
    drawn = 0
    for seed in range(6):
        deal = variant.new_match(seed=seed).current
        rng = random.Random(seed)
        plays = 0
        while not deal.is_over:
            seat = deal.to_act
            obs = deal.observation(seat)
            if obs.phase == "play":
                if plays % 3 == 0:
                    for world in variant.sample_worlds(obs, 3, random.Random(plays)):
                        assert world.observation(seat) == obs, (seed, plays)
                        drawn += 1
                plays += 1
            deal.apply(rng.choice(deal.legal_actions()))
    assert drawn == 6 * 12 * 3  # 36 plays a deal: every third


def test_holds_trump_alone_in_lead_if(tmp_path: Path) -> None:
    """A house rule of the Klaverjas example reading only `holds_trump(R)` (nothing reads
    `trumps_held` there): who holds the jack of trumps leads trumps to the first trick;
    engine and checker agree."""
    klaverjas = JASS.parent / "klaverjas.rules"
    (tmp_path / "klaverjas.rules").write_text(klaverjas.read_text())
    path = tmp_path / "jack-leads.rules"
    path.write_text(
        'extends "klaverjas.rules"\nplay {\n'
        "  lead_if = tricks_played > 0 or not holds_trump(J) or card_is_trump\n}\n"
    )
    check_rules(path, examples=10, matches=0)
    variant = trickcore.load_variant(path)
    order = variant.stack_deck({1: "JH 7H AS KS QS AD KD AC".split()}, dealer=0)
    deal = variant.new_deal(deck_order=order, dealer=0)
    deal.apply("bid hearts")
    assert legal_plays(deal) == ["7H", "JH"]
