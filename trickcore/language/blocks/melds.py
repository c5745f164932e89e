"""`meld NAME { ... }`: the melds a hand may declare."""

from __future__ import annotations

from .. import syntax as s
from ..errors import RulesError
from ..exprs import BOOL, Scope, compile_expr
from ..loader import MergedBlock
from ..model import Deck, Meld
from ..settings import BlockSettings, int_item, word_int
from ..vocabulary import DECLARE_NAMES, MATCH_STATE_NAMES, RESULT_NAMES
from .context import CompileContext

MELD_SETTINGS = frozenset(
    {"cards", "suits", "value", "trump_value", "announce", "declare_if", "counts_if", "sets_trump"}
)


def compile_melds(ctx: CompileContext, deck: Deck) -> tuple[Meld, ...]:
    """The `meld NAME` blocks: the cards of each meld, its value in each suit, and when it
    may be declared and counts."""
    rank_index = {r.symbol: i for i, r in enumerate(deck.ranks)}
    suit_index = {su.name: i for i, su in enumerate(deck.suits)}
    suit_index.update({su.symbol: i for i, su in enumerate(deck.suits)})
    declare_scope = Scope(
        {**DECLARE_NAMES, **ctx.kept}, ctx.symbols, hand=True, where="in a meld's declare_if"
    )
    count_scope = Scope(
        {**RESULT_NAMES, **MATCH_STATE_NAMES, **ctx.kept},
        ctx.symbols,
        where="in a meld's counts_if",
    )
    melds = []
    for entry in ctx.root.entries.values():
        if not isinstance(entry, MergedBlock) or entry.kind != "meld":
            continue
        b = BlockSettings(entry, f"meld '{entry.name}'", ctx.top_loc)
        b.check_known(MELD_SETTINGS)
        card_items = b.items("cards", required=True) or ()
        suits_word = b.word("suits", ("each", "all"), "each")
        texts = ["".join(it.parts) for it in card_items]
        by_text = ctx.symbols.cards
        fixed: list[int] = []
        if suits_word == "all" or (
            all(t in by_text for t in texts)
            and not all(it.parts[0] in rank_index and not it.words for it in card_items)
        ):
            fixed = fixed_meld_cards(ctx, card_items, texts, suits_word == "all", deck)
            card_items = ()
        ranks = []
        for it in card_items:
            sym = it.parts[0]
            if sym not in rank_index or it.words:
                raise RulesError(f"unknown rank '{sym}'; ranks: {', '.join(rank_index)}", it.loc)
            if rank_index[sym] in ranks:
                raise RulesError(
                    f"rank '{sym}' is named twice in the meld; a meld's cards are different "
                    "ranks of one suit",
                    it.loc,
                )
            ranks.append(rank_index[sym])
        values = [0] * len(deck.suits)
        seen = set()
        value_items = b.items("value", required=True) or ()
        if len(value_items) == 1 and len(value_items[0].parts) == 1:  # `value: 20`
            one = int_item(value_items[0], "a meld value")
            values = [one] * len(deck.suits)
            seen = set(range(len(deck.suits)))
            value_items = ()
        for it in value_items:
            parts = it.parts
            if len(parts) != 2 or parts[0] not in suit_index:
                raise RulesError(
                    f"a meld value is written: SUIT POINTS; suits: {', '.join(suit_index)}",
                    it.loc,
                )
            values[suit_index[parts[0]]] = word_int(parts[1], it.loc, "a meld value")
            seen.add(suit_index[parts[0]])
        if len(seen) != len(deck.suits):
            missing = [su.name for i, su in enumerate(deck.suits) if i not in seen]
            raise RulesError(f"meld has no value for {', '.join(missing)}", b.raw("value").loc)
        true = compile_expr(s.Name("yes", entry.loc or ctx.top_loc), declare_scope, BOOL)
        if fixed:
            if len(set(values)) != 1:
                raise RulesError(
                    "a meld of cards from several suits has one value: 'value: N'",
                    b.raw("value").loc,
                )
            for setting in ("trump_value", "sets_trump"):
                if b.raw(setting) is not None and not (
                    setting == "sets_trump" and not b.flag(setting, False)
                ):
                    raise RulesError(
                        f"'{setting}' needs a meld of one suit (ranks of one suit, like 'cards: "
                        f"K, Q'); this meld's cards come from several suits: remove '{setting}'",
                        b.raw(setting).loc,
                    )
        melds.append(
            Meld(
                entry.name or "",
                tuple(ranks),
                tuple(values),
                b.expr("declare_if", declare_scope, BOOL, true),
                b.expr("counts_if", count_scope, BOOL, true),
                b.flag("sets_trump", not fixed),
                b.integer("trump_value", None),
                b.flag("announce", False),
                tuple(fixed),
            )
        )
    return tuple(melds)


def fixed_meld_cards(
    ctx: CompileContext, items: tuple[s.Item, ...], texts: list[str], all_suits: bool, deck: Deck
) -> list[int]:
    """The cards of a meld that is not ranks of one suit: the listed ranks in every suit
    (`suits: all`: four aces), or the listed cards (`cards: QS, JD`)."""
    rank_index = {r.symbol: i for i, r in enumerate(deck.ranks)}
    cards: list[int] = []
    for it, text in zip(items, texts, strict=True):
        if all_suits:
            if it.words or it.parts[0] not in rank_index:
                raise RulesError(
                    f"with 'suits: all' a meld lists ranks; '{text}' is not a rank", it.loc
                )
            new = [deck.card_of(si, rank_index[it.parts[0]]) for si in range(len(deck.suits))]
            if -1 in new:
                raise RulesError(
                    f"the meld needs every {text} but the deck leaves one out ('without')",
                    it.loc,
                )
        else:
            new = [deck.cards_of_face[ctx.symbols.cards[text]][0]]
        if any(c in cards for c in new):
            raise RulesError(f"'{text}' is named twice in the meld", it.loc)
        cards.extend(new)
    return cards
