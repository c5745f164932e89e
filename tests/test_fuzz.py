"""Rules files are untrusted input: the front end raises only the library's errors, and
stays within its limits on size, nesting, extends depth, deck size and players."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import trickcore
from trickcore.resources import variants_dir

SHIPPED = {p.name: p.read_text(encoding="utf-8") for p in sorted(variants_dir().glob("*.rules"))}
ALPHABET = st.sampled_from(
    list(' \n\t#{}[](),:=."-+*<>=!_abcdefghijklmnopqrstuvwxyzAKQJ0123456789')
)


def compile_or_rules_error(text: str) -> None:
    try:
        trickcore.variant_from_text(text, "fuzz")
    except trickcore.TrickcoreError:
        pass


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.text(ALPHABET, max_size=300))
def test_random_text_raises_only_library_errors(text):
    compile_or_rules_error(text)


@st.composite
def mutated_shipped(draw: st.DrawFn) -> str:
    text = SHIPPED[draw(st.sampled_from(sorted(SHIPPED)))]
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 12)))
        kind = draw(st.sampled_from(["delete", "insert", "replace", "duplicate"]))
        piece = draw(st.text(ALPHABET, max_size=8))
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + piece + text[i:]
        elif kind == "replace":
            text = text[:i] + piece + text[j:]
        else:
            text = text[:j] + text[i:j] + text[j:]
    return text


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(mutated_shipped())
def test_mutated_shipped_files_raise_only_library_errors(text):
    compile_or_rules_error(text)


def test_file_size_limit():
    with pytest.raises(trickcore.RulesError, match="larger than"):
        trickcore.variant_from_text("# x\n" * 100_000)


def test_nesting_limit():
    text = 'extends "tysiacha"\nscoring {\n  defender = ' + "(" * 80 + "1" + ")" * 80 + "\n}\n"
    with pytest.raises(trickcore.RulesError, match="nest"):
        trickcore.variant_from_text(text)
    deep = 'extends "tysiacha"\nscoring {\n  defender = ' + "- " * 300 + "1\n}\n"
    with pytest.raises(trickcore.RulesError, match="nests more than"):
        trickcore.variant_from_text(deep)
    chain = 'extends "tysiacha"\nscoring {\n  defender = 1' + " + 1" * 5000 + "\n}\n"
    with pytest.raises(trickcore.RulesError, match="nest"):
        trickcore.variant_from_text(chain)


def test_extends_depth_limit(tmp_path: Path):
    (tmp_path / "v0.rules").write_text('extends "tysiacha"\n')
    for i in range(1, 20):
        (tmp_path / f"v{i}.rules").write_text(f'extends "v{i - 1}"\n')
    with pytest.raises(trickcore.RulesError, match="deeper than 16"):
        trickcore.load_variant(tmp_path / "v19.rules")


def test_deck_size_limit():
    suits = ", ".join(f"s{i} X{i}" for i in range(30))
    text = f'extends "tysiacha"\ndeck {{\n  suits: {suits}\n}}\n'
    with pytest.raises(trickcore.RulesError, match="at most 128 cards"):
        trickcore.variant_from_text(text)


def test_player_count_limit():
    with pytest.raises(trickcore.RulesError, match="at most 8 players"):
        trickcore.variant_from_text('extends "tysiacha"\nplayers: 9\n')


def test_number_and_repeat_limits():
    with pytest.raises(trickcore.RulesError, match="at most 9 digits"):
        trickcore.variant_from_text('extends "tysiacha"\nbidding {\n  cap = 1234567890\n}\n')
    with pytest.raises(trickcore.RulesError, match="at most 128 cards"):
        trickcore.variant_from_text(
            'extends "tysiacha"\ndeal {\n  pattern: 1 each 999999 times\n}\n'
        )
    with pytest.raises(trickcore.RulesError, match="more than 1000 different bids"):
        trickcore.variant_from_text('extends "tysiacha"\nbidding {\n  cap = 999999\n}\n')


def test_no_python_is_ever_run_from_a_rules_file():
    text = 'extends "tysiacha"\nscoring {\n  defender = __import__("os")\n}\n'
    with pytest.raises(trickcore.RulesError):
        trickcore.variant_from_text(text)
