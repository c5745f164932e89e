"""French Tarot for 4 (examples/french-tarot.rules), a game trickcore does not ship, written
from the docs alone. Points are in half points (182 in the deck); the Excuse is the card RT,
free to be played at any time (`play { free_if }`), setting no suit when led
(`sets_suit_if`); trumps laid away are shown (`lay_away_shown_if`). The scoring is restated
here from the file's header and compared with the engine over random deals; the chelem is
the house rule examples/french-tarot-chelem.rules."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import found

import trickcore
import trickcore.engine.deal_core
import trickcore.engine.phases.lay_away
import trickcore.engine.phases.talon
import trickcore.engine.phases.tricks
import trickcore.engine.phases.turns
from trickcore.interfaces.summary import rules_summary
from trickcore.interfaces.terminal import Output, render
from trickcore.language.errors import RulesError
from trickcore.testing import check_rules

TAROT = Path(__file__).resolve().parent.parent / "examples" / "french-tarot.rules"
CHELEM = TAROT.with_name("french-tarot-chelem.rules")  # the house rule with the slam
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


def refused(tmp_path: Path, text: str, message: str) -> None:
    """The text, as a rules file, is refused with `message` at file:line:column."""
    path = tmp_path / "broken.rules"
    path.write_text(text)
    with pytest.raises(RulesError, match=rf"broken.rules:\d+:\d+: {message}"):
        trickcore.load_variant(path)


def show_text(variant: trickcore.Variant) -> str:
    """What `trickcore show` says of the variant, as one line."""
    return " ".join(line for _, lines in rules_summary(variant.model) for line in lines)


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


@pytest.fixture(scope="module")
def chelem() -> trickcore.Variant:
    return trickcore.load_variant(CHELEM)


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
    if (taker, "chelem") in keep:  # the house rule: 400 / -200 announced, 200 unannounced
        slam = [w for _, _, w in o.tricks].count(taker) == 18
        base += (400 if slam else -200) if keep[(taker, "chelem")] else (200 if slam else 0)
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


def test_the_chelem_house_rule_scores_random_deals_as_its_header_says(
    chelem: trickcore.Variant,
) -> None:
    announced = 0
    for seed in range(30):
        o = play_out(chelem, seed)
        if o.declarer < 0:
            continue
        announced += dict(((s, n), v) for s, n, v in o.deal_keep)[(o.declarer, "chelem")]
        assert list(o.gains) == expected_gains(o)[0], f"seed {seed}"
    assert announced > 0


@pytest.mark.parametrize("announce", [True, False])
def test_a_slam_announced_is_led_by_the_taker_and_pays_400(
    chelem: trickcore.Variant, announce: bool
) -> None:
    """Seat 2 takes (garde sans) with trumps 21..5 and the Excuse; announcing the chelem he
    leads (else forehand, seat 1, does); he wins every trick, the last with the Excuse led:
    4 x (25 + 55) + 400 announced (+ 200 unannounced), paid by each defender."""
    hand = [f"{n}T" for n in range(21, 4, -1)] + ["RT"]
    order = chelem.stack_deck({2: hand}, talon=["1T", "1S", "2S", "3S", "4S", "5S"], dealer=0)
    deal = chelem.new_deal(deck_order=order, dealer=0)
    for text in ("pass", "bid garde_sans", "pass", "pass", "chien_down"):
        deal.apply(text)
    assert texts(deal) == ["chelem", "keep"] and deal.to_act == 2
    deal.apply("chelem" if announce else "keep")
    assert deal.to_act == (2 if announce else 1)
    rng = random.Random(0)
    while not deal.is_over:
        plays = [t for t in texts(deal) if t.startswith("play") and t != "play RT"]
        deal.apply(plays[0] if deal.to_act == 2 and plays else rng.choice(texts(deal)))
    o = deal.observation(2)
    assert [w for _, _, w in o.tricks] == [2] * 18
    assert o.tricks[-1][1][0] == (2, "RT")  # the Excuse led to the last trick wins it
    each = 4 * (25 + 55) + (400 if announce else 200)
    assert list(o.gains) == [-each, -each, 3 * each, -each] == expected_gains(o)[0]


def test_the_chelem_file_keeps_every_invariant() -> None:
    check_rules(CHELEM, examples=10, matches=0)


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


def excuse_led(tarot: trickcore.Variant):
    """Seat 1 bids garde sans and leads the Excuse; seat 2 holds ten spades, seats 3 and 0
    none (3: 5T 15T 21T, 0: seventeen trumps)."""
    suit = ("R", "D", "C", "V", *map(str, range(10, 0, -1)))
    hands = {
        1: ["RT", *(f"{r}H" for r in suit), "RS", "DS", "CS"],
        2: [*(f"{n}S" for n in range(10, 0, -1)), "10T", "RC", "DC", "CC", "VC", "10C", "9C", "8C"],
        3: ["5T", "15T", "21T", *(f"{r}D" for r in suit), "7C"],
        0: [f"{n}T" for n in (20, 19, 18, 17, 16, 14, 13, 12, 11, 9, 8, 7, 6, 4, 3, 2, 1)] + ["6C"],
    }
    deal = stacked(tarot, hands, talon=["VS", "5C", "4C", "3C", "2C", "1C"])
    deal.apply("bid garde_sans")
    for _ in range(3):
        deal.apply("pass")
    deal.apply("chien_down")
    deal.apply("play RT")
    return deal


def test_after_an_excuse_lead_the_second_card_binds_every_duty(tarot: trickcore.Variant) -> None:
    """`sets_suit_if = not card_is(RT)`: 5S sets the suit; seat 3, void, must trump; seat 0,
    void, must overtrump his 15T; 20T wins the trick."""
    deal = excuse_led(tarot)
    assert len(texts(deal)) == 18  # nothing is led yet: the second player is free
    deal.apply("play 5S")
    assert sorted(texts(deal)) == ["play 15T", "play 21T", "play 5T"]
    deal.apply("play 15T")
    plays = sorted(t for t in texts(deal) if t.startswith("play"))  # (and his poignee)
    assert plays == ["play 16T", "play 17T", "play 18T", "play 19T", "play 20T"]
    deal.apply("play 20T")
    assert deal.observation(1).tricks[0][2] == 0  # the highest trump wins, not the Excuse


def test_a_trump_after_an_excuse_lead_makes_a_trump_trick(tarot: trickcore.Variant) -> None:
    """10T second: trumps are led (`beat_in_suit = led_trump`): seat 3 must beat it."""
    deal = excuse_led(tarot)
    deal.apply("play 10T")
    assert sorted(texts(deal)) == ["play 15T", "play 21T"]


def test_an_engine_that_ignores_sets_suit_if_is_caught(monkeypatch) -> None:
    """The first card always setting the suit (the Excuse, as a suit of its own, binding
    nobody): the checker's legal cards differ."""
    monkeypatch.setattr(
        trickcore.engine.deal_core.DealCore,
        "led_suit",
        lambda self, cards: self.relations()[0][cards[0][1]],
    )
    assert found(TAROT, examples=40) == "obligations"


def test_sets_suit_if_reads_a_card_alone(tmp_path: Path) -> None:
    """It is worked out per card (and trump): a trick's names are not there: file:line:column."""
    text = TAROT.read_text().replace("sets_suit_if = not card_is(RT)", "sets_suit_if = card_wins")
    refused(tmp_path, text, r".*card_wins")


def test_show_says_which_card_sets_the_suit(tarot: trickcore.Variant) -> None:
    text = show_text(tarot)
    assert "The suit led is that of the trick's first card for which this holds" in text
    assert "not card_is(RT)" in text


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
    refused(tmp_path, text, r".*cards_in_trick")


def garde_of_trumps(tarot: trickcore.Variant, talon: list[str]):
    """Seat 1 takes a garde holding four kings, 21T, 1T, the Excuse and 7T..17T."""
    hand = ["RS", "RH", "RD", "RC", "21T", "1T", "RT", *(f"{n}T" for n in range(7, 18))]
    deal = stacked(tarot, {1: hand}, talon=talon)
    deal.apply("bid garde")
    for _ in range(3):
        deal.apply("pass")
    return deal


def test_the_taker_lays_away_no_king_no_oudler_and_trumps_only_when_he_must(
    tarot: trickcore.Variant,
) -> None:
    """`talon { lay_away_if }`: with four plain cards besides his kings he must lay away two
    trumps, so every trump but the oudlers may go; kings, 21T, 1T and the Excuse never."""
    trumps = [f"{n}T" for n in range(7, 18)]
    deal = garde_of_trumps(tarot, ["1S", "2S", "3S", "4S", "5T", "6T"])
    offered = {a.text.split()[1] for a in deal.legal_actions()}
    assert offered == {"1S", "2S", "3S", "4S", "5T", "6T", *trumps}


def trumps_buried(tarot: trickcore.Variant):
    """Seat 1 takes a garde holding four kings, 21T, 1T, the Excuse and 7T..17T; the chien
    (1S 5T 6T 18T 19T 20T) leaves him one plain card to lay away, then five trumps."""
    deal = garde_of_trumps(tarot, ["1S", "5T", "6T", "18T", "19T", "20T"])
    for card in ("1S", "7T", "8T", "9T", "10T", "20T"):
        deal.apply(f"discard {card}")
    return deal


def test_trumps_laid_away_are_shown_to_all(tarot: trickcore.Variant) -> None:
    """`lay_away_shown_if = card_is_trump`: the five trumps he buries are in every view and
    in every log; which plain card he laid away stays his secret (1S was in the chien all
    saw, but he might have kept it)."""
    deal = trumps_buried(tarot)
    shown = ("7T", "8T", "9T", "10T", "20T")
    assert deal.observation(1).laid_away == ("1S", *shown)
    for obs in (deal.observation(2), deal.observation(0), deal.public_view()):
        assert obs.laid_away == shown
        discards = [text for seat, text in obs.log if text.startswith("discard")]
        assert discards == ["discard a card", *(f"discard {c}" for c in shown)]


def free_ecart(tmp_path: Path) -> Path:
    """A house rule: any card may be laid away (trumps still shown)."""
    path = tmp_path / "tarot-free-ecart.rules"
    path.write_text('extends "./french-tarot.rules"\ntalon {\n  lay_away_if = yes\n}\n')
    (tmp_path / "french-tarot.rules").write_text(TAROT.read_text())
    return path


def test_the_terminal_shows_the_buried_trumps_to_the_others(
    tarot: trickcore.Variant, capsys
) -> None:
    hand = ["RS", "RH", "RD", "RC", "21T", "1T", "RT", *(f"{n}T" for n in range(7, 18))]
    order = tarot.stack_deck({1: hand}, talon=["1S", "5T", "6T", "18T", "19T", "20T"], dealer=0)
    match = tarot.new_match(deck_orders=[order], dealer=0)
    for text in ("bid garde", "pass", "pass", "pass"):
        match.apply(text)
    for card in ("1S", "7T", "8T", "9T", "10T", "20T"):
        match.apply(f"discard {card}")
    render(match, Output(tty=False))  # seat 0's view
    line = next(x for x in capsys.readouterr().out.splitlines() if "laid away:" in x)
    glyph = tarot.model.deck.card_glyph
    assert all(glyph(tarot.card(c)) in line for c in ("7T", "8T", "9T", "10T", "20T"))
    assert glyph(tarot.card("1S")) not in line


def test_hidden_worlds_lay_away_the_shown_trumps(tmp_path: Path) -> None:
    """Worlds sampled for a defender agree with his view: the trumps he saw laid away lie
    laid away in each. (A house rule that lets any card be laid away: under the file's
    `lay_away_if` a trump shown there says the taker held no plain card, a whole hand the
    sampler finds only slowly: see the known gaps.)"""
    tarot = trickcore.load_variant(free_ecart(tmp_path))
    hand = ["RS", "RH", "RD", "1H", "2H", "3H", "4H", "5H", *(f"{n}T" for n in range(7, 17))]
    deal = stacked(tarot, {1: hand}, talon=["1S", "2S", "3S", "4S", "5T", "6T"])
    deal.apply("bid garde")
    for _ in range(3):
        deal.apply("pass")
    for card in ("1H", "2H", "3H", "7T", "8T", "9T"):
        deal.apply(f"discard {card}")
    rng = random.Random(3)
    checked = 0
    for step in range(12):
        obs = deal.observation(2)
        assert obs.laid_away == ("7T", "8T", "9T")
        if step % 3 == 0:
            for world in tarot.sample_worlds(obs, 2, rng=step):
                assert world.observation(2) == obs
                laid = {tarot.card_texts[c] for c in world.laid_away}
                assert {"7T", "8T", "9T"} <= laid
                checked += 1
        deal.apply(rng.choice([a for a in deal.legal_actions() if a.kind == "play"]))
    assert checked == 8


def test_an_engine_that_hides_the_buried_trumps_is_caught(monkeypatch, tmp_path: Path) -> None:
    """The engine never showing a card laid away: the checker's views differ (trumps are laid
    away at random under the free house rule; every deal checked at every step: thorough)."""
    path = free_ecart(tmp_path)
    assert found(path, examples=6) is None
    real = trickcore.engine.phases.lay_away.lay_away
    monkeypatch.setattr(
        trickcore.engine.phases.talon,
        "lay_away",
        lambda deal, seat, card, shown_if: real(deal, seat, card, None),
    )
    assert found(path, examples=10, thorough=True) == "view"


def test_lay_away_shown_if_needs_cards_laid_away(tmp_path: Path) -> None:
    text = (
        TAROT.read_text()
        .replace("  lay_away: 6\n", "", 1)
        .replace("  lay_away_if = ", "  x_if = ", 1)
    )
    refused(tmp_path, text, r".*lay_away_shown_if")


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


def test_forced_if_at_a_turn_is_taken_before_any_card(tmp_path: Path) -> None:
    """The same decision asked at a turn instead of between phases: no longer refused (see
    tests/test_forced_at_a_turn.py); `show` says he takes it before anything else."""
    text = TAROT.read_text().replace("  at: before talon\n  who: declarer\n", "  at: lead\n", 1)
    text = text.replace("  effect: skip talon\n", "", 1)
    path = tmp_path / "tarot-at-lead.rules"
    path.write_text(text, encoding="utf-8")
    assert "He must say it before any card or other action" in show_text(
        trickcore.load_variant(path)
    )


def test_show_says_the_taker_must(tarot: trickcore.Variant) -> None:
    text = show_text(tarot)
    assert "He must say it (no 'keep')." in text
