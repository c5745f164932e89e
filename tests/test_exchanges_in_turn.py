"""`effect: exchange_out N` taken by several players in one deal (Écarté's exchanges, one
player after the other): the cards one lays away go under the cards left out, so the next
draws cards nobody has held. A newcomer writing Écarté found the second player drew the
first one's discards (issue 28)."""

from __future__ import annotations

from pathlib import Path

import trickcore
from trickcore.testing import check_rules

SWAPS = """extends "euchre"
name: "Euchre, everyone may swap a card"
decision change {
  at: before auction                              # each in turn from the dealer's left
  offer_if = yes
  effect: exchange_out 1
}
"""


def test_the_second_exchange_draws_a_card_nobody_has_held(tmp_path: Path) -> None:
    path = tmp_path / "swaps.rules"
    path.write_text(SWAPS, encoding="utf-8")
    v = trickcore.load_variant(path)
    for seed in range(10):
        m = v.new_match(seed=seed)
        first = m.to_act
        before = set(m.observation(first).hand)
        m.apply("change")
        laid = sorted(before)[0]
        m.apply(f"discard {laid}")
        drawn = set(m.observation(first).hand) - before
        second = m.to_act
        held = set(m.observation(second).hand)
        m.apply("change")
        m.apply(f"discard {sorted(held)[0]}")
        got = set(m.observation(second).hand) - held
        assert len(drawn) == len(got) == 1 and got != {laid} and got != drawn
    check_rules(path, examples=10, matches=0)
