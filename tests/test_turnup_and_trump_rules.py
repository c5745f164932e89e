"""Two constructs of the deal (issue 28), each usable by any trick game: a turned-up card
dealt into the dealer's own hand (`1 turnup to dealer`), and the trump suit as a rule over
the public state of the match (`play { trump = EXPR }`, a suit's name meaning its number).

Whist (docs/rules/whist.md W7, W46) ships both; here they are written into other games'
house rules, and every misuse is a RulesError at its place."""

from __future__ import annotations

import random

import pytest

import trickcore
from trickcore.testing import check_rules


def compile_error(text: str) -> trickcore.RulesError:
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.variant_from_text(text, "house")
    return info.value


def at(err: trickcore.RulesError) -> tuple[int, int]:
    assert err.location is not None
    return err.location.line, err.location.column


# ---------------------------------------------------------------- 1 turnup to dealer
SPADES_TURNUP = """extends "spades"
name: "Spades with the dealer's last card turned up for trump"
deal {
  pattern: 1 each 12 times, 1 1 1 0 round, 1 turnup to dealer
}
play {
  trump: turnup
  lead_if = yes
}
"""


def test_a_turned_up_card_dealt_to_the_dealer_is_his_and_known_to_all():
    v = trickcore.variant_from_text(SPADES_TURNUP, "house")
    for dealer in range(4):
        m = v.new_match(seed=dealer, dealer=dealer)
        d = m.current
        turned = m.observation(0).turned_up
        assert turned is not None and turned in m.observation(dealer).hand
        assert all(len(m.observation(s).hand) == 13 for s in range(4))
        assert {m.observation(s).turned_up for s in range(4)} == {turned}
        suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
        assert m.observation(1).trump == suits[turned[-1]]
        # it is the 52nd card of the deck order: the dealer's last
        assert v.card_text(d.deck_order[51]) == turned
        assert m.observation(0).turnup is None  # nothing lies on the table


def test_stack_deck_names_the_dealers_turned_up_card_apart():
    v = trickcore.variant_from_text(SPADES_TURNUP, "house")
    order = v.stack_deck({2: ["AS", "KS"], 3: ["QH"]}, dealer=2, turnup="7D")
    m = v.new_match(deck_orders=[order], dealer=2)
    assert m.observation(2).turned_up == "7D" and m.observation(2).trump == "diamonds"
    assert {"AS", "KS", "7D"} <= set(m.observation(2).hand)
    assert "QH" in m.observation(3).hand


def test_the_checker_restates_it_and_hidden_worlds_keep_it_with_the_dealer(tmp_path):
    path = tmp_path / "spades-turnup.rules"
    path.write_text(SPADES_TURNUP, encoding="utf-8")
    check_rules(path, examples=30, matches=1)  # the independent checker agrees
    v = trickcore.load_variant(path)
    m = v.new_match(seed=3)
    rng = random.Random(3)
    for _ in range(9):
        m.apply(rng.choice(m.legal_actions()))
    d = m.current
    for seat in range(4):
        for world in v.sample_worlds(m.observation(seat), 4, rng=random.Random(seat)):
            assert world.turned_up == d.turned_up
            assert (d.turned_up in world.hands[d.dealer]) == (d.turned_up in d.hands[d.dealer])


@pytest.mark.parametrize(
    ("body", "where", "says"),
    [
        ("deal {\n  pattern: 1 each 13 times, 1 turnup to declarer\n}\n", (3, 29), "to dealer"),
        ("deal {\n  pattern: 1 each 13 times, 1 turnup to dealer\n}\n", (3, 3), "unequal"),
        (
            "deal {\n  pattern: 1 each 12 times, 1 1 1 0 round, 1 turnup to dealer\n"
            "  sits_out: dealer\n}\n",
            (3, 3),
            "the dealer must play",
        ),
    ],
)
def test_misused_it_is_refused_at_its_place(body, where, says):
    err = compile_error('extends "spades"\n' + body)
    assert says in err.message and at(err) == where


def test_nothing_is_left_to_pick_up():
    err = compile_error(
        'extends "euchre"\ndeal {\n  pattern: 3 2 3 2 round, 2 3 2 2 round, 1 turnup to dealer,'
        " rest out\n}\n"
    )
    assert "nothing to pick up" in err.message


def test_a_game_of_bouts_keeps_its_trump_card_under_the_stock():
    err = compile_error(
        'extends "durak"\ndeal {\n  pattern: 6 each, 1 turnup to dealer, rest stock\n}\n'
    )
    assert "bouts" in err.message and at(err)[0] == 3


# ---------------------------------------------------------------- trump = EXPR
OH_HELL_ROTATION = """extends "oh-hell"
name: "Oh Hell, trumps in rotation and every fifth deal without"
deal {
  pattern: 1 each size times, rest out
}
play {
  trump = mod(deal_number - 1, 4)
  trump_if = mod(deal_number, 5) != 0
}
"""


def test_a_trump_rule_reads_the_deal_number(tmp_path):
    path = tmp_path / "oh-hell-rotation.rules"
    path.write_text(OH_HELL_ROTATION, encoding="utf-8")
    check_rules(path, examples=30, matches=1)
    v = trickcore.load_variant(path)
    m = v.new_match(seed=2, players=4)
    rng = random.Random(2)
    seen = []
    while not m.is_over and m.deals_played < 6:
        n = m.deals_played
        seen.append(m.observation(0).trump)
        while m.deals_played == n and not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
    # clubs, diamonds, hearts, spades (suits: in order), then the fifth deal has no trump
    assert seen[:6] == ["clubs", "diamonds", "hearts", "spades", None, "diamonds"]


def test_a_trump_rule_outside_the_suits_is_an_error_at_the_rule():
    v = trickcore.variant_from_text(
        'extends "spades"\nplay {\n  trump = deal_number + 2\n}\n', "house"
    )
    m = v.new_match(seed=1)
    with pytest.raises(trickcore.RulesError) as info:
        for _ in range(200):
            m.apply(m.legal_actions()[0])
    err = info.value
    assert "play.trump gives 4 in deal 2: not a suit" in err.message and at(err) == (3, 11)


def test_a_trump_rule_is_a_number_and_reads_public_names_only():
    err = compile_error('extends "spades"\nplay {\n  trump = hand_size > 3\n}\n')
    assert at(err)[0] == 3
    err = compile_error('extends "spades"\nplay {\n  trump = tricks_won\n}\n')
    assert "tricks_won" in err.message and at(err)[0] == 3
