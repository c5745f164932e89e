"""`pass_cards { count: N each }`: N cards to each other player (those `receives_if` names,
without it every other player), the first N to the player after the giver, the next N to
the one after, all chosen before any is received (issue 28: Hearts' "scatter" pass, Tichu's
one card to each player; `examples/hearts-scatter.rules`). The checker restates it: an
engine that gives them all to the left is caught."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import texts

import trickcore
from trickcore.checking.verify import verify
from trickcore.engine.phases import passing
from trickcore.interfaces.summary import rules_summary
from trickcore.language.errors import RulesError
from trickcore.testing import check_rules

SCATTER = Path(__file__).resolve().parent.parent / "examples" / "hearts-scatter.rules"


def test_each_player_passes_one_card_to_each_of_the_others() -> None:
    m = trickcore.load_variant(SCATTER).new_match(seed=4)
    first = m.observation(0).to_act
    chosen: dict[int, list[str]] = {}
    for _ in range(4):
        seat = m.observation(0).to_act
        chosen[seat] = []
        for _ in range(3):  # one for each other player, one at a time
            assert m.observation(seat).phase == "pass"
            card = texts(m.legal_actions())[0].removeprefix("pass ")
            chosen[seat].append(card)
            m.apply(f"pass {card}")
        if m.observation(seat).phase == "pass":  # his three wait until all have chosen
            assert len(m.observation(seat).set_aside) == 3 and m.observation(0).to_act != seat
    assert m.observation(0).phase == "play"
    for giver, cards in chosen.items():
        after = [(giver + k) % 4 for k in (1, 2, 3)]  # left, across, right
        assert m.observation(giver).given == tuple((t, (c,)) for t, c in zip(after, cards))
        for taker, card in zip(after, cards):
            assert card in m.observation(taker).received
            assert card in m.observation(taker).hand
    assert first == 1
    assert [p[:3] for p in m.observation(2).passes][:3] == [(1, 2, 1), (1, 3, 1), (1, 0, 1)]


def test_show_says_where_each_card_goes() -> None:
    summary = rules_summary(trickcore.load_variant(SCATTER).model)
    text = " ".join(line for _, lines in summary for line in lines)
    assert "chooses, for each player he passes to, 1 card of his hand" in text
    assert "each player's cards go 1 card to each other player: the first to the player" in text


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("count: 5 each", r"cannot pass 15 cards from a hand of 13"),
        ("count: 1 each\n  to = 1", r"'to' means nothing with it"),
        ("count: 1 each\n  back: yes", r"'back' means nothing with it"),
    ],
)
def test_what_each_refuses(tmp_path: Path, setting: str, message: str) -> None:
    path = tmp_path / "bad.rules"
    path.write_text(
        f'extends "hearts"\nremove pass_cards.to\npass_cards {{\n  {setting}\n}}\n', "utf-8"
    )
    with pytest.raises(RulesError, match=r"bad.rules:\d+:\d+: .*" + message):
        trickcore.load_variant(path)


def test_the_file_keeps_every_invariant() -> None:
    check_rules(SCATTER, examples=15, matches=1)


def test_an_engine_that_gives_them_all_to_the_left_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert verify(SCATTER, examples=20, matches=0).violation is None
    start = passing.PassCards.start

    def all_to_the_left(self, deal):  # type: ignore[no-untyped-def]
        """Takers worked out as before, but every card goes to the player on the left."""
        started = start(self, deal)
        deal.pass_takers = {g: [ts[0]] * len(ts) for g, ts in deal.pass_takers.items()}
        return started

    monkeypatch.setattr(passing.PassCards, "start", all_to_the_left)
    report = verify(SCATTER, examples=20, matches=0)
    assert report.violation is not None and report.violation.invariant == "cards"
    assert "but the deal and the actions so far give it" in report.violation.message
