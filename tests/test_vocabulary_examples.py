"""Every example of the language reference is a real line of a rules file: each name's and each
function's example, added to a shipped variant, compiles, in a place where it may be read.

An example is one line, `BLOCK [NAME] { SETTING = EXPR }` or `BLOCK [NAME] { rule ... }`; the
test writes it as a block of a rules file that `extends` the variant below that has its place
(each example is compiled once on one base), and compiles it again with the name misspelt, to
show that the compiler read the expression and that the name is one it looked up there.
"""

from __future__ import annotations

import re

import pytest

import trickcore
from trickcore.language import vocabulary as voc
from trickcore.language.errors import RulesError
from trickcore.language.exprs import ALL_FUNCS

# The shipped variant each example is compiled on: one that has the example's place and the
# cards, options and definitions the example names.
BASES: dict[str, tuple[str, ...]] = {
    "tysiacha": ("melds_in_hand", "contract", "meld_points", "cards_in_trick", "target", "ceil"),
    "spades": (
        "hand_size",
        "trumps_held",
        "trump_broken",
        "card_is_trump",
        "bid_blind",
        "score",
        "gain",
        "max_other_score",
        "floor",
    ),
    "skat": (
        "deck_points",
        "declarer",
        "rank_index",
        "suit_index",
        "card_points",
        "tricks_total",
        "lay_away_left",
    ),
    "russisch-schnapsen": ("all_melds", "first_lead", "round", "count_rank"),
    "russisch-schnapsen-ohne": ("bid_is",),
    "oh-hell": (
        "players",
        "tricks_bid",
        "deck_size",
        "size",
        "bids_total",
        "dealer",
        "abs",
        "has_bid",
    ),
    "hearts": (
        "tricks_played",
        "can_follow",
        "trick_number",
        "deal_number",
        "card_suit",
        "card_is",
        "played_suit",
        "played_card",
        "taken_suit",
        "taken_card",
        "played_to_trick",
        "min_all",
        "count_all",
        "pass_left",
        "passing_back",
        "trump_is",
    ),
    "preferans": (
        "tricks_won",
        "seats",
        "seat",
        "level",
        "bids_made",
        "min",
        "named_strain",
        "seat_left",
    ),
    "schafkopf": ("trump_set", "top_trumps", "count_suit", "holds", "times_led", "led_suit"),
    "schafkopf-ramsch": ("max_all",),
    "belote": (
        "card_in_trump_suit",
        "led_trump",
        "trick_trumped",
        "partner_winning",
        "card_wins",
        "combination_points",
        "best_combination",
        "card_in_combination",
        "trick_combination_points",
        "nth_combination",
        "value",
        "length",
        "times",
        "top",
        "position",
        "bid_suit",
        "turnup_suit",
        "turnup_rank",
        "card_rank",
        "holds_trump",
        "sum_side",
        "count_side",
        "played_it",
    ),
    "sixty-six": ("stock_left", "stock_closed", "won_last_trick", "melds_declared", "sum_all"),
    "doppelkopf": (
        "won_trick",
        "trick_points",
        "last_trick",
        "side_won",
        "side",
        "count_card",
        "in_trick",
        "winning_card_is",
        "opponents_played",
        "sum_tricks",
        "count_tricks",
    ),
    "euchre": ("call_round", "dealer_side", "bid_round", "declarer_side"),
    "bridge": ("doubled", "redoubled", "cards_played", "mod", "pick", "strain_is"),
    "durak": (
        "loser",
        "draw",
        "cards_left",
        "defender_cards",
        "bout_number",
        "stock",
        "lowest_trump",
    ),
    "whist": ("div", "max"),
    "euchre-farmers-hand": ("out_left",),
    "doppelkopf-second-dulle": (
        "card_power",
        "other_power",
        "other_trump",
        "same_card",
        "follows_led",
        "beats_usually",
        "other_is",
        "other_suit",
    ),
    "durak-36": ("same_suit", "other_rank"),
}
BASE_OF = {entry: base for base, entries in BASES.items() for entry in entries}

# The places (keys of `PLACES`) an example's `BLOCK.SETTING`, or its BLOCK, stands in, the first
# one named in that place's `settings`; in `scoring` and in a decision, `sum_tricks(x)` and
# `count_tricks(b)` read the names of each finished trick too.
OBLIGATIONS = ("follow", "trump_when_void", "beat_in_suit", "overtrump")
SETTING_PLACES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(
        ("bidding.opening", "bidding.cap", "contract.cap", "redeal.allowed_if", "bids.max"),
        ("hand",),
    ),
    "meld.declare_if": ("declare",),
    "play.lead_if": ("lead",),
    **dict.fromkeys(("talon.lay_away_if", "pickup.lay_away_if"), ("lay_away",)),
    "play.play_if": ("play",),
    "decision": ("decision", "turn_trick"),
    "choice": ("decision", "turn_trick"),
    **dict.fromkeys((f"play.{s}" for s in OBLIGATIONS), ("obligation",)),
    "play.trump_power": ("relation",),
    "play.beats": ("beats",),
    "bouts.beats": ("bout_beats",),
    "play.power": ("relation",),
    **dict.fromkeys(("play.stop_if", "play.partner_plays_if", "play.skip_if"), ("open",)),
    "play.open_hand_if": ("open_hand",),
    "combination.value": ("combination",),
    "combination.strength": ("strength",),
    "deck.card_points": ("card",),
    "pass_cards.to": ("pass",),
    "pass_cards.pass_if": ("pass_card",),
    "bids.blind_if": ("blind",),
    "meld.counts_if": ("result",),
    "scoring": ("result", "result_trick"),
    "after_trick": ("trick_event",),
    "after_card": ("card_event",),
    "deal.size": ("size",),
    "play.trump_if": ("trump_if",),
    "play.trump": ("trump",),
    "bidding.bid_if": ("call",),
    "bidding.pass_if": ("call",),
    "contract.raise_if": ("raise",),
    "bids.bid_if": ("number_bid",),
    "play.sit_out_if": ("role",),
    "pickup.take_if": ("role",),
    "play.side_if": ("side",),
    "after_deal": ("match", "result", "bout_result"),
    "match.end_if": ("end",),
    "bouts.limit": ("bout_limit",),
    "bouts.first_attacker": ("first_attacker",),
}

EXAMPLE = re.compile(
    r"(?P<block>[a-z_]+)(?P<named> [a-z_]+)? \{ "
    r"(?:(?P<rule>rule [a-z_0-9]+(?: (?:before|after) [a-z_0-9]+)?: )|(?P<setting>[a-z_]+) = )"
    r"(?P<expr>[^{}]+) \}"
)
ENTRIES = [*voc.QUANTITIES, *voc.FUNCTIONS]


def example_of(entry: str) -> str:
    if entry in voc.QUANTITIES:
        return voc.QUANTITIES[entry].example
    return voc.FUNCTIONS[entry].example


def reads(entry: str) -> re.Pattern[str]:
    """The pattern of `entry` read in an expression: a name, or a call of the function."""
    return re.compile(rf"\b{entry}\b(?!\()" if entry in voc.QUANTITIES else rf"\b{entry}\(")


def rules_text(base: str, block: str, line: str) -> str:
    return f'extends "{base}"\n{block} {{\n  {line}\n}}\n'


def test_every_name_and_function_has_an_example_and_one_base():
    assert set(voc.FUNCTIONS) == set(ALL_FUNCS)
    for f in voc.FUNCTIONS.values():
        assert ALL_FUNCS[f.name] == f"{f.signature}: {f.meaning}"
    listed = {f for place in voc.PLACES.values() for f in place.functions}
    assert listed <= {f.signature for f in voc.FUNCTIONS.values()}
    every = [entry for entries in BASES.values() for entry in entries]
    assert sorted(every) == sorted(ENTRIES)  # each once
    assert set(trickcore.list_variants()) >= set(BASES)
    for key, places in SETTING_PLACES.items():
        assert key.rsplit(".", 1)[-1] in voc.PLACES[places[0]].settings, key


@pytest.mark.parametrize("entry", ENTRIES)
def test_example_compiles_where_it_may_be_read(entry):
    example = example_of(entry)
    match = EXAMPLE.fullmatch(example)
    assert match, f"{entry}: {example!r} is not `BLOCK {{ SETTING = EXPR }}` or a rule"
    assert not set(example) & set("|`\n"), f"{entry}: the example must fit a table cell"
    assert reads(entry).search(match["expr"]), f"{entry}: its example does not read it"

    # where the example stands lists the name (or the function)
    block, setting = match["block"], match["setting"]
    places = SETTING_PLACES.get(f"{block}.{setting}") or SETTING_PLACES.get(block)
    assert places, f"{entry}: no place known for {block}.{setting or 'rule'}"
    where = f"{entry} may not be read in {block}.{setting or 'rule'} (places {places})"
    if entry in voc.QUANTITIES:
        assert any(entry in voc.PLACES[p].names for p in places), where
    elif voc.FUNCTIONS[entry].signature in {f for p in voc.PLACES.values() for f in p.functions}:
        signature = voc.FUNCTIONS[entry].signature
        assert any(signature in voc.PLACES[p].functions for p in places), where

    # it compiles on its base ...
    base = BASE_OF[entry]
    header = block + (match["named"] or "")
    head = match["rule"] or f"{setting} = "
    try:
        trickcore.variant_from_text(rules_text(base, header, head + match["expr"]), "example")
    except RulesError as e:
        pytest.fail(f"the example of {entry} does not compile on {base!r}: {example}\n{e}")

    # ... and misspelt, it does not: the compiler looked the name up in this expression
    wrong = f"no_such_{entry}"
    misspelt = reads(entry).sub(wrong + ("" if entry in voc.QUANTITIES else "("), match["expr"])
    with pytest.raises(RulesError, match=rf"unknown (name|function) '{wrong}'"):
        trickcore.variant_from_text(rules_text(base, header, head + misspelt), "example")
