"""trickcore: card games written as rules files, compiled into a fast generic engine.

>>> import trickcore
>>> v = trickcore.load_variant(trickcore.list_variants()[0])
>>> m = v.new_match(seed=7)
>>> m.apply(m.legal_actions()[0])
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .engine import deal as _deal_module
from .engine.actions import Action
from .engine.bouts import BoutDeal
from .engine.deal import Deal
from .engine.game import Game
from .engine.match import Match, save_match
from .engine.observation import BoutObservation, Observation
from .engine.replay import load_match, match_from_json
from .language.compiler import compile_rules
from .language.errors import (
    ConcurrentUseError,
    IllegalActionError,
    Location,
    RulesError,
    SavedGameError,
    StuckError,
    TrickcoreError,
)
from .language.loader import load_rules, load_rules_text
from .language.model import VariantModel
from .language.resources import shipped_variants

Variant = Game

__all__ = [
    "Action",
    "BoutDeal",
    "BoutObservation",
    "ConcurrentUseError",
    "Deal",
    "ENGINE",
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

# "native" when the engine's modules were compiled (a wheel built with TRICKCORE_NATIVE=1,
# see docs/howto/benchmarks.md, "A native build"), "python" for the pure-Python engine; both
# behave the same
ENGINE = "python" if (_deal_module.__file__ or "").endswith(".py") else "native"


def load_variant(name_or_path: str | Path, search_path: Sequence[str | Path] = ()) -> Variant:
    """Load and compile a variant: a bare name is a shipped variant (see `list_variants()`), a path
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
