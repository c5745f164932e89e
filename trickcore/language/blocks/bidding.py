"""`bidding { ... }`: the auction, in turns of calls or in pairs."""

from __future__ import annotations

import itertools
import random

import attrs

from .. import syntax as s
from ..errors import RulesError
from ..exprs import BOOL, INT, CompiledExpr, Scope, compile_expr
from ..limits import MAX_BIDS
from ..model import Bidding, TrickRules, VariantModel
from ..settings import BlockSettings, int_item, word_int
from ..vocabulary import CALL_NAMES
from .context import CompileContext
from .words import is_word

BIDDING_SETTINGS = frozenset(
    {
        "opening",
        "forced_opening",
        "step",
        "pass",
        "ends",
        "cap",
        "qualifiers",
        "style",
        "values",
        "all_pass",
        "strains",
        "levels",
        "bid_if",
        "pass_if",
        "hold_if",
        "rounds",
        "double",
        "declarer",
        "first_caller",
        "join",
    }
)

MAX_QUALIFIERS = 16


def compile_qualifiers(b: BlockSettings) -> tuple[str, ...]:
    """Bid qualifiers ("ohne"): distinct words, at most MAX_QUALIFIERS."""
    items = b.items("qualifiers") or ()
    if len(items) > MAX_QUALIFIERS:
        raise RulesError(f"at most {MAX_QUALIFIERS} bid qualifiers", items[MAX_QUALIFIERS].loc)
    seen: set[str] = set()
    for it in items:
        word = it.parts[0]
        if word in seen:
            raise RulesError(f"bid qualifier '{word}' is listed twice", it.loc)
        if it.words or not is_word(word):
            raise RulesError(
                f"a bid qualifier is one word (letters, digits, _), not '{word}'", it.loc
            )
        seen.add(word)
    return tuple(it.parts[0] for it in items)


def compile_strains(
    b: BlockSettings, suits: dict[str, int], qualifiers: tuple[str, ...]
) -> tuple[tuple[str, int], ...]:
    """`strains: clubs, ..., notrump`: what a bid names, low to high; a suit name makes
    that suit trump, another word a strain without trump."""
    out: list[tuple[str, int]] = []
    items = b.items("strains") or ()
    if len(items) > MAX_QUALIFIERS:
        raise RulesError(f"at most {MAX_QUALIFIERS} strains", items[MAX_QUALIFIERS].loc)
    for it in items:
        word = it.parts[0]
        if it.words or not is_word(word):
            raise RulesError(
                f"a strain is one word (a suit's name or another), not '{word}'", it.loc
            )
        if any(word == w for w, _ in out):
            raise RulesError(f"strain '{word}' is listed twice", it.loc)
        if word in qualifiers:
            raise RulesError(f"'{word}' is both a strain and a qualifier", it.loc)
        out.append((word, suits.get(word, -1)))
    return tuple(out)


def compile_bidding(
    ctx: CompileContext,
    b: BlockSettings,
    hand_scope: Scope,
    qualifiers: tuple[str, ...],
    hands: int,
) -> Bidding:
    """The auction in turns of calls (or, with `style: pairs`, in pairs): the bids there
    are, when it ends, what a bid names and who may call what."""
    b.check_known(BIDDING_SETTINGS)
    all_pass = b.word("all_pass", ("redeal", "played", "play_on"), "redeal")
    values = bid_values(b)
    if b.word("style", ("calls", "pairs"), "calls") == "pairs":
        return compile_pair_bidding(ctx, b, hand_scope, values, all_pass)
    if b.raw("join") is not None:
        raise RulesError(
            "'join' is a round of the auction in pairs: it needs 'style: pairs'",
            b.raw("join").loc,
        )
    opening_expr: CompiledExpr | None = None
    parts: tuple[str, ...] = ("at_least", "")
    opening = 0
    if isinstance(b.raw("opening"), s.ExprSetting):
        opening_expr = b.expr("opening", hand_scope, INT)
    elif ctx.strain_list and b.raw("opening") is None:
        pass  # the levels are the values (or none); checked below
    else:
        items = b.items("opening", required=True) or ()
        parts = items[0].parts if items else ()
        if len(items) != 1 or len(parts) != 2 or parts[0] not in ("at_least", "exactly"):
            raise RulesError(
                "'opening' is written 'at_least N', 'exactly N' or 'opening = EXPR'",
                b.raw("opening").loc,
            )
        opening = word_int(parts[1], items[0].loc, "the opening bid")
    step = b.integer("step", None if not values and not ctx.strain_list else 1, minimum=1)
    if step is None:
        raise RulesError("bidding needs a 'step:' (the bid increment) or 'values:'", b.loc)
    if values and b.raw("step") is not None:
        raise RulesError("bids come from 'values:' here; a 'step' means nothing", b.raw("step").loc)
    ends_items = b.items("ends") or ()
    ends_after: int | None = None
    if ends_items:
        ep = ends_items[0].parts
        if ep == ("one_left",):
            ends_after = None
        elif len(ep) == 2 and ep[0] == "passes":
            ends_after = word_int(ep[1], ends_items[0].loc, "the number of passes")
        elif ep != ("first_bid",):
            raise RulesError("'ends' is 'one_left', 'passes N' or 'first_bid'", ends_items[0].loc)
    if ends_items and ends_items[0].parts == ("first_bid",):
        ends_after = 0  # the first bid ends the auction
    drops = b.word("pass", ("drops_out", "stays_in"), "drops_out") == "drops_out"
    if drops and ends_after is not None and ends_after >= hands:
        raise RulesError(
            f"this auction can never end: players who pass drop out, so {ends_after} passes "
            f"in a row cannot happen among {hands} players; say 'ends: one_left' or "
            "fewer passes",
            b.raw("ends").loc,
        )
    first_bid = ends_after == 0 and bool(ends_items) and ends_items[0].parts == ("first_bid",)
    if ends_after is not None and ends_after < 1 and not first_bid:
        raise RulesError("'ends: passes N' needs N of at least 1", b.raw("ends").loc)
    rounds = b.integer("rounds", None, minimum=1)
    if first_bid and not drops and rounds is None:
        raise RulesError(
            "with 'ends: first_bid' and 'pass: stays_in' say how many rounds of calls "
            "there are before everybody has passed: 'rounds: N'",
            b.raw("ends").loc,
        )
    if not drops and ends_after is None:
        raise RulesError(
            "when passing does not drop a player out ('pass: stays_in') the auction can "
            "never end by one player being left: say 'ends: passes N'",
            b.raw("pass").loc,
        )
    strains = ctx.strain_list
    levelless = b.word("levels", ("none",), "") == "none"
    if levelless and not strains:
        raise RulesError("'levels: none' needs 'strains:' (what a bid names)", b.raw("levels").loc)
    if levelless and values:
        raise RulesError("'levels: none' and 'values:' exclude each other", b.raw("levels").loc)
    cap = b.expr("cap", hand_scope, INT) if b.raw("cap") is not None or not strains else None
    if strains:
        for name in ("opening", "step", "forced_opening"):
            if b.raw(name) is not None:
                raise RulesError(
                    f"'{name}' means nothing with 'strains:' (the levels are 'values:' or "
                    "'levels: none')",
                    b.raw(name).loc,
                )
        if not values and not levelless:
            raise RulesError(
                "with 'strains:' give the levels: 'values: 1, 2, ...' or 'levels: none'",
                b.raw("strains").loc,
            )
        if levelless:
            values = (0,)
        opening, parts, step = values[0], ("at_least", ""), 1
        if cap is None:
            cap = compile_expr(s.Number(values[-1], b.loc or ctx.top_loc), hand_scope, INT)
    call_scope = Scope(
        {**CALL_NAMES, **ctx.kept},
        ctx.symbols,
        hand=True,
        qualifier=True,
        named=True,
        where="in bidding.bid_if",
    )
    bid_if = b.expr("bid_if", call_scope, BOOL, None) if b.raw("bid_if") else None
    pass_if = (
        b.expr("pass_if", attrs.evolve(call_scope, where="in bidding.pass_if"), BOOL, None)
        if b.raw("pass_if")
        else None
    )
    hold_if = (
        b.expr("hold_if", attrs.evolve(call_scope, where="in bidding.hold_if"), BOOL, None)
        if b.raw("hold_if")
        else None
    )
    assert cap is not None
    return Bidding(
        opening=opening,
        opening_exact=parts[0] == "exactly",
        forced_opening=False if strains else b.flag("forced_opening", True),
        step=step,
        pass_drops_out=drops,
        ends_after_passes=ends_after,
        cap=cap,
        qualifiers=qualifiers,
        opening_expr=opening_expr,
        values=values,
        all_pass=all_pass,
        strains=tuple(name for name, _ in strains),
        strain_suits=tuple(suit for _, suit in strains),
        levelless=levelless,
        bid_if=bid_if,
        pass_if=pass_if,
        hold_if=hold_if,
        rounds=rounds,
        double=b.flag("double", False),
        declarer_rule=b.word("declarer", ("last_bidder", "first_to_name"), "last_bidder"),
        first_caller=b.word("first_caller", ("forehand", "dealer"), "forehand"),
    )


def bid_values(b: BlockSettings) -> tuple[int, ...]:
    """`values: 18, 20, ...`: the bids there are, each once, lowest first."""
    items = b.items("values") or ()
    values = [int_item(it, "a bid value", 1) for it in items]
    for it, (low, high) in zip(items[1:], itertools.pairwise(values), strict=True):
        if high <= low:
            raise RulesError("bid values are listed lowest first, each once", it.loc)
    if len(values) > MAX_BIDS:
        raise RulesError(f"at most {MAX_BIDS} bid values", items[MAX_BIDS].loc)
    return tuple(values)


def compile_pair_bidding(
    ctx: CompileContext, b: BlockSettings, hand_scope: Scope, values: tuple[int, ...], all_pass: str
) -> Bidding:
    """`style: pairs`: the second player bids to the first, who holds or passes; each
    later player bids to the survivor in turn; bids come from `values`."""
    if not values:
        raise RulesError("'style: pairs' needs 'values: ...' (the bids there are)", b.loc)
    for name in ("opening", "forced_opening", "step", "pass", "ends", "qualifiers"):
        if b.raw(name) is not None:
            raise RulesError(
                f"'{name}' means nothing with 'style: pairs' (bids come from 'values')",
                b.raw(name).loc,
            )
    for name in ("bid_if", "pass_if", "hold_if", "rounds", "double", "declarer", "first_caller"):
        if b.raw(name) is not None:
            raise RulesError(
                f"'{name}' is a setting of the auction in turns; 'style: pairs' has its own "
                "order of calls (the listener holds or passes)",
                b.raw(name).loc,
            )
    no_cap = compile_expr(s.Number(values[-1], b.loc or ctx.top_loc), hand_scope, INT)
    return Bidding(
        opening=values[0],
        opening_exact=False,
        forced_opening=False,
        step=1,
        pass_drops_out=True,
        ends_after_passes=None,
        cap=b.expr("cap", hand_scope, INT, no_cap),
        qualifiers=(),
        style="pairs",
        values=values,
        all_pass=all_pass,
        join=b.flag("join", False),
    )


def check_bid_ranges(model: VariantModel, tricks: TrickRules, b: BlockSettings) -> None:
    """The forced opening is within the bid cap for some hand; no cap allows too many bids.

    Caps are evaluated on sampled hands (every meld-rich hand and random ones); during play a
    cap beyond the range raises RulesError (see `bid_values`), so the bound always holds.
    """
    from ..hands import HandQuantities, meld_rich_hands, start_context

    quantities = HandQuantities(model)
    players = model.deal.hands or model.players[0]
    context = start_context(model)
    rng = random.Random(0)
    hands = meld_rich_hands(model) + [
        rng.sample(range(model.deck.size), model.deal.per_hand) for _ in range(200)
    ]
    bidding = tricks.bidding
    assert bidding is not None
    envs = [quantities.env(hand, 0, players, context) for hand in hands]
    caps = [bidding.cap(env) for env in envs]
    openings = [bidding.opening_for(env) for env in envs]
    best = max(caps)
    if all(o > c for o, c in zip(openings, caps, strict=True)):
        raise RulesError(
            f"the opening bid {min(openings)} is above the bid cap for every hand "
            f"(the highest cap any hand reaches is {best})",
            (b.raw("opening") or b.raw("values") or b).loc,
        )
    low = min(openings)
    if (best - low) // bidding.step > MAX_BIDS:
        raise RulesError(
            f"the bid cap allows more than {MAX_BIDS} different bids (from {low} "
            f"to {best} in steps of {bidding.step}); raise the step or lower the cap",
            b.raw("cap").loc if b.raw("cap") else b.loc,
        )
    contract = tricks.contract
    if contract is not None and contract.raise_allowed:
        top = max(contract.cap(quantities.env(hand, best, players, context)) for hand in hands)
        if (top - low) // contract.step > MAX_BIDS:
            raise RulesError(
                f"the contract cap allows more than {MAX_BIDS} different raises (up to {top} in "
                f"steps of {contract.step}); raise the step or lower the cap",
                contract.cap_loc or b.loc,
            )
