"""Every name the README promises in each place can really be read there during play."""

from __future__ import annotations

import random

import trickcore
from trickcore import vocabulary as voc


def use_all(names: dict[str, str], extra: str = "0") -> str:
    """An int expression that reads every name once."""
    parts = [n if t == "int" else f"(if {n} then 1 else 0)" for n, t in sorted(names.items())]
    return " + ".join([*parts, extra])


def play(v, deals=30, players=None):
    rng = random.Random(0)
    for seed in range(deals):
        d = v.new_deal(seed=seed, dealer=seed % 3, players=players)
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
    m = v.new_match(seed=1, players=players)
    while not m.is_over and m.deals_dealt < 4:
        m.apply(rng.choice(m.legal_actions()))


def test_trick_game_names_are_all_readable():
    hand = use_all(voc.HAND_NAMES, "count_rank(9) + count_suit(H)")
    declare = use_all(voc.DECLARE_NAMES, "count_rank(K)")
    lead = use_all(voc.LEAD_NAMES, "(if card_rank(A) or card_suit(S) then 1 else 0)")
    result = use_all({**voc.RESULT_NAMES, **voc.MATCH_STATE_NAMES}, "seen")
    text = f"""
extends "russisch-schnapsen-ohne"
redeal {{
  allowed_if = {hand} < 0
}}
bidding {{
  cap = 400 + 0 * ({hand})
}}
meld marriage {{
  declare_if = {declare} >= 0
  counts_if = {result} >= 0 and tricks_won >= 1
}}
play {{
  lead_if = {lead} >= 0
}}
scoring {{
  probe = {result} + (if bid_is(ohne) then 1 else 0)
  defender = deal_points + 0 * probe
}}
match {{
  keep: seen 0
}}
after_deal {{
  rule probe: seen = {use_all({**voc.RESULT_NAMES, **voc.MATCH_NAMES}, "target + probe")}
}}
"""
    play(trickcore.variant_from_text(text, "every-name"))


def test_bout_game_names_are_all_readable():
    limit = use_all(voc.BOUT_LIMIT_NAMES)
    after = use_all({**voc.BOUT_RESULT_NAMES, **voc.MATCH_NAMES}, "target")
    text = f"""
extends "durak"
bouts {{
  limit = min(6, defender_cards) + 0 * ({limit})
}}
match {{
  rank_by = -durak_count + 0 * score
}}
after_deal {{
  rule probe: durak_count = durak_count + 0 * ({after})
}}
"""
    play(trickcore.variant_from_text(text, "every-bout-name"), players=3)


def test_readme_tables_of_names_are_the_registry():
    """README documents exactly the names the compiler accepts, place by place."""
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    assert voc.names_table() in readme
    assert voc.meanings_table() in readme


def test_every_name_of_a_place_is_defined_once_with_a_meaning():
    for place in voc.PLACES.values():
        for name in place.names:
            assert voc.QUANTITIES[name].meaning
    used = {n for p in voc.PLACES.values() for n in p.names}
    assert used == set(voc.QUANTITIES)
