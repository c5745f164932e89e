"""`deal { ... }`: the deal pattern, who sits out, the next dealer and the deal's kept values."""

from __future__ import annotations

from .. import syntax as s
from ..errors import RulesError
from ..exprs import BOOL, BOOL_WORDS, INT, CompiledExpr, Scope
from ..model import DealRules, Deck, Packet
from ..settings import BlockSettings, word_int
from ..vocabulary import QUANTITIES, SIZE_NAMES
from .context import CompileContext
from .deck import MAX_DECK
from .read_ahead import kept_types
from .words import is_name

DEAL_SETTINGS = frozenset(
    {"pattern", "hands", "sits_out", "next_dealer", "flow", "keep", "size", "stock_top"}
)


def compile_deal(
    ctx: CompileContext, players: tuple[int, ...], deck: Deck, is_bouts: bool
) -> DealRules:
    """The deal: its pattern of packets (checked against the deck for every player count),
    the hands dealt, who sits out, the next dealer and the values kept in a deal."""
    b = ctx.block("deal")
    b.check_known(DEAL_SETTINGS)
    packets: list[Packet] = []
    sized = False
    for it in b.items("pattern", required=True) or ():
        parts = it.parts
        if parts[0] == "rest" and len(parts) == 2 and parts[1] in ("stock", "out"):
            packets.append(Packet(-1, parts[1]))
            continue
        if len(parts) >= 3 and parts[-1] == "round":
            counts = tuple(word_int(w, it.loc, "a packet size") for w in parts[:-1])
            if any(c < 0 for c in counts) or sum(counts) == 0 or sum(counts) > MAX_DECK:
                raise RulesError("a round of packets deals 0 or more cards to each", it.loc)
            if is_bouts:
                raise RulesError("a game of bouts deals 'N each'", it.loc)
            packets.append(Packet(0, "round", counts=counts))
            continue
        count = word_int(parts[0], it.loc, "a packet size")
        if len(parts) < 2 or parts[1] not in ("each", "talon", "stock", "turnup"):
            raise RulesError(
                "a packet is written: N each | N talon | N stock | N turnup [K times] | "
                "N N ... round | rest stock | rest out",
                it.loc,
            )
        times = 1
        by_size = False
        holder = ""
        if parts[1] == "turnup" and len(parts) >= 3 and parts[2] == "to":
            if len(parts) != 4 or parts[3] != "dealer":
                raise RulesError(
                    "a turned-up card dealt into a hand is written '1 turnup to dealer'",
                    it.loc,
                )
            if is_bouts:
                raise RulesError(
                    "a game of bouts leaves its turned-up card under the stock", it.loc
                )
            holder = "dealer"
        elif len(parts) == 4 and parts[3] == "times" and parts[2] == "size":
            if b.raw("size") is None:
                raise RulesError("'size times' needs 'size = EXPR' in the deal block", it.loc)
            by_size = sized = True
        elif len(parts) == 4 and parts[3] == "times":
            times = word_int(parts[2], it.loc, "a repeat count")
        elif len(parts) != 2:
            raise RulesError("a packet is written: N each [K times]", it.loc)
        if count <= 0 or times <= 0:
            raise RulesError("packet sizes and repeat counts must be positive", it.loc)
        if count * times > MAX_DECK:
            raise RulesError(f"a deal pattern deals at most {MAX_DECK} cards", it.loc)
        if parts[1] == "talon" and is_bouts:
            raise RulesError("a game of bouts has a stock, not a talon", it.loc)
        if parts[1] == "turnup" and (
            count * times != 1 or by_size or any(p.to == "turnup" for p in packets)
        ):
            raise RulesError("one card is turned up for trump: '1 turnup'", it.loc)
        if by_size:
            packets.append(Packet(count, parts[1], sized=True))
        else:
            packets.extend([Packet(count, parts[1], holder=holder)] * times)
    if sum(1 for p in packets if p.count < 0) > 1:
        raise RulesError("'rest stock' or 'rest out' is written once", b.raw("pattern").loc)
    if any(p.count < 0 for p in packets[:-1]):
        raise RulesError("'rest ...' comes last in the deal pattern", b.raw("pattern").loc)
    size_expr: CompiledExpr | None = None
    if b.raw("size") is not None:
        if not sized:
            raise RulesError(
                "'size' is used in the pattern: write e.g. '1 each size times'",
                b.raw("size").loc,
            )
        if is_bouts:
            raise RulesError("a game of bouts deals a fixed pattern", b.raw("size").loc)
        scope = Scope(dict(SIZE_NAMES), ctx.symbols, where="in deal.size")
        size_expr = b.expr("size", scope, INT)
    hands = b.integer("hands", None, minimum=2)
    sits_out = b.word("sits_out", ("dealer", "none"), "none")
    held = any(p.holder for p in packets)
    if held and (hands is not None or sits_out != "none"):
        raise RulesError(
            "'1 turnup to dealer' deals a card into the dealer's hand: the dealer must "
            "play (no 'hands' or 'sits_out' in the deal block)",
            b.raw("pattern").loc,
        )
    ruled = isinstance(b.raw("next_dealer"), s.ExprSetting)  # compiled with the match
    next_dealer = "rule" if ruled else b.word("next_dealer", ("left", "same", "loser"), "left")
    if not is_bouts and next_dealer == "loser":
        raise RulesError(
            "'next_dealer: loser' needs a deal with a loser (a game of bouts); a trick game "
            "says left or same",
            b.raw("next_dealer").loc,
        )
    stock_top = b.word("stock_top", ("shown", "hidden"), "hidden")
    if stock_top == "shown":
        if is_bouts:
            raise RulesError(
                "a game of bouts shows the card under its stock, not the top one",
                b.raw("stock_top").loc,
            )
        if not any(p.to == "stock" for p in packets):
            raise RulesError(
                "'stock_top: shown' needs a stock: 'rest stock' or 'N stock' in the pattern",
                b.raw("stock_top").loc,
            )
    keep = deal_keep(ctx, b)
    if keep and is_bouts:
        raise RulesError("a game of bouts has no decisions to set 'keep'", b.raw("keep").loc)
    rules = DealRules(
        tuple(packets),
        hands,
        None if sits_out == "none" else sits_out,
        next_dealer,
        keep,
        size_expr,
        stock_top == "shown",
    )
    loc = b.raw("pattern").loc
    out = any(p.to == "out" for p in packets)
    for seated in players:
        for p in packets:
            if p.to == "round" and len(p.counts) != (hands or seated):
                raise RulesError(
                    f"a round of packets gives one packet to each of {hands or seated} "
                    f"players: {len(p.counts)} given",
                    loc,
                )
        if packets and (held or any(p.to == "round" for p in packets)):
            last = (hands or seated) - 1  # the dealer, dealt to last
            totals = {
                sum(
                    p.counts[i]
                    if p.to == "round"
                    else p.count
                    if p.to == "each"
                    else int(bool(p.holder) and i == last)
                    for p in packets
                )
                for i in range(hands or seated)
            }
            if len(totals) > 1:
                raise RulesError(
                    "the deal pattern gives the hands unequal sizes"
                    + (" (the card turned up to the dealer is one of his)" if held else ""),
                    loc,
                )
        in_deal = hands or seated
        if (
            out
            and size_expr is None
            and len(rules.places(list(range(in_deal)), deck.size)) > deck.size
        ):
            raise RulesError(
                f"the deal pattern deals {rules.per_hand} cards to each of {in_deal} hands"
                + (f" + {rules.talon_size} talon" if rules.talon_size else "")
                + f", more than the {deck.size} cards of the deck",
                loc,
            )
        if out or size_expr is not None:
            continue  # checked as each deal is dealt
        if in_deal > seated:
            raise RulesError(f"{in_deal} hands cannot be dealt with {seated} players", loc)
        if in_deal < seated and rules.sits_out is None:
            raise RulesError(
                f"with {seated} players and {in_deal} hands someone must sit out: "
                "add 'sits_out: dealer' to the deal block",
                loc,
            )
        # the packets of a fixed size besides the hands and the talon (`rest stock` is -1)
        stock = sum(p.count for p in rules.pattern if p.to == "stock" and p.count > 0)
        turnup = sum(p.count for p in rules.pattern if p.to == "turnup" and not p.holder)
        fixed = stock + turnup
        dealt = rules.per_hand * in_deal + rules.talon_size + fixed
        rest = any(p.count < 0 for p in rules.pattern)
        if rest and not is_bouts and dealt <= deck.size:
            continue
        if is_bouts:
            if rules.per_hand * in_deal > deck.size:
                raise RulesError(
                    f"the deal pattern gives {rules.per_hand} cards to each of {in_deal} "
                    f"players, {rules.per_hand * in_deal} in all, but the deck has {deck.size}",
                    loc,
                )
            continue
        if dealt != deck.size:
            raise RulesError(
                f"the deal pattern deals {dealt} cards ({rules.per_hand} to each of "
                f"{in_deal} hands + {rules.talon_size} talon"
                + (f" + {stock} stock" if stock else "")
                + (f" + {turnup} turned up" if turnup else "")
                + f") but the deck has {deck.size}",
                loc,
            )
    return rules


def deal_keep(ctx: CompileContext, b: BlockSettings) -> tuple[tuple[str, str, int | bool], ...]:
    """`deal { keep: NAME INITIAL, ... }`: per-player values during one deal."""
    keep: list[tuple[str, str, int | bool]] = []
    builtins = {*QUANTITIES, *BOOL_WORDS}
    match_kept = kept_types(ctx)
    for it in b.items("keep") or ():
        parts = it.parts
        if len(parts) != 2:
            raise RulesError("a deal's kept value is written: NAME INITIAL", it.loc)
        name = parts[0]
        if name in builtins or not is_name(name) or name in match_kept:
            raise RulesError(
                f"'{name}' cannot be kept in a deal: it is a built-in quantity or kept by "
                "the match; choose another name",
                it.loc,
            )
        if any(name == k for k, _, _ in keep):
            raise RulesError(f"'{name}' is kept twice", it.loc)
        if parts[1] in BOOL_WORDS:
            keep.append((name, BOOL, BOOL_WORDS[parts[1]]))
        else:
            keep.append((name, INT, word_int(parts[1], it.loc, "an initial value")))
    return tuple(keep)


def layouts(
    rules: DealRules, players: tuple[int, ...], deck_size: int
) -> list[tuple[int, int, int, dict[int, int]]]:
    """Every way the deal pattern lays out the deck: (players seated, players in the deal,
    deal size, cards going to each place: a seat, TALON, STOCK, TURNUP or OUT), for each
    player count and, with `size` in the pattern, each size whose deal fits the deck."""
    out = []
    for seated in players:
        in_deal = rules.hands or seated
        if in_deal > seated:
            continue  # refused by `deal` (and not a deal there is)
        for size in range(1, deck_size + 1) if rules.size is not None else (1,):
            places = rules.places(list(range(in_deal)), deck_size, size)
            if len(places) > deck_size:
                continue  # no such deal (refused as it is dealt)
            counts: dict[int, int] = {}
            for place in places:
                counts[place] = counts.get(place, 0) + 1
            out.append((seated, in_deal, size, counts))
    return out
