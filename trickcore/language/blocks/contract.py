"""`contract { ... }`: raising the contract after the auction."""

from __future__ import annotations

from ..errors import RulesError
from ..exprs import BOOL, INT, CompiledExpr, Scope
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
