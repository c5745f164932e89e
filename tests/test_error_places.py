"""Errors a rules file causes name the place in it (issue 27, item 12): errors found as the
rules are worked out in play, the `extends` limits, a long line's advice that the grammar
follows, and every independent `remove` error at once."""

from __future__ import annotations

from pathlib import Path

import pytest

import trickcore
from trickcore.interfaces.cli import main


def played_error(text: str) -> trickcore.RulesError:
    """The error a house rule gives as its first match is played (first legal actions)."""
    variant = trickcore.variant_from_text(text, "house")
    with pytest.raises(trickcore.RulesError) as info:
        match = variant.new_match(seed=1)
        for _ in range(5000):
            if match.is_over:
                break
            match.apply(match.legal_actions()[0])
    return info.value


@pytest.mark.parametrize("func", ["div", "mod"])
def test_a_divisor_of_zero_in_play_names_the_call(func):
    """`div(30, 0)` is found only as deal 1 is dealt (deal_number - 1 is 0): the error is
    at the call in the rules file, with its line shown."""
    err = played_error(
        f'extends "oh-hell"\ndeal {{\n  size = 1 + {func}(30, deal_number - 1)\n}}\n'
    )
    assert err.message == f"{func}(30, 0): the divisor must be above 0"
    assert err.location is not None
    assert (err.location.file, err.location.line, err.location.column) == ("house", 3, 14)
    assert f"size = 1 + {func}(30, deal_number - 1)" in str(err) and "^" in str(err)


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (
            'extends "hearts"\nscoring {\n  big = 999999999 * 999999999 + card_points\n}\n',
            "scoring definition 'big'",
        ),
        ('extends "spades"\nbids {\n  max = hand_size * 999999999 * 9\n}\n', "bids.max"),
        (
            'extends "hearts"\npass_cards {\n  to = deal_number * 999999999 * 99\n}\n',
            "pass_cards.to",
        ),
    ],
)
def test_a_number_out_of_range_in_play_names_the_rule(text, what):
    """A rule that works out a number beyond the range of play stops the match at the
    rule that gave it."""
    err = played_error(text)
    assert err.message.startswith(f"{what} gives "), err.message
    assert err.location is not None and (err.location.file, err.location.line) == ("house", 3)


def test_an_extends_chain_too_deep_is_refused_at_the_extends_that_goes_too_deep(tmp_path):
    """Files 16 deep are allowed: the 16th file's `extends` (of a 17th) is the error."""
    (tmp_path / "v0.rules").write_text('extends "tysiacha"\n')
    for i in range(1, 20):
        (tmp_path / f"v{i}.rules").write_text(f'# level {i}\nextends "./v{i - 1}.rules"\n')
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.load_variant(tmp_path / "v19.rules")
    err = info.value
    assert "deeper than 16 files" in err.message
    assert err.location is not None
    assert (Path(err.location.file), err.location.line) == (tmp_path / "v4.rules", 2)
    assert err.location.source_line == 'extends "./v3.rules"'
    assert trickcore.load_variant(tmp_path / "v14.rules")  # 16 files: tysiacha, v0 ... v14


def test_the_long_line_advice_works_for_an_extends_line(tmp_path):
    """A line of more than 2,000 characters is refused with the advice to break it after
    a comma; an `extends` line broken so (a comment too) is read as the same line."""
    parents = ['"hearts"'] * 220 + ['"hearts-moon-choice"']
    path = tmp_path / "house.rules"
    path.write_text("extends " + ", ".join(parents) + "\n")
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.load_variant(path)
    assert "may break after any comma (of `extends`" in info.value.message
    path.write_text("extends " + ",\n  ".join(parents[:-1]) + ",  # the last:\n  " + parents[-1])
    variant = trickcore.load_variant(path)
    assert variant.title == "Hearts, the shooter chooses"
    assert len(variant.model.sources) == 3


def test_a_rule_and_a_call_may_go_on_after_a_comma():
    """The rule's assignments and a call's arguments break after a comma too."""
    text = (
        'extends "hearts"\nscoring {\n  player = max(card_points,\n    0)\n}\n'
        "after_deal {\n  rule add: score = score + gain,\n    score = score\n}\n"
    )
    variant = trickcore.variant_from_text(text, "house")
    assert variant.model.tricks.scoring.defender.text == "max(card_points, 0)"
    (add,) = variant.model.match.after_deal
    assert [a.name for a in add.assigns] == ["score", "score"]


def test_every_remove_that_removes_nothing_is_reported(tmp_path, capsys):
    """Independent `remove` errors are reported together (and with them an error the merge
    finds later), each at its line: by `trickcore check`, and in the one RulesError the
    loader raises (`errors` lists them)."""
    path = tmp_path / "house.rules"
    path.write_text(
        'extends "hearts"\nremove scoring.nope\nremove match.nothing\nremove foo\n'
        "match {\n  keep -: nobody\n}\n"
    )
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.load_variant(path)
    errors = info.value.errors
    assert [e.location.line for e in errors] == [2, 3, 4, 6]
    assert "cannot remove 'scoring.nope'" in errors[0].message
    assert "cannot remove 'foo'" in errors[2].message
    assert all(str(e) in str(info.value) for e in errors)

    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.count("error: ") == 4
    assert all(f"house.rules:{line}:" in out for line in (2, 3, 4, 6))


def test_a_nul_byte_is_refused_where_it_is():
    """A NUL byte (not a text file) is refused at its line and column."""
    with pytest.raises(trickcore.RulesError) as info:
        trickcore.variant_from_text('extends "hearts"\nname: "a\x00b"\n', "house")
    assert "NUL byte" in info.value.message
    loc = info.value.location
    assert loc is not None and (loc.file, loc.line, loc.column) == ("house", 2, 9)
