"""`combination NAME { ... }`: runs and sets of one rank a hand may hold."""

from __future__ import annotations

import itertools

from ..errors import RulesError
from ..exprs import CARD_KEY, INT, Scope
from ..limits import MAX_VALUE
from ..loader import MergedBlock
from ..model import Combination, Deck
from ..settings import BlockSettings
from ..vocabulary import COMBINATION_NAMES, STRENGTH_NAMES
from .context import CompileContext

COMBINATION_SETTINGS = frozenset({"run", "same_rank", "order", "value", "strength"})


def compile_combinations(ctx: CompileContext, deck: Deck) -> tuple[Combination, ...]:
    """The `combination NAME` blocks: a run of N or more cards of one suit in an order,
    or N or more cards of one rank, each with its value and strength, checked on every
    combination a hand can hold, with every trump."""
    rank_index = {r.symbol: i for i, r in enumerate(deck.ranks)}
    scope = Scope(COMBINATION_NAMES, ctx.symbols, card=True, where="in a combination")
    strength_scope = Scope(
        STRENGTH_NAMES, ctx.symbols, card=True, where="in a combination's strength"
    )
    out = []
    for entry in ctx.root.entries.values():
        if not isinstance(entry, MergedBlock) or entry.kind != "combination":
            continue
        b = BlockSettings(entry, f"combination '{entry.name}'", ctx.top_loc)
        b.check_known(COMBINATION_SETTINGS)
        kinds = [k for k in ("run", "same_rank") if b.raw(k) is not None]
        if len(kinds) != 1:
            raise RulesError(
                "a combination is either 'run: N' (N or more cards of one suit in a row) or "
                "'same_rank: N' (N or more cards of one rank)",
                (b.raw(kinds[1]) if len(kinds) > 1 else b).loc,
            )
        kind = kinds[0]
        order_items = b.items("order")
        order: list[int] = []
        for it in order_items or ():
            sym = it.parts[0]
            if sym not in rank_index or it.words:
                raise RulesError(f"unknown rank '{sym}'; ranks: {', '.join(rank_index)}", it.loc)
            if rank_index[sym] in order:
                raise RulesError(f"rank '{sym}' is named twice in the order", it.loc)
            order.append(rank_index[sym])
        if order_items is None:
            order = list(range(len(deck.ranks)))
        most = len(order) if kind == "run" else len(deck.suits)
        size = b.integer(kind, None, minimum=2)
        assert size is not None
        if size > most:
            raise RulesError(
                f"{kind}: {size} needs more cards than there are "
                f"({most} {'ranks in the order' if kind == 'run' else 'suits'})",
                b.raw(kind).loc,
            )
        value = b.expr("value", scope, INT)
        strength = b.expr("strength", strength_scope, INT, None) if b.raw("strength") else None
        n = len(deck.ranks)
        # every combination a hand can hold (its length, top place and suit), every trump
        shapes = [
            (length, top)
            for length in range(size, most + 1)
            for top in range(len(order) - length + 1 if kind == "run" else len(order))
        ]
        for trump, (length, top), suit in itertools.product(
            range(-1, len(deck.suits)), shapes, range(len(deck.suits))
        ):
            env = {
                CARD_KEY: suit * n + order[top],
                "length": length,
                "top": top,
                "card_in_trump_suit": kind == "run" and suit == trump,
                "trump_set": trump >= 0,
            }
            worth = value(env)
            if not -MAX_VALUE <= worth <= MAX_VALUE:
                raise RulesError(f"value gives a number outside ±{MAX_VALUE:,}", b.raw("value").loc)
            strong = strength({**env, "value": worth}) if strength is not None and worth > 0 else 1
            if not 1 <= strong <= MAX_VALUE:
                raise RulesError(
                    f"strength must be from 1 to {MAX_VALUE:,} for a combination worth "
                    f"something, not {strong}",
                    b.raw("strength").loc,
                )
        out.append(Combination(entry.name or "", kind, size, tuple(order), value, strength))
    return tuple(out)
