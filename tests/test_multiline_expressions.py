"""A long expression goes on on the next line after `then`, `else`, `and`, `or`, an
arithmetic or comparison operator or an opening parenthesis, and before a closing one
(docs/language.md, "Expressions"); anywhere else a line ends the setting, as before."""

from __future__ import annotations

import pytest

import trickcore
from trickcore.interfaces.summary import rules_summary
from trickcore.language.errors import RulesError

# Belote's card points (BL5), on one line as the shipped file writes them, and broken
ONE_LINE = (
    "if card_rank(A) then 11 else if card_rank(10) then 10 else if card_rank(K) then 4 else if"
    " card_rank(Q) then 3 else if card_rank(J) then (if card_in_trump_suit then 20 else 2) else"
    " if card_rank(9) and card_in_trump_suit then 14 else 0"
)
BROKEN = """if card_rank(A) then 11 else if card_rank(10) then 10   # the plain cards
    else if card_rank(K) then 4 else if card_rank(Q) then 3
    else if card_rank(J) then (
      if card_in_trump_suit then 20 else 2
    )
    else if card_rank(9) and
      card_in_trump_suit then
      14
    else 0"""


def belote_with(points: str) -> trickcore.Variant:
    return trickcore.variant_from_text(
        f'extends "belote"\ndeck {{\n  card_points = {points}\n}}\n', "house"
    )


def test_a_broken_expression_means_what_it_means_on_one_line() -> None:
    one, broken = belote_with(ONE_LINE), belote_with(BROKEN)
    assert one.model.point_tables() == broken.model.point_tables()
    assert dict(rules_summary(one.model))["Cards"] == dict(rules_summary(broken.model))["Cards"]
    assert one.model.deck.points_in(2) == trickcore.load_variant("belote").model.deck.points_in(2)


@pytest.mark.parametrize(
    "text",
    [
        "x = 1 +\n    2",
        "x = 1 *\n    2",
        "x = 3 - \n  2 >=\n  1",
        "x = (\n  2 + 1\n)",
        "x = yes and\n  no or\n  yes",
        "x = if yes then\n  1\nelse\n  2",
    ],
)
def test_where_a_line_may_break(text: str) -> None:
    variant = trickcore.variant_from_text(f'extends "tysiacha"\nscoring {{\n  {text}\n}}\n', "h")
    assert variant.title


def test_a_line_that_ends_an_expression_ends_the_setting() -> None:
    variant = trickcore.variant_from_text(
        'extends "tysiacha"\nscoring {\n  a = 1\n  b = a + 1\n}\n', "h"
    )
    lines = dict(rules_summary(variant.model))["Deal scoring"]
    assert "a = 1" in lines and "b = a + 1" in lines


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        # an operator at the end of the last line: the block's `}` is no expression
        ('extends "tysiacha"\nscoring {\n  x = 1 +\n}\n', "h:3:10", "breaks off after '+'"),
        (
            'extends "tysiacha"\nscoring {\n  x = (1 or  # a comment\n\n  y = 2\n}\n',
            "h:5:5",  # `y` could go on with it: the `=` after it is what cannot
            "unexpected '='",
        ),
        # a break before an operator: the line ended the setting
        ('extends "tysiacha"\nscoring {\n  x = 1\n    + 2\n}\n', "h:4:5", "unexpected '+'"),
        # `then` cannot begin a line
        ('extends "tysiacha"\nscoring {\n  x = if yes\n    then 1 else 2\n}\n', "h:3:", ""),
    ],
)
def test_a_wrong_break_is_reported_where_it_is(text: str, where: str, message: str) -> None:
    with pytest.raises(RulesError) as err:
        trickcore.variant_from_text(text, "h")
    assert where in str(err.value)
    assert message in str(err.value)
