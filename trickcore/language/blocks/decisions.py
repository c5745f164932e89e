"""`decision NAME { ... }` and `choice NAME { ... }`: what a player may decide, and when."""

from __future__ import annotations

from .. import syntax as s
from ..errors import Location, RulesError, UnknownSettingError
from ..exprs import AGGREGATE_FUNCS, BOOL, Scope, compile_expr, functions_used, names_used
from ..hints import did_you_mean
from ..loader import MergedBlock
from ..model import NO_TRUMP, OUT, Decision, Deck, StepRule
from ..settings import BlockSettings
from ..vocabulary import DECISION_NAMES, QUANTITIES, TURN_TRICK_NAMES
from .context import CompileContext
from .deal import layouts
from .read_ahead import declaring_choice
from .steps import keep_step
from .words import is_name

DECISION_SETTINGS = frozenset(
    {"at", "who", "first_asked", "offer_if", "after_announce", "effect", "public", "forced_if"}
    | {"again"}
)
# Action words of the engine: a decision (whose action is its name) may not take one.
RESERVED_ACTION_WORDS = frozenset(
    {
        "pass",
        "redeal",
        "keep",
        "give",
        "raise",
        "play",
        "marry",
        "announce",
        "bid",
        "look",
        "take",
        "done",
        "attack",
        "throw",
        "beat",
        "swap",
        "transfer",
    }
)


# what an effect needs in the deal pattern, and how to write it
EFFECT_NEEDS = {
    "stock": "'{effect}' needs a stock in the deal pattern: end it with 'rest stock'",
    "turnup": "'{effect}' needs a turnup in the deal pattern: write '1 turnup' in it",
    "out": "'{effect}' needs cards dealt out of play: write 'N out' or 'rest out' in the "
    "deal pattern (e.g. 'pattern: 5 each, rest out')",
}


def compile_decisions(ctx: CompileContext, deck: Deck) -> tuple[Decision, ...]:
    """The `decision NAME` blocks: who may take them when, and what they do."""
    scope = Scope(
        {**DECISION_NAMES, **ctx.kept},
        ctx.symbols,
        hand=True,
        taken=True,
        trump=True,
        aggregates=True,
        qualifier=True,
        where="in a decision",
        tricks=Scope(
            ctx.trick_names(TURN_TRICK_NAMES),
            ctx.symbols,
            where="in a trick of sum_tricks / count_tricks",
            trick=True,
        ),
    )
    assignable = {k: t for k, t, _ in ctx.deal_rules.keep}
    rank_index = {r.symbol: i for i, r in enumerate(deck.ranks)}
    out: list[Decision] = []
    seen_options: set[str] = set()
    for entry in ctx.root.entries.values():
        if not isinstance(entry, MergedBlock) or entry.kind not in ("decision", "choice"):
            continue
        name = entry.name or ""
        b = BlockSettings(entry, f"{entry.kind} '{name}'", ctx.top_loc)
        if name in RESERVED_ACTION_WORDS:
            raise RulesError(
                f"a decision cannot be called '{name}': it is an action word of the engine",
                entry.loc,
            )
        at = tuple(" ".join(it.parts) for it in b.items("at", required=True) or ())
        flow = ctx.flow_kinds
        for it, point in zip(b.items("at") or (), at, strict=True):
            parts = it.parts
            turn = point in ("lead", "play", "end", "card")
            between = len(parts) == 2 and parts[0] == "before" and parts[1] in flow
            if not (turn or between):
                raise RulesError(
                    "'at' is one of: lead, play (turns in trick play; both may be listed), "
                    "card (a round of offers to every player before each card), end, "
                    f"before PHASE (phases here: {', '.join(flow)})",
                    it.loc,
                )
        if "card" in at and len(at) > 1:
            raise RulesError(
                "'at: card' (offered to every player before each card) stands alone",
                b.raw("at").loc,
            )
        if len(at) > 1 and not set(at) <= {"lead", "play"}:
            raise RulesError(
                "a decision between phases ('end', 'before PHASE') has one 'at'",
                b.raw("at").loc,
            )
        who = b.word("who", ("each", "declarer", "defenders"), "each")
        if who != "each" and "auction" not in flow and not declaring_choice(ctx.root):
            raise RulesError(f"'who: {who}' needs an auction (a declarer)", b.raw("who").loc)
        first_asked = b.word("first_asked", ("forehand", "left_of_declarer"), "forehand")
        if first_asked != "forehand" and "auction" not in flow and not declaring_choice(ctx.root):
            raise RulesError(
                f"'first_asked: {first_asked}' needs an auction (a declarer)",
                b.raw("first_asked").loc,
            )
        for key in ("who", "first_asked"):
            if b.raw(key) is not None and set(at) <= {"lead", "play", "card"}:
                raise RulesError(
                    f"'{key}' is for decisions between phases: at its turn a player decides",
                    b.raw(key).loc,
                )
        if b.raw("again") is not None and set(at) <= {"lead", "play", "card"}:
            raise RulesError(
                "'again' is for decisions between phases ('at: before PHASE' or 'at: end'): "
                "at his turn a player may take a decision as often as it is offered",
                b.raw("again").loc,
            )
        if entry.kind == "choice":
            out.append(compile_choice(ctx, b, name, at, who, scope, seen_options))
            continue
        steps: list[StepRule] = []
        effect, swap_rank, skip, exchange, least = "", -1, "", 0, 0
        for key, item in entry.entries.items():
            if isinstance(item, s.Step):
                steps.append(keep_step(ctx, item, scope, assignable))
            elif key not in DECISION_SETTINGS:
                known = ", ".join(sorted(DECISION_SETTINGS))
                raise UnknownSettingError(
                    f"unknown setting '{key}' in {b.label}"
                    f"{did_you_mean(key, DECISION_SETTINGS)}; settings: {known}, and "
                    "'rule NAME: ...' lines",
                    item.loc,
                )
        effects = b.items("effect") or ()
        if len(effects) > 1:
            raise RulesError("a decision has one effect", effects[1].loc)
        for it in effects:
            parts = it.parts
            if parts in (("close_stock",), ("end_deal",), ("redeal",)):
                effect = parts[0]
            elif len(parts) == 2 and parts[0] == "swap_turnup" and parts[1] in rank_index:
                effect, swap_rank = "swap_turnup", rank_index[parts[1]]
            elif parts[0] == "exchange_out" and (counts := _exchange_counts(parts)) is not None:
                effect = "exchange_out"
                least, exchange = counts
                if not (1 <= exchange <= deck.size and least <= exchange):
                    raise RulesError(
                        f"'exchange_out' takes 1 to {deck.size} cards ('exchange_out N', or "
                        "'exchange_out A to B' with A no more than B)",
                        it.loc,
                    )
                if set(at) & {"lead", "play", "card"}:
                    raise RulesError(
                        "'exchange_out' is for decisions between phases "
                        "('at: before PHASE' or 'at: end')",
                        it.loc,
                    )
            elif len(parts) == 2 and parts[0] == "skip" and parts[1] in flow:
                effect, skip = "skip", parts[1]
                later = [p.split()[1] for p in at if p.startswith("before ")]
                if not later or flow.index(later[0]) > flow.index(skip):
                    raise RulesError(
                        f"'skip {skip}' needs a decision asked before that phase starts "
                        f"('at: before {skip}' or an earlier phase)",
                        it.loc,
                    )
            else:
                raise RulesError(
                    "'effect' is one of: close_stock, swap_turnup RANK, end_deal, redeal, "
                    f"skip PHASE (phases here: {', '.join(flow)}), exchange_out N, "
                    "exchange_out A to B",
                    it.loc,
                )
        needs = {"close_stock": "stock", "swap_turnup": "turnup", "exchange_out": "out"}.get(effect)
        if needs and not any(p.to == needs and not p.holder for p in ctx.deal_rules.pattern):
            raise RulesError(EFFECT_NEEDS[needs].format(effect=effect), b.raw("effect").loc)
        if b.raw("offer_if") is None:
            raise b.missing(
                "offer_if",
                f"{b.label} needs 'offer_if = CONDITION', when the decision is offered to a "
                "player: write 'offer_if = yes' to offer it every time (or a condition such "
                "as 'offer_if = taken_card(QS)')",
            )
        if effect == "exchange_out":
            words = " ".join(effects[0].parts)
            ctx.exchanges.append((least, words, b.raw("effect").loc))
        forced_if = None
        if b.raw("forced_if") is not None:  # between phases: no `keep`; at a turn: he takes
            forced_if = b.expr("forced_if", scope, BOOL)  # it before anything else
        out.append(
            Decision(
                name,
                at,
                b.expr("offer_if", scope, BOOL),
                b.flag("after_announce", False),
                tuple(steps),
                effect,
                swap_rank,
                who,
                skip,
                reads=_block_reads(entry),
                offer_reads=_offer_reads(ctx, b),
                rule_reads=_rule_reads(ctx, entry),
                aggregated=_block_aggregated(entry),
                public=b.flag("public", False),
                first_asked=first_asked,
                exchange=exchange,
                exchange_least=least,
                forced_if=forced_if,
                again=b.flag("again", False),
            )
        )
    return tuple(out)


def _exchange_counts(parts: tuple[str, ...]) -> tuple[int, int] | None:
    """(fewest, most) of `exchange_out N` (N, N) or `exchange_out A to B` (A, B); None when
    the words are neither."""
    if len(parts) == 2 and parts[1].isdigit():
        return int(parts[1]), int(parts[1])
    if len(parts) == 4 and parts[1].isdigit() and parts[2] == "to" and parts[3].isdigit():
        return int(parts[1]), int(parts[3])
    return None


def compile_choice(
    ctx: CompileContext,
    b: BlockSettings,
    name: str,
    at: tuple[str, ...],
    who: str,
    scope: Scope,
    seen: set[str],
) -> Decision:
    """A `choice NAME` block: one of its options must be chosen between phases; each
    option is a yes/no name of the deal, and may set the trump suit."""
    block = b.block
    assert block is not None
    if set(at) & {"lead", "play", "card"}:
        raise RulesError(
            "a choice is made between phases: 'at: before PHASE' or 'at: end'",
            b.raw("at").loc,
        )
    items = b.items("options", required=True) or ()
    options: list[str] = []
    for it in items:
        option = it.parts[0]
        if it.words or not is_name(option) or option in RESERVED_ACTION_WORDS:
            raise RulesError(f"an option is one word, not an action word: '{option}'", it.loc)
        if option in options:
            raise RulesError(f"option '{option}' is named twice", it.loc)
        if option in QUANTITIES or option in {k for k, _, _ in ctx.deal_rules.keep}:
            raise RulesError(f"option '{option}' is already a name here", it.loc)
        options.append(option)
    seen.update(options)
    trumps = dict.fromkeys(options, -1)
    for it in b.items("trump") or ():
        parts = it.parts
        suits = {**ctx.symbols.suits, "none": NO_TRUMP}
        if len(parts) != 2 or parts[0] not in trumps or parts[1] not in suits:
            raise RulesError(
                "'trump' pairs an option with a suit (or none): OPTION SUIT, ...", it.loc
            )
        trumps[parts[0]] = suits[parts[1]]
    known = {
        "at",
        "who",
        "first_asked",
        "offer_if",
        "own",
        "options",
        "trump",
        "declares",
        *(f"{o}_if" for o in options),
    }
    for key, entry in block.entries.items():
        if key not in known:
            raise UnknownSettingError(
                f"unknown setting '{key}' in {b.label}{did_you_mean(key, known)}; settings: "
                "at, who, first_asked, "
                "offer_if, own, options, trump, declares, and OPTION_if = ... for an "
                "option offered only sometimes",
                entry.loc,
            )
    yes = compile_expr(s.Name("yes", b.loc or ctx.top_loc), scope, BOOL)
    own = b.flag("own", False)
    if own and any(trumps[o] != -1 for o in options):
        raise RulesError(
            "the options of a choice with 'own: yes' are each player's own values and "
            "cannot set the deal's trump",
            b.raw("trump").loc,
        )
    conditions = tuple(
        b.expr(f"{o}_if", scope, BOOL) if b.raw(f"{o}_if") is not None else yes for o in options
    )
    first_asked = b.word("first_asked", ("forehand", "left_of_declarer"), "forehand")
    return Decision(
        name,
        at,
        b.expr("offer_if", scope, BOOL, yes) if b.raw("offer_if") is not None else yes,
        False,
        (),
        "",
        -1,
        who,
        "",
        tuple(options),
        conditions,
        tuple(trumps[o] for o in options),
        _block_reads(block),
        offer_reads=_offer_reads(ctx, b),
        aggregated=_block_aggregated(block),
        first_asked=first_asked,
        own=own,
        declares=b.flag("declares", False),
    )


def check_exchange(ctx: CompileContext, count: int, words: str, loc: Location | None) -> None:
    """`exchange_out N` swaps N cards of a hand for N of the cards left out (`exchange_out
    A to B`: at least A; beyond A never more than are left): with fewer left out (for some
    player count or deal size) his hand would shrink."""
    for seated, _, size, places in layouts(ctx.deal_rules, ctx.player_counts, ctx.deck_size):
        out = places.get(OUT, 0)
        if out < count:
            of_size = f" in a deal of size {size}" if ctx.deal_rules.size is not None else ""
            raise RulesError(
                f"'{words}' takes {count} of the cards left out of the deal, "
                f"but with {seated} players{of_size} the deal leaves out {out}: the "
                "exchanger's hand would shrink",
                loc,
            )


def _block_exprs(block: MergedBlock) -> list[s.Expr]:
    """The expressions of a block's settings and rules."""
    exprs: list[s.Expr] = []
    for entry in block.entries.values():
        if isinstance(entry, s.ExprSetting):
            exprs.append(entry.expr)
        elif isinstance(entry, s.Step):
            exprs.extend(e for e in (entry.condition, *(a.expr for a in entry.assigns)) if e)
    return exprs


def _block_reads(block: MergedBlock) -> frozenset[str]:
    """The names and functions the expressions of a block's settings and rules use."""
    return _used(_block_exprs(block))


def _offer_reads(ctx: CompileContext, b: BlockSettings) -> frozenset[str]:
    """The names and functions `offer_if` and `forced_if` use, the symbols they name (cards,
    ranks, suits, strains, qualifiers, yes and no) left out."""
    exprs = [
        raw.expr
        for key in ("offer_if", "forced_if")
        if isinstance(raw := b.raw(key), s.ExprSetting)
    ]
    return _used_without_symbols(ctx, exprs)


def _rule_reads(ctx: CompileContext, block: MergedBlock) -> frozenset[str]:
    """The names and functions a decision's rules use (conditions and values), the symbols
    they name left out."""
    exprs: list[s.Expr] = []
    for item in block.entries.values():
        if isinstance(item, s.Step):
            exprs += [e for e in (item.condition, *(a.expr for a in item.assigns)) if e is not None]
    return _used_without_symbols(ctx, exprs)


def _used_without_symbols(ctx: CompileContext, exprs: list[s.Expr]) -> frozenset[str]:
    sym = ctx.symbols
    symbols = {"yes", "no", *sym.ranks, *sym.suits, *sym.cards, *sym.strains, *sym.qualifiers}
    return _used(exprs) - symbols


def _used(exprs: list[s.Expr]) -> frozenset[str]:
    """The names and functions these expressions use."""
    out: set[str] = set()
    for e in exprs:
        out |= names_used(e) | functions_used(e)
    return frozenset(out)


def _block_aggregated(block: MergedBlock) -> frozenset[str]:
    """The names the aggregates of a block's expressions (`count_all(x)`, ...) read of
    every player."""
    return frozenset(
        call.args[0].name
        for e in _block_exprs(block)
        for call in s.calls_in(e)
        if call.func in AGGREGATE_FUNCS and call.args and isinstance(call.args[0], s.Name)
    )
