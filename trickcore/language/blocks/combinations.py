"""`combination NAME { ... }`: runs, ranks held in several suits and given cards a hand
may hold."""

from __future__ import annotations

import itertools

from ..errors import RulesError
from ..exprs import CARD_KEY, INT, CompiledExpr, Scope
from ..limits import MAX_VALUE
from ..loader import MergedBlock
from ..model import Combination, Deck
from ..settings import BlockSettings
from ..vocabulary import COMBINATION_NAMES, STRENGTH_NAMES
from .context import CompileContext

COMBINATION_SETTINGS = frozenset({"run", "same_rank", "cards", "order", "value", "strength"})
KINDS = ("run", "same_rank", "cards")


def compile_combinations(ctx: CompileContext, deck: Deck) -> tuple[Combination, ...]:
    """The `combination NAME` blocks: a run of N or more cards of one suit in an order, N or
    more suits of one rank, or given cards (ranks of one suit, or cards), each with its
    value and strength, checked on every combination a hand can hold, with every trump and
    as often as the deck's copies allow."""
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
        kinds = [k for k in KINDS if b.raw(k) is not None]
        if len(kinds) != 1:
            raise RulesError(
                "a combination is either 'run: N' (N or more cards of one suit in a row), "
                "'same_rank: N' (N or more suits of one rank) or 'cards: ...' (ranks of one "
                "suit, like 'cards: K, Q', or given cards, like 'cards: QS, JD')",
                (b.raw(kinds[1]) if len(kinds) > 1 else b).loc,
            )
        kind = kinds[0]
        value = b.expr("value", scope, INT)
        strength = b.expr("strength", strength_scope, INT, None) if b.raw("strength") else None
        if kind == "cards":
            if b.raw("order") is not None:
                raise RulesError(
                    "'order' belongs to a run or same_rank combination; 'cards' names its "
                    "cards: remove 'order'",
                    b.raw("order").loc,
                )
            order: list[int] = []
            sets = _card_sets(ctx, b, deck)
            size = len(sets[0])
            shapes = [(size, 0, faces) for faces in sets]
        else:
            order = _order(b, deck)
            most = len(order) if kind == "run" else len(deck.suits)
            written = b.integer(kind, None, minimum=2)
            assert written is not None
            size = written
            if size > most:
                raise RulesError(
                    f"{kind}: {size} needs more cards than there are "
                    f"({most} {'ranks in the order' if kind == 'run' else 'suits'})",
                    b.raw(kind).loc,
                )
            n = len(deck.ranks)
            # every combination a hand can hold: its length, top place and first face
            shapes = [
                (length, top, (suit * n + order[top],))
                for length in range(size, most + 1)
                for top in range(len(order) - length + 1 if kind == "run" else len(order))
                for suit in range(len(deck.suits))
            ]
        _check_values(b, deck, kind, shapes, value, strength)
        out.append(
            Combination(
                entry.name or "",
                kind,
                size,
                tuple(order),
                value,
                strength,
                tuple(tuple(faces) for faces in sets) if kind == "cards" else (),
            )
        )
    return tuple(out)


def _order(b: BlockSettings, deck: Deck) -> list[int]:
    """`order: RANK, ...` (default the deck's ranks, high to low) as rank indices."""
    rank_index = {r.symbol: i for i, r in enumerate(deck.ranks)}
    order_items = b.items("order")
    if order_items is None:
        return list(range(len(deck.ranks)))
    order: list[int] = []
    for it in order_items:
        sym = it.parts[0]
        if sym not in rank_index or it.words:
            raise RulesError(f"unknown rank '{sym}'; ranks: {', '.join(rank_index)}", it.loc)
        if rank_index[sym] in order:
            raise RulesError(f"rank '{sym}' is named twice in the order", it.loc)
        order.append(rank_index[sym])
    return order


def _card_sets(ctx: CompileContext, b: BlockSettings, deck: Deck) -> list[tuple[int, ...]]:
    """`cards: K, Q` (those ranks of one suit: a set in each suit the deck holds them in)
    or `cards: QS, JD` (one set of given cards), as faces."""
    rank_index = {r.symbol: i for i, r in enumerate(deck.ranks)}
    items = b.items("cards", required=True) or ()
    texts = ["".join(it.parts) for it in items]
    n = len(deck.ranks)
    held = {f for f, cards in enumerate(deck.cards_of_face) if cards}
    if all(it.parts[0] in rank_index and not it.words for it in items):
        ranks = [rank_index[it.parts[0]] for it in items]
        for it, r in zip(items, ranks, strict=True):
            if ranks.count(r) > 1:
                raise RulesError(f"rank '{it.parts[0]}' is named twice in the combination", it.loc)
        sets = [
            tuple(suit * n + r for r in ranks)
            for suit in range(len(deck.suits))
            if all(suit * n + r in held for r in ranks)
        ]
        if not sets:
            raise RulesError("the deck holds these ranks together in no suit", items[0].loc)
        return sets
    faces: list[int] = []
    for it, text in zip(items, texts, strict=True):
        if text not in ctx.symbols.cards:
            raise RulesError(
                f"'{text}' is no card of this deck (a combination lists ranks of one suit, "
                "like 'cards: K, Q', or cards, like 'cards: QS, JD')",
                it.loc,
            )
        if ctx.symbols.cards[text] in faces:
            raise RulesError(f"'{text}' is named twice in the combination", it.loc)
        faces.append(ctx.symbols.cards[text])
    return [tuple(faces)]


def _check_values(
    b: BlockSettings,
    deck: Deck,
    kind: str,
    shapes: list[tuple[int, int, tuple[int, ...]]],
    value: CompiledExpr,
    strength: CompiledExpr | None,
) -> None:
    """Work out `value` and `strength` for every combination of `shapes` (length, top,
    faces) a hand can hold, with every trump and as often as the copies allow: values
    within ±MAX_VALUE, strengths of those worth something from 1 to MAX_VALUE."""
    n = len(deck.ranks)
    for trump, (length, top, faces), times in itertools.product(
        range(-1, len(deck.suits)), shapes, range(1, deck.copies + 1)
    ):
        card = deck.cards_of_face[faces[0]][0] if deck.cards_of_face[faces[0]] else -1
        if card < 0:
            continue  # a face the deck leaves out begins no combination
        env = {
            CARD_KEY: card,
            "length": length,
            "times": times,
            "top": top,
            "card_in_trump_suit": kind != "same_rank" and faces[0] // n == trump,
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
