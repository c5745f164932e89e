"""The mistakes a newcomer makes most in a rules file (issue 31, "Errors that teach" and
"Traps"): each gets a message that says what to write instead, at its file:line:column with
the line and a caret shown. The manual's table "Common mistakes and what the message says"
(docs/language.md) lists the same mistakes."""

from __future__ import annotations

from pathlib import Path

import pytest

import trickcore
from trickcore.language.compiler import compile_errors

TYSIACHA = 'extends "tysiacha"\n'
HEARTS = 'extends "hearts"\n'


def error_of(text: str, base_dir: Path | None = None) -> trickcore.RulesError:
    """The (first) error compiling `text` as the house rule "house" gives."""
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.variant_from_text(text, "house", base_dir)
    return info.value


def all_errors(text: str) -> list[trickcore.RulesError]:
    """Every independent error of `text` (as `trickcore check` lists them)."""
    return compile_errors(trickcore.load_rules_text(text, "house"))


def assert_at(err: trickcore.RulesError, line: int, column: int) -> None:
    """The error is at `line`:`column` of the house rule, with that line and a caret."""
    assert err.location is not None
    assert (err.location.line, err.location.column) == (line, column), err.location
    shown = str(err)
    assert shown.startswith(f"{err.location.file}:{line}:{column}: ")
    assert err.location.source_line.rstrip() in shown
    assert "\n    " + " " * (column - 1) + "^" in shown


# ------------------------------------------------------------------------ syntax
def test_a_rule_without_the_word_rule_says_to_write_it():
    err = error_of(TYSIACHA + "after_deal {\n  bonus: if declarer then score = score + 10\n}\n")
    assert "a rule starts with the word 'rule'" in err.message
    assert "write 'rule bonus: if declarer then score = score + 10'" in err.message
    assert_at(err, 3, 33)


def test_a_block_on_one_line_is_allowed():
    variant = trickcore.variant_from_text(
        TYSIACHA + "bidding { step: 10 }\ncontract { step: 10 }\n", "house"
    )
    assert variant.model.tricks is not None and variant.model.tricks.bidding is not None
    assert variant.model.tricks.bidding.step == 10
    assert variant.model.tricks.contract is not None and variant.model.tricks.contract.step == 10
    rules = trickcore.variant_from_text(
        TYSIACHA + "after_deal { rule bonus: if declarer then score = score + 10 }\n", "house"
    )
    assert "bonus" in [step.name for step in rules.model.match.after_deal]


def test_a_broken_one_line_block_still_says_where():
    err = error_of(TYSIACHA + "bidding { step: 5 + }\n")
    assert "unexpected '}'" in err.message
    assert_at(err, 2, 21)


def test_a_suit_symbol_in_a_card_says_how_cards_are_written():
    err = error_of(HEARTS + "play {\n  play_if = not card_is(Q♠)\n}\n")
    assert "unexpected character '♠'" in err.message
    assert "write QS, not Q♠" in err.message and "rank + suit letter" in err.message
    assert_at(err, 3, 26)
    err = error_of(HEARTS + "play {\n  play_if = not card_is(10♥)\n}\n")
    assert "write 10H, not 10♥" in err.message


def test_one_equals_sign_in_a_comparison_says_to_write_two():
    err = error_of(TYSIACHA + "scoring {\n  made = deal_points = contract\n}\n")
    assert "to compare, write '=='" in err.message
    assert_at(err, 3, 22)
    err = error_of(TYSIACHA + "after_deal {\n  rule x: if score = 100 then score = 0\n}\n")
    assert "to compare, write '=='" in err.message
    assert_at(err, 3, 20)


@pytest.mark.parametrize(
    ("expr", "char", "advice", "column"),
    [
        ("made && declarer", "&", "write 'and'", 15),
        ("made || declarer", "|", "write 'or'", 15),
        ("deal_points / 2 > 10", "/", "write 'div(a, b)'", 22),
        ("deal_points % 2 == 0", "%", "write 'mod(a, b)'", 22),
    ],
)
def test_operators_of_other_languages_say_what_to_write(expr, char, advice, column):
    err = error_of(TYSIACHA + f"scoring {{\n  made = {expr}\n}}\n")
    assert f"unexpected character {char!r}" in err.message and advice in err.message
    assert_at(err, 3, column)


def test_a_string_in_single_quotes_says_double_quotes():
    err = error_of(TYSIACHA + "name: 'My house'\n")
    assert 'double quotes: "My house rule"' in err.message
    assert_at(err, 2, 7)


@pytest.mark.parametrize(("line", "column"), [("extends tysiacha", 9), ('extends: "tysiacha"', 8)])
def test_extends_without_quotes_says_how_to_write_it(line, column):
    err = error_of(line + "\n")
    assert 'the parent is written in double quotes: extends "tysiacha"' in err.message
    assert_at(err, 1, column)


def test_a_brace_on_the_next_line_says_to_put_it_on_the_name_line():
    err = error_of(TYSIACHA + "bidding\n{\n  step: 10\n}\n")
    assert "write 'bidding {'" in err.message
    assert_at(err, 2, 8)


def test_a_block_never_closed_names_its_line():
    err = error_of(TYSIACHA + "bidding {\n  step: 5\n")
    assert "the block opened on line 2 ('bidding {') needs a closing '}'" in err.message
    assert err.location is not None and err.location.line == 3


def test_elif_says_else_if():
    err = error_of(
        TYSIACHA + "scoring {\n  defender = if made then 1 elif declarer then 2 else 3\n}\n"
    )
    assert "write 'else if'" in err.message
    assert_at(err, 3, 29)


def test_a_line_beginning_with_or_says_to_end_the_line_before_with_it():
    """A new user's Pitch file broke a condition before `or`: the message says where
    the word goes (issue 28: a newcomer's file, written from the README alone)."""
    err = error_of(TYSIACHA + "scoring {\n  made = (deal_points > 1)\n    or declarer\n}\n")
    assert "a line cannot begin with 'or': end the line before with 'or'" in err.message
    assert err.location is not None and err.location.line == 4


# --------------------------------------------------------------- names and settings
@pytest.mark.parametrize(
    ("text", "wrong", "meant", "line", "column"),
    [
        (TYSIACHA + "biding {\n  step: 5\n}\n", "unknown block 'biding'", "bidding", 2, 1),
        (TYSIACHA + "bidding {\n  stepp: 5\n}\n", "unknown setting 'stepp'", "step", 3, 3),
        (
            TYSIACHA + "bidding {\n  cap = 120 + meld_in_hand\n}\n",
            "unknown name 'meld_in_hand'",
            "melds_in_hand",
            3,
            15,
        ),
        (
            TYSIACHA + "scoring {\n  defender = rond(deal_points, 5)\n}\n",
            "unknown function 'rond'",
            "round",
            3,
            14,
        ),
        (TYSIACHA + "plaers: 3\n", "unknown top-level setting 'plaers'", "players", 2, 1),
        (
            HEARTS + "play {\n  play_if = not card_suit(heart)\n}\n",
            "expected a suit here",
            "hearts",
            3,
            27,
        ),
        (
            TYSIACHA + "remove after_deal.barrel_climbb\n",
            "nothing named 'barrel_climbb'",
            "barrel_climb",
            2,
            1,
        ),
        ('extends "tysiaca"\n', '`extends "tysiaca"`: no shipped variant', "tysiacha", 1, 1),
    ],
)
def test_a_misspelt_name_says_did_you_mean(text, wrong, meant, line, column):
    err = error_of(text)
    assert wrong in err.message and f"(did you mean '{meant}'?)" in err.message
    assert_at(err, line, column)


def test_a_misspelt_variant_name_says_did_you_mean():
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.load_variant("tysiaca")
    assert "(did you mean 'tysiacha'?)" in info.value.message


def test_a_block_setting_at_the_top_names_its_block():
    err = error_of(TYSIACHA + "step: 10\n")
    assert "unknown top-level setting 'step'" in err.message
    assert "it is a setting of the 'bidding' block" in err.message
    assert_at(err, 2, 1)


def test_a_rule_outside_a_block_says_where_rules_go():
    err = error_of(TYSIACHA + "rule bonus: score = score + 10\n")
    assert "rule 'bonus' is outside a block" in err.message
    assert "write 'after_deal { rule bonus: ... }'" in err.message
    assert_at(err, 2, 1)


@pytest.mark.parametrize(
    ("card", "advice"),
    [
        ("qs", "cards are written in capitals: QS"),
        ("TS", "the ten is written 10: 10S"),
        ("queen_of_spades", "e.g. QS for the queen of spades"),
    ],
)
def test_a_card_written_wrongly_says_how_to_write_it(card, advice):
    err = error_of(HEARTS + f"play {{\n  play_if = not card_is({card})\n}}\n")
    assert "expected a card here" in err.message and advice in err.message
    assert_at(err, 3, 25)


def test_a_list_setting_written_with_equals_shows_the_list_form():
    err = error_of(TYSIACHA + "bidding {\n  step = 10\n}\n")
    assert "not with '=': write 'step: 10'" in err.message
    assert_at(err, 3, 3)


def test_an_expression_written_with_a_colon_is_accepted():
    """`card_points: EXPR` (a one-item list) means `card_points = EXPR`; it once crashed."""
    text = HEARTS + "deck {\n  card_points: if card_suit(hearts) then 1 else 0\n}\n"
    assert trickcore.variant_from_text(text, "house").model.deck.size == 52


# ---------------------------------------------------------- several errors at once
def test_two_unknown_settings_in_one_block_are_both_reported():
    errors = all_errors(TYSIACHA + "bidding {\n  stepp: 10\n  opennig: at_least 100\n}\n")
    assert [(e.location.line, e.location.column) for e in errors] == [(3, 3), (4, 3)]
    assert "'stepp'" in errors[0].message and "(did you mean 'step'?)" in errors[0].message
    assert "'opennig'" in errors[1].message and "(did you mean 'opening'?)" in errors[1].message
    # the first error alone (compiling) shows both
    assert "opennig" in str(error_of(TYSIACHA + "bidding {\n  stepp: 10\n  opennig: 1\n}\n"))


def test_two_unknown_names_in_scoring_are_both_reported():
    text = (
        TYSIACHA + "scoring {\n  a = foo + 1\n  b = bar + 2\n  c = a + 1\n  defender = a + b\n}\n"
    )
    errors = all_errors(text)
    assert [(e.location.line, e.location.column) for e in errors] == [(3, 7), (4, 7)]
    assert "'foo'" in errors[0].message and "'bar'" in errors[1].message


def test_an_error_is_reported_once():
    text = (
        TYSIACHA + "meld four_aces {\n  suits: all\n  cards: A\n  value: 100\n  trump_value: 5\n}\n"
    )
    errors = all_errors(text)
    assert len(errors) == 1
    assert "needs a meld of one suit" in errors[0].message
    assert "remove 'trump_value'" in errors[0].message
    assert_at(errors[0], 6, 3)


# --------------------------------------------------------------- inherited lines
@pytest.mark.parametrize(
    ("parent", "block"),
    [("russisch-schnapsen", "bidding"), ("russisch-schnapsen", "deck"), ("durak-36", "bouts")],
)
def test_an_error_in_ones_own_line_names_no_inherited_lines(parent, block):
    """The parent extends another file and changes that block: an unknown setting in the
    house rule is its own line's error alone."""
    err = error_of(f'extends "{parent}"\n{block} {{\n  zzz: 1\n}}\n')
    assert "unknown setting 'zzz'" in err.message and "because of" not in err.message
    assert_at(err, 3, 3)


def test_an_inherited_line_broken_by_the_house_rule_still_names_it():
    err = error_of(TYSIACHA + "match {\n  keep -: barrel_deals\n}\n")
    assert err.message.endswith("(because of house:3:11)")


# ---------------------------------------------------------------------- decisions
def test_a_decision_without_offer_if_says_what_to_write():
    text = (
        HEARTS
        + "deal {\n  keep: minus no\n}\n"
        + "decision minus {\n  at: end\n  rule choose: minus = yes\n}\n"
    )
    err = error_of(text)
    assert "decision 'minus' needs 'offer_if = CONDITION'" in err.message
    assert "write 'offer_if = yes'" in err.message
    assert_at(err, 5, 1)


def test_exchange_out_without_cards_out_says_how_to_deal_them():
    text = (
        'extends "euchre-farmers-hand"\ndeal {\n'
        "  pattern: 3 2 3 2 round, 2 3 2 3 round, 1 turnup, rest stock\n}\n"
    )
    err = error_of(text)
    assert "'exchange_out' needs cards dealt out of play" in err.message
    assert "write 'N out' or 'rest out' in the deal pattern" in err.message
    assert " a out " not in err.message


# ------------------------------------------------------------------------- traps
def test_the_moon_is_the_decks_points_in_a_house_rule():
    """hearts.rules scores the moon as `deck_points`: with the queen of spades at 10 the
    others are charged 23, not 26."""
    text = (
        HEARTS + "deck {\n  card_points = if card_suit(hearts) then 1 else if card_is(QS) "
        "then 10 else 0\n}\n"
    )
    variant = trickcore.variant_from_text(text, "house")
    scoring = variant.model.tricks.scoring
    assert variant.model.deck.total_points == 23
    assert "deck_points" in scoring.defender.text
    others = {"moon": True, "shot": False, "card_points": 0, "deck_points": 23}
    assert scoring.defender(others) == 23
    assert trickcore.load_variant("hearts").model.deck.total_points == 26


def test_a_changed_bid_step_changes_the_inherited_raise_step():
    """Tysiacha bids in fives (T6, T7) and raises in the bids' step (T12: `contract` names
    no step of its own): a house rule `bidding { step: 10 }` raises in tens too, unless it
    says otherwise with `contract { step: N }`."""
    tricks = trickcore.variant_from_text(TYSIACHA + "bidding { step: 10 }\n", "house").model.tricks
    assert tricks is not None and tricks.bidding is not None and tricks.contract is not None
    assert (tricks.bidding.step, tricks.contract.step) == (10, 10)
    shipped = trickcore.load_variant("tysiacha").model.tricks
    assert shipped is not None and shipped.contract is not None and shipped.contract.step == 5
    for raise_step in (10, 5):
        text = TYSIACHA + f"bidding {{ step: 10 }}\ncontract {{ step: {raise_step} }}\n"
        contract = trickcore.variant_from_text(text, "house").model.tricks.contract
        assert contract is not None and contract.step == raise_step
    # a parent that raises in its own steps keeps them (raises in tens on bids in tens)
    raising = trickcore.load_variant("russisch-schnapsen-raise-after-talon").model.tricks
    assert raising is not None and raising.contract is not None and raising.contract.step == 10


def test_show_says_the_first_bid_ends_a_ladder_auction():
    # a new user's Sheepshead: a ladder auction that the first bid ends ('ends: first_bid')
    # was described as ending "after 0 passes in a row"
    from trickcore.interfaces.summary import rules_summary

    text = TYSIACHA + "bidding {\n  ends: first_bid\n}\n"
    lines = [
        line
        for _, body in rules_summary(trickcore.variant_from_text(text, "house").model)
        for line in body
    ]
    assert any("The first bid ends the auction" in line for line in lines)
    assert not any("after 0 passes" in line for line in lines)


def test_a_replaced_deal_keep_list_is_named_at_every_inherited_line_it_breaks():
    """`keep:` instead of `keep +:` drops Sixty-six's deal keep names: the errors are in the
    shipped file, each names the house rule's line, and each place is reported once."""
    text = (
        'extends "sixty-six"\nname: "Hot streak"\ndeal {\n  keep: streak 0\n}\n'
        "after_trick {\n  rule streak: streak = if won_trick then streak + 1 else 0\n}\n"
    )
    errors = all_errors(text)
    places = [(e.location.file, e.location.line, e.location.column) for e in errors]
    assert len(places) == len(set(places)) == 2
    for e in errors:
        assert e.location.file.endswith("sixty-six.rules")
        assert e.message.endswith("(because of house:4:3)")
    assert "cannot assign 'closer'" in errors[0].message


def test_a_pattern_that_leaves_no_card_to_turn_up_counts_the_turn_up():
    """`26 each, 1 turnup, rest stock` on 52 cards for 2 players: the turn-up has no card
    (once no trump at all, silently); the count now includes it."""
    text = (
        'extends "sixty-six"\nname: "No card to turn"\ndeck {\n'
        "  suits: clubs C, diamonds D, hearts H, spades S\n"
        "  ranks: A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2\n"
        "  points: A 11, K 4, Q 3, J 2, 10 10, 9 0, 8 0, 7 0, 6 0, 5 0, 4 0, 3 0, 2 0\n}\n"
        "deal {\n  pattern: 26 each, 1 turnup, rest stock\n}\n"
    )
    err = error_of(text)
    assert "deals 53 cards (26 to each of 2 hands + 0 talon + 1 turned up)" in err.message
    assert "the deck has 52" in err.message


def test_a_deal_kept_value_without_its_initial_value_says_how_it_is_written():
    """`deal { keep: NAME INITIAL }` (read by `deal_keep` in blocks.deal): a name alone is
    refused where it stands, not passed on to fail later."""
    err = error_of('extends "hearts"\ndeal {\n  keep: shot\n}\n')
    assert "a deal's kept value is written: NAME INITIAL" in err.message
    assert err.location is not None and err.location.line == 3
