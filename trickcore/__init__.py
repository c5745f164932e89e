"""trickcore: card games written as rules files, compiled into a fast generic engine.

>>> import trickcore
>>> v = trickcore.load_variant("tysiacha")
>>> m = v.new_match(seed=7)
>>> m.apply(m.legal_actions()[0])
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .actions import Action
from .bouts import BoutDeal
from .compiler import compile_rules
from .deal import Deal
from .errors import (
    IllegalActionError,
    Location,
    RulesError,
    SavedGameError,
    StuckError,
    TrickcoreError,
)
from .game import Game
from .loader import load_rules, load_rules_text
from .match import Match
from .model import VariantModel
from .observation import BoutObservation, Observation
from .resources import shipped_variants
from .saving import load_match, match_from_json, save_match

Variant = Game

__all__ = [
    "Action",
    "BoutDeal",
    "BoutObservation",
    "Deal",
    "IllegalActionError",
    "Location",
    "Match",
    "Observation",
    "RulesError",
    "SavedGameError",
    "StuckError",
    "TrickcoreError",
    "Variant",
    "VariantModel",
    "list_variants",
    "load_match",
    "load_variant",
    "match_from_json",
    "save_match",
    "variant_from_text",
]

__version__ = "0.1.0"


def load_variant(name_or_path: str | Path, search_path: Sequence[str | Path] = ()) -> Variant:
    """Load and compile a variant: a bare name is a shipped variant (`"tysiacha"`), a path
    (`"./house.rules"`, a `Path`) is a rules file; its `extends` paths resolve inside its own
    folder or the folders of `search_path`."""
    return Game(compile_rules(load_rules(name_or_path, search_path)))


def variant_from_text(
    text: str,
    name: str = "<rules>",
    base_dir: str | Path | None = None,
    search_path: Sequence[str | Path] = (),
) -> Variant:
    """Compile rules given as text; `extends` names shipped variants, or paths inside
    base_dir (or search_path)."""
    base = Path(base_dir) if base_dir is not None else None
    return Game(compile_rules(load_rules_text(text, name, base, search_path)))


def list_variants() -> list[str]:
    """Names of the shipped variants."""
    return shipped_variants()
