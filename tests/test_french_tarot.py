"""French Tarot for 4 (examples/french-tarot.rules), a game trickcore does not ship, written
from the docs alone. Points are in half points (182 in the deck); the Excuse is the card RT,
free to be played at any time (`play { free_if }`). The scoring is restated here from the
file's header and compared with the engine over random deals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import found

import trickcore
import trickcore.engine.phases.talon
import trickcore.engine.phases.tricks
import trickcore.engine.phases.turns
from trickcore.language.errors import RulesError
from trickcore.testing import check_rules

TAROT = Path(__file__).resolve().parent.parent / "examples" / "french-tarot.rules"
COURTS = {"R": 9, "D": 7, "C": 5, "V": 3}
OUDLERS = ("21T", "1T", "RT")
NEED = (112, 102, 82, 72)  # 56, 51, 41, 36 points with 0..3 oudlers, in half points
MULTIPLIER = {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}


def points(card: str) -> int:
    """A card's half points, from the file's header."""
    return 9 if card in OUDLERS else COURTS.get(card[:-1], 1)


def all_cards() -> list[str]:
    plain = [f"{r}{s}" for s in "SHDC" for r in ("R", "D", "C", "V", *map(str, range(10, 0, -1)))]
    return plain + [f"{n}T" for n in range(21, 0, -1)] + ["RT"]


@pytest.fixture(scope="module")
def tarot() -> trickcore.Variant:
    return trickcore.load_variant(TAROT)


def texts(deal) -> list[str]:
    return [a.text for a in deal.legal_actions()]


def test_the_deck_holds_78_cards_and_182_half_points(tarot: trickcore.Variant) -> None:
    deck = all_cards()
    assert len(deck) == len(set(deck)) == 78
    assert sum(points(c) for c in deck) == 182
    assert tarot.model.deck.size == 78
    deal = tarot.new_deal(seed=5, dealer=0)
    hands = [deal.observation(s).hand for s in range(4)]
    assert [len(h) for h in hands] == [18] * 4 and deal.observation(0).talon_size == 6
    dealt = [c for h in hands for c in h]
    assert len(set(dealt)) == 72 and set(dealt) <= set(deck)


def play_out(tarot: trickcore.Variant, seed: int):
    """A deal played at random to its end; returns the final observation of the taker."""
    rng = random.Random(seed)
    deal = tarot.new_deal(seed=seed, dealer=seed % 4)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    o = deal.observation(0)
    return deal.observation(o.declarer) if o.declarer >= 0 else o


def expected_gains(o) -> tuple[list[int], int]:
    """Each seat's gain by the header's rules, and the taker's oudlers."""
    taker = o.declarer
    keep = {(seat, name): value for seat, name, value in o.deal_keep}
    down, contre = keep[(taker, "chien_down")], keep[(taker, "contre")]
    played = [c for _, cards, _ in o.tricks for _, c in cards]
    chien = set(all_cards()) - set(played)  # the chien, or the cards laid away
    chien_mine = not (down and contre)
    last = len(o.tricks) - 1
    won = [c for _, cards, w in o.tricks if w == taker for _, c in cards]
    pts = sum(points(c) for c in won) + (sum(points(c) for c in chien) if chien_mine else 0)
    excuse_mine = chien_mine and "RT" in chien
    for i, (_, cards, winner) in enumerate(o.tricks):
        by = {c: s for s, c in cards}
        if "RT" not in by:
            continue
        if i == last:  # played to the last trick: it goes to the trick's winner
            excuse_mine = winner == taker
        elif by["RT"] == taker and winner != taker:
            pts, excuse_mine = pts + 8, True  # back to the taker, a half point given for it
        elif winner == taker:
            pts -= 8
    oudlers = sum(c in won or (chien_mine and c in chien) for c in ("21T", "1T")) + excuse_mine
    need = NEED[oudlers]
    made = pts >= need
    margin = (abs(pts - need) + 1) // 2
    assert down == (o.qualifier in ("garde_sans", "garde_contre"))  # forced for these two
    mult = MULTIPLIER[o.qualifier]
    last_cards = [c for _, c in o.tricks[-1][1]]
    bout = (10 if o.tricks[-1][2] == taker else -10) if "1T" in last_cards else 0
    shown = sum(v for (_, name), v in keep.items() if name == "poignee")
    base = mult * ((25 + margin if made else -25 - margin) + bout) + (shown if made else -shown)
    return [3 * base if s == taker else -base for s in range(4)], oudlers


def test_scores_by_oudlers_contract_and_chien_over_random_deals(tarot: trickcore.Variant) -> None:
    seen_oudlers, seen_contracts = set(), set()
    for seed in range(40):
        o = play_out(tarot, seed)
        if o.declarer < 0:  # all passed, or a petit sec: thrown in
            continue
        gains, oudlers = expected_gains(o)
        assert list(o.gains) == gains, f"seed {seed}: {o.qualifier}, {oudlers} oudlers"
        assert sum(o.gains) == 0
        seen_oudlers.add(oudlers)
        seen_contracts.add(o.qualifier)
    assert len(seen_oudlers) >= 3 and len(seen_contracts) == 4


def stacked(tarot: trickcore.Variant, hands, talon=()):
    return tarot.new_deal(deck_order=tarot.stack_deck(hands, talon=talon, dealer=0), dealer=0)


def garde_by_forehand(tarot: trickcore.Variant, discard: bool = True):
    """Seat 1 (forehand) holds all hearts; seats 2, 3, 0 are void in hearts."""
    suit = ("R", "D", "C", "V", *map(str, range(10, 0, -1)))
    hands = {
        1: [f"{r}H" for r in suit] + ["RS", "DS", "CS", "VS"],
        2: ["10T", *(f"{n}S" for n in range(10, 0, -1)), "RC", "DC", "CC", "VC", "10C", "9C", "8C"],
        3: ["5T", "15T", "21T", *(f"{r}D" for r in suit), "7C"],
        0: [f"{n}T" for n in (20, 19, 18, 17, 16, 14, 13, 12, 11, 9, 8, 7, 6, 4, 3, 2, 1)] + ["RT"],
    }
    talon = ["6C", "5C", "4C", "3C", "2C", "1C"]
    deal = stacked(tarot, hands, talon)
    deal.apply("bid garde")
    for _ in range(3):
        assert "bid petite" not in texts(deal)  # each bid higher than the last
        deal.apply("pass")
    assert deal.observation(2).talon_shown == tuple(talon)  # petite/garde: shown to all
    if discard:
        for card in talon:
            deal.apply(f"discard {card}")
    return deal


def test_trumping_forces_an_overtrump(tarot: trickcore.Variant) -> None:
    deal = garde_by_forehand(tarot)
    deal.apply("play RH")
    assert texts(deal) == ["play 10T"]  # void in hearts: he must trump
    deal.apply("play 10T")
    assert sorted(texts(deal)) == ["play 15T", "play 21T"]  # not 5T, not a diamond
    deal.apply("play 15T")
    legal = texts(deal)
    assert "play 14T" not in legal and "play 1T" not in legal
    assert {"play 16T", "play 20T", "play RT"} <= set(legal)  # RT: the Excuse, always free


def test_the_excuse_may_be_played_any_time_and_never_wins(tarot: trickcore.Variant) -> None:
    deal = garde_by_forehand(tarot)
    deal.apply("play RH")
    deal.apply("play 10T")
    deal.apply("play 15T")
    assert "play RT" in texts(deal) and "play 14T" not in texts(deal)  # free, unlike 14T
    deal.apply("play RT")
    assert deal.observation(1).tricks[0][2] == 3  # the 15T wins, not the Excuse


def test_an_excuse_lead_lets_the_second_card_set_the_suit(tarot: trickcore.Variant) -> None:
    hands = {
        1: ["RT", "RS", "DH"],
        2: ["5S", "RH", "3T"],
        3: ["9S", "4T", "2D"],
        0: ["20T", "1H", "2H"],
    }
    deal = stacked(tarot, hands)
    deal.apply("bid garde_sans")
    for _ in range(3):
        deal.apply("pass")
    assert texts(deal) == ["chien_down"]  # forced_if: no `keep`
    deal.apply("chien_down")
    assert deal.observation(2).talon_shown is None  # garde sans: the chien stays face down
    deal.apply("play RT")
    assert "play RH" in texts(deal)  # the second player is free
    deal.apply("play 5S")
    legal = texts(deal)
    assert "play 9S" in legal and "play 4T" not in legal and "play 2D" not in legal
    deal.apply("play 9S")
    deal.apply(texts(deal)[0])
    assert deal.observation(0).tricks[0][2] == 3  # the highest spade wins, not the Excuse


def test_the_file_keeps_every_invariant() -> None:
    check_rules(TAROT, examples=20, matches=0)


def test_an_engine_that_binds_the_free_card_is_caught(monkeypatch) -> None:
    """`free_if` ignored (the Excuse bound by the duties like any trump): the checker's
    legal cards differ."""
    monkeypatch.setattr(
        trickcore.engine.phases.tricks.TrickPlay,
        "_with_free",
        lambda self, deal, hand, cards: sorted(cards),
    )
    assert found(TAROT, examples=40) == "obligations"


def test_free_if_reads_what_lead_if_reads(tmp_path: Path) -> None:
    """A trick's names mean nothing there (it is asked when leading too): file:line:column."""
    text = TAROT.read_text().replace("free_if = card_is(RT)", "free_if = cards_in_trick > 0")
    path = tmp_path / "broken.rules"
    path.write_text(text)
    with pytest.raises(RulesError, match=r"broken.rules:\d+:\d+: .*cards_in_trick"):
        trickcore.load_variant(path)


def test_the_taker_lays_away_no_king_no_oudler_and_trumps_only_when_he_must(
    tarot: trickcore.Variant,
) -> None:
    """`talon { lay_away_if }`: with four plain cards besides his kings he must lay away two
    trumps, so every trump but the oudlers may go; kings, 21T, 1T and the Excuse never."""
    trumps = [f"{n}T" for n in range(7, 18)]
    hand = ["RS", "RH", "RD", "RC", "21T", "1T", "RT", *trumps]
    deal = stacked(tarot, {1: hand}, talon=["1S", "2S", "3S", "4S", "5T", "6T"])
    deal.apply("bid garde")
    for _ in range(3):
        deal.apply("pass")
    offered = {a.text.split()[1] for a in deal.legal_actions()}
    assert offered == {"1S", "2S", "3S", "4S", "5T", "6T", *trumps}


def test_with_plain_cards_enough_no_trump_is_laid_away(tarot: trickcore.Variant) -> None:
    deal = garde_by_forehand(tarot, discard=False)
    offered = {a.text.split()[1] for a in deal.legal_actions()}
    assert offered and not offered & {"RS", "RH"}  # kings stay
    assert all(not c.endswith("T") for c in offered)


def test_an_engine_that_lets_anything_be_laid_away_is_caught(monkeypatch) -> None:
    monkeypatch.setattr(
        trickcore.engine.phases.talon,
        "cards_to_lay_away",
        lambda deal, seat, rule: sorted(deal.hands[seat]),
    )
    assert found(TAROT, examples=40) == "talon"


def test_an_engine_that_lets_the_taker_keep_the_chien_is_caught(monkeypatch) -> None:
    """`forced_if` ignored (`keep` offered beside `chien_down`): the checker's answers
    differ."""
    real = trickcore.engine.phases.turns.asked_actions

    def with_keep(game, deal):
        out = real(game, deal)
        return out if game.actions.keep in out else [*out, game.actions.keep]

    monkeypatch.setattr(trickcore.engine.phases.turns, "asked_actions", with_keep)
    assert found(TAROT, examples=40) == "decisions"


def test_forced_if_is_for_decisions_between_phases(tmp_path: Path) -> None:
    text = TAROT.read_text().replace("  at: before talon\n  who: declarer\n", "  at: lead\n", 1)
    text = text.replace("  effect: skip talon\n", "", 1)
    path = tmp_path / "broken.rules"
    path.write_text(text)
    with pytest.raises(RulesError, match=r"broken.rules:\d+:\d+: 'forced_if' is for decisions"):
        trickcore.load_variant(path)


def test_show_says_the_taker_must(tarot: trickcore.Variant) -> None:
    from trickcore.interfaces.summary import rules_summary

    text = " ".join(line for _, lines in rules_summary(tarot.model) for line in lines)
    assert "He must say it (no 'keep')." in text
