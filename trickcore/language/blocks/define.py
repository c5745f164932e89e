"""`define { NAME = EXPR }`: the defines' names checked, and their texts for `show`."""

from __future__ import annotations

from ..defines import DEFINE_BLOCK, defines_shown
from ..errors import RulesError
from ..exprs import ALL_FUNCS, BOOL_WORDS
from ..loader import MergedBlock
from ..vocabulary import QUANTITIES
from .context import CompileContext


def check_defines(ctx: CompileContext, def_types: dict[str, str]) -> None:
    """`define { NAME = EXPR }`: the loader wrote each define into the expressions that
    name it; a define's name may not be a name, card, rank, suit or word of the rules
    already (it would stand for two things)."""
    block = ctx.root.entries.get(DEFINE_BLOCK)
    if not isinstance(block, MergedBlock):
        return
    if block.name is not None:
        raise RulesError("the define block has no name: 'define { NAME = EXPR }'", block.loc)
    taken = {
        **dict.fromkeys(QUANTITIES, "a name of the rules"),
        **dict.fromkeys(BOOL_WORDS, "a word of the rules"),
        **dict.fromkeys(ALL_FUNCS, "a function"),
        **dict.fromkeys(ctx.kept, "a kept value or option"),
        **dict.fromkeys(def_types, "a scoring definition"),
        **dict.fromkeys(ctx.symbols.ranks, "a rank"),
        **dict.fromkeys(ctx.symbols.suits, "a suit"),
        **dict.fromkeys(ctx.symbols.cards, "a card"),
        **dict.fromkeys(ctx.symbols.qualifiers, "a bid qualifier"),
        **dict.fromkeys(ctx.symbols.strains, "a strain"),
    }
    for key, entry in block.entries.items():
        if key in taken:
            raise RulesError(
                f"'{key}' is {taken[key]} already: a define needs a name of its own",
                entry.loc,
            )


def shown_defines(root: MergedBlock) -> tuple[tuple[str, str, str], ...]:
    """The defines, as written and as written into other expressions (for `show`)."""
    block = root.entries.get(DEFINE_BLOCK)
    return defines_shown(block.entries) if isinstance(block, MergedBlock) else ()
