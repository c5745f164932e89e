"""Every name the manual (docs/language.md) promises in each place can really be read there
during play."""

from __future__ import annotations

import random

import trickcore
from trickcore.language import vocabulary as voc


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


def test_names_of_games_without_an_auction_are_all_readable():
    """Every name and function of `play_if`, `pass_cards.to`, `bids`, `card_points`, the
    scoring aggregates and `end_if` is read during play of a variant built on Spades."""
    play_if = use_all(
        voc.PLAY_NAMES,
        "(if card_rank(A) or card_suit(S) or card_is(QS) or played_card(AH) then 1 else 0)"
        " + played_suit(hearts) + count_rank(K) + count_suit(C)",
    )
    lead = use_all(voc.LEAD_NAMES, '(if card_is("2C") then 1 else 0) + played_suit(C)')
    result = use_all(
        {**voc.RESULT_NAMES, **voc.MATCH_STATE_NAMES},
        "taken_suit(hearts) + (if taken_card(QS) then 1 else 0) + sum_all(tricks_won)"
        " + max_all(tricks_won) + min_all(tricks_bid) + count_all(bid_blind)"
        " + sum_side(tricks_won) + count_side(declarer) + bags",
    )
    text = f"""
extends "spades"
deck {{
  card_points = if card_suit(hearts) or card_rank(A) or card_is(QS) then 1 else 0
}}
deal {{
  flow: pass, bids, tricks
}}
pass_cards {{
  count: 1
  to = 1 + 0 * ({use_all(voc.PASS_NAMES)})
}}
bids {{
  blind_if = {use_all({**voc.BLIND_NAMES, "bags": "int"})} >= 0
}}
play {{
  lead_if = {lead} >= 0
  play_if = {play_if} >= 0
}}
scoring {{
  probe = {result}
  player = contract_score + sum_side(nil_score) + 0 * probe
}}
match {{
  end_if = {use_all({**voc.END_NAMES, "bags": "int"})} < 0
}}
"""
    play(trickcore.variant_from_text(text, "every-new-name"))


def test_names_of_decisions_and_stock_games_are_all_readable():
    """Every name and function of a decision's `offer_if` and rules, of obligations written
    as expressions, and the scoring names of a stock game are read in play of a variant built
    on Sixty-six."""
    decision = use_all(
        {**voc.DECISION_NAMES, "seen": "int", "claimed": "bool"},
        "count_rank(K) + count_suit(H) + (if holds_trump(9) then 1 else 0)"
        " + taken_suit(H) + (if taken_card(AH) then 1 else 0)",
    )
    obligation = use_all({**voc.OBLIGATION_NAMES, "seen": "int", "claimed": "bool"})
    result = use_all({**voc.RESULT_NAMES, **voc.MATCH_STATE_NAMES, "seen": "int"})
    text = f"""
extends "sixty-six"
deal {{
  keep +: seen 0
}}
play {{
  overtrump = {obligation} < 0
}}
decision probe {{
  at: lead, play
  offer_if = {decision} < 0
}}
decision look_around {{
  at: lead
  offer_if = stock_left >= 4 and seen == 0
  rule count: seen = {decision}
}}
scoring {{
  probe = {result}
  player = if failed_close then 0 else if claimant then 1 + 0 * probe else 0
}}
"""
    v = trickcore.variant_from_text(text, "every-decision-name")
    rng = random.Random(0)
    chosen = 0
    for seed in range(30):
        d = v.new_deal(seed=seed, dealer=seed % 2)
        while not d.is_over:
            legal = d.legal_actions()
            mine = [a for a in legal if a.text == "look_around"]
            chosen += bool(mine)
            d.apply(mine[0] if mine else rng.choice(legal))
    assert chosen > 0  # the decision's rule ran, reading every name


def test_names_of_relations_open_hands_and_choices_are_all_readable():
    """Every name of `trump_power`/`power`, `open_hand_if`/`stop_if`, `counts_for_if` and
    `top_trumps` is read in play of variants built on Skat."""
    relation = use_all(
        {**voc.RELATION_NAMES, "grand": "bool"},
        "(if card_rank(J) or card_suit(C) or card_is(AS) then 1 else 0)",
    )
    opened = use_all({**voc.OPEN_NAMES, "hand": "bool", "null": "bool"})
    result = use_all({**voc.RESULT_NAMES, **voc.MATCH_STATE_NAMES, "ouvert": "bool"})
    play_block = f"""
play {{
  power = 10 - rank_index + 0 * ({relation})
  open_hand_if = {opened} < 0
  stop_if = {opened} < 0
}}
scoring {{
  probe = {result}
  defender = 0 * probe
}}
"""
    talon = f"""
talon {{
  counts_for_if = declarer and {opened} >= 0 and (won_last_trick or contract >= 0)
}}
"""
    with_talon = 'extends "skat"\n' + talon + play_block
    play(trickcore.variant_from_text(with_talon, "every-skat-name"), deals=15)
    # without counts_for_if, open_hand_if and stop_if see only the player's values they read
    alone = 'extends "skat"\n' + play_block + "remove talon.counts_for_if\n"
    play(trickcore.variant_from_text(alone, "every-open-name"), deals=15)


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


def test_every_name_of_a_place_is_defined_once_with_a_meaning():
    for place in voc.PLACES.values():
        for name in place.names:
            assert voc.QUANTITIES[name].meaning
    used = {n for p in voc.PLACES.values() for n in p.names}
    assert used == set(voc.QUANTITIES)


def test_names_of_finished_tricks_are_all_readable():
    """Every name and function of `after_trick`, and of a trick in `sum_tricks(x)` and
    `count_tricks(b)` in a decision and in scoring, is read in play of a variant built on
    Hearts (with a combination, for `trick_combination_points`)."""
    event = use_all(
        {**voc.TRICK_EVENT_NAMES, "seen": "int"},
        "in_trick(QS) + (if winning_card_is(AH) or played_to_trick(2C) then 1 else 0)"
        " + count_all(won_trick) + sum_side(seen)",
    )
    turn = use_all(
        voc.TURN_TRICK_NAMES,
        "in_trick(QS) + (if winning_card_is(AH) or played_to_trick(2C) then 1 else 0)",
    )
    result = use_all(
        voc.RESULT_TRICK_NAMES,
        "in_trick(QS) + opponents_played(QS)"
        " + (if winning_card_is(AH) or played_to_trick(2C) then 1 else 0)",
    )
    text = f"""
extends "hearts"
deal {{
  keep: seen 0
}}
combination pair {{
  same_rank: 2
  value = 1
}}
after_trick {{
  rule probe: seen = {event}
}}
decision glance {{
  at: lead
  offer_if = sum_tricks({turn}) < 0 or count_tricks({turn} < 0) < 0
}}
scoring {{
  probe = sum_tricks({result}) + count_tricks({result} >= 0) + seen
  player = (if moon then (if shot then 0 else 26) else card_points) + 0 * probe
}}
"""
    play(trickcore.variant_from_text(text, "every-trick-name"), deals=10)


def test_names_of_laying_away_are_all_readable():
    """`talon.lay_away_if` (Skat's two cards) and `pickup.lay_away_if` (Euchre's dealer)."""
    funcs = "(if card_rank(A) or card_suit(S) or card_is(JC) or holds(QH) then 1 else 0)"
    lay = use_all(voc.LAY_AWAY_NAMES, f"count_rank(K) + count_suit(H) + count_card(AS) + {funcs}")
    skat = f'extends "skat"\ntalon {{\n  lay_away_if = {lay} >= 0\n}}\n'
    play(trickcore.variant_from_text(skat, "skat-lay-away"), deals=10)
    euchre = (
        f'extends "euchre"\npickup {{\n  lay_away_if = {lay} + (if strain_is(spades) '
        "or bid_is(alone) then 1 else 0) >= 0\n}\n"
    )
    play(trickcore.variant_from_text(euchre, "euchre-lay-away"), deals=10)
