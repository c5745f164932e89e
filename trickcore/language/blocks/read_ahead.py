"""What blocks read of other blocks before those compile: the choices' options, the
match's kept names, a declaring choice, and the names of a player's role."""

from __future__ import annotations

from .. import syntax as s
from ..exprs import BOOL, BOOL_WORDS, INT, Scope
from ..loader import MergedBlock
from ..vocabulary import QUANTITIES, ROLE_NAMES
from .context import CompileContext
from .words import is_name


def choice_options(root: MergedBlock) -> list[str]:
    """The options of every `choice` block, read early: each is a yes/no name every
    expression of the deal may read (checked with the block)."""
    out: list[str] = []
    for entry in root.entries.values():
        if isinstance(entry, MergedBlock) and entry.kind == "choice":
            options = entry.entries.get("options")
            if isinstance(options, s.ListSetting):
                out.extend(it.parts[0] for it in options.items if is_name(it.parts[0]))
    return list(dict.fromkeys(out))  # an option may be offered by several choices


def relation_scope(ctx: CompileContext, names: dict[str, str], where: str) -> Scope:
    """The scope of an expression worked out per card, trump, call and options chosen
    (`play.power`, `play.trump_power`, `deck.card_points`): `names`, each `choice` option as
    a yes/no name, the card in question and the call's qualifier (`bid_is`, `strain_is`)."""
    return Scope(
        {**names, **dict.fromkeys(choice_options(ctx.root), BOOL)},
        ctx.symbols,
        card=True,
        qualifier=True,
        where=where,
    )


def declaring_choice(root: MergedBlock) -> bool:
    """Some choice makes its chooser the declarer (`declares: yes`): a declarer without
    an auction."""
    for entry in root.entries.values():
        if isinstance(entry, MergedBlock) and entry.kind == "choice":
            raw = entry.entries.get("declares")
            if isinstance(raw, s.ListSetting) and [it.parts for it in raw.items] in (
                [("yes",)],
                [("true",)],
            ):
                return True
    return False


def kept_types(ctx: CompileContext) -> dict[str, str]:
    """The kept names and their types, read early: deal-time expressions may read the
    player's kept values (the `keep` setting itself is checked with the match block)."""
    entry = ctx.block("match").raw("keep")
    kept: dict[str, str] = {}
    for it in entry.items if isinstance(entry, s.ListSetting) else ():
        parts = it.parts
        if len(parts) == 2 and is_name(parts[0]) and parts[0] not in QUANTITIES:
            kept[parts[0]] = BOOL if parts[1] in BOOL_WORDS else INT
    return kept


def role_scope(ctx: CompileContext, where: str) -> Scope:
    """The names a player's role in the deal reads (`sit_out_if`, `pickup.take_if`)."""
    options = choice_options(ctx.root)
    return Scope(
        {**ROLE_NAMES, **ctx.kept, **dict.fromkeys(options, BOOL)},
        ctx.symbols,
        qualifier=True,
        aggregates=True,
        where=f"in {where}",
    )
