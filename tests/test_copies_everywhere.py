"""Copies of cards (`deck { copies: 2 }`) beside melds and in games of bouts (#28, kind 1:
"cards beyond suits x ranks", usable in tricks and in bouts). The copies of a card are the
same card to the players: no rule tells them apart, so a meld is held with any copy of
each of its cards and a rule that names a card takes either copy.

The files are house rules written as a player would: Tysiacha (marriages declared by
leading, T17; the bid cap counts the melds in hand, T9), Sixty-six (marriages announced,
X24) and Durak with two decks (the trump swap, D12; `examples/durak-two-decks.rules`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import trickcore
from trickcore.engine.worlds import WorldsError
from trickcore.testing import check_rules

FILES = {
    "tysiacha-two-decks": (
        'extends "tysiacha"\nname: "Tysiacha, two decks"\ndeck {\n  copies: 2\n}\n'
        "deal {\n  pattern: 1 each 7 times, 3 talon, rest out\n}\n"
    ),
    "sixty-six-two-decks": (
        'extends "sixty-six"\nname: "Sixty-six, two decks"\ndeck {\n  copies: 2\n}\n'
    ),
}
# Durak with two decks is an example file a user copies (examples/durak-two-decks.rules)
DURAK = Path(__file__).resolve().parent.parent / "examples" / "durak-two-decks.rules"


def load(tmp_path: Path, name: str) -> trickcore.Variant:
    if name == "durak-two-decks":
        return trickcore.load_variant(DURAK)
    path = tmp_path / f"{name}.rules"
    path.write_text(FILES[name])
    return trickcore.load_variant(path)


def test_either_copy_of_the_trump_six_swaps_for_the_trump_card(tmp_path):
    """D12 (the 6 in a 36-card deck): a player to attack who holds a 6 of trumps, either
    copy, may swap it for the turned-up trump card while it lies under the stock, unless
    that card is a 6 of trumps itself."""
    variant = load(tmp_path, "durak-two-decks")
    met = 0
    for seed in range(200):
        rng = random.Random(seed)
        match = variant.new_match(seed=seed, players=3)
        for _ in range(40):
            if match.is_over:
                break
            obs = match.observation(match.to_act)
            legal = [a.text for a in match.legal_actions()]
            six = f"6{obs.trump_card[-1]}" if obs.trump_card else None  # its suit: trump
            may = obs.trump_card_in_stock and six in obs.hand and obs.trump_card != six
            if may and obs.phase == "attack":
                assert f"swap {six}" in legal
                met += 1
            if any(t.startswith("swap") for t in legal):
                assert may
            match.apply(rng.choice(legal))
    assert met >= 5


def test_a_marriage_of_second_copies_is_declared_by_leading_either_king(tmp_path):
    """T17: leading a king whose queen he holds declares the marriage, whichever copies."""
    variant = load(tmp_path, "tysiacha-two-decks")
    deck = variant.model.deck
    seen = 0
    for seed in range(300):
        rng = random.Random(seed)
        deal = variant.new_deal(seed=seed)
        while not deal.is_over:
            legal = deal.legal_actions()
            hand = deal.hands[deal.to_act] if hasattr(deal, "hands") else []
            if not deal.trick and deal.phase == "play" and deal.tricks_won[deal.to_act] >= 1:
                texts = [deck.card_text(c) for c in hand]
                seconds = {
                    deck.card_text(c) for c in hand if deck.cards_of_face[deck.faces[c]][0] != c
                }
                for suit in "CSHD":
                    king, queen = f"K{suit}", f"Q{suit}"
                    if king in texts and queen in texts:
                        assert f"marry {king}" in [a.text for a in legal]
                        seen += king in seconds or queen in seconds
            deal.apply(rng.choice(legal))
    assert seen >= 5  # marriages held with a second copy were met and declared


def test_a_double_marriage_counts_twice_in_the_bid_cap(tmp_path):
    """T9: the cap is 120 + the melds in hand; with two decks a hand with both kings and
    both queens of hearts holds that marriage twice (2 x 100)."""
    variant = load(tmp_path, "tysiacha-two-decks")
    deck = variant.model.deck
    hearts = [c for c in range(deck.size) if deck.card_text(c) in ("KH", "QH")]
    others = [c for c in range(deck.size) if c not in hearts and deck.card_text(c)[0] in "79"]
    rest = [c for c in range(deck.size) if c not in hearts and c not in others]
    # 1 each 7 times to seats 1, 2, 0 (forehand first): seat 1 gets positions 0, 3, 6, ...
    first = hearts + others[:3]
    order = []
    for k in range(7):
        order += [first[k], rest.pop(), rest.pop()]
    order += rest + others[3:]
    deal = variant.new_deal(deck_order=order, dealer=0)
    seat = deal.to_act
    assert sorted(deck.card_text(c) for c in deal.hands[seat] if c in hearts) == [
        "KH",
        "KH",
        "QH",
        "QH",
    ]
    bids = [a.value for a in deal.legal_actions() if a.kind == "bid"]
    assert max(bids) == 120 + 2 * 100


@pytest.mark.parametrize("name", [*sorted(FILES), "durak-two-decks"])
def test_the_house_rules_keep_every_invariant(tmp_path, name):
    """The checker's independent restatement agrees with the engine on every file."""
    path = DURAK
    if name in FILES:
        path = tmp_path / f"{name}.rules"
        path.write_text(FILES[name])
    check_rules(path, examples=12, matches=0)


@pytest.mark.parametrize("name", ["tysiacha-two-decks", "sixty-six-two-decks", "durak-two-decks"])
def test_hidden_worlds_refuse_copies_they_cannot_label_yet(tmp_path, name):
    """Beside a talon or a stock, and in bouts, the sampler does not yet label the copies a
    seat saw: it says so (and which file), rather than give a world the seat did not see."""
    variant = load(tmp_path, name)
    match = variant.new_match(seed=3, players=3 if name != "sixty-six-two-decks" else 2)
    with pytest.raises(WorldsError, match="not yet drawn for copies"):
        variant.sample_worlds(match.observation(0), 2, random.Random(1))
