"""A stock whose top card lies face up (`deal { stock_top: shown }`) and a trump set by it
(`play { trump: stock_top }`). The real file is examples/german-whist.rules, a game trickcore
does not ship, written from its usual rules: 13 cards each, the rest a stock with its top card
face up; its suit is trump; the winner of a trick takes the face-up card, the loser the next
one (face down), and the new top card is turned up (docs: docs/language.md, "stock_top")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import found

import trickcore
import trickcore.engine.deal_core
from trickcore.interfaces.summary import rules_summary
from trickcore.interfaces.tensors import Encoder
from trickcore.interfaces.terminal import Output, render
from trickcore.language.errors import RulesError
from trickcore.players import Turn, make_bot
from trickcore.testing import check_rules

GERMAN_WHIST = Path(__file__).resolve().parent.parent / "examples" / "german-whist.rules"
SEAT0 = "3D 4D 5D 6D 7D 8D 9D 10D 2H 3H 4H 5H 6H".split()
SEAT1 = "AD KD QD JD 2S 3S 4S 5S 6S 7S 8S 9S 10S".split()
STOCK = "QS 2C KH 3C".split()  # the stock's first cards, top first


def stacked_deal() -> trickcore.Deal:
    """Dealer 0 (seat 1 leads); the stock begins QS (face up), 2C, KH, 3C."""
    variant = trickcore.load_variant(GERMAN_WHIST)
    order = variant.stack_deck({0: SEAT0, 1: SEAT1}, talon=STOCK, dealer=0)
    return variant.new_deal(deck_order=order, dealer=0)


def test_the_top_card_is_face_up_and_sets_trump() -> None:
    deal = stacked_deal()
    for obs in (deal.observation(0), deal.observation(1), deal.public_view()):
        assert obs.stock_top == "QS"
        assert obs.stock_shown == ((0, "QS"),)
        assert obs.trump == "spades"
        assert obs.stock_size == 26


def test_the_winner_takes_the_face_up_card_and_the_next_is_turned() -> None:
    """Seat 1 leads AD, seat 0 must follow (3D); seat 1 wins, takes QS (seen by both), seat 0
    takes 2C (seen by him alone), and KH is turned up: the third card of the stock."""
    deal = stacked_deal()
    deal.apply("play AD")
    assert sorted(a.text for a in deal.legal_actions())[0] == "play 10D"  # follows suit
    deal.apply("play 3D")
    winner, loser = deal.observation(1), deal.observation(0)
    assert "QS" in winner.hand and "2C" in loser.hand
    for obs in (winner, loser, deal.public_view()):
        assert obs.stock_top == "KH"
        assert obs.stock_shown == ((0, "QS"), (2, "KH"))
        assert obs.stock_size == 24
    assert "2C" not in repr(winner.to_dict())  # the loser's card stays his secret


def test_show_says_so() -> None:
    sections = dict(rules_summary(trickcore.load_variant(GERMAN_WHIST).model))
    assert "The stock's top card lies face up for all to see" in " ".join(sections["Deal"])
    trump = "The suit of the stock's top card, as the cards are dealt, is trump"
    assert trump in " ".join(sections["Play"])


def test_the_terminal_and_the_tensor_show_the_card(capsys) -> None:
    variant = trickcore.load_variant(GERMAN_WHIST)
    match = variant.new_match(seed=3)
    top = match.observation(0).stock_top
    assert top is not None
    render(match, Output(tty=False))
    glyph = variant.model.deck.card_glyph(variant.card(top))
    assert f"on the stock, face up: {glyph}" in capsys.readouterr().out
    encoder = Encoder(variant, 2)
    flat = encoder.new_tensor()
    views = encoder.views(flat)
    encoder.encode(match.observation(0), views)
    cards = list(variant.card_texts)
    assert [cards[i] for i, x in enumerate(views["stock_top"]) if x] == [top]
    plain = Encoder(trickcore.load_variant("sixty-six"), 2)  # no such planes elsewhere
    assert "stock_top" not in {p.name for p in plain.pieces}


def test_the_file_keeps_every_invariant() -> None:
    check_rules(GERMAN_WHIST, examples=30, matches=1)


def test_an_engine_that_never_turns_the_next_card_is_caught(monkeypatch) -> None:
    monkeypatch.setattr(trickcore.engine.deal_core.DealCore, "stock_drawn", lambda self: None)
    assert found(GERMAN_WHIST, examples=20) == "view"


def test_hidden_worlds_keep_the_shown_cards_where_they_lay() -> None:
    """Worlds sampled for a seat agree with its view: each card seen on the stock lies at its
    place in the stock as dealt (and with the player who took it)."""
    variant = trickcore.load_variant(GERMAN_WHIST)
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        deal = variant.new_deal(seed=seed, dealer=0)
        step = 0
        while not deal.is_over:
            if step % 7 == 3:
                seat = deal.to_act
                obs = deal.observation(seat)
                for world in variant.sample_worlds(obs, 2, rng=seed * 100 + step):
                    assert world.observation(seat) == obs
                    checked += 1
            deal.apply(rng.choice(deal.legal_actions()))
            step += 1
    assert checked >= 40


@pytest.mark.parametrize(
    ("change", "message", "where"),
    [
        (
            ("  pattern: 13 each, rest stock", "  pattern: 13 each, rest out"),
            "'stock_top: shown' needs a stock",
            ":20:3:",
        ),
        (("  stock_top: shown", "  stock_top: up"), "'stock_top' must be one of", ":20:14:"),
        (("  trump: stock_top", "  trump: stock_bottom"), "'trump' is one of", ":25:10:"),
    ],
)
def test_errors_say_what_and_where(tmp_path: Path, change, message, where) -> None:
    text = GERMAN_WHIST.read_text().replace(*change)
    path = tmp_path / "broken.rules"
    path.write_text(text)
    with pytest.raises(RulesError) as err:
        trickcore.load_variant(path)
    assert message in str(err.value)
    assert f"broken.rules{where}" in str(err.value)


def test_trump_from_the_stock_needs_a_stock(tmp_path: Path) -> None:
    text = GERMAN_WHIST.read_text()
    text = text.replace("  pattern: 13 each, rest stock", "  pattern: 13 each, rest out")
    text = text.replace("  stock_top: shown   # every card on top of the stock lies face up", "")
    text = text.replace("  draw: yes", "")
    path = tmp_path / "no-stock.rules"
    path.write_text(text)
    with pytest.raises(RulesError, match="'trump: stock_top' needs a stock"):
        trickcore.load_variant(path)


def test_the_heuristic_bot_counts_the_face_up_card_as_out_of_play() -> None:
    """A king whose ace lies face up on the stock is the best card of its suit left in any
    hand: the heuristic bot leads it as a sure winner. Seat 1 wins the first trick (AD over
    3D) and takes QS; AH is turned up; seat 1 then holds KH, QD, JD and nine spades (trump,
    AS and KS unseen): KH is its only sure winner (without the face-up ace: JD, from its
    longest side suit)."""
    variant = trickcore.load_variant(GERMAN_WHIST)
    seat1 = ["AD", "KH", "QD", "JD", *SEAT1[4:]]
    order = variant.stack_deck({0: SEAT0, 1: seat1}, talon=["QS", "2C", "AH", "3C"], dealer=0)
    deal = variant.new_deal(deck_order=order, dealer=0)
    deal.apply("play AD")
    deal.apply("play 3D")
    assert deal.observation(1).stock_top == "AH" and deal.to_act == 1
    bot = make_bot("heuristic", seed=0)
    turn = Turn(variant, 1, deal.observation(1), tuple(deal.legal_actions()))
    assert bot.choose(turn).text == "play KH"
