"""`contract { ... }`: raising the contract after the auction."""

from __future__ import annotations

from ..errors import RulesError
from ..exprs import BOOL, INT, CompiledExpr, Scope
from ..loader import MergedBlock
from ..model import Bidding, ContractRules
from ..vocabulary import RAISE_NAMES
from .context import CompileContext

CONTRACT_SETTINGS = frozenset({"raise", "step", "cap", "raise_if"})


def compile_contract(ctx: CompileContext, bidding: Bidding, hand_scope: Scope) -> ContractRules:
    """The contract block: whether and how far the declarer may raise the contract won."""
    b = ctx.block("contract")
    b.check_known(CONTRACT_SETTINGS)
    step = b.integer("step", bidding.step, minimum=1) or bidding.step
    raises = b.flag("raise", False)
    if raises and step != bidding.step and steps_follow_bids(ctx):
        step = bidding.step
    cap_entry = b.raw("cap")
    raise_if: CompiledExpr | None = None
    if b.raw("raise_if") is not None:
        if not bidding.strains:
            raise RulesError(
                "'raise_if' chooses among contracts that name a strain: it needs "
                "'strains:' in the bidding",
                b.raw("raise_if").loc,
            )
        raise_scope = Scope(
            {**RAISE_NAMES, **ctx.kept},
            ctx.symbols,
            hand=True,
            qualifier=True,
            named=True,
            where="in contract.raise_if",
        )
        raise_if = b.expr("raise_if", raise_scope, BOOL)
    return ContractRules(
        raises,
        step,
        b.expr("cap", hand_scope, INT, bidding.cap),
        cap_entry.loc if cap_entry is not None else None,
        raise_if=raise_if,
    )


def steps_follow_bids(ctx: CompileContext) -> bool:
    """Whether the raises take the bids' step although `contract { step: N }` is written:
    when a later file changed the bidding's `step` (a house rule `bidding { step: 10 }` on
    a parent whose bids and raises go in fives raises in tens too). A file that means other
    raises says so with its own `contract { step: N }`."""
    bidding, contract = ctx.root.entries.get("bidding"), ctx.root.entries.get("contract")
    if not isinstance(bidding, MergedBlock) or not isinstance(contract, MergedBlock):
        return False
    bid, raised = bidding.entries.get("step"), contract.entries.get("step")
    if bid is None or raised is None or bid.loc is None or raised.loc is None:
        return False
    order = {path: i for i, (path, _) in enumerate(ctx.rules.sources)}
    return order.get(bid.loc.file, -1) > order.get(raised.loc.file, -1)
