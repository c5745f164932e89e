"""The trick in progress, readable where the obligations and `play_if` need it (issue 28,
kind 2): `cards_in_trick`, `led_trump`, `trick_trumped`, `partner_winning` (in the four
obligations and `play_if`) and `card_wins` (in `play_if`, for the card in question).

Belote's duties (docs/rules/belote.md BL22-BL24, worked example BL50) are written here into
a Whist house rule: a partner who is master frees a player void in the suit led from
trumping, and on a trump lead everyone must beat the trumps in the trick. `card_wins` writes
the duty to win a trick if one can (a house rule of Spades). The engine, the independent
checker and the world sampler all read them through the public API."""

from __future__ import annotations

import random

import pytest
from conftest import refused_at

import trickcore
from trickcore.testing import check_rules

# BL22-BL24 on Whist's cards: follow; void and the partner not master, trump and overtrump
# if able; trumps led, beat the trumps in the trick, even when the partner is master
WHIST_BELOTE_DUTIES = """extends "whist"
name: "Whist with Belote's duties to trump"
play {
  follow: yes
  trump_when_void = not partner_winning
  overtrump: yes
  beat_in_suit = led_trump
}
"""

SPADES_MUST_WIN = """extends "spades"
name: "Spades: win the trick if you can"
play {
  play_if = card_wins
}
"""

SUITS = "CDHS"
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


def full_hands(named: dict[int, list[str]], turnup: str) -> dict[int, list[str]]:
    """Every seat's 13 cards (the dealer's 12 besides the turn-up): the named ones, and the
    rest of the deck shared out in deck order to the seats named with fewer than 13."""
    used = {c for cards in named.values() for c in cards} | {turnup}
    rest = [r + s for s in SUITS for r in RANKS if r + s not in used]
    out = {}
    for seat in range(4):
        cards = list(named.get(seat, []))
        want = 12 if seat == DEALER else 13
        while len(cards) < want:
            cards.append(rest.pop(0))
        out[seat] = cards
    return out


DEALER = 2  # so that seat 3 (West in BL50) leads the first trick


BELOTE_DUTIES = trickcore.variant_from_text(WHIST_BELOTE_DUTIES, "house")


def belote_match(named: dict[int, list[str]], turnup: str = "7H") -> trickcore.Match:
    v = BELOTE_DUTIES
    order = v.stack_deck(full_hands(named, turnup), dealer=DEALER, turnup=turnup)
    return v.new_match(deck_orders=[order], dealer=DEALER)


def play(m: trickcore.Match, *cards: str) -> None:
    for card in cards:
        m.apply(f"play {card}")


def legal_cards(m: trickcore.Match) -> set[str]:
    return {a.text.removeprefix("play ") for a in m.legal_actions()}


# BL50's hands (hearts trump): seat 3 leads KS, seat 0 takes the lead with AS, seat 1 plays
# 7S; seat 2, seat 0's partner, has no spade
BL50 = {
    3: ["KS", "2S", "5H", "2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D"],
    0: ["AS", "9H", "7C", "9C", "10C", "JC", "7D", "8D", "9D", "10D", "JD", "QD", "KD"],
    1: ["7S", "QH", "2H", "3S", "4S", "5S", "6S", "8S", "9S", "10S", "JS", "QS", "AD"],
    2: ["KH", "8H", "AH", "3H", "4H", "6H", "10H", "JH", "8C", "QC", "KC", "AC"],
}


def test_bl50_a_partner_who_is_master_frees_a_void_player_from_trumping():
    m = belote_match(BL50)
    assert m.observation(0).trump == "hearts" and m.current.to_act == 3
    play(m, "KS", "AS", "7S")
    # BL23 (a): the master is his partner (seat 0): any card, a discard or a trump
    assert legal_cards(m) == set(m.observation(2).hand)


# BL50's other case: East (seat 1) holds no spade and trumps with the QH
EAST_TRUMPS = {
    3: ["KS"],
    0: ["AS"],
    1: ["QH", "2H", "3H", "5C", "6C", "10D", "JD", "QD", "KD", "AD", "4D", "5D", "6D"],
    2: ["KH", "8H", "AH", "4H", "6H", "10H", "JH", "8C", "QC", "KC", "AC", "9C"],
}


def test_bl50_an_opponent_master_makes_him_overtrump_if_he_can():
    m = belote_match(EAST_TRUMPS)
    play(m, "KS", "AS", "QH")  # East is master with a trump
    # BL23 (b): he must beat the QH if he can (Whist's order: K or A of hearts)
    assert legal_cards(m) == {"KH", "AH"}


def test_without_a_higher_trump_he_must_still_trump():
    low = ["8H", "4H", "6H", "5H", "8C", "QC", "KC", "AC", "9C", "JC", "10C", "7C"]
    m = belote_match({**EAST_TRUMPS, 2: low})
    play(m, "KS", "AS", "QH")
    # BL23 (b): no trump above the QH: any trump (the 7H turned up is his too)
    assert legal_cards(m) == {"8H", "4H", "6H", "5H", "7H"}


def test_on_a_trump_lead_he_must_beat_the_trumps_even_when_his_partner_is_master():
    hands = {
        3: ["5H"],
        0: ["QH"],
        1: ["2H", "3H", "2C", "3C", "4C", "5C", "6C", "2D", "3D", "4D", "5D", "6D", "7D"],
        2: ["KH", "AH", "8H", "4H", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"],
    }
    m = belote_match(hands)
    play(m, "5H", "QH")
    assert legal_cards(m) == {"2H", "3H"}  # BL24: no trump above the QH: any trump
    play(m, "2H")
    # BL24: seat 0, his partner, is master, yet he must beat the QH
    assert legal_cards(m) == {"KH", "AH"}


def test_the_trick_names_read_as_the_trick_stands():
    text = """extends "whist"
play {
  follow = cards_in_trick != 2 or not trick_trumped
}
"""
    v = trickcore.variant_from_text(text, "house")
    order = v.stack_deck(full_hands(BL50, "7H"), dealer=DEALER, turnup="7H")
    m = v.new_match(deck_orders=[order], dealer=DEALER)
    play(m, "5H")  # a trump led: the third hand is not bound to follow
    play(m, "9H")
    assert legal_cards(m) == set(m.observation(1).hand)
    m = v.new_match(deck_orders=[order], dealer=DEALER)
    play(m, "KS", "AS")  # no trump in the trick: the third hand must follow
    assert legal_cards(m) <= {c for c in m.observation(1).hand if c.endswith("S")}


def test_card_wins_makes_a_player_win_the_trick_if_he_can():
    v = trickcore.variant_from_text(SPADES_MUST_WIN, "house")
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        m = v.new_match(seed=seed)
        while not m.is_over and m.deals_dealt < 2:
            obs = m.observation(m.current.to_act)
            legal = m.legal_actions()
            if obs.trick and all(a.text.startswith("play ") for a in legal):
                cards = [a.text.removeprefix("play ") for a in legal]
                winners = [c for c in cards if _would_win(obs.trick, c)]
                # a card that wins is the only choice when there is one; else any allowed
                if winners:
                    assert sorted(cards) == sorted(winners)
                    checked += 1
            m.apply(rng.choice(legal))
    assert checked > 50


def _would_win(trick: list, card: str) -> bool:
    """Spades (P8): the highest spade wins, else the highest card of the suit led."""
    cards = [c for _, c in trick] + [card]
    led = cards[0][-1]

    def strength(c: str) -> tuple[bool, bool, int]:
        return c[-1] == "S", c[-1] == led, -RANKS.index(c[:-1])

    return max(cards, key=strength) == card


@pytest.mark.parametrize("text", [WHIST_BELOTE_DUTIES, SPADES_MUST_WIN])
def test_the_checker_restates_them(tmp_path, text):
    path = tmp_path / "house.rules"
    path.write_text(text, encoding="utf-8")
    check_rules(path, examples=25, matches=1)


def test_hidden_worlds_know_a_discard_under_a_master_partner_proves_no_void():
    m = belote_match(BL50)
    play(m, "KS", "AS", "7S", "8C")  # seat 2 discards though he holds trumps
    rng = random.Random(1)
    v = BELOTE_DUTIES
    worlds = v.sample_worlds(m.observation(1), 12, rng=rng)
    assert len(worlds) == 12
    assert any(any(v.card_text(c).endswith("H") for c in w.hands[2]) for w in worlds)


@pytest.mark.parametrize(
    ("setting", "word"),
    [
        ("lead_if = partner_winning", "partner_winning"),
        ("follow = card_wins", "card_wins"),
        ("lead_if = cards_in_trick > 0", "cards_in_trick"),
    ],
)
def test_a_name_outside_its_place_is_refused_where_it_stands(setting, word):
    refused_at(f'extends "whist"\nplay {{\n  {setting}\n}}\n', 3, word)
