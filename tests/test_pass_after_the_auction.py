"""Cards passed by some players only, after the auction, and passed back (issue 28):
`pass_cards { passes_if = EXPR  back: yes }` and `pass` after `auction` in the flow. The real
file is examples/pinochle-passing.rules, a house rule on examples/pinochle.rules (games
trickcore does not ship): the bidder's partner passes him four cards, then the bidder passes
four back; nobody else passes. Hearts (every player passes, before play) is unchanged."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import trickcore
from trickcore.interfaces.summary import rules_summary
from trickcore.testing import check_rules

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PASSING = EXAMPLES / "pinochle-passing.rules"


@pytest.fixture(scope="module")
def pinochle() -> trickcore.Variant:
    return trickcore.load_variant(PASSING)


def won_by_seat_1(deal) -> None:
    """Seat 1 (the dealer's left) bids 100, the others pass; he names hearts."""
    deal.apply("bid 100")
    for _ in range(3):
        deal.apply("pass")
    deal.apply("in_hearts")


def test_only_the_bidders_partner_passes_then_the_bidder_passes_as_many_back(pinochle):
    deal = pinochle.new_deal(seed=5, dealer=0)
    won_by_seat_1(deal)
    assert deal.phase == "pass" and deal.to_act == 3  # seat 1's partner, across the table
    partner_hand = deal.observation(3).hand
    given = list(partner_hand[:4])
    for card in given:
        assert deal.to_act == 3
        deal.apply(f"pass {card}")
    # the four have arrived: the bidder holds 16 and chooses four to pass back
    assert deal.to_act == 1 and deal.phase == "pass"
    bidder = deal.observation(1)
    assert len(bidder.hand) == 16 and sorted(bidder.received) == sorted(given)
    assert bidder.passes == ((3, 1, 4, False),)
    back = [given[0], *[c for c in bidder.hand if c not in given][:3]]  # one of his own, too
    for card in back:
        deal.apply(f"pass {card}")
    assert deal.phase == "play"
    hands = [deal.observation(s).hand for s in range(4)]
    assert [len(h) for h in hands] == [12, 12, 12, 12]
    partner = deal.observation(3)
    assert sorted(partner.received) == sorted(back)
    assert partner.given == ((1, tuple(given)),)
    assert deal.observation(1).given == ((3, tuple(back)),)
    # public: who passed how many to whom, in order; the cards only to those who moved them
    assert deal.observation(0).passes == ((3, 1, 4, False), (1, 3, 4, True))
    assert deal.observation(0).received == () and deal.observation(2).given == ()
    seen_by_opponent = [text for seat, text in deal.observation(0).log if seat in (1, 3)]
    assert seen_by_opponent[-8:] == ["pass a card"] * 8


def test_the_melds_count_in_the_hands_after_the_pass(pinochle):
    """The passed cards are the bidder's when the melds are counted (as trick play
    begins): a pinochle passed to him counts for him."""
    deal = pinochle.new_deal(seed=11, dealer=0)
    won_by_seat_1(deal)
    hand = deal.observation(3).hand
    for card in hand[:4]:
        deal.apply(f"pass {card}")
    bidder_hand = list(deal.observation(1).hand)
    for card in bidder_hand[:4]:
        deal.apply(f"pass {card}")
    start = {s: sorted(deal.observation(s).hand) for s in range(4)}
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    assert sorted(bidder_hand[4:]) == start[1]
    assert deal.is_over


def test_without_a_declarer_side_partner_nobody_passes_and_hearts_passes_as_before():
    """A deal thrown in passes nothing; Hearts' every player still passes three, before
    play, to the left in its first deal."""
    hearts = trickcore.load_variant("hearts")
    deal = hearts.new_deal(seed=2, dealer=0)
    assert deal.phase == "pass"
    for seat in (1, 2, 3, 0):
        assert deal.to_act == seat
        for card in deal.observation(seat).hand[:3]:
            deal.apply(f"pass {card}")
    assert deal.phase == "play"
    passes = deal.observation(0).passes
    assert passes == ((1, 2, 3, False), (2, 3, 3, False), (3, 0, 3, False), (0, 1, 3, False))


def test_the_passing_is_shown_and_verified(pinochle):
    text = "\n".join(line for _, lines in rules_summary(pinochle.model) for line in lines)
    assert "Each player for whom declarer_side and not declarer chooses 4 cards" in text
    assert "they go back to the player his came from" in text
    check_rules(PASSING, examples=6, matches=0)


HEARTS_BACK = 'extends "hearts"\nname: "Hearts, passed back"\npass_cards {\n  back: yes\n}\n'


@pytest.mark.parametrize("game", ["pinochle", "hearts-back"])
def test_hidden_worlds_after_the_passes_give_back_each_seats_view(pinochle, tmp_path, game):
    """Worlds drawn for every seat after both passes (and a few cards) replay to that
    seat's own observation: the cards a seat received came from who passed them, and a
    card it passed and got back was its own (with copies, the same copy)."""
    variant = pinochle
    if game == "hearts-back":
        (tmp_path / "hearts-back.rules").write_text(HEARTS_BACK, encoding="utf-8")
        variant = trickcore.load_variant(tmp_path / "hearts-back.rules")
    for seed in range(6):
        rng = random.Random(seed)
        deal = variant.new_deal(seed=seed, dealer=0)
        if game == "pinochle":
            won_by_seat_1(deal)
        while deal.phase == "pass":
            deal.apply(rng.choice(deal.legal_actions()))
        for _ in range(rng.randrange(6)):
            deal.apply(rng.choice(deal.legal_actions()))
        for seat in range(4):
            obs = deal.observation(seat)
            for world in variant.sample_worlds(obs, 2, random.Random(seed)):
                assert world.observation(seat) == obs


@pytest.mark.parametrize(
    "change, message",
    [
        (
            "deal {\n  flow: pass, auction, tricks\n}\n",
            "unknown name 'declarer_side' in pass_cards.passes_if (before any auction",
        ),
        ("deal {\n  flow: auction, tricks, pass\n}\n", "'pass' anywhere after a 'redeal'"),
    ],
)
def test_a_pass_before_the_auction_cannot_read_roles_and_none_comes_after_the_tricks(
    tmp_path, change, message
):
    for name in ("pinochle.rules", "pinochle-passing.rules"):
        (tmp_path / name).write_text((EXAMPLES / name).read_text(encoding="utf-8"))
    path = tmp_path / "broken.rules"
    path.write_text(f'extends "./pinochle-passing.rules"\n{change}', encoding="utf-8")
    with pytest.raises(trickcore.RulesError) as err:
        trickcore.load_variant(path)
    assert message in str(err.value)
    assert "broken.rules:" in str(err.value)


def test_an_engine_that_lets_every_player_pass_or_sends_the_cards_back_wrong_is_caught(
    monkeypatch,
):
    """The checker restates who passes and where the cards go back: an engine asking every
    player to pass, or returning the cards to the bidder's left, is found out."""
    from conftest import found

    from trickcore.engine.phases import passing

    assert found(PASSING, examples=6) is None
    real_start = passing.PassCards.start

    def everybody(self, deal):
        started = real_start(self, deal)
        if started:  # every player passes, not only those `passes_if` picks
            deal.set_aside = {s: [] for s in deal.active}
            deal.to_act = deal.active[0]
        return started

    monkeypatch.setattr(passing.PassCards, "start", everybody)
    assert found(PASSING, examples=6) is not None
    monkeypatch.undo()
    real_apply = passing.PassCards.apply

    def back_to_the_left(self, deal, action):
        real_apply(self, deal, action)
        for seat, [(taker, cards)] in list(deal.passed_back.items()):
            left = deal.active[(deal.active.index(seat) + 1) % len(deal.active)]
            if left != taker:
                for c in cards:
                    deal.hands[taker].remove(c)
                    deal.hands[left].append(c)
                deal.passed_back[seat] = [(left, cards)]

    monkeypatch.setattr(passing.PassCards, "apply", back_to_the_left)
    assert found(PASSING, examples=6) is not None
