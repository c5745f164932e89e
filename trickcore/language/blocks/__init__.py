"""The block kinds of the rules language: one module per kind (or per small family of kinds
with one job), each declaring the settings its block knows and its compile step, named in
one table, `BLOCKS`. Adding a block is adding its module and a row here (and calling its
compile step where it belongs in `compiler.py`'s order)."""

from __future__ import annotations

from collections.abc import Collection
from types import ModuleType

from .. import syntax as s
from ..errors import RulesError, UnknownSettingError
from ..hints import did_you_mean
from ..loader import Entry, MergedBlock
from . import (
    after_card,
    after_trick,
    bidding,
    bids,
    bouts,
    combinations,
    contract,
    deal,
    decisions,
    deck,
    define,
    draw_up,
    match,
    melds,
    passing,
    pickup,
    play,
    redeal,
    scoring,
    talon,
    variant,
)


class BlockKind:
    """One kind of top-level block: its module, the settings it knows (None: it holds
    entries of its own naming, rules or definitions, checked by its compile step), and
    whether each block of the kind needs a name (`meld NAME { ... }`)."""

    __slots__ = ("module", "settings", "named")

    def __init__(
        self, module: ModuleType, settings: frozenset[str] | None = None, named: bool = False
    ) -> None:
        self.module = module
        self.settings = settings
        self.named = named


BLOCKS: dict[str, BlockKind] = {
    "define": BlockKind(define),
    "bouts": BlockKind(bouts, bouts.BOUTS_SETTINGS),
    "decision": BlockKind(decisions, decisions.DECISION_SETTINGS, named=True),
    "choice": BlockKind(decisions, named=True),
    "pass_cards": BlockKind(passing, passing.PASS_CARDS_SETTINGS),
    "bids": BlockKind(bids, bids.BIDS_SETTINGS),
    "deck": BlockKind(deck, deck.DECK_SETTINGS),
    "meld": BlockKind(melds, melds.MELD_SETTINGS, named=True),
    "deal": BlockKind(deal, deal.DEAL_SETTINGS),
    "redeal": BlockKind(redeal, redeal.REDEAL_SETTINGS),
    "bidding": BlockKind(bidding, bidding.BIDDING_SETTINGS),
    "talon": BlockKind(talon, talon.TALON_SETTINGS),
    "pickup": BlockKind(pickup, pickup.PICKUP_SETTINGS),
    "draw_up": BlockKind(draw_up, draw_up.DRAW_UP_SETTINGS),
    "combination": BlockKind(combinations, combinations.COMBINATION_SETTINGS, named=True),
    "contract": BlockKind(contract, contract.CONTRACT_SETTINGS),
    "play": BlockKind(play, play.PLAY_SETTINGS),
    "scoring": BlockKind(scoring),
    "match": BlockKind(match, match.MATCH_SETTINGS),
    "after_deal": BlockKind(match),
    "after_trick": BlockKind(after_trick),
    "after_card": BlockKind(after_card),
}

TOP_BLOCKS = frozenset(BLOCKS)
# the settings of each block kind that has a fixed list, and those of the variant itself
BLOCK_SETTINGS: dict[str, Collection[str]] = {
    "variant": variant.VARIANT_SETTINGS,
    **{kind: row.settings for kind, row in BLOCKS.items() if row.settings is not None},
}

# a block's setting written at the top of a file: the block it belongs in (first of its kinds)
BLOCK_OF_SETTING: dict[str, str] = {}
for _kind, _names in BLOCK_SETTINGS.items():
    for _name in _names:
        BLOCK_OF_SETTING.setdefault(_name, _kind)


def check_top_entry(key: str, entry: Entry) -> None:
    """A top-level entry must be a known block (named, for the kinds that need a name) or
    a setting of the variant."""
    if isinstance(entry, MergedBlock):
        row = BLOCKS.get(entry.kind)
        if row is None:
            raise UnknownSettingError(
                f"unknown block '{entry.kind}'{did_you_mean(entry.kind, TOP_BLOCKS)}; "
                f"blocks: {', '.join(sorted(TOP_BLOCKS))}",
                entry.loc,
            )
        if row.named and entry.name is None:
            raise RulesError(
                f"a {entry.kind} block needs a name: '{entry.kind} NAME {{ ... }}'", entry.loc
            )
    elif isinstance(entry, s.Step):
        raise RulesError(
            f"rule '{key}' is outside a block: a rule goes in an after_deal block (run after "
            f"each deal), after_trick, after_card or a decision: write 'after_deal {{ rule "
            f"{key}: ... }}'",
            entry.loc,
        )
    elif key not in variant.VARIANT_SETTINGS:
        known = ", ".join(sorted(variant.VARIANT_SETTINGS))
        hint = did_you_mean(key, variant.VARIANT_SETTINGS)
        if not hint and key in BLOCK_OF_SETTING:
            hint = f" (it is a setting of the '{BLOCK_OF_SETTING[key]}' block)"
        raise UnknownSettingError(
            f"unknown top-level setting '{key}'{hint}; settings: {known}", entry.loc
        )
