"""The compile context every block's compile step receives: the merged rules, what the blocks
compiled before it decided (the deck's symbols, the deal, the kept names, the flow), the
errors found so far, and the helpers that run one part and record its error."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TypeVar

from ..errors import Location, RulesError, RulesErrors, UnknownSettingError
from ..exprs import Symbols
from ..loader import MergedBlock, MergedRules
from ..model import Combination, DealRules, Deck
from ..settings import BlockSettings

T = TypeVar("T")


class Failed(Exception):
    """Compilation found errors (collected in order of discovery)."""

    def __init__(self, errors: list[RulesError]) -> None:
        super().__init__(str(errors[0]))
        self.errors = errors


class CompileContext:
    """What the blocks share while one rules file compiles.

    The attributes annotated below without a value are set by the compiler as the blocks
    they come from compile (a block compiled later reads them)."""

    the_deck: Deck
    symbols: Symbols
    suit_names: dict[str, int]  # each suit's name -> its number (`trump = EXPR`)
    strain_list: tuple[tuple[str, int], ...]  # the bidding's strains and their trump suits
    model_sides: tuple[tuple[int, ...], ...]  # the fixed partnerships (`sides:`)
    player_counts: tuple[int, ...]
    deck_size: int
    deal_rules: DealRules
    kept: dict[str, str]  # every kept name (match, deal) and choice option -> its type
    flow_kinds: tuple[str, ...]  # the deal's phases in order
    combinations: tuple[Combination, ...]  # the `combination NAME` blocks

    def __init__(self, rules: MergedRules, block_settings: Mapping[str, Collection[str]]) -> None:
        self.rules = rules
        self.root = rules.root
        # where an error about the file as a whole points: its first setting or block (not a
        # comment above it), else its first line
        own = [
            entry.loc
            for entry in self.root.entries.values()
            if entry.loc is not None and entry.loc.file == rules.path
        ]
        self.top_loc = (
            min(own, key=lambda loc: (loc.line, loc.column))
            if own
            else Location(rules.path, 1, 1, "")
        )
        self.block_settings = block_settings
        self.errors: list[RulesError] = []
        # `exchange_out N` effects and where they are written (checked against the deal)
        # `exchange_out`: the fewest cards it takes, its words, where it is written
        self.exchanges: list[tuple[int, str, Location | None]] = []

    def trick_names(self, names: Mapping[str, str]) -> dict[str, str]:
        """The names of a finished trick (`names`) as this file has them: the points of the
        combinations among its cards only with `combination` blocks."""
        out = dict(names)
        if not self.combinations:
            out.pop("trick_combination_points", None)
        return out

    def attempt(
        self,
        fn: Callable[[], T],
        default: T,
        blocks: tuple[str, ...] = (),
        settings: tuple[str, ...] = (),
    ) -> T:
        """Run one independent part of the compilation; record its error and go on.

        `blocks` are the blocks the part reads, `settings` the top-level settings it reads
        (`players`): an error in an inherited setting also names the line of another file
        that changed one of them (`because of ...`).
        """
        try:
            return fn()
        except RulesError as exc:
            self.errors.append(self.blamed(exc, blocks, settings))
            return default

    def need(
        self, fn: Callable[[], T], blocks: tuple[str, ...] = (), settings: tuple[str, ...] = ()
    ) -> T:
        """Run a part every later part depends on: on error, stop with all errors so far."""
        try:
            return fn()
        except RulesError as exc:
            self.errors.append(self.blamed(exc, blocks, settings))
            raise Failed(self.errors) from None

    def blamed(
        self, exc: RulesError, blocks: tuple[str, ...], settings: tuple[str, ...] = ()
    ) -> RulesError:
        """`exc`, naming the changes other files made to the settings of `blocks` and to the
        top-level `settings` (settings they replaced or removed, or, failing those, settings
        they added to `blocks`); an unknown setting is its own line's error alone."""
        if isinstance(exc, RulesErrors):
            return RulesErrors([self.blamed(e, blocks, settings) for e in exc.errors])
        if isinstance(exc, UnknownSettingError):
            return exc
        known = self.block_settings
        paths = [f"{b}.{name}" for b in blocks for name in sorted(known.get(b, ()))]
        paths += settings
        found = self.rules.because(exc, paths) if paths else exc
        if found is not exc or exc.location is None:
            return found
        # settings added by the files merged after the error's own (its children): the
        # error's file and its parents were fine without them
        order = {path: i for i, (path, _) in enumerate(self.rules.sources)}
        after = order.get(exc.location.file, len(order))
        added = sorted(
            {
                entry.loc
                for key in blocks
                if isinstance(block := self.root.entries.get(key), MergedBlock)
                for entry in block.entries.values()
                if entry.loc is not None and order.get(entry.loc.file, -1) > after
            },
            key=lambda loc: (loc.file, loc.line, loc.column),
        )
        if not added:
            return exc
        shown = ", ".join(str(loc) for loc in added)
        return RulesError(f"{exc.message} (because of {shown})", exc.location)

    def block(self, key: str, label: str | None = None) -> BlockSettings:
        """The settings of the top-level block `key` (an empty block when there is none)."""
        entry = self.root.entries.get(key)
        if entry is not None and not isinstance(entry, MergedBlock):
            raise RulesError(f"'{key}' is a block: write '{key} {{ ... }}'", entry.loc)
        return BlockSettings(entry, label or f"block '{key}'", self.top_loc)
