"""Melds, decisions and choices as the checker reads them from the rules text."""

from __future__ import annotations

import attrs

from ...language import syntax as s
from ...language.loader import MergedBlock
from .errors import ReferenceError
from .expressions import Evaluator
from .names_read import NamesRead
from .rules_text import expr_of, flag_of, items_of, word_of


@attrs.frozen
class Combo:
    """A combination as the checker reads it (BL27, BL28): kind, size, order and sets of
    faces are plain settings of the model; value and strength are trees from the file."""

    kind: str  # "run" | "same_rank" | "cards"
    size: int
    order: tuple[int, ...]
    sets: tuple[tuple[int, ...], ...]
    value: s.Expr
    strength: s.Expr | None


@attrs.frozen
class MeldRule:
    """A meld as the checker reads it: plain settings from the model, conditions as trees."""

    name: str
    ranks: tuple[int, ...]  # ranks of one suit (one meld in each suit) ...
    cards: tuple[int, ...]  # ... or a fixed set of cards (suit -1, one value)
    values: tuple[int, ...]
    trump_value: int | None
    sets_trump: bool
    announce: bool
    declare_if: s.Expr | None
    counts_if: s.Expr | None

    def value_in(self, suit: int, trump: int) -> int:
        """Its value in `suit` (-1 for fixed cards) while `trump` is trump: `trump_value`
        when its suit is trump as it is declared."""
        if self.trump_value is not None and suit >= 0 and suit == trump:
            return self.trump_value
        return self.values[max(suit, 0)]


@attrs.frozen
class DecisionRule:
    """A `decision` or `choice` block, read from its syntax tree."""

    name: str
    at: tuple[str, ...]  # "lead", "play", or one of "before PHASE", "end"
    who: str  # "each" | "declarer" | "defenders" (between phases)
    first_asked: str  # "forehand" | "left_of_declarer" (between phases)
    offer_if: s.Expr | None  # None: always (a choice)
    after_announce: bool
    public: bool  # its rules set every player's deal values (an announcement all may read)
    steps: tuple[s.Step, ...]
    effect: tuple[str, ...]  # () or the words of `effect:`
    options: tuple[str, ...]  # a choice's options (empty for a decision)
    option_ifs: tuple[s.Expr | None, ...]
    option_trumps: tuple[int, ...]  # a suit, -1: the trump as it is, NO_TRUMP: none
    own: bool = False  # a choice whose options are the chooser's own values
    declares: bool = False  # a choice whose chooser becomes the declarer
    forced_if: s.Expr | None = None  # between phases: when it holds, no `keep`
    again: bool = False  # between phases: taken, its point's round is asked once more
    # what its expressions (offer_if, the options' conditions, its rules) read
    reads: NamesRead = attrs.field(factory=lambda: NamesRead(()), eq=False, repr=False)


NO_TRUMP = -2  # `trump: OPTION none`: the option leaves the deal without a trump suit


def read_decisions(root: MergedBlock, ev: Evaluator) -> list[DecisionRule]:
    """Every `decision` and `choice` block, in the order of the file."""
    out = []
    for entry in root.entries.values():
        if not isinstance(entry, MergedBlock) or entry.kind not in ("decision", "choice"):
            continue
        options = tuple(parts[0] for parts in items_of(entry, "options"))
        trumps = {
            parts[0]: NO_TRUMP if parts[1] == "none" else ev.suits[parts[1]]
            for parts in items_of(entry, "trump")
        }
        who = word_of(entry, "who", "each")
        first_asked = word_of(entry, "first_asked", "forehand")
        if who not in ("each", "declarer", "defenders") or first_asked not in (
            "forehand",
            "left_of_declarer",
        ):
            raise ReferenceError(f"'who: {who}' / 'first_asked: {first_asked}' not restated")
        offer_if = expr_of(entry.entries.get("offer_if"))
        option_ifs = tuple(expr_of(entry.entries.get(f"{o}_if")) for o in options)
        steps = tuple(e for e in entry.entries.values() if isinstance(e, s.Step))
        forced_if = expr_of(entry.entries.get("forced_if"))
        exprs = [offer_if, forced_if, *option_ifs]
        for step in steps:
            exprs += [step.condition, *(a.expr for a in step.assigns)]
        out.append(
            DecisionRule(
                name=entry.name or "",
                at=tuple(" ".join(parts) for parts in items_of(entry, "at")),
                who=who,
                first_asked=first_asked,
                offer_if=offer_if,
                after_announce=flag_of(entry, "after_announce", False),
                public=flag_of(entry, "public", False),
                steps=steps,
                effect=(items_of(entry, "effect") or [()])[0],
                options=options,
                option_ifs=option_ifs,
                option_trumps=tuple(trumps.get(o, -1) for o in options),
                own=flag_of(entry, "own", False),
                declares=flag_of(entry, "declares", False),
                forced_if=forced_if,
                again=flag_of(entry, "again", False),
                reads=NamesRead(e for e in exprs if e is not None),
            )
        )
    return out
