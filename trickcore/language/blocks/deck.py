"""`deck { ... }`: the suits, ranks, points and copies of the cards."""

from __future__ import annotations

import attrs

from .. import syntax as s
from ..errors import RulesError
from ..exprs import (
    INT,
    QUALIFIER_FUNCS,
    functions_used,
    names_used,
    relation_env,
)
from ..limits import MAX_VALUE
from ..model import Deck, Rank, Suit
from ..settings import BlockSettings, word_int
from ..vocabulary import CARD_POINT_NAMES
from .context import CompileContext
from .read_ahead import choice_options, relation_scope
from .words import is_word

DECK_SETTINGS = frozenset({"suits", "ranks", "points", "card_points", "copies", "without"})

MAX_DECK = 128  # cards in a deck, copies counted and the cards left out (`without`) not
MAX_FACES = 256  # suits x ranks, the cards left out counted
TRUMP_READS = frozenset({"card_in_trump_suit", "trump_set"})
MAX_SYMBOL = 8  # rank and suit symbols: card texts stay short (action texts fit in 200)


def compile_deck(ctx: CompileContext) -> Deck:
    """The deck: its suits and ranks (each symbol once), rank points, copies and the cards
    it is without."""
    b = ctx.block("deck")
    b.check_known(DECK_SETTINGS)
    suit_items = b.items("suits", required=True) or ()
    suits: list[Suit] = []
    for it in suit_items:
        parts = it.parts
        if len(parts) not in (2, 3):
            raise RulesError('a suit is written: name SYMBOL ["glyph"]', it.loc)
        glyph = parts[2] if len(parts) == 3 else parts[1]
        suits.append(Suit(parts[0], parts[1], glyph))
    rank_items = b.items("ranks", required=True) or ()
    ranks: list[Rank] = []
    for it in rank_items:
        parts = it.parts
        if len(parts) not in (1, 2):
            raise RulesError('a rank is written: SYMBOL ["name"]', it.loc)
        ranks.append(Rank(parts[0], parts[1] if len(parts) == 2 else parts[0]))
    for label, seq, items in (
        ("suit", [x.symbol for x in suits], suit_items),
        ("rank", [x.symbol for x in ranks], rank_items),
    ):
        seen: set[str] = set()
        for sym, it in zip(seq, items, strict=True):
            if sym in seen:
                raise RulesError(f"{label} symbol '{sym}' is declared twice", it.loc)
            seen.add(sym)
    for sym, it in [(x.symbol, i) for x, i in zip(suits, suit_items, strict=True)] + [
        (x.symbol, i) for x, i in zip(ranks, rank_items, strict=True)
    ]:
        if len(sym) > MAX_SYMBOL:
            raise RulesError(
                f"a card symbol has at most {MAX_SYMBOL} characters, not {len(sym)}", it.loc
            )
        if not is_word(sym):
            raise RulesError(
                f"a card symbol is letters and digits (no spaces or signs), not '{sym}'",
                it.loc,
            )
    copies = b.integer("copies", 1, minimum=1) or 1
    if len(suits) * len(ranks) > MAX_FACES:
        raise RulesError(
            f"a deck has at most {MAX_FACES} suits x ranks (before 'without'), "
            f"not {len(suits)} x {len(ranks)}",
            b.loc,
        )
    texts: dict[str, tuple[str, str]] = {}
    for su in suits:
        for r in ranks:
            text = r.symbol + su.symbol
            if text in texts:
                other = texts[text]
                raise RulesError(
                    f"two cards would be written '{text}': rank {other[0]} of suit "
                    f"{other[1]} and rank {r.symbol} of suit {su.symbol}; choose symbols "
                    "so that every card text is different",
                    rank_items[0].loc,
                )
            texts[text] = (r.symbol, su.symbol)
    rank_index = {r.symbol: i for i, r in enumerate(ranks)}
    if b.raw("points") is not None and b.raw("card_points") is not None:
        raise RulesError(
            "give card points either by rank ('points:') or by card ('card_points ='), not both",
            b.raw("points").loc,
        )
    points: dict[int, int] = {}
    for it in b.items("points") or ():
        parts = it.parts
        if len(parts) != 2:
            raise RulesError("card points are written: RANK POINTS, e.g. 'A 11'", it.loc)
        if parts[0] not in rank_index:
            raise RulesError(
                f"unknown rank '{parts[0]}' in points; ranks: {', '.join(rank_index)}", it.loc
            )
        points[rank_index[parts[0]]] = word_int(parts[1], it.loc, "card points")
    point_items = b.items("points")
    if point_items is not None:
        missing = [r.symbol for i, r in enumerate(ranks) if i not in points]
        if missing:
            raise RulesError(f"rank {', '.join(missing)} has no points", b.raw("points").loc)
    without = cards_without(b, suits, ranks)
    held = (len(suits) * len(ranks) - len(without)) * copies
    if held > MAX_DECK:
        left_out = " (after 'without')" if without else ""
        raise RulesError(f"a deck may hold at most {MAX_DECK} cards{left_out}, not {held}", b.loc)
    return Deck(
        tuple(suits),
        tuple(ranks),
        tuple(points.get(i, 0) for i in range(len(ranks))),
        copies=copies,
        without=without,
    )


def cards_without(b: BlockSettings, suits: list[Suit], ranks: list[Rank]) -> tuple[int, ...]:
    """`without: CARD, ...`: the faces the deck does not hold (each named once)."""
    faces = {
        r.symbol + su.symbol: si * len(ranks) + ri
        for si, su in enumerate(suits)
        for ri, r in enumerate(ranks)
    }
    out: list[int] = []
    for it in b.items("without") or ():
        text = it.parts[0] if len(it.parts) == 1 else ""
        if text not in faces:
            some = ", ".join(list(faces)[:3])
            raise RulesError(f"'without' names cards, written like {some}", it.loc)
        if faces[text] in out:
            raise RulesError(f"card {text} is named twice in 'without'", it.loc)
        out.append(faces[text])
    if out and len(out) == len(faces):
        raise RulesError("'without' leaves no card in the deck", b.raw("without").loc)
    return tuple(out)


def compile_card_points(ctx: CompileContext, deck: Deck) -> Deck:
    """`card_points = EXPR`: the points of each card. It reads the card, and may read the
    trump (`card_in_trump_suit`, `trump_set`), the contract's call (`bid_is`, `strain_is`)
    and the options of the `choice` blocks; then it is checked in every case a deal can be in
    (each trump, call and option) and kept as a rule, else worked out once per card."""
    b = ctx.block("deck")
    options = choice_options(ctx.root)
    scope = relation_scope(ctx, CARD_POINT_NAMES, "in deck.card_points")
    fn = b.expr("card_points", scope, INT)
    written = b.raw("card_points")
    expr = written.expr if isinstance(written, s.ExprSetting) else written.items[0].head
    read = names_used(expr)
    reads_trump = bool(read & TRUMP_READS)
    reads_call = bool(functions_used(expr) & QUALIFIER_FUNCS.keys())
    read_options = tuple(o for o in options if o in read)
    symbols = ctx.symbols
    calls: tuple[str, ...] = ("",)
    if reads_call:
        quals = ("", *symbols.qualifiers)
        strains = symbols.strains
        calls = (*quals, *(f"{st} {q}".strip() for st in strains for q in quals))
    n = len(deck.ranks)
    default: tuple[int, ...] = ()
    for trump in range(-1, len(deck.suits) if reads_trump else 0):
        for call in calls:
            for chosen in [(), *((o,) for o in read_options)]:
                points = []
                for c, face in enumerate(deck.faces):
                    value = fn(relation_env(c, face, n, trump, call, options, chosen))
                    if not -MAX_VALUE <= value <= MAX_VALUE:
                        raise RulesError(
                            f"card_points gives {deck.card_text(c)} a number outside "
                            f"±{MAX_VALUE:,}",
                            written.loc,
                        )
                    points.append(value)
                if not default:
                    default = tuple(points)
    varies = reads_trump or reads_call or bool(read_options)
    return attrs.evolve(
        deck,
        by_card=default,
        points_rule=fn if varies else None,
        points_options=tuple(options) if varies else (),
    )
