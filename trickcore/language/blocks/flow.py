"""`deal { flow: ... }`: the phases of a trick deal in order, checked against the blocks."""

from __future__ import annotations

from ..errors import RulesError
from ..model import TRICK_PHASES
from .context import CompileContext

# the phases a block asks for: phase -> (its block, what the flow's errors call it)
FLOW_BLOCKS = {
    "redeal": ("redeal", "a 'redeal' block"),
    "pass": ("pass_cards", "a 'pass_cards' block"),
    "auction": ("bidding", "a 'bidding' block"),
    "bids": ("bids", "a 'bids' block"),
    "pickup": ("pickup", "a 'pickup' block"),
    "draw_up": ("draw_up", "a 'draw_up' block"),
}


def _present(ctx: CompileContext) -> dict[str, bool]:
    """For each phase kind: whether the file gives it something to do."""
    has_talon = any(p.to == "talon" for p in ctx.deal_rules.pattern)
    present = {kind: key in ctx.root.entries for kind, (key, _) in FLOW_BLOCKS.items()}
    present.update(talon=has_talon, contract=ctx.block("contract").flag("raise", False))
    present["tricks"] = True
    return present


def present_flow(ctx: CompileContext) -> tuple[str, ...]:
    """The phases the file gives something to do, in their order (the default flow)."""
    present = _present(ctx)
    return tuple(k for k in TRICK_PHASES if present[k])


def compile_flow(ctx: CompileContext) -> tuple[str, ...]:
    """The deal's phases in order (`deal { flow: ... }`), checked against what each needs."""
    b = ctx.block("deal")
    items = b.items("flow")
    has_talon = any(p.to == "talon" for p in ctx.deal_rules.pattern)
    raises = ctx.block("contract").flag("raise", False)
    blocks = FLOW_BLOCKS
    present = _present(ctx)
    if items is None:  # the phases the file gives something to do
        return present_flow(ctx)
    kinds: list[str] = []
    for it in items:
        kind = it.parts[0]
        if it.words or kind not in TRICK_PHASES:
            raise RulesError(
                f"unknown phase '{kind}'; phases of a trick game: {', '.join(TRICK_PHASES)}",
                it.loc,
            )
        if kind in kinds:
            raise RulesError(f"phase '{kind}' is named twice in the flow", it.loc)
        kinds.append(kind)
    loc = b.raw("flow").loc
    if "tricks" not in kinds:
        raise RulesError("the flow of a trick game needs the phase 'tricks'", loc)
    # `draw_up` fills the hands from the stock: it may come anywhere before the tricks
    # (after a pickup, whose taker it evens out); `pass` anywhere after a redeal and before
    # the tricks (after the auction its players may be chosen by their role); the others run
    # in their one order
    fixed = [k for k in kinds if k not in ("draw_up", "pass")]
    order = [k for k in TRICK_PHASES if k in fixed]
    late = "draw_up" in kinds and (
        kinds.index("draw_up") > kinds.index("tricks")
        or ("pickup" in kinds and kinds.index("draw_up") < kinds.index("pickup"))
    )
    late = late or (
        "pass" in kinds
        and (
            kinds.index("pass") > kinds.index("tricks")
            or ("redeal" in kinds and kinds.index("pass") < kinds.index("redeal"))
        )
    )
    if fixed != order or late:
        shown = [k for k in TRICK_PHASES if k in kinds]
        raise RulesError(
            f"phases run in this order: {', '.join(shown)} (each needs what the ones "
            "before it decide: a declarer, his hand; 'draw_up' may come earlier, after a "
            "'pickup'; 'pass' anywhere after a 'redeal' and before the 'tricks')",
            loc,
        )
    for kind in ("talon", "contract"):
        if kind in kinds and "auction" not in kinds:
            raise RulesError(f"the phase '{kind}' needs the phase 'auction' (a declarer)", loc)
    agree = [
        *((kind, present[kind], what) for kind, (_, what) in blocks.items()),
        ("talon", has_talon and "auction" in kinds, "a talon in the deal pattern"),
    ]
    for kind, needed, what in agree:
        if needed and kind not in kinds:
            raise RulesError(f"the flow needs the phase '{kind}': there is {what}", loc)
        if kind in kinds and not needed:
            raise RulesError(f"the phase '{kind}' has nothing to do without {what}", loc)
    if has_talon and "auction" not in kinds:
        raise RulesError("a talon needs the phase 'auction': nobody would take it", loc)
    if "contract" not in kinds and raises:
        raise RulesError("the flow needs the phase 'contract': 'contract { raise: yes }'", loc)
    return tuple(kinds)
